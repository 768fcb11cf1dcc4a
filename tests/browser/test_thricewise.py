"""Thricewise in a real browser: setup grid, reveals and placements tapped in, undo, French."""

import json
import re

from games.models import Move
from tests.examples import EXAMPLES

from .conftest import assert_no_horizontal_scroll, in_view, log_in, start_play

GAME = json.loads((EXAMPLES / "thricewise-1.json").read_text())
EXPECTED = json.loads((EXAMPLES / "thricewise-1.expected.json").read_text())


def swap(page, action) -> None:
    """Do ``action`` and wait until htmx has swapped in the new play fragment."""
    old = page.locator("#play-main").element_handle()
    action()
    old.wait_for_element_state("hidden")
    page.wait_for_selector("#play-main")


def enter_setup(page, grid) -> None:
    for number, entry in enumerate(grid):
        page.select_option(f"#cell-{number}", entry["card"])
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))


def enter_turn(page, players, move, *, check_scroll=False) -> None:
    """The reveal (a list per player, then "Reveal"), then each placement: the card, the cell."""
    for number, player in enumerate(players):
        in_view(page, f"#reveal-{number}").select_option(move["reveal"][player])
    swap(page, lambda: in_view(page, "#reveal-cards").click())
    place = move.get("place") or []
    for position, entry in enumerate(place):
        player = entry["player"]
        assert page.locator("#tw-reveals li.tw-current").get_attribute("data-player") == player
        in_view(page, f"label:has(input[name=card][value='{entry['card']}'])").click()
        if check_scroll:
            assert_no_horizontal_scroll(page)
        x, y = entry["at"]
        swap(page, lambda x=x, y=y: in_view(page, f"button[name=at][value='{x},{y}']").click())
        group_ends = position + 1 == len(place) or place[position + 1]["player"] != player
        current = page.locator(f"#tw-reveals li.tw-current[data-player='{player}']")
        if group_ends and current.count():
            swap(page, lambda: in_view(page, "#group-done").click())


def test_a_whole_five_player_game_tapped_in_on_a_phone(page, table):
    log_in(page)
    start_play(page, table["night"], "thricewise", GAME["players"])
    assert page.locator("select[name^=cell_]").count() == 6
    assert_no_horizontal_scroll(page)
    enter_setup(page, GAME["setup"]["grid"])
    assert page.locator("#tw-grid .tw-card").count() == 6
    assert_no_horizontal_scroll(page)

    for number, move in enumerate(GAME["moves"]):
        enter_turn(page, GAME["players"], move, check_scroll=number == 4)
        assert Move.objects.count() == number + 1
        assert Move.objects.order_by("seq").last().data == move

    page.wait_for_selector("#result")
    assert page.locator("#play-status").inner_text() == "finished"
    scores = {
        row.get_attribute("data-player"): int(row.locator(".score").inner_text())
        for row in page.locator("#scores tbody tr").all()
    }
    assert scores == EXPECTED["scores"]
    assert page.locator("#result").inner_text() == "Winners: Eli"
    totals = page.locator("#tw-sheet tfoot td")
    assert [int(t) for t in totals.all_inner_texts()] == list(EXPECTED["scores"].values())
    aside = page.locator("#tw-aside li[data-player='Dev'] .tw-chip")
    assert aside.count() == len(EXPECTED["details"]["set_aside"]["Dev"])
    assert page.locator("#move-form").count() == 0
    assert_no_horizontal_scroll(page)

    page.click("text=Score sheet")
    page.wait_for_selector("#tw-sheet")
    assert page.locator("#tw-sheet tbody tr").count() == 6
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []


def test_an_illegal_move_changes_nothing_and_undo_steps_back_on_a_desktop(desktop_page, table):
    page = desktop_page
    log_in(page)
    start_play(page, table["night"], "thricewise", ["Ana", "Ben"])
    page.click("#start-play")  # the default grid: The Author, The Painter, The Battle, ...
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    turn = {
        "reveal": {"Ana": "The Sailor", "Ben": "The Castle"},
        "place": [
            {"player": "Ana", "card": "The Sailor", "at": [2, 0]},
            {"player": "Ben", "card": "The Castle", "at": [-1, 1]},
        ],
    }
    enter_turn(page, ["Ana", "Ben"], turn)
    assert Move.objects.count() == 1
    assert page.locator("#tw-grid .tw-card").count() == 6
    board = page.locator("#tw-grid").inner_html()

    # The same card again: the reveal offers only unseen cards, but JSON lets anything through.
    page.click("summary:has-text('Advanced')")
    again = {"reveal": {"Ana": "The Sailor", "Ben": "The Mill"}, "place": []}
    page.fill("#move-json", json.dumps(again))
    swap(page, lambda: page.click("#enter-json"))
    assert (
        "Turn 2: Ana cannot reveal The Sailor: it was revealed in turn 1."
        in page.locator("#move-error").inner_text()
    )
    assert Move.objects.count() == 1
    assert page.locator("#tw-grid").inner_html() == board

    # A reveal from the selects: the tapped cells come from the grid with the pending card.
    page.select_option("#reveal-0", "The Mill")
    page.select_option("#reveal-1", "The Pact")
    swap(page, lambda: page.click("#reveal-cards"))
    swap(page, lambda: page.click("button[name=at][value='3,0']"))
    assert page.locator("#tw-grid .tw-pending").count() == 1
    assert page.locator("button[name=at][value='4,0']").count() == 1
    swap(page, lambda: page.click("#start-over"))
    assert page.locator("#tw-grid .tw-pending").count() == 0

    swap(page, lambda: page.click("#undo"))
    assert Move.objects.filter(undone_at__isnull=True).count() == 0
    assert page.locator("#tw-grid .tw-card").count() == 4
    assert page.locator("#move-log li.undone").count() == 1
    assert page.js_errors == []


def test_a_turn_in_french(page, table):
    log_in(page)
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("text=Vos clubs")
    start_play(page, table["night"], "thricewise", ["Ana", "Ben", "Chloé", "Dev"])
    assert "Soleils" in page.locator("#cell-0").inner_text()
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    assert "Tour 1 sur 8" in page.locator("#tw-turn").inner_text()
    reveal = {"Ana": "The Sailor", "Ben": "The Mountain", "Chloé": "The Pact"}
    turn = {
        "reveal": {**reveal, "Dev": "Ace of Waves"},  # the Sailor and the Mountain tie
        "place": [
            {"player": "Dev", "card": "Ace of Waves", "at": [2, 0]},
            {"player": "Chloé", "card": "The Pact", "at": [2, 1]},
        ],
    }
    for number, player in enumerate(["Ana", "Ben", "Chloé", "Dev"]):
        page.select_option(f"#reveal-{number}", turn["reveal"][player])
    swap(page, lambda: page.click("#reveal-cards"))
    assert "mise de côté" in page.locator("#tw-reveals").inner_text()
    for entry in turn["place"]:
        x, y = entry["at"]
        swap(page, lambda x=x, y=y: page.click(f"button[name=at][value='{x},{y}']"))
    assert Move.objects.get().data == turn
    assert "mises de côté" in page.locator("#tw-aside").inner_text()
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []
