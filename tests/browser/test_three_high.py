"""3-High in a real browser: the setup tapped piece by piece on the chessboard, moves tapped as
card, side and piece on the board, an illegal move, an undo, and the final score sheet — on a
phone in English and in French, then on a desktop.

On a phone every tap is on an element already on the screen (``in_view``), and at every step of
a move all the move's controls are on the screen together with the board (``all_in_view``)."""

import json
import re

from playwright.sync_api import expect

from tests.examples import EXAMPLES

from .conftest import RESULTS, assert_no_horizontal_scroll, in_view, log_in, start_play

#: The setup page tests/browser/test_layout.py measures: two players (tests/per_game.py).
LAYOUT_SEATS = 2
GAME = json.loads((EXAMPLES / "three-high-1.json").read_text())
#: one tap per piece, then "Start the play" (was 15 dropdowns of 64 squares, 31 taps at best)
SETUP_TAPS = 16
#: a card, a side, a piece, confirm
MOVE_TAPS = 4


def all_in_view(page) -> None:
    """The board and every control of the move being entered (the JSON box aside) are on the
    phone's screen together, the page not scrolled."""
    if page.viewport_size["width"] > 500:
        return
    off = page.evaluate(
        """() => {
        const form = document.querySelector('#move-form');
        if (!form) return [];
        const items = [document.querySelector('#th-board'),
            ...form.querySelectorAll('button, input:not([type=hidden])')]
            .filter((el) => !el.closest('#move-json-box') && el.getClientRects().length);
        return items.filter((el) => {
            const r = el.getBoundingClientRect();
            return r.top < 0 || r.left < 0
                || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5;
        }).map((el) => (el.id || el.name + '=' + el.value)
            + ' ' + Math.round(el.getBoundingClientRect().bottom));
    }"""
    )
    assert off == [], f"off the {page.viewport_size} screen: {off}"
    assert page.evaluate("window.scrollY") == 0


def tap_setup(page, pieces) -> int:
    """Each piece's square tapped in the order of the tray, then "Start the play"."""
    before = getattr(page, "taps", 0)
    for entry in pieces:
        expect(page.locator(f"#slot-{entry['piece']}")).to_have_class(re.compile("tap-current"))
        in_view(page, f"#th-setup-taps [data-cell={entry['square']}]").click()
    in_view(page, "#start-play").click()
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    return page.taps - before


def enter(page, move: dict, *, expect_moves: int | None = None) -> None:
    """Tap the card, the side, then the piece on the board, check the preview, confirm."""
    before = getattr(page, "taps", 0)
    all_in_view(page)
    in_view(page, f"button[name=card][value='{move['card']}']").click()
    expect(page.locator("#th-chosen-card")).not_to_have_text("—")
    all_in_view(page)
    in_view(page, f"button[name=side][value={move['side']}]").click()
    expect(page.locator("#th-chosen-side")).not_to_have_text("—")
    all_in_view(page)
    in_view(page, f"#th-board button[value='{move['piece']}']").click()
    expect(page.locator("#th-preview")).to_be_visible()
    all_in_view(page)
    in_view(page, "#confirm-move").click()
    assert page.taps - before == MOVE_TAPS
    if expect_moves is not None:
        expect(page.locator("#move-log li:not(.undone)")).to_have_count(expect_moves)


def test_a_whole_game_tapped_on_a_phone(page, table):
    log_in(page)
    start_play(page, table["night"], "three-high", ["Ana", "Ben"])
    assert_no_horizontal_scroll(page)
    page.screenshot(path=str(RESULTS / "three-high-phone-setup.png"))
    assert tap_setup(page, GAME["setup"]["pieces"]) == SETUP_TAPS

    board = page.locator("#th-board")
    expect(board.locator("[data-square=a1]")).to_have_attribute("data-stack", "red-3,red-2")
    expect(board.locator("[data-square=a6]")).to_have_attribute("data-stack", "red-1")
    expect(page.locator("#th-turn")).to_have_text("Ana")
    assert_no_horizontal_scroll(page)

    # An illegal move is not offered: with the 4♠ by the east side, the medium red at a1 would
    # stop on the medium yellow at c1 (the referee's options leave it out), so its square is no
    # piece to tap, while the pieces that may move say where they would land.
    in_view(page, "button[name=card][value='4S']").click()
    in_view(page, "button[name=side][value=east]").click()
    expect(page.locator("#th-board button[value='red-2']")).to_be_disabled()
    expect(page.locator("#th-board button[value='yellow-1'] .th-dest")).to_have_text("f4")
    expect(page.locator("#th-preview")).to_be_hidden()
    all_in_view(page)
    in_view(page, "#th-start-over").click()
    expect(page.locator("#th-chosen-card")).to_have_text("—")
    expect(page.locator("#move-log")).to_contain_text("No move yet.")
    expect(board.locator("[data-square=a1]")).to_have_attribute("data-stack", "red-3,red-2")

    # The first move, undone, then entered again.
    enter(page, GAME["moves"][0], expect_moves=1)
    expect(board.locator("[data-square=a1]")).to_have_attribute("data-stack", "red-3,red-2,red-1")
    expect(board.locator("[data-square=a1]")).to_have_class(re.compile("th-has-tree"))
    in_view(page, "#undo").click()
    expect(page.locator("#move-log li.undone")).to_have_count(1)
    expect(page.locator("#move-notice")).to_be_in_viewport(ratio=1)  # not a tap: not counted
    expect(board.locator("[data-square=a6]")).to_have_attribute("data-stack", "red-1")
    expect(page.locator("#th-turn")).to_have_text("Ana")

    for count, move in enumerate(GAME["moves"], start=1):
        enter(page, move, expect_moves=count)
        if count == 3:
            page.screenshot(path=str(RESULTS / "three-high-phone-mid-game.png"))
    assert_no_horizontal_scroll(page)

    expect(page.locator("#result")).to_have_text("Winners: Ana, Ben")
    expect(page.locator("#result")).to_be_in_viewport(ratio=1)  # not a tap: not counted
    for name in ["Ana", "Ben"]:
        expect(page.locator(f"#scores tr[data-player={name}] .score")).to_have_text("5")
    expect(page.locator("#th-outcome")).to_contain_text("Won — All five trees stand.")
    expect(page.locator("#th-sheet-trees")).to_contain_text("5 trees standing")
    expect(page.locator("#th-sheet-pile")).to_have_text("22 cards left to draw")
    expect(page.locator("#th-sheet-hands")).to_have_text("Ana: 2 · Ben: 3")
    expect(page.locator("#move-form")).to_have_count(0)
    page.screenshot(path=str(RESULTS / "three-high-phone-finished.png"))

    page.click("text=Score sheet >> nth=0")
    page.wait_for_url(re.compile(r".*/sheet/$"))
    expect(page.locator("#th-sheet-outcome")).to_contain_text("Won")
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []


def test_a_whole_game_tapped_on_a_phone_in_french(page, table):
    log_in(page)
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("html[lang=fr]")
    start_play(page, table["night"], "three-high", ["Ana", "Ben"])
    status = page.locator("#th-setup-status")
    expect(status).to_have_text("Touchez la case de la grande pièce rouge.")
    assert_no_horizontal_scroll(page)
    assert tap_setup(page, GAME["setup"]["pieces"]) == SETUP_TAPS
    expect(page.locator("button[name=side][value=north]")).to_have_text("nord")
    expect(page.locator("#th-turn")).to_have_text("Ana")

    for count, move in enumerate(GAME["moves"], start=1):
        enter(page, move, expect_moves=count)
        if count == 1:
            expect(page.locator("#verdict")).to_contain_text("L'arbre rouge est monté.")
        if count == 3:  # the tree's colour agrees with "arbre", not with "pièce"
            expect(page.locator("#verdict")).to_contain_text("L'arbre vert est monté.")
            page.screenshot(path=str(RESULTS / "three-high-phone-fr-mid-game.png"))
    expect(page.locator("#result")).to_have_text("Vainqueurs : Ana, Ben")
    expect(page.locator("#th-outcome")).to_contain_text("Gagnée")
    expect(page.locator("#th-sheet-trees")).to_contain_text("5 arbres montés")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=str(RESULTS / "three-high-phone-fr-finished.png"))
    assert page.js_errors == []


def test_a_refused_setup_is_said_next_to_the_board_and_keeps_the_squares(page, table):
    log_in(page)
    start_play(page, table["night"], "three-high", ["Ana", "Ben"])
    pieces = GAME["setup"]["pieces"]
    for entry in pieces[:-1]:  # the small black piece forgotten
        in_view(page, f"#th-setup-taps [data-cell={entry['square']}]").click()
    in_view(page, "#start-play").click()
    expect(page.locator("#setup-error")).to_contain_text(
        "Choose a square from a1 to h8 for the small black piece."
    )
    expect(page.locator("#setup-error")).to_be_in_viewport(ratio=1)  # not a tap: not counted
    # the 14 squares tapped are kept: the missing piece is the next to place, one tap away
    expect(page.locator("#slot-red-3")).to_contain_text("a1")
    expect(page.locator("#slot-black-1")).to_have_class(re.compile("tap-current"))
    before = page.taps
    in_view(page, "#th-setup-taps [data-cell=h3]").click()
    in_view(page, "#start-play").click()
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    assert page.taps - before == 2
    expect(page.locator("#th-board [data-square=h3]")).to_have_attribute("data-stack", "black-1")
    assert page.js_errors == []


def test_a_piece_placed_wrong_is_moved_by_tapping_it_then_its_square(page, table):
    log_in(page)
    start_play(page, table["night"], "three-high", ["Ana"])
    in_view(page, "#th-setup-taps [data-cell=b2]").click()  # the large red, meant for b3
    expect(page.locator("#slot-yellow-3")).to_have_class(re.compile("tap-current"))
    in_view(page, "#slot-red-3").click()
    in_view(page, "#th-setup-taps [data-cell=b3]").click()
    expect(page.locator("#slot-red-3")).to_contain_text("b3")
    expect(page.locator("#square-red-3")).to_have_value("b3")  # the form's own field
    expect(page.locator("#slot-yellow-3")).to_have_class(re.compile("tap-current"))
    assert page.js_errors == []


def test_without_javascript_the_square_lists_still_set_up_the_play(no_js_page, table):
    page = no_js_page
    log_in(page)
    start_play(page, table["night"], "three-high", ["Ana", "Ben"])
    expect(page.locator("#th-setup-taps")).to_be_hidden()
    for entry in GAME["setup"]["pieces"]:
        page.select_option(f"select[name='square-{entry['piece']}']", entry["square"])
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    expect(page.locator("#th-board [data-square=a1]")).to_have_attribute(
        "data-stack", "red-3,red-2"
    )


def test_a_whole_game_and_cannot_play_on_a_desktop(desktop_page, table):
    page = desktop_page
    log_in(page)
    start_play(page, table["night"], "three-high", ["Ana", "Ben"])
    assert tap_setup(page, GAME["setup"]["pieces"]) == SETUP_TAPS
    for count, move in enumerate(GAME["moves"][:3], start=1):
        enter(page, move, expect_moves=count)
    board = page.locator("#th-board").bounding_box()
    sheet = page.locator(".score-sheet").bounding_box()
    assert sheet["x"] > board["x"] + board["width"]  # side by side
    page.screenshot(path=str(RESULTS / "three-high-desktop-mid-game.png"))
    page.click("#cannot-play")
    page.click("#cannot-play-confirm")  # a second tap on the changed button (issue 30)
    expect(page.locator("#th-outcome")).to_contain_text("Lost — Ben could not play a card.")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#th-sheet-trees")).to_contain_text("3 trees standing")
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []


def test_cannot_play_on_a_desktop_in_french(desktop_page, table):
    page = desktop_page
    log_in(page)
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("text=Vos clubs")
    start_play(page, table["night"], "three-high", ["Chloé"])
    expect(page.locator("#card-convention")).to_contain_text("notre convention")
    tap_setup(page, [{"piece": p, "square": s} for p, s in DEFAULT_SQUARES.items()])
    expect(page.locator("button[name=side][value=north]")).to_have_text("nord")
    expect(page.locator("#th-pile")).to_have_text("26 cartes")

    # The small red at g1 goes 3 − 1 = 2 squares north, to g3.
    enter(page, {"card": "3S", "side": "north", "piece": "red-1"}, expect_moves=1)
    expect(page.locator("#th-board [data-square=g3]")).to_have_attribute("data-stack", "red-1")

    page.click("#cannot-play")
    page.click("#cannot-play-confirm")  # a second tap on the changed button (issue 30)
    expect(page.locator("#th-outcome")).to_contain_text("Perdue — Chloé n’a pas pu jouer de carte.")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#scores tr[data-player=Chloé] .score")).to_have_text("0")
    expect(page.locator("#th-sheet-trees")).to_contain_text("0 arbre monté")
    assert page.js_errors == []


#: a spread-out setup, no stacks (the one the setup used to propose)
DEFAULT_SQUARES = {
    "red-3": "b2", "yellow-3": "d7", "green-3": "f3", "blue-3": "c5", "black-3": "g6",
    "red-2": "e2", "yellow-2": "b6", "green-2": "h4", "blue-2": "a4", "black-2": "d4",
    "red-1": "g1", "yellow-1": "f7", "green-1": "c3", "blue-1": "e5", "black-1": "h8",
}  # fmt: skip
