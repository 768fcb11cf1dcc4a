"""Forget Venice in a real browser: the score sheets, deals tapped card by card, the final sheet;
a whole game on a phone in English and in French, every tap on the screen without scrolling.

Taps before (main, November 2026, on a 390×844 phone): the default sheets 1 tap, but "Start the
play" lay below 36 lists (the page 1,789 px tall: a scroll first); a custom sheet was edited in
those lists (two taps per suit changed); a deal 11 taps."""

import json
import re

import pytest
from playwright.sync_api import expect

from games.models import Play
from tests.examples import EXAMPLES

from .conftest import RESULTS, assert_no_horizontal_scroll, in_view, log_in, start_play

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


def start_with_default_sheets(page, table, language="en") -> None:
    log_in(page)
    if language == "fr":
        french(page)
    start_play(page, table["night"], "forget-venice", SEATS)
    # Player 2's first half: Moons against Wyrms in criterion II (the grids folded away)
    assert page.locator("#id-sheet-1-1-Moons-II").is_checked()
    assert page.locator("#id-sheet-1-1-Wyrms-II").is_checked()
    assert_no_horizontal_scroll(page)
    page.taps = 0
    in_view(page, "#start-play").click()  # the default sheets: one tap
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    assert page.taps <= 2


def french(page) -> None:
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("text=Vos clubs")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_whole_game_tapped_in_on_a_phone(page, table, language):
    start_with_default_sheets(page, table, language)
    play = Play.objects.get()
    assert play.setup in ({}, None)
    where = {
        "en": "Dealer: Ana · First Chooser: Ben · Second Chooser: Chloé",
        "fr": "Donneur : Ana · premier à choisir : Ben · second à choisir : Chloé",
    }[language]
    assert where in page.inner_text("#fv-where").replace("\u202f", " ")
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
        if number == 7:
            RESULTS.mkdir(exist_ok=True)
            page.screenshot(path=str(RESULTS / f"forget-venice-phone-{language}-mid-game.png"))

    page.screenshot(path=str(RESULTS / f"forget-venice-phone-{language}-finished.png"))
    if language == "fr":
        assert page.locator("#fv-totals .fv-grand-total td").all_inner_texts() == ["16"] * 3
        assert page.js_errors == []
        return
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


def laid(page) -> list[list[str]]:
    """The cards laid out so far, pile by pile."""
    return [
        page.locator(f'.fv-pile[data-pile="{n}"] button[name=take_back]').evaluate_all(
            "buttons => buttons.map(b => b.value)"
        )
        for n in (1, 2, 3)
    ]


def test_an_illegal_deal_is_refused_where_the_player_looks_and_the_cards_stay_laid(page, table):
    start_with_default_sheets(page, table)
    first = GAME["moves"][0]
    enter_deal(page, first)
    assert page.locator("#move-log li:not(.undone)").count() == 1

    # Seven cards in two piles: said next to the piles, the cards stay laid out; moving one to
    # the empty pile is a take-back, the pile, the card again.
    second = GAME["moves"][1]
    cards = [card for pile in second["piles"] for card in pile]
    tap(page, "#fv-pile-1")
    for card in cards[:4]:
        tap(page, f'#fv-deck button[name=card][value="{card}"]')
    tap(page, "#fv-pile-2")
    for card in cards[4:]:
        tap(page, f'#fv-deck button[name=card][value="{card}"]')
    message = page.locator("#fv-piles .error")
    expect(message).to_contain_text("Each of the 3 piles needs a card")
    expect(message).to_be_in_viewport()
    assert laid(page) == [cards[:4], cards[4:], []]
    page.reload()  # a reload keeps the deal being laid out
    assert laid(page) == [cards[:4], cards[4:], []]
    tap(page, f'#fv-piles button[name=take_back][value="{cards[6]}"]')
    tap(page, "#fv-pile-3")
    tap(page, f'#fv-deck button[name=card][value="{cards[6]}"]')
    assert laid(page) == [cards[:4], cards[4:6], cards[6:]]
    tap(page, "#fv-first-1")
    tap(page, "#fv-second-2")
    assert page.locator("#move-log li:not(.undone)").count() == 2
    tap(page, "#undo")  # back to deal 2

    # A deal the referee refuses (typed as JSON, the one way to enter one): its message is next
    # to the box that caused it, and the cards tapped before it stay laid out.
    tap(page, f'#fv-deck button[name=card][value="{cards[0]}"]')
    page.click("#move-json-box summary")
    wrong = {**second, "piles": [["The Author"], *second["piles"][1:]]}
    page.fill("#move-json", json.dumps(wrong))
    with page.expect_response(re.compile(r".*/plays/\d+/move/$")):
        page.click("#enter-json")
    expect(page.locator("#move-error")).to_contain_text("already dealt in deal 1")
    expect(page.locator("#move-error")).to_be_in_viewport()
    assert page.locator("#move-log li:not(.undone)").count() == 1
    assert laid(page) == [[cards[0]], [], []]  # the input kept
    page.evaluate("window.scrollTo(0, 0)")
    assert "Dealer: Ben" in page.inner_text("#fv-where")

    # The card taken back, then Undo: back to deal 1 with Ana dealing.
    tap(page, f'#fv-piles button[name=take_back][value="{cards[0]}"]')
    assert page.locator("button[name=take_back]").count() == 0
    tap(page, "#undo")
    assert page.locator("#move-log li.undone").count() == 2
    assert "Dealer: Ana" in page.inner_text("#fv-where")
    assert page.locator('#fv-deck button[name=card][value="The Author"]').count() == 1
    assert page.js_errors == []


def test_a_sheet_edited_by_tapping_suits_on_a_phone(page, table):
    log_in(page)
    start_play(page, table["night"], "forget-venice", SEATS)
    page.taps = 0
    in_view(page, "#fv-edit-summary").click()
    # Ana swaps Suns (criterion II) and Moons (criterion I) in her first half: two taps.
    in_view(page, "#id-sheet-0-1-Suns-I").click()
    in_view(page, "#id-sheet-0-1-Moons-II").click()
    RESULTS.mkdir(exist_ok=True)
    page.screenshot(path=str(RESULTS / "forget-venice-phone-en-sheet-editor.png"))
    # Ben's sheet opens in place of Ana's, whole on the screen: his name, then two taps.
    in_view(page, "#fv-sheet-1").click()
    expect(page.locator("details.fv-sheet[data-player=Ana]")).not_to_have_attribute("open", "")
    in_view(page, "#id-sheet-1-1-Moons-I").click()
    in_view(page, "#id-sheet-1-1-Waves-II").click()
    # "Start the play" stays on the screen while the sheets are edited (sticky)
    in_view(page, "#start-play").click()
    assert page.taps == 7
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    sheets = Play.objects.get().setup["sheets"]
    assert sheets["Ana"]["1"] == {
        "I": ["Suns", "Knots"],
        "II": ["Moons", "Wyrms"],
        "III": ["Waves", "Leaves"],
    }
    assert sheets["Ben"]["1"] == {
        "I": ["Moons", "Knots"],
        "II": ["Waves", "Wyrms"],
        "III": ["Suns", "Leaves"],
    }
    assert page.js_errors == []


def test_edited_sheets_on_a_desktop_in_french(desktop_page, table):
    page = desktop_page
    log_in(page)
    french(page)
    start_play(page, table["night"], "forget-venice", SEATS)
    # Ana moves Suns to criterion I, which then has three suits: refused, the grid kept.
    page.click("#fv-edit-summary")
    page.click("#id-sheet-0-1-Suns-I")
    page.click("#start-play")
    error = page.inner_text("#setup-error").replace("\u202f", " ")
    assert "Ana, mi-temps 1 : le critère I a 3 couleurs (Lunes, Soleils, Nœuds)" in error
    assert Play.objects.count() == 0
    assert page.locator("#id-sheet-0-1-Suns-I").is_checked()
    page.click("#id-sheet-0-1-Moons-II")  # the one tap that fixes it
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
