"""The table screen on a laptop and a TV (issue 33): each game's board, scores and last move on
one screen at 1920 × 1080, 1366 × 768 and 1280 × 720, never scrolled, in large type; the score
sheet scrolls in its own box."""

import json

import pytest

from tests.examples import EXAMPLES

from .conftest import RESULTS, log_in
from .test_play_page import example_play

SIZES = [(1920, 1080), (1366, 768), (1280, 720)]
GAMES = ["punto-1", "buntherum-1", "three-high-1", "thricewise-1", "forget-venice-1"]

MEASURE = """() => {
  const box = (selector) => document.querySelector(selector).getBoundingClientRect().toJSON();
  const size = (selector) =>
    parseFloat(getComputedStyle(document.querySelector(selector)).fontSize);
  return {
    width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
    board: box(".board-frame"), fit: box(".board-fit"),
    scores: box("#scores"), last: box("#last-move"),
    scoreFont: size("#scores td"), lastFont: size("#last-move"),
  };
}"""

#: Every piece of text the screen shows, with its size as drawn (its font size times the zoom
#: the board is scaled by) and whether it is on the board: those under 20 px.
SMALL_TEXT = """() => {
  const small = [];
  const walker = document.createTreeWalker(
    document.querySelector("#table-screen"), NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode;
    const element = text.parentElement;
    if (!text.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    const box = range.getBoundingClientRect();
    if (box.width <= 1.5 || box.height <= 1.5) continue;  // not shown, or for screen readers
    const size = parseFloat(getComputedStyle(element).fontSize) * element.currentCSSZoom;
    if (size < 19.95) small.push({
      text: text.textContent.trim().slice(0, 30), size: Math.round(size * 10) / 10,
      where: element.closest(".board-fit") ? "board" : "beside", class: element.className,
    });
  }
  return small;
}"""


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("when", ["mid-game", "the last move"])
def test_the_table_screen_fits_a_laptop_and_a_tv_unscrolled(desktop_page, table, name, when):
    page = desktop_page
    moves = len(json.loads((EXAMPLES / f"{name}.json").read_text())["moves"])
    play, _log = example_play(table, name, moves // 2 if when == "mid-game" else moves - 1)
    log_in(page)
    RESULTS.mkdir(exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/plays/{play.pk}/table/", wait_until="networkidle")
        shot = f"table-screen-{name}-{when.replace(' ', '-')}-{width}x{height}.png"
        page.screenshot(path=str(RESULTS / shot))
        shown = page.evaluate(MEASURE)
        where = f"{name} at {width}×{height}: {shown}"
        assert shown["width"] <= width and shown["height"] <= height, where  # no scroll at all
        for part in ("board", "scores", "last"):
            assert shown[part]["right"] <= width and shown[part]["bottom"] <= height, where
        # the board as large as its frame allows, and within it
        assert shown["fit"]["bottom"] <= shown["board"]["bottom"] + 1, where
        assert shown["fit"]["right"] <= shown["board"]["right"] + 1, where
        assert shown["scoreFont"] >= 20 and shown["lastFont"] >= 20, where
        # Read from across a room: no text under 20 px, beside the board or on it (a dense
        # board drops its fine detail on a laptop, and what is still small is lifted).
        small = page.evaluate(SMALL_TEXT)
        assert small == [], f"{name} at {width}×{height}: text under 20 px: {small}"
    assert page.js_errors == []


def test_the_table_screen_scales_its_board_again_after_a_move(desktop_page, table):
    """Live: the screen is fetched again after a move, and its board fitted again."""
    from games import services

    page = desktop_page
    play, log = example_play(table, "three-high-1", 2)
    log_in(page)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"/plays/{play.pk}/table/", wait_until="networkidle")
    before = page.inner_text("#last-move")
    services.record_move(play=play, move=log["moves"][2])
    page.wait_for_function(
        "before => document.querySelector('#last-move').innerText !== before", arg=before
    )
    page.wait_for_timeout(100)  # settled
    # fitted again: the fresh board has its zoom and width set by table-fit.js
    assert page.evaluate("document.querySelector('.board-fit').style.width").endswith("px")
    assert page.evaluate("document.documentElement.scrollHeight") <= 720


def test_the_table_screen_steps_through_a_replay_with_the_arrow_keys(desktop_page, table):
    """On a TV, the replay steps with ← and → as on the play page, each step fitted unscrolled,
    the scores those of the log cut there."""
    import re

    from referee import judge

    page = desktop_page
    play, log = example_play(table, "punto-1")
    log_in(page)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"/plays/{play.pk}/table/", wait_until="networkidle")
    page.click("#replay-link")
    page.wait_for_url(re.compile(r".*/table/\?at=0$"))
    for step in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        page.wait_for_url(re.compile(rf".*/table/\?at={step}$"))
        cut = judge({**log, "moves": log["moves"][:step]})
        for player, score in cut.scores.items():
            assert page.inner_text(f"#scores tr[data-player='{player}'] .score") == str(score)
        assert page.evaluate("document.documentElement.scrollHeight") <= 768
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(r".*/table/\?at=2$"))
    assert page.js_errors == []
