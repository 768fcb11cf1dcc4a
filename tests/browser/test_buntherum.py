"""Buntherum in a real browser: the six starting series, then the example game tapped card by
card (the card, then who called and the series, "Impossible!" or a tie) to the score sheet."""

import json
import re

from tests.examples import EXAMPLES

from .conftest import assert_no_horizontal_scroll, in_view, log_in, start_play

EXAMPLE = json.loads((EXAMPLES / "buntherum-1.json").read_text())
SEATS = ["Ana", "Ben", "Chloé", "Dev", "Eli"]


def fill_setup(page, series):
    for side, cards in series.items():
        for slot, card in enumerate(cards):
            colour, obj = card.split("-")
            page.select_option(f"select[name=s{side}_{slot}_colour]", colour)
            page.select_option(f"select[name=s{side}_{slot}_object]", obj)


def start_the_example(page, table):
    log_in(page)
    start_play(page, table["night"], "buntherum", SEATS)
    # the form is prefilled with the example's series; enter them anyway, as a table would
    fill_setup(page, EXAMPLE["setup"]["series"])
    page.click("#start-play")
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
    assert page.locator("#play-status").inner_text().lower() == "finished"
    assert page.locator("#result").inner_text() == "Winners: Ana"
    assert "Ana has turned their last card and wins!" in page.locator("#bh-outcome").inner_text()
    assert page.locator("#move-form").count() == 0
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
    # an incomplete tie is refused by the form
    page.click("button[name=card][value=blue-ball]")
    page.check("input[name=tied][value=Ana]")
    page.click("#record-tie")
    page.wait_for_selector("#move-error")
    assert "at least two players" in page.locator("#move-error").inner_text()
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
    page.click("#call-3")  # nobody chosen: the browser asks for the caller, nothing is sent
    assert page.locator("#bh-call").count() == 1 and seq(page) == "0"
    page.check("input[name=caller][value=Ana]")
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


def test_in_french(page, table):
    log_in(page)
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("html[lang=fr]")
    start_play(page, table["night"], "buntherum", SEATS[:3])
    assert "Série 1" in page.locator("#setup-series-1 legend").inner_text()
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    page.click("button[name=card][value=green-die]")
    page.wait_for_selector("#bh-call")
    assert "Impossible" in page.locator("#call-impossible").inner_text()
    page.check("input[name=caller][value=Ben]")
    page.click("#call-1")
    page.wait_for_selector("#bh-outcome")
    assert "jeton Crash" in page.locator("#bh-outcome").inner_text()
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []
