"""Thricewise in a real browser: the starting grid and each turn tapped in on a card picker, on a
phone in English and in French, every tap on the screen without scrolling; a refusal, a reload
and undo; a desktop pass.

Taps before this picker (main, November 2026, the same game thricewise-1 on a 390×844 phone, a
dropdown counted as two taps): the setup 13; the turns 11, 11, 11, 14, 21, 17 (85 in all).
"""

import json
import re

import pytest
from playwright.sync_api import expect

from games.models import Move
from tests.examples import EXAMPLES

from .conftest import RESULTS, assert_no_horizontal_scroll, in_view, log_in, start_play

GAME = json.loads((EXAMPLES / "thricewise-1.json").read_text())
EXPECTED = json.loads((EXAMPLES / "thricewise-1.expected.json").read_text())
#: the taps per turn of thricewise-1 with the picker: a card per player, a cell per card placed,
#: the confirmation, and (turn 5) a tap on each of Dev's older set-aside cards he places
TURN_TAPS = [6, 6, 6, 7, 12, 8]


def swap(page, action) -> None:
    """Do ``action`` and wait until htmx has swapped in the new play fragment."""
    old = page.locator("#play-main").element_handle()
    action()
    old.wait_for_element_state("hidden")
    page.wait_for_selector("#play-main")


def tap(page, selector: str) -> None:
    """One tap on the play page (on the screen, not scrolled: see ``in_view``), then the swap."""
    swap(page, lambda: in_view(page, selector).click())


def enter_setup(page, grid) -> int:
    """Tap the starting cards in the picker, then "Start the play"; the taps it took."""
    page.taps = 0
    for entry in grid:
        in_view(page, f'#setup-deck button[data-cell="{entry["card"]}"]').click()
    in_view(page, "#start-play").click()
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    return page.taps


def enter_turn(page, players, move) -> int:
    """The reveal (a card per player, in seat order), each placement (the card when it is not
    the one ready, then its cell), then "Enter turn N"; the taps it took."""
    page.taps = 0
    for player in players:
        next_slot = page.locator("#tw-slots .tw-slot-next")
        assert next_slot.get_attribute("data-player") == player
        tap(page, f'#tw-deck button[name=pick][value="{move["reveal"][player]}"]')
    for entry in move.get("place") or []:
        choice = f"#tw-place label[data-card='{entry['card']}']"
        assert page.locator(choice).get_attribute("data-player") == entry["player"]
        if not page.locator(f"{choice} input").is_checked():  # an older set-aside card
            in_view(page, choice).click()
        x, y = entry["at"]
        tap(page, f"button[name=at][value='{x},{y}']")
    tap(page, "#enter-turn")
    return page.taps


def french(page) -> None:
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("text=Vos clubs")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_whole_five_player_game_tapped_in_on_a_phone(page, table, language):
    log_in(page)
    if language == "fr":
        french(page)
    start_play(page, table["night"], "thricewise", GAME["players"])
    assert page.locator("#setup-deck button[data-cell]").count() == 36
    assert page.locator("select[name^=cell_]").count() == 6  # the lists, driven by the picker
    assert_no_horizontal_scroll(page)
    assert_names_whole(page, "#setup-deck")
    assert enter_setup(page, GAME["setup"]["grid"]) == 7  # six cards, then "Start the play"
    assert page.locator("#tw-grid .tw-card").count() == 6
    assert_no_horizontal_scroll(page)
    assert_names_whole(page, "#tw-deck")

    taps = []
    for number, move in enumerate(GAME["moves"]):
        taps.append(enter_turn(page, GAME["players"], move))
        assert Move.objects.count() == number + 1
        assert Move.objects.order_by("seq").last().data == move
        assert_no_horizontal_scroll(page)
        if number == 3:
            RESULTS.mkdir(exist_ok=True)
            page.screenshot(path=str(RESULTS / f"thricewise-phone-{language}-mid-game.png"))
    print(f"Thricewise taps ({language}): setup 7, turns {taps}")
    assert taps == TURN_TAPS
    for move, count in zip(GAME["moves"], taps, strict=True):
        placed = len(move.get("place") or [])
        older = 2 if placed == 4 else 0  # turn 5: Dev places The Painter and The Discovery
        assert count <= len(GAME["players"]) + placed + 1 + older

    page.wait_for_selector("#result")
    page.screenshot(path=str(RESULTS / f"thricewise-phone-{language}-finished.png"))
    scores = {
        row.get_attribute("data-player"): int(row.locator(".score").inner_text())
        for row in page.locator("#scores tbody tr").all()
    }
    assert scores == EXPECTED["scores"]
    winners = "Winners: Eli" if language == "en" else "Vainqueurs : Eli"
    assert page.locator("#result").inner_text().replace("\u202f", " ") == winners
    totals = page.locator("#tw-sheet tfoot td")
    assert [int(t) for t in totals.all_inner_texts()] == list(EXPECTED["scores"].values())
    aside = page.locator("#tw-aside li[data-player='Dev'] .tw-chip")
    assert aside.count() == len(EXPECTED["details"]["set_aside"]["Dev"])
    assert page.locator("#move-form").count() == 0
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []


GRID = [
    {"card": "The Huntress", "at": [0, 0]},
    {"card": "The Bard", "at": [1, 0]},
    {"card": "The Sea", "at": [0, 1]},
    {"card": "The End", "at": [1, 1]},
]


def start_duel(page, table) -> None:
    log_in(page)
    start_play(page, table["night"], "thricewise", ["Ana", "Ben"])
    enter_setup(page, GRID)


def test_a_refused_move_and_a_reload_keep_the_turn_being_entered(page, table):
    start_duel(page, table)
    tap(page, '#tw-deck button[name=pick][value="The Sailor"]')
    expect(page.locator("#tw-slots .tw-slot-next")).to_have_attribute("data-player", "Ben")

    # A reload: the card given to Ana is still hers.
    page.reload()
    expect(page.locator('#tw-slots .tw-slot[data-player="Ana"]')).to_have_attribute(
        "data-card", "The Sailor"
    )

    # A move the referee refuses (typed as JSON, the one way to enter one): its message is where
    # the player looks, and the card given to Ana is kept: Ben's card is the one tap left.
    page.click("#move-json-box summary")
    page.fill("#move-json", json.dumps({"reveal": {"Ana": "The Sea", "Ben": "The Mill"}}))
    swap(page, lambda: page.click("#enter-json"))
    expect(page.locator("#move-error")).to_contain_text("Ana cannot reveal The Sea")
    expect(page.locator("#move-error")).to_be_in_viewport()
    page.evaluate("window.scrollTo(0, 0)")
    expect(page.locator('#tw-slots .tw-slot[data-player="Ana"]')).to_have_attribute(
        "data-card", "The Sailor"
    )
    page.taps = 0
    tap(page, '#tw-deck button[name=pick][value="The Castle"]')
    assert page.taps == 1
    # A wrong card is taken back from the reveal in one tap, and given again in one.
    tap(page, "#tw-reveals li[data-player='Ben'] button[name=unreveal]")
    tap(page, '#tw-deck button[name=pick][value="The Mill"]')
    expect(page.locator("#tw-reveals li.tw-current")).to_have_attribute("data-player", "Ana")

    # Half the turn placed, then a reload: the pending card is still on the board.
    tap(page, "button[name=at][value='2,0']")
    page.reload()
    expect(page.locator("#tw-grid .tw-pending[data-card='The Sailor']")).to_have_count(1)
    tap(page, "button[name=at][value='3,0']")
    tap(page, "#enter-turn")
    assert Move.objects.get().data == {
        "reveal": {"Ana": "The Sailor", "Ben": "The Mill"},
        "place": [
            {"player": "Ana", "card": "The Sailor", "at": [2, 0]},
            {"player": "Ben", "card": "The Mill", "at": [3, 0]},
        ],
    }
    assert page.js_errors == []


def _fill_the_grid(play, turns: int, side: int) -> None:
    """Play the duel on GRID up to ``turns`` turns, filling the square from -2 to ``side``
    (x and y), middle first: every pair of cards of different ranks, so that nobody sets a card
    aside."""
    from games import services
    from games.ui.thricewise import TurnDraft
    from referee.thricewise import RANK, Thricewise, parse_card

    state = Thricewise.from_setup(["Ana", "Ben"], {"grid": GRID})
    unseen = sorted(state.unseen_cards(), key=lambda name: RANK[parse_card(name)])
    pairs = [(unseen[i], unseen[i + 16]) for i in range(16)]
    for move in play.moves.order_by("seq"):
        state.commit(state.plan(move.data))
    for ana, ben in pairs[state.turn : turns]:
        draft = TurnDraft(state, ["Ana", "Ben"], {"reveal": {"Ana": ana, "Ben": ben}})
        while draft.placer:
            cells = [c for c in draft.legal_cells() if min(c) >= -2 and max(c) <= side]
            cell = min(cells, key=lambda c: (abs(c[0] - 0.5) + abs(c[1] - 0.5), c[1], c[0]))
            draft.put(draft.ready_card(), cell)
            if draft.placer and draft.has_placed_revealed(draft.placer):
                draft.finish_group()
        services.record_move(play=play, move=draft.move())
        state.commit(state.plan(draft.move()))


def assert_names_whole(page, where: str = "#tw-grid") -> None:
    """Every card name and rank on the board (or in a picker) is shown whole: not cut by its
    card, not broken in a word."""
    cut = page.evaluate(
        """where => [...document.querySelectorAll(`${where} :is(.tw-name, .tw-rank)`)]
        .filter(name => {
            const cell = name.closest('.tw-cell, .tw-pick').getBoundingClientRect();
            const box = name.getBoundingClientRect();
            const words = name.textContent.trim().split(/\\s+/).length;
            const lines = Math.round(box.height / parseFloat(getComputedStyle(name).lineHeight));
            return name.scrollWidth > name.clientWidth + 0.5 || box.left < cell.left - 0.5
                || box.right > cell.right + 0.5 || box.bottom > cell.bottom + 0.5
                || lines > words;
        }).map(name => {
            const width = box => Math.round(box.getBoundingClientRect().width);
            return `${name.textContent} (${width(name)} px in ${
                width(name.closest('.tw-cell, .tw-pick'))})`;
        })""",
        where,
    )
    assert cut == [], f"card names cut in {where}: {cut}"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_full_six_by_six_grid_fits_a_phone_with_whole_names(page, table, language):
    from games.models import Play

    log_in(page)
    if language == "fr":
        french(page)
    start_play(page, table["night"], "thricewise", ["Ana", "Ben"])
    enter_setup(page, GRID)
    play = Play.objects.get()
    _fill_the_grid(play, 9, 2)  # 22 cards: 5 wide, 5 tall, so that the free cells ring it to 7
    page.reload()
    tap(page, '#tw-deck button[name=pick][value="The Mountain"]')
    tap(page, '#tw-deck button[name=pick][value="The Merchant"]')
    columns = page.locator("#tw-grid .tw-column-label").count()
    assert columns == 7, columns
    RESULTS.mkdir(exist_ok=True)
    page.screenshot(path=str(RESULTS / f"thricewise-phone-{language}-seven-columns.png"))
    assert_no_horizontal_scroll(page)
    assert_names_whole(page)
    for cell in page.locator("#tw-grid button.tw-free").all():
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844
    tap(page, "#start-over")

    _fill_the_grid(play, 16, 3)
    page.reload()
    assert page.locator("#tw-grid .tw-card").count() == 36
    assert page.locator("#tw-grid .tw-column-label").count() == 6
    page.screenshot(path=str(RESULTS / f"thricewise-phone-{language}-full-grid.png"))
    assert_no_horizontal_scroll(page)
    assert_names_whole(page)


def test_a_turn_start_over_and_undo_on_a_desktop(desktop_page, table):
    page = desktop_page
    start_duel(page, table)
    assert page.locator("#tw-grid .tw-card").count() == 4
    turn = {
        "reveal": {"Ana": "The Sailor", "Ben": "The Castle"},
        "place": [
            {"player": "Ana", "card": "The Sailor", "at": [2, 0]},
            {"player": "Ben", "card": "The Castle", "at": [-1, 1]},
        ],
    }
    assert enter_turn(page, ["Ana", "Ben"], turn) == 5
    assert Move.objects.get().data == turn
    board = page.locator("#tw-grid").inner_html()

    # Half a turn, then Start over: nothing stored, the board as it was.
    tap(page, '#tw-deck button[name=pick][value="The Mill"]')
    tap(page, '#tw-deck button[name=pick][value="The Pact"]')
    tap(page, "button[name=at][value='3,0']")
    assert page.locator("#tw-grid .tw-pending").count() == 1
    tap(page, "#start-over")
    assert page.locator("#tw-grid").inner_html() == board
    assert page.locator("#tw-slots .tw-slot-next").get_attribute("data-player") == "Ana"

    tap(page, "#undo")
    assert Move.objects.filter(undone_at__isnull=True).count() == 0
    assert page.locator("#tw-grid .tw-card").count() == 4
    assert page.locator("#move-log li.undone").count() == 1
    page.screenshot(path=str(RESULTS / "thricewise-desktop-en.png"))
    assert page.js_errors == []


def test_a_starting_card_tapped_again_is_taken_back_and_its_place_filled_next(page, table):
    """The grid's cards are tapped in order; tapping a placed card again takes it back, and the
    next card tapped goes in its place; tapping a place of the grid makes it the next to fill."""
    log_in(page)
    start_play(page, table["night"], "thricewise", ["Ana", "Ben"])
    deck = "#setup-deck button[data-cell='{}']"
    for card in ("The Sailor", "The Mill", "The Cave"):
        page.click(deck.format(card))
    assert [page.input_value(f"#cell-{n}") for n in range(3)] == [
        "The Sailor", "The Mill", "The Cave"
    ]  # fmt: skip
    page.click(deck.format("The Sailor"))  # taken back
    assert page.input_value("#cell-0") == ""
    expect(page.locator("#setup-slot-0")).to_have_class(re.compile(r"\btap-current\b"))
    expect(page.locator("#tw-setup-status")).to_have_text("Taken back: card 1 of the grid is next.")
    page.click(deck.format("The Pact"))
    assert page.input_value("#cell-0") == "The Pact"
    page.click("#setup-slot-2")  # a placed card, to change
    page.click(deck.format("The Lunatic"))
    assert page.input_value("#cell-2") == "The Lunatic"
    expect(page.locator(deck.format("The Cave"))).not_to_have_class(re.compile(r"\btap-taken\b"))
    expect(page.locator(deck.format("The Lunatic"))).to_have_attribute(
        "aria-label", "The Lunatic — 6 · Moons, Waves (card 3 of the grid)"
    )
    assert page.js_errors == []


def test_a_turn_without_javascript(no_js_page, table):
    """Without JavaScript the starting grid is chosen in the lists, and the picker's cards,
    the cells and "Enter turn" are plain buttons of the form: the whole page comes back."""
    page = no_js_page
    log_in(page)
    start_play(page, table["night"], "thricewise", ["Ana", "Ben"])
    assert page.locator("#setup-deck").is_hidden()
    for number, entry in enumerate(GRID):
        page.select_option(f"#cell-{number}", entry["card"])
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    page.click('#tw-deck button[name=pick][value="The Sailor"]')
    page.click('#tw-deck button[name=pick][value="The Mill"]')
    page.click("button[name=at][value='2,0']")
    page.click("button[name=at][value='3,0']")
    page.click("#enter-turn")
    expect(page.locator("#move-log li")).to_have_count(1)
    assert Move.objects.get().data["place"] == [
        {"player": "Ana", "card": "The Sailor", "at": [2, 0]},
        {"player": "Ben", "card": "The Mill", "at": [3, 0]},
    ]
