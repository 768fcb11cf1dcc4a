"""Forget Venice in a real browser: the score sheets, deals tapped card by card, the final sheet."""

import json
import re

from games.models import Play
from tests.examples import EXAMPLES

from .conftest import assert_no_horizontal_scroll, in_view, log_in, start_play

GAME = json.loads((EXAMPLES / "forget-venice-1.json").read_text())
SEATS = ["Ana", "Ben", "Chloé"]


def tap(page, selector: str) -> None:
    """One tap of the move form: wait for the referee's answer to be swapped in."""
    phone = page.viewport_size["width"] < 600
    target = in_view(page, selector) if phone else page.locator(selector)
    with page.expect_response(re.compile(r".*/plays/\d+/(move|undo)/$")):
        target.click()
    page.wait_for_selector(".htmx-request, .htmx-swapping, .htmx-settling", state="detached")


def enter_deal(page, deal: dict) -> None:
    """Lay the dealer's cards out pile by pile, then tap the choosers' piles."""
    if page.locator("button[name=dealer]").count():
        tap(page, f'button[name=dealer][value="{deal["dealer"]}"]')  # when several may deal
    before = getattr(page, "taps", 0)
    for index, pile in enumerate(deal["piles"]):
        if page.locator(f"#fv-pile-{index + 1}[aria-pressed=true]").count() == 0:
            tap(page, f"#fv-pile-{index + 1}")
        for card in pile:
            tap(page, f'#fv-deck button[name=card][value="{card}"]')
    tap(page, f"#fv-first-{deal['first'] + 1}")
    tap(page, f"#fv-second-{deal['second'] + 1}")
    if page.viewport_size["width"] < 600:
        # piles 2 and 3, the 7 cards, the two choosers: 11 (the dealer, when several may deal,
        # is one more tap)
        assert page.taps - before <= 11, page.taps - before


def start_with_default_sheets(page, table) -> None:
    log_in(page)
    start_play(page, table["night"], "forget-venice", SEATS)
    assert page.locator("#id-sheet-1-1-II-0").input_value() == "Moons"  # Player 2: Moons v Wyrms
    assert page.locator("#id-sheet-1-1-II-1").input_value() == "Wyrms"
    assert_no_horizontal_scroll(page)
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))


def test_a_whole_game_tapped_in_on_a_phone(page, table):
    start_with_default_sheets(page, table)
    play = Play.objects.get()
    assert play.setup in ({}, None)
    assert "Dealer: Ana · First Chooser: Ben · Second Chooser: Chloé" in page.inner_text(
        "#fv-where"
    )
    assert_no_horizontal_scroll(page)

    for number, deal in enumerate(GAME["moves"], start=1):
        enter_deal(page, deal)
        assert page.locator("#move-error").count() == 0, page.inner_text("#move-error")
        assert page.locator("#move-log li:not(.undone)").count() == number
        if number == 1:
            # Ben took pile 2 (The Author, The Desert): Moons, Knots, Suns and Wyrms once each.
            ben = page.locator('.fv-player[data-player="Ben"]')
            assert ben.locator('.fv-suit-row[data-suit="Knots"] .fv-count').inner_text() == "1"
            assert_no_horizontal_scroll(page)

    assert page.inner_text("#play-status").lower() == "finished"
    scores = {
        row.get_attribute("data-player"): row.locator(".score").inner_text()
        for row in page.locator("#scores tbody tr").all()
    }
    assert scores == {"Ana": "16", "Ben": "16", "Chloé": "16"}
    assert page.inner_text("#result") == "Winners: Ana"
    assert "most second-half points" in page.inner_text("#fv-tie-break")
    assert page.locator("#fv-totals .fv-grand-total td").all_inner_texts() == ["16", "16", "16"]
    assert page.locator("#move-form").count() == 0
    assert_no_horizontal_scroll(page)

    page.click("text=Score sheet")
    page.wait_for_url(re.compile(r".*/sheet/$"))
    half_two = page.locator('.fv-half-sheet[data-half="2"] .fv-half-total td')
    assert half_two.all_inner_texts() == ["13", "8", "2"]
    assert page.js_errors == []


def test_an_illegal_deal_is_refused_and_undo_steps_back(page, table):
    start_with_default_sheets(page, table)
    first = GAME["moves"][0]
    enter_deal(page, first)
    assert page.locator("#move-log li:not(.undone)").count() == 1

    # A deal typed as JSON with a card already dealt this half: the referee refuses it.
    page.click("#move-json-box summary")
    wrong = {**GAME["moves"][1], "piles": [["The Author"], *GAME["moves"][1]["piles"][1:]]}
    page.fill("#move-json", json.dumps(wrong))
    with page.expect_response(re.compile(r".*/plays/\d+/move/$")):
        page.click("#enter-json")  # the Advanced box is below the taps
    page.wait_for_selector("#move-error")
    assert "already dealt in deal 1" in page.inner_text("#move-error")
    page.evaluate("window.scrollTo(0, 0)")
    assert page.locator("#move-log li:not(.undone)").count() == 1
    assert "Dealer: Ben" in page.inner_text("#fv-where")

    # A card half laid out, then Start over, then Undo: back to deal 1 with Ana dealing.
    tap(page, '#fv-deck button[name=card][value="Ace of Suns"]')
    assert page.locator("#fv-pile-1 ~ button[name=take_back]").count() == 1
    tap(page, "#fv-reset")
    assert page.locator("button[name=take_back]").count() == 0
    tap(page, "#undo")
    assert page.locator("#move-log li.undone").count() == 1
    assert "Dealer: Ana" in page.inner_text("#fv-where")
    assert page.locator('#fv-deck button[name=card][value="The Author"]').count() == 1
    assert page.js_errors == []


def test_edited_sheets_on_a_desktop_in_french(desktop_page, table):
    page = desktop_page
    log_in(page)
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("text=Vos clubs")
    start_play(page, table["night"], "forget-venice", SEATS)
    # Ana swaps her first-half criteria I and II suits: Suns twice is refused by the referee.
    page.select_option("#id-sheet-0-1-I-0", "Suns")
    page.click("#start-play")
    # the referee's verdict, in French: the suit as the French sheet names it
    assert "utilise deux fois les Soleils" in page.inner_text("#setup-error")
    assert Play.objects.count() == 0
    page.select_option("#id-sheet-0-1-II-0", "Moons")
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    sheets = Play.objects.get().setup["sheets"]
    assert sheets["Ana"]["1"] == {
        "I": ["Suns", "Knots"],
        "II": ["Moons", "Wyrms"],
        "III": ["Waves", "Leaves"],
    }
    assert "Donne 1 sur 12" in page.inner_text("#fv-where")
    enter_deal(page, GAME["moves"][0])
    assert page.locator("#move-log li:not(.undone)").count() == 1
    ana = page.locator('.fv-player[data-player="Ana"]')
    assert "Lunes" in ana.inner_text() and "Premier à choisir" in page.inner_text("#fv-board")
    assert page.js_errors == []
