"""3-High in a real browser: the setup (squares and the card helper), moves tapped as card,
side and piece on the board, an illegal move, an undo, and the final score sheet."""

import json
import re

from playwright.sync_api import expect

from tests.examples import EXAMPLES

from .conftest import assert_no_horizontal_scroll, in_view, log_in, start_play

GAME = json.loads((EXAMPLES / "three-high-1.json").read_text())


def fill_setup(page, pieces) -> None:
    for entry in pieces:
        page.select_option(f"select[name='square-{entry['piece']}']", entry["square"])


def enter(page, move: dict, *, expect_moves: int | None = None) -> None:
    """Tap the card, the side, then the piece on the board, check the preview, confirm."""
    before = getattr(page, "taps", 0)
    in_view(page, f"button[name=card][value='{move['card']}']").click()
    expect(page.locator("#th-chosen-card")).not_to_have_text("—")
    in_view(page, f"button[name=side][value={move['side']}]").click()
    expect(page.locator("#th-chosen-side")).not_to_have_text("—")
    in_view(page, f"#th-board button[value='{move['piece']}']").click()
    expect(page.locator("#th-preview")).to_be_visible()
    in_view(page, "#confirm-move").click()
    assert page.taps - before == 4  # a card, a side, a piece, confirm
    if expect_moves is not None:
        expect(page.locator("#move-log li:not(.undone)")).to_have_count(expect_moves)


def test_a_whole_game_tapped_on_a_phone(page, table):
    log_in(page)
    start_play(page, table["night"], "three-high", ["Ana", "Ben"])
    expect(page.locator("#card-convention")).to_contain_text("our convention")
    assert_no_horizontal_scroll(page)
    pieces = GAME["setup"]["pieces"]
    fill_setup(page, pieces[:-5])
    # The small pieces through the card helper: red card = rank, black card = file.
    for entry in pieces[-5:]:
        file, rank = entry["square"][0], entry["square"][1]
        page.select_option(
            f"select[name='red-{entry['piece']}']", f"{'A' if rank == '1' else rank}H"
        )
        black = "A" if file == "a" else str("abcdefgh".index(file) + 1)
        page.select_option(f"select[name='black-{entry['piece']}']", f"{black}C")
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))

    board = page.locator("#th-board")
    expect(board.locator("[data-square=a1]")).to_have_attribute("data-stack", "red-3,red-2")
    expect(board.locator("[data-square=a6]")).to_have_attribute("data-stack", "red-1")
    expect(page.locator("#th-turn")).to_have_text("Ana")
    assert_no_horizontal_scroll(page)

    # An illegal move: the medium red would stop on the medium yellow at c1.
    enter(page, {"card": "4S", "side": "east", "piece": "red-2"})
    expect(page.locator("#move-error")).to_contain_text(
        "Turn 1: the medium red piece cannot stop on the medium yellow piece at c1"
    )
    expect(page.locator("#move-log")).to_contain_text("No move yet.")
    expect(board.locator("[data-square=a1]")).to_have_attribute("data-stack", "red-3,red-2")
    # the refusal is next to the controls, and the choices are kept: one tap changes one
    expect(page.locator("#move-error")).to_be_in_viewport()
    expect(page.locator("#th-chosen-card")).to_have_text("4♠")
    expect(page.locator("#th-chosen-side")).not_to_have_text("—")
    expect(page.locator("#th-chosen-piece")).to_contain_text("a1")
    in_view(page, "#th-board button[name=piece] >> nth=1")  # another piece: one tap away
    page.click("button[name=reset]")
    page.evaluate("window.scrollTo(0, 0)")

    # The first move, undone, then entered again.
    enter(page, GAME["moves"][0], expect_moves=1)
    expect(board.locator("[data-square=a1]")).to_have_attribute("data-stack", "red-3,red-2,red-1")
    expect(board.locator("[data-square=a1]")).to_have_class(re.compile("th-has-tree"))
    in_view(page, "#undo").click()
    expect(page.locator("#move-log li.undone")).to_have_count(1)
    expect(board.locator("[data-square=a6]")).to_have_attribute("data-stack", "red-1")
    expect(page.locator("#th-turn")).to_have_text("Ana")

    for count, move in enumerate(GAME["moves"], start=1):
        enter(page, move, expect_moves=count)
    assert_no_horizontal_scroll(page)

    expect(page.locator("#result")).to_have_text("Winners: Ana, Ben")
    for name in ["Ana", "Ben"]:
        expect(page.locator(f"#scores tr[data-player={name}] .score")).to_have_text("5")
    expect(page.locator("#th-outcome")).to_contain_text("Won — All five trees stand.")
    expect(page.locator("#th-sheet-trees")).to_contain_text("5 trees standing")
    expect(page.locator("#th-sheet-pile")).to_have_text("22 cards left to draw")
    expect(page.locator("#th-sheet-hands")).to_have_text("Ana: 2 · Ben: 3")
    expect(page.locator("#move-form")).to_have_count(0)

    page.click("text=Score sheet >> nth=0")
    page.wait_for_url(re.compile(r".*/sheet/$"))
    expect(page.locator("#th-sheet-outcome")).to_contain_text("Won")
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []


def test_cannot_play_on_a_desktop_in_french(desktop_page, table):
    page = desktop_page
    log_in(page)
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("text=Vos clubs")
    start_play(page, table["night"], "three-high", ["Chloé"])
    expect(page.locator("#card-convention")).to_contain_text("notre convention")
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    expect(page.locator("button[name=side][value=north]")).to_have_text("nord")
    expect(page.locator("#th-pile")).to_have_text("26 cartes")

    # Default setup: the small red at g1 goes 3 − 1 = 2 squares north, to g3.
    enter(page, {"card": "3S", "side": "north", "piece": "red-1"}, expect_moves=1)
    expect(page.locator("#th-board [data-square=g3]")).to_have_attribute("data-stack", "red-1")

    page.click("#cannot-play")
    expect(page.locator("#th-outcome")).to_contain_text("Perdue — Chloé n’a pas pu jouer de carte.")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#scores tr[data-player=Chloé] .score")).to_have_text("0")
    expect(page.locator("#th-sheet-trees")).to_contain_text("0 arbre monté")
    assert page.js_errors == []
