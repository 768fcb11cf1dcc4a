"""The play page on a phone: a move being built survives a reload, a refusal lands next to the
controls with the input kept, abandoning asks first; each game's board mid-game and finished is
saved under test-results/ for a person to look at; on a desktop the board and the sheet sit side
by side."""

import json
import re

from playwright.sync_api import expect

from games import services
from referee import GAMES
from tests.examples import EXAMPLES

from .conftest import RESULTS, in_view, log_in

#: the first public example of every game
EXAMPLE_PLAYS = [f"{game}-1" for game in GAMES]


def example_play(table, name: str, moves: int | None = None):
    """A play of a public example with its first ``moves`` moves entered (all by default)."""
    log = json.loads((EXAMPLES / f"{name}.json").read_text())
    by_name = {p.name: p for p in table["players"]}
    play = services.start_play(
        night=table["night"],
        game=log["game"],
        players=[by_name[n] for n in log["players"]],
        setup=log["setup"],
    )
    for move in log["moves"][:moves]:
        services.record_move(play=play, move=move)
    return play, log


def test_each_game_on_a_phone_mid_game_and_finished(page, table):
    """Screenshots for a person to look at; the move panel starts on the first screen."""
    log_in(page)
    RESULTS.mkdir(exist_ok=True)
    for name in EXAMPLE_PLAYS:
        log = json.loads((EXAMPLES / f"{name}.json").read_text())
        play, _log = example_play(table, name, len(log["moves"]) // 2)
        page.goto(f"/plays/{play.pk}/")
        top = page.locator("#move-form").bounding_box()["y"]
        assert top < 844 * 0.75, f"{name}: the move form starts at {top}px"
        page.screenshot(path=str(RESULTS / f"phone-{name}-mid-game.png"))
        finished, _log = example_play(table, name)
        page.goto(f"/plays/{finished.pk}/")
        expect(page.locator("#result")).to_be_in_viewport()
        page.screenshot(path=str(RESULTS / f"phone-{name}-finished.png"))


def test_a_move_being_built_survives_a_reload(page, table):
    play, log = example_play(table, "punto-1", 2)
    log_in(page)
    page.goto(f"/plays/{play.pk}/")
    in_view(page, "button[name=card][value=red-2]").click()
    expect(page.locator("#punto-tapped")).to_be_visible()
    page.reload()
    expect(page.locator("#punto-tapped")).to_contain_text("Ana plays")
    in_view(page, 'button[name=at][value="1,0"]').click()
    expect(page.locator("#move-log li")).to_have_count(3)
    page.wait_for_load_state("networkidle")


def test_a_refused_reveal_is_said_next_to_it_and_the_picks_are_kept(page, table):
    """The picker never gives a card twice; a reveal typed as JSON can, and the referee refuses
    it next to the box, the cards tapped before it kept: the last player's card is one tap."""
    play, log = example_play(table, "thricewise-1", 0)
    log_in(page)
    page.goto(f"/plays/{play.pk}/")
    players, reveal = log["players"], log["moves"][0]["reveal"]
    for player in players[:-1]:
        in_view(page, f'#tw-deck button[name=pick][value="{reveal[player]}"]').click()
        expect(page.locator(f'#tw-slots .tw-slot[data-player="{player}"]')).to_have_attribute(
            "data-holds", reveal[player]
        )
    page.click("#move-json-box summary")
    twice = {**reveal, players[1]: reveal[players[0]]}  # Ben repeats Ana
    page.fill("#move-json", json.dumps({"reveal": twice, "place": []}))
    page.click("#enter-json")
    expect(page.locator("#move-error")).to_contain_text("both revealed")
    expect(page.locator("#move-error")).to_be_in_viewport()
    page.evaluate("window.scrollTo(0, 0)")
    for player in players[:-1]:
        expect(page.locator(f'#tw-slots .tw-slot[data-player="{player}"]')).to_have_attribute(
            "data-holds", reveal[player]
        )
    taps = page.taps
    in_view(page, f'#tw-deck button[name=pick][value="{reveal[players[-1]]}"]').click()
    in_view(page, "#enter-turn").click()
    expect(page.locator("#move-log li")).to_have_count(1)
    assert page.taps - taps == 2
    page.wait_for_load_state("networkidle")


def test_abandoning_asks_first_and_the_owner_resumes(page, table):
    play, _log = example_play(table, "punto-1", 1)
    log_in(page)
    page.goto(f"/plays/{play.pk}/")
    page.click("#abandon")
    page.wait_for_url(re.compile(r".*/abandon/$"))
    page.click("#keep-playing")
    expect(page.locator("#play-status")).to_have_text("in progress")
    page.click("#abandon")
    page.click("#confirm-abandon")
    expect(page.locator("#play-status")).to_have_text("abandoned")
    expect(page.locator("#abandon")).to_have_count(0)
    expect(page.locator("#undo")).to_have_count(0)
    page.click("#resume")
    expect(page.locator("#play-status")).to_have_text("in progress")
    expect(page.locator("#move-form")).to_be_visible()
    assert not page.js_errors


def test_on_a_desktop_the_board_and_the_sheet_sit_side_by_side(desktop_page, table):
    play, _log = example_play(table, "three-high-1", 2)
    page = desktop_page
    log_in(page)
    page.goto(f"/plays/{play.pk}/")
    board = page.locator(".play-table").bounding_box()
    record = page.locator(".play-record").bounding_box()
    assert board["x"] + board["width"] <= record["x"]
    assert abs(board["y"] - record["y"]) < 5
    page.screenshot(path=str(RESULTS / "desktop-three-high-mid-game.png"))
