"""Issue 30 in a browser: the last move of a finished play undone (every game), 3-High's "cannot
play" confirmed by a second tap, a Thricewise and a Punto move corrected by tapping (English
and French; the taps counted, with no scrolling between them on a phone), a correction that
breaks a later move, and the replay of a finished game of every game, its board at a few steps
checked against the referee's state of the log cut there."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Move
from referee import judge
from referee.three_high import SQUARE_NAMES
from tests.services.test_corrections import BREAKS, KEEPS, log_of

from .conftest import RESULTS, assert_no_horizontal_scroll, in_view, log_in
from .test_thricewise import build_turn

#: a finished log of each game (tests/fixtures/examples)
FINISHED = {
    "buntherum": "buntherum-1",
    "forget-venice": "forget-venice-1",
    "punto": "punto-1",
    "three-high": "three-high-1",
    "thricewise": "thricewise-1",
}


def imported(table, name: str, moves: int | None = None):
    log = log_of(name)
    if moves is not None:
        log["moves"] = log["moves"][:moves]
    return services.import_log(club=table["club"], log=log, night=table["night"]), log


def french(page) -> None:
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("text=Vos clubs")


@pytest.mark.parametrize("game", sorted(FINISHED))
def test_the_last_move_of_a_finished_play_is_undone_from_its_page(page, table, game):
    play, log = imported(table, FINISHED[game])
    log_in(page)
    page.goto(f"/plays/{play.pk}/")
    expect(page.locator("#play-status")).to_have_class(re.compile("status-finished"))
    page.click("#undo")
    expect(page.locator("#play-status")).to_have_class(re.compile("status-in_progress"))
    expect(page.locator("#move-log li.undone")).to_have_count(1)
    expect(page.locator("#move-form")).to_be_visible()
    assert play.moves.active().count() == len(log["moves"]) - 1
    assert page.js_errors == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_three_high_cannot_play_asks_for_a_second_tap(page, table, language):
    play, _log = imported(table, "three-high-1", moves=1)
    log_in(page)
    if language == "fr":
        french(page)
    page.goto(f"/plays/{play.pk}/")
    in_view(page, "#cannot-play").click()
    # The button changed in place: a second tap on it confirms, nothing was sent yet.
    confirm = in_view(page, "#cannot-play-confirm")
    expect(page.locator("#cannot-play")).to_be_hidden()
    said = {"en": "Tap again: Ben cannot play", "fr": "Encore une fois : Ben ne peut pas jouer"}
    expect(confirm).to_contain_text(said[language])
    page.screenshot(path=str(RESULTS / f"three-high-cannot-play-confirm-{language}.png"))
    assert Move.objects.filter(play=play).count() == 1
    in_view(page, "#cannot-play-cancel").click()
    expect(page.locator("#cannot-play")).to_be_visible()
    expect(page.locator("#cannot-play-confirm")).to_be_hidden()
    in_view(page, "#cannot-play").click()
    in_view(page, "#cannot-play-confirm").click()
    expect(page.locator("#result")).to_be_visible()
    assert play.moves.active().last().data == {"player": "Ben", "cannot_play": True}
    assert page.js_errors == []


def open_correction(page, play, index: int) -> None:
    """The move log's "Correct this move" (a tap, far down the log), then the correction page."""
    page.goto(f"/plays/{play.pk}/")
    page.locator(f"#move-log a[href='/plays/{play.pk}/moves/{index}/correct/']").click()
    page.wait_for_url(re.compile(rf".*/moves/{index}/correct/$"))
    page.taps = 1


def corrected(page, play) -> None:
    page.wait_for_url(re.compile(rf".*/plays/{play.pk}/$"))


def kept_the_rest(page, play, log, index: int, move: dict) -> None:
    """The move at ``index`` replaced by ``move`` and every other kept: the play's moves are
    the log so corrected, judged; the replaced one shows in the log."""
    expect(page.locator("#move-log li.replaced")).to_have_count(1)
    active = [m.data for m in play.moves.active()]
    assert (
        active
        == judge({**log, "moves": [*log["moves"][:index], move, *log["moves"][index + 1 :]]}).moves
    )
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_punto_move_corrected_by_tapping(page, table, language):
    name, index, move = KEEPS["punto"]
    play, log = imported(table, name)
    log_in(page)
    if language == "fr":
        french(page)
    open_correction(page, play, index)
    expect(page.locator("#correction")).to_contain_text(
        {"en": "Correcting", "fr": "Correction"}[language]
    )
    page.screenshot(path=str(RESULTS / f"punto-correction-{language}.png"))
    in_view(page, f"button[name=card][value={move['card']}]").click()
    x, y = move["at"]
    in_view(page, f'button[name=at][value="{x},{y}"]').click()
    corrected(page, play)
    assert page.taps == 3  # "Correct this move", the card, its cell
    expect(page.locator("#move-log li.replaced")).to_contain_text(
        {"en": "replaced by olivia", "fr": "remplacé par olivia"}[language]
    )
    kept_the_rest(page, play, log, index, move)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_thricewise_turn_corrected_by_tapping(page, table, language):
    name, index, move = KEEPS["thricewise"]
    play, log = imported(table, name)
    log_in(page)
    if language == "fr":
        french(page)
    open_correction(page, play, index)
    build_turn(page, log["players"], move)
    in_view(page, "#enter-turn").click()
    corrected(page, play)
    # "Correct this move", a card per player (five), "Enter turn"
    assert page.taps == 1 + len(log["players"]) + 1
    expect(page.locator("#move-log li.replaced")).to_have_count(1)
    assert play.moves.active().first().data["reveal"] == move["reveal"]
    assert page.js_errors == []


def tap_buntherum(page, move: dict) -> None:
    """The card, the caller, the series: the last tap sends the correction."""
    in_view(page, f"button[name=card][value={move['card']}]").click()
    in_view(page, f"input[name=caller][value='{move['call']['player']}']").check()
    in_view(page, f"#call-{move['call']['series']}").click()


def tap_forget_venice(page, move: dict) -> None:
    """The dealer (when several may deal), the cards pile by pile, the First Chooser's pile,
    then the Second Chooser's, which sends the correction."""
    if page.locator("#fv-dealer").is_visible():
        in_view(page, f'#fv-dealer button[name=dealer][value="{move["dealer"]}"]').click()
    for number, pile in enumerate(move["piles"], start=1):
        if page.locator(f"#fv-pile-{number}[aria-pressed=true]").count() == 0:
            in_view(page, f"#fv-pile-{number}").click()
        for card in pile:
            in_view(page, f'#fv-deck button[name=card][value="{card}"]').click()
    in_view(page, f"#fv-first-{move['first'] + 1}").click()
    in_view(page, f"#fv-second-{move['second'] + 1}").click()


def tap_three_high(page, move: dict) -> None:
    """The card, the side, the piece on the board, then "Enter the move"."""
    in_view(page, f"button[name=card][value='{move['card']}']").click()
    in_view(page, f"button[name=side][value={move['side']}]").click()
    in_view(page, f"#th-board button[value='{move['piece']}']").click()
    expect(page.locator("#th-preview")).to_be_visible()
    in_view(page, "#confirm-move").click()


#: each game's taps, and what a correction costs with them: "Correct this move", then the move
#: as it is tapped as a new move (Forget Venice: the 7 cards of the example's deal, pile 2 and
#: pile 3, the two choosers)
TAPPED = {
    "buntherum": (tap_buntherum, 1 + 3),
    "forget-venice": (tap_forget_venice, 1 + 11),
    "three-high": (tap_three_high, 1 + 4),
}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", sorted(TAPPED))
def test_a_correction_tapped_on_a_phone_without_scrolling(page, table, game, language):
    """The other three games: the correction tapped as a new move is, every tap on the phone's
    screen with the page unscrolled, in both languages; the taps counted."""
    name, index, move = KEEPS[game]
    play, log = imported(table, name)
    log_in(page)
    if language == "fr":
        french(page)
    open_correction(page, play, index)
    page.screenshot(path=f"{RESULTS}/{game}-correction-{language}.png")
    tapping, taps = TAPPED[game]
    tapping(page, move)
    corrected(page, play)
    assert page.taps == taps
    kept_the_rest(page, play, log, index, move)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_correction_that_breaks_a_later_move(page, table, language):
    """Which move and why, the board as it stood, and the offer to apply it all the same, on the
    phone's screen as the correction's last tap left it."""
    name, index, move, broken = BREAKS["thricewise"]
    play, log = imported(table, name)
    log_in(page)
    if language == "fr":
        french(page)
    open_correction(page, play, index)
    build_turn(page, log["players"], move)
    in_view(page, "#enter-turn").click()
    refused = page.locator("#correction-refused")
    said = {
        "en": f"Not corrected: Turn {broken + 1}: ",
        "fr": f"Non corrigé : Tour {broken + 1} : ",
    }
    expect(refused).to_contain_text(said[language])
    drop = {
        "en": f"drop the moves from Turn {broken + 1} on",
        "fr": f"à partir de : Tour {broken + 1}",
    }
    expect(page.locator("#correction-apply")).to_contain_text(drop[language])
    in_view(page, "#correction-apply")
    page.screenshot(path=str(RESULTS / f"thricewise-correction-breaks-{language}.png"))
    assert play.moves.filter(undone_at__isnull=False).count() == 0
    page.click("#correction-apply")
    corrected(page, play)
    expect(page.locator("#move-log li.dropped")).to_have_count(len(log["moves"]) - broken)
    page.locator("#move-log").scroll_into_view_if_needed()
    page.locator("#move-log").screenshot(
        path=str(RESULTS / f"thricewise-correction-dropped-{language}.png")
    )
    # Told as they were played (Turns 5 and 6), never as the JSON they were entered as.
    dropped = page.locator("#move-log li.dropped .move-name")
    turn = {"en": "Turn", "fr": "Tour"}[language]
    expect(dropped).to_have_text([f"{turn} {n}" for n in range(broken + 1, len(log["moves"]) + 1)])
    expect(page.locator("#move-log li.dropped .move-text").first).not_to_contain_text("{")
    assert page.js_errors == []


# Replay -------------------------------------------------------------------------------------


def board_of(page, game: str):
    """What the page's board shows, in the referee's terms where it is a board of cells."""
    if game == "three-high":
        return dict(
            page.eval_on_selector_all(
                "#th-board [data-square]",
                """cells => cells.filter(c => c.dataset.stack)
                    .map(c => [c.dataset.square, c.dataset.stack])""",
            )
        )
    if game in ("punto", "thricewise"):
        where = "#punto-board" if game == "punto" else "#tw-grid"
        cells = page.eval_on_selector_all(
            f"{where} [data-card]:not([data-card=''])", "cells => cells.map(c => c.dataset.at)"
        )
        return sorted(tuple(int(v) for v in at.split(",")) for at in cells)
    return None


def board_in(state, game: str):
    if game == "three-high":
        return {
            SQUARE_NAMES[cell]: ",".join(stack) for cell, stack in state.stacks.items() if stack
        }
    if game in ("punto", "thricewise"):
        return sorted(state.board)
    return None


@pytest.mark.parametrize("game", sorted(FINISHED))
def test_the_replay_of_a_finished_game(desktop_page, table, game):
    page = desktop_page
    play, log = imported(table, FINISHED[game])
    log_in(page)
    page.goto(f"/plays/{play.pk}/")
    page.click("#replay-link")
    page.wait_for_url(re.compile(r".*\?at=0$"))
    last = len(log["moves"])
    steps = sorted({0, 1, last // 2, last - 1, last})
    step = 0
    while True:
        if step in steps:
            cut = judge({**log, "moves": log["moves"][:step]})
            expect(page.locator("#replay-step")).to_have_attribute("data-step", str(step))
            expect(page.locator("#move-log li[data-seq]")).to_have_count(step)
            for player, score in cut.scores.items():
                expect(page.locator(f"#scores tr[data-player='{player}'] .score")).to_have_text(
                    str(score)
                )
            # A Punto round just won leaves the referee's table empty, while the page keeps
            # showing that round's table to the players: compared while a round is played.
            if not (game == "punto" and step and not cut.state.board):
                assert board_of(page, game) == board_in(cut.state, game), step
        if step == last:
            break
        page.keyboard.press("ArrowRight")  # a desktop steps with the keys
        step += 1
        page.wait_for_url(re.compile(rf".*\?at={step}$"))
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(rf".*\?at={last - 1}$"))
    page.click("#replay-first")
    page.wait_for_url(re.compile(r".*\?at=0$"))
    page.screenshot(path=str(RESULTS / f"{game}-replay-start.png"))
    # The slider moves on as soon as it is let go; its "Go" button is for a page with no script.
    expect(page.locator("#replay-go")).to_be_hidden()
    page.locator("#replay-at").fill(str(last // 2))
    page.wait_for_url(re.compile(rf".*\?at={last // 2}$"))
    expect(page.locator("#replay-step")).to_have_attribute("data-step", str(last // 2))
    page.click("#replay-last")
    page.wait_for_url(re.compile(rf".*\?at={last}$"))
    assert page.js_errors == []


def test_everything_of_issue_30_without_javascript(no_js_page, table):
    """Plain links and forms: a finished play's last move undone, a Punto move corrected tap by
    tap (each tap a request), a correction that breaks a later move applied all the same,
    3-High's "cannot play" confirmed by a second tap, and a replay stepped by its links and
    its slider's "Go"."""
    page = no_js_page
    name, index, move = KEEPS["punto"]
    play, log = imported(table, name)
    log_in(page)
    page.goto(f"/plays/{play.pk}/")
    page.click("#undo")
    expect(page.locator("#play-status")).to_have_class(re.compile("status-in_progress"))
    assert play.moves.active().count() == len(log["moves"]) - 1

    open_correction(page, play, index)
    in_view(page, f"button[name=card][value={move['card']}]").click()
    x, y = move["at"]
    in_view(page, f'button[name=at][value="{x},{y}"]').click()
    corrected(page, play)
    assert page.taps == 3
    expect(page.locator("#move-log li.replaced")).to_have_count(1)

    name, index, move, broken = BREAKS["punto"]
    play, log = imported(table, name)
    open_correction(page, play, index)
    in_view(page, f"button[name=card][value={move['card']}]").click()
    x, y = move["at"]
    in_view(page, f'button[name=at][value="{x},{y}"]').click()
    expect(page.locator("#correction-refused")).to_contain_text("Not corrected: ")
    in_view(page, "#correction-apply").click()
    corrected(page, play)
    assert play.moves.active().count() == broken

    page.click("#replay-link")
    page.wait_for_url(re.compile(r".*\?at=0$"))
    page.click("#replay-forward")
    page.wait_for_url(re.compile(r".*\?at=1$"))
    page.locator("#replay-at").fill("3")
    page.click("#replay-go")
    page.wait_for_url(re.compile(r".*\?at=3$"))
    expect(page.locator("#move-log li[data-seq]")).to_have_count(3)
    page.click("#replay-back")
    page.wait_for_url(re.compile(r".*\?at=2$"))

    three_high, _log = imported(table, "three-high-1", moves=1)
    page.goto(f"/plays/{three_high.pk}/")
    in_view(page, "#cannot-play").click()
    assert three_high.moves.count() == 1
    in_view(page, "#cannot-play-confirm").click()
    expect(page.locator("#result")).to_be_visible()
    assert three_high.moves.active().last().data == {"player": "Ben", "cannot_play": True}
