"""Buntherum in a real browser: the six starting series tapped card by card on the colour ×
object grid, then the example game tapped card by card (the card, then who called and the
series, "Impossible!" or a tie) to the score sheet — on a phone in English and in French, and on
a desktop. On a phone every tap is on an element already on the screen (``in_view``)."""

import json
import re

from playwright.sync_api import expect

from tests.examples import EXAMPLES

from .conftest import RESULTS, assert_no_horizontal_scroll, in_view, log_in, start_play

EXAMPLE = json.loads((EXAMPLES / "buntherum-1.json").read_text())
SEATS = ["Ana", "Ben", "Chloé", "Dev", "Eli"]
#: one tap per card, then "Start the play" (was 24 dropdowns: 49 taps at best)
SETUP_TAPS = 13


def tap_setup(page, series) -> int:
    """The twelve cards tapped on the grid, series 1 first, then "Start the play"."""
    before = getattr(page, "taps", 0)
    for side, cards in series.items():
        for slot, card in enumerate(cards, start=1):
            expect(page.locator(f"#slot-{side}-{slot}")).to_have_class(re.compile("tap-current"))
            in_view(page, f"#bh-setup-taps [data-cell={card}]").click()
    in_view(page, "#start-play").click()
    return page.taps - before


def start_the_example(page, table, seats=SEATS):
    log_in(page)
    start_play(page, table["night"], "buntherum", seats)
    assert tap_setup(page, EXAMPLE["setup"]["series"]) == SETUP_TAPS
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))


def seq(page) -> str:
    return page.locator("input[name=version]").first.get_attribute("value")


def tap_move(page, move):
    """Two taps: the card; then the caller and the series (or the tied players and the tie)."""
    before = seq(page)
    taps = getattr(page, "taps", 0)
    in_view(page, f"button[name=card][value={move['card']}]").click()
    page.wait_for_selector("#bh-call")
    if "tie" in move:
        for name in move["tie"]:
            in_view(page, f"input[name=tied][value='{name}']").check()
        in_view(page, "#record-tie").click()
        assert page.taps - taps == 2 + len(move["tie"])
    else:
        call = move["call"]
        in_view(page, f"input[name=caller][value='{call['player']}']").check()
        in_view(page, f"#call-{call['series']}").click()
        assert page.taps - taps == 3  # the card, the caller, the series
    page.wait_for_function(
        "(before) => { const f = document.querySelector('input[name=version]');"
        " return !f || f.value !== before; }",
        arg=before,
    )


def test_the_example_game_tapped_on_a_phone_to_the_score_sheet(page, table):
    start_the_example(page, table)
    assert_no_horizontal_scroll(page)
    for index, move in enumerate(EXAMPLE["moves"]):
        tap_move(page, move)
        if index == 0:
            assert "Right! Ana called series 3" in page.locator("#bh-outcome").inner_text()
            assert page.locator("#series-3 [data-card=green-die]").count() == 1
            assert_no_horizontal_scroll(page)
        if index == 1:
            assert "Crash!" in page.locator("#bh-outcome").inner_text()
            assert page.locator("tr[data-player=Ben] .bh-token-on").count() == 1
        if index == 6:
            page.screenshot(path=str(RESULTS / "buntherum-phone-mid-game.png"))
    assert page.locator("#play-status").inner_text().lower() == "finished"
    assert page.locator("#result").inner_text() == "Winners: Ana"
    assert "Ana has turned their last card and wins!" in page.locator("#bh-outcome").inner_text()
    assert page.locator("#move-form").count() == 0
    expect(page.locator("#result")).to_be_in_viewport(ratio=1)  # not a tap: not counted
    page.screenshot(path=str(RESULTS / "buntherum-phone-finished.png"))
    scores = {
        name: page.locator(f"#scores tr[data-player='{name}'] .score").inner_text()
        for name in SEATS
    }
    assert scores == {"Ana": "6", "Ben": "0", "Chloé": "0", "Dev": "1", "Eli": "1"}
    assert "eliminated" in page.locator("#bh-players tr[data-player=Ben]").inner_text()
    assert_no_horizontal_scroll(page)
    page.click("text=Score sheet")
    page.wait_for_url(re.compile(r".*/sheet/$"))
    ben = page.locator("#bh-sheet tr[data-player=Ben]").inner_text()
    assert "Eliminated" in ben and "3" in ben
    assert "Winner: Ana" in page.locator(".bh-sheet-note").inner_text()
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []


def test_an_illegal_move_changes_nothing_and_undo_steps_back(page, table):
    start_the_example(page, table)
    tap_move(page, EXAMPLE["moves"][0])
    # a card already in a series, typed as JSON: the referee refuses it
    page.click("summary:has-text('Advanced')")
    page.fill(
        "#move-json", json.dumps({"card": "green-die", "call": {"player": "Ben", "series": 1}})
    )
    page.click("#enter-json")
    page.wait_for_selector("#move-error")
    assert "already in series 3" in page.locator("#move-error").inner_text()
    assert seq(page) == "1"
    # a tie of one is not offered: "Record the tie" waits for a second player
    page.click("button[name=card][value=blue-ball]")
    page.check("input[name=tied][value=Ana]")
    expect(page.locator("#record-tie")).to_be_disabled()
    page.check("input[name=tied][value=Ben]")
    expect(page.locator("#record-tie")).to_be_enabled()
    page.uncheck("input[name=tied][value=Ben]")
    expect(page.locator("#record-tie")).to_be_disabled()
    page.click("#change-card")
    assert seq(page) == "1"
    # undo the first move: green-die can be turned again
    assert page.locator("button[name=card][value=green-die]").count() == 0
    page.click("#undo")
    page.wait_for_selector("text=Move undone: Card 1.")
    assert page.locator("button[name=card][value=green-die]").count() == 1
    assert page.locator("#series-3 .bh-card").count() == 2
    assert page.locator("#move-log li.undone").count() == 1
    assert page.js_errors == []


def test_a_call_needs_the_caller_first(page, table):
    start_the_example(page, table)
    page.click("button[name=card][value=green-die]")
    page.wait_for_selector("#bh-call")
    # nobody chosen: no call is offered yet, nothing is sent
    expect(page.locator("#call-3")).to_be_disabled()
    expect(page.locator("#call-impossible")).to_be_disabled()
    assert seq(page) == "0"
    page.check("input[name=caller][value=Ana]")
    expect(page.locator("#call-3")).to_be_enabled()
    page.click("#call-3")
    page.wait_for_selector("#bh-outcome")
    assert seq(page) == "1"


def test_on_a_desktop_the_series_surround_the_hexagon(desktop_page, table):
    page = desktop_page
    start_the_example(page, table)
    hexagon = page.locator("#bh-face-up").bounding_box()
    top = page.locator("#series-1").bounding_box()
    bottom = page.locator("#series-4").bounding_box()
    assert top["y"] < hexagon["y"] < bottom["y"]
    for move in EXAMPLE["moves"][:3]:
        tap_move(page, move)
    assert "Tie between Chloé, Dev" in page.locator("#bh-outcome").inner_text()
    page.click("button[name=card][value=purple-car]")
    page.wait_for_selector("#bh-call")
    assert page.locator("input[name=caller]").count() == 2
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []


def test_the_example_game_tapped_on_a_phone_in_french(page, table):
    log_in(page)
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("html[lang=fr]")
    start_play(page, table["night"], "buntherum", SEATS)
    expect(page.locator("#bh-setup-status")).to_have_text("Touchez la carte : série 1, carte 1.")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=str(RESULTS / "buntherum-phone-fr-setup.png"))
    assert tap_setup(page, EXAMPLE["setup"]["series"]) == SETUP_TAPS
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    for index, move in enumerate(EXAMPLE["moves"]):
        tap_move(page, move)
        if index == 1:
            expect(page.locator("#bh-outcome")).to_contain_text("jeton Crash")
        if index == 6:
            page.screenshot(path=str(RESULTS / "buntherum-phone-fr-mid-game.png"))
    expect(page.locator("#result")).to_have_text("Vainqueurs : Ana")
    expect(page.locator("#result")).to_be_in_viewport(ratio=1)  # not a tap: not counted
    expect(page.locator("#scores tr[data-player=Ana] .score")).to_have_text("6")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=str(RESULTS / "buntherum-phone-fr-finished.png"))
    assert page.js_errors == []


def test_a_tie_with_one_player_ticked_waits_for_a_second_tick(page, table):
    """Built on the phone: "Record the tie" is offered only once two players are ticked, so a
    tie of one cannot be sent; the card and the tick stay, and one more tick records it."""
    start_the_example(page, table)
    tap_move(page, EXAMPLE["moves"][0])
    before = page.taps
    in_view(page, "button[name=card][value=blue-ball]").click()
    in_view(page, "input[name=tied][value=Chloé]").check()
    expect(page.locator("#record-tie")).to_be_disabled()
    expect(page.locator("#bh-call .bh-turned")).to_contain_text("blue ball")
    in_view(page, "input[name=tied][value=Dev]").check()
    in_view(page, "#record-tie").click()
    expect(page.locator("#bh-outcome")).to_contain_text("Tie between Chloé, Dev")
    assert seq(page) == "2"
    assert page.taps - before == 4  # the card, two ticks, "tie"
    assert page.js_errors == []


def test_a_refused_setup_is_said_on_the_screen_and_keeps_the_cards(page, table):
    log_in(page)
    start_play(page, table["night"], "buntherum", SEATS)
    series = {**EXAMPLE["setup"]["series"], "2": ["orange-ball", "orange-cup"]}
    tap_setup(page, series)
    expect(page.locator("#setup-error")).to_contain_text("two orange cards")
    expect(page.locator("#setup-error")).to_be_in_viewport(ratio=1)  # not a tap: not counted
    # every card is kept: the wrong one is changed with two taps, its place then the card
    expect(page.locator("#slot-1-1")).to_have_class(re.compile("bh-red"))
    before = page.taps
    in_view(page, "#slot-2-2").click()
    in_view(page, "#bh-setup-taps [data-cell=green-cup]").click()
    in_view(page, "#start-play").click()
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    assert page.taps - before == 3
    expect(page.locator("#series-2 [data-card=green-cup]")).to_have_count(1)
    assert page.js_errors == []


def test_a_card_tapped_twice_is_taken_back(page, table):
    log_in(page)
    start_play(page, table["night"], "buntherum", SEATS[:3])
    in_view(page, "#bh-setup-taps [data-cell=red-die]").click()
    in_view(page, "#bh-setup-taps [data-cell=blue-car]").click()
    expect(page.locator("#s1_1_colour")).to_have_value("blue")  # the form's own fields
    expect(page.locator("#s1_1_object")).to_have_value("car")
    in_view(page, "#bh-setup-taps [data-cell=red-die]").click()  # a slip: taken back
    expect(page.locator("#s1_0_colour")).to_have_value("")
    expect(page.locator("#slot-1-1")).to_have_class(re.compile("tap-current"))
    expect(page.locator("#bh-setup-status")).to_contain_text("series 1, card 1")
    assert page.js_errors == []


def test_without_javascript_the_lists_still_set_up_the_play(no_js_page, table):
    page = no_js_page
    log_in(page)
    start_play(page, table["night"], "buntherum", SEATS)
    expect(page.locator("#bh-setup-taps")).to_be_hidden()
    for side, cards in EXAMPLE["setup"]["series"].items():
        for slot, card in enumerate(cards):
            colour, obj = card.split("-")
            page.select_option(f"select[name=s{side}_{slot}_colour]", colour)
            page.select_option(f"select[name=s{side}_{slot}_object]", obj)
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    expect(page.locator("#series-3 .bh-card")).to_have_count(2)
