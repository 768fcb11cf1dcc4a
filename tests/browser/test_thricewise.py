"""Thricewise in a real browser: the starting grid and each turn tapped in on a card picker, on a
phone in English and in French, every tap on the screen without scrolling; a refusal, a reload
and undo; a desktop pass. A turn is built on the phone (static/js/move-builder.js): its taps
make no request, and the finished turn is sent once, through the outbox.

Taps before this picker (main, November 2026, the same game thricewise-1 on a 390×844 phone, a
dropdown counted as two taps): the setup 13; the turns 11, 11, 11, 14, 21, 17 (85 in all).
Requests per turn before the turn was built on the phone: one per tap (6, 6, 6, 7, 12, 8);
since, one.
"""

import json
import re
from urllib.parse import parse_qs

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
    """Do ``action`` and wait until its answer is in place: the table (board and move panel),
    which every answer draws anew, replaced."""
    old = page.locator("#play-table").element_handle()
    action()
    old.wait_for_element_state("hidden")
    page.wait_for_selector("#play-table")


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


def slot(page, player: str):
    """A player's place in the reveal: data-holds is the card given to them."""
    return page.locator(f'#tw-slots .tw-slot[data-player="{player}"]')


def choice(move, entry) -> str:
    """Where the card of a placement is chosen: the placer's revealed card, or an older one."""
    if entry["card"] == move["reveal"][entry["player"]]:
        return f"#tw-place [data-choose][data-key='{entry['player']}'][data-required]"
    return f"#tw-place [data-choose][data-value='{entry['card']}']"


def place(page, move, entry) -> None:
    """One placement: its card when it is not the one ready, then its cell, drawn there at
    once."""
    card = page.locator(choice(move, entry))
    expect(card).to_have_attribute("data-player", entry["player"])
    if card.get_attribute("aria-pressed") != "true":  # an older set-aside card
        in_view(page, choice(move, entry)).click()
        expect(card).to_have_attribute("aria-pressed", "true")
    x, y = entry["at"]
    in_view(page, f"#tw-grid button[data-at='{x},{y}']").click()
    expect(page.locator(f"#tw-grid [data-at='{x},{y}']")).to_have_attribute(
        "data-holds", entry["card"]
    )


def build_turn(page, players, move) -> None:
    """The reveal (a card per player, in seat order), then each placement; no request."""
    for player in players:
        expect(page.locator("#tw-slots [aria-current=step]")).to_have_attribute(
            "data-player", player
        )
        in_view(page, f'#tw-deck button[name=pick][value="{move["reveal"][player]}"]').click()
        expect(slot(page, player)).to_have_attribute("data-holds", move["reveal"][player])
    for entry in move.get("place") or []:
        place(page, move, entry)


def enter_turn(page, players, move) -> int:
    """The turn built on the phone, then "Enter turn N" (the one request); the taps it took."""
    page.taps = 0
    build_turn(page, players, move)
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
    in_view(page, '#tw-deck button[name=pick][value="The Sailor"]').click()
    expect(page.locator("#tw-slots [aria-current=step]")).to_have_attribute("data-player", "Ben")

    # A reload: the card given to Ana is still hers (kept on the phone).
    page.reload()
    expect(slot(page, "Ana")).to_have_attribute("data-holds", "The Sailor")

    # A move the referee refuses (typed as JSON, the one way to enter one): its message is where
    # the player looks, and the card given to Ana is kept: Ben's card is the one tap left.
    page.click("#move-json-box summary")
    page.fill("#move-json", json.dumps({"reveal": {"Ana": "The Sea", "Ben": "The Mill"}}))
    swap(page, lambda: page.click("#enter-json"))
    expect(page.locator("#move-error")).to_contain_text("Ana cannot reveal The Sea")
    expect(page.locator("#move-error")).to_be_in_viewport()
    page.evaluate("window.scrollTo(0, 0)")
    expect(slot(page, "Ana")).to_have_attribute("data-holds", "The Sailor")
    page.taps = 0
    in_view(page, '#tw-deck button[name=pick][value="The Castle"]').click()
    assert page.taps == 1
    # A wrong card is taken back from the reveal in one tap, and given again in one.
    in_view(page, "#tw-reveals li[data-player='Ben'] [data-slot-clear]").click()
    expect(slot(page, "Ben")).not_to_have_attribute("data-holds", "The Castle")
    in_view(page, '#tw-deck button[name=pick][value="The Mill"]').click()
    expect(page.locator("#tw-reveals li[data-state=current]")).to_have_attribute(
        "data-player", "Ana"
    )
    expect(page.locator("#tw-reveals li[data-state=current]")).to_contain_text("placing now")

    # Half the turn placed, then a reload: the card placed is still on the board.
    in_view(page, "#tw-grid button[data-at='2,0']").click()
    page.reload()
    expect(page.locator("#tw-grid [data-holds='The Sailor']")).to_have_attribute("data-at", "2,0")
    in_view(page, "#tw-grid button[data-at='3,0']").click()
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


def state_of(play):
    """The referee's game as the play stands."""
    from referee.thricewise import Thricewise

    names = [seat.player.name for seat in play.seats.order_by("position")]
    state = Thricewise.from_setup(names, play.setup)
    for move in play.moves.filter(undone_at__isnull=True).order_by("seq"):
        state.commit(state.plan(move.data))
    return state


def offered_cells(page) -> list[tuple[int, int]]:
    """The cells of the board a tap may place a card on now, by row then column."""
    cells = page.eval_on_selector_all(
        "#tw-grid button.tw-free:enabled", "cells => cells.map(cell => cell.dataset.at)"
    )
    return sorted((tuple(int(v) for v in at.split(",")) for at in cells), key=lambda c: c[::-1])


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
    in_view(page, '#tw-deck button[name=pick][value="The Mountain"]').click()
    in_view(page, '#tw-deck button[name=pick][value="The Merchant"]').click()
    columns = page.locator("#tw-grid .tw-column-label:not([hidden])").count()
    assert columns == 7, columns
    RESULTS.mkdir(exist_ok=True)
    page.screenshot(path=str(RESULTS / f"thricewise-phone-{language}-seven-columns.png"))
    assert_no_horizontal_scroll(page)
    assert_names_whole(page)
    for cell in page.locator("#tw-grid button.tw-free:not([hidden])").all():
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844
    # The cells the phone offers are the referee's, the grid at its 6 × 6 limit (a fifth
    # column or row of the cards' box may be the last), before and after a card is placed.
    state = state_of(play)
    assert offered_cells(page) == state.legal_cells()
    first = offered_cells(page)[0]
    in_view(page, f"#tw-grid button[data-at='{first[0]},{first[1]}']").click()
    assert offered_cells(page) == state.legal_cells([first])
    in_view(page, "#start-over").click()

    _fill_the_grid(play, 16, 3)
    page.reload()
    assert page.locator("#tw-grid .tw-card").count() == 36
    assert page.locator("#tw-grid .tw-column-label:not([hidden])").count() == 6
    page.screenshot(path=str(RESULTS / f"thricewise-phone-{language}-full-grid.png"))
    assert_no_horizontal_scroll(page)
    assert_names_whole(page)


def shown_board(page) -> list:
    """What the board shows: each cell and label on the screen, its card and whether it can be
    tapped."""
    return page.eval_on_selector_all(
        "#tw-grid > :not([hidden])",
        """nodes => nodes.map(node => [node.dataset.at || node.textContent.trim(),
            node.dataset.card || node.dataset.holds || "", node.matches(':enabled')])""",
    )


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
    board = shown_board(page)

    # Half a turn, then Start over: nothing stored, the board as it was.
    in_view(page, '#tw-deck button[name=pick][value="The Mill"]').click()
    in_view(page, '#tw-deck button[name=pick][value="The Pact"]').click()
    in_view(page, "#tw-grid button[data-at='3,0']").click()
    assert page.locator("#tw-grid [data-holds]").count() == 1
    assert shown_board(page) != board
    in_view(page, "#start-over").click()
    assert shown_board(page) == board
    assert page.locator("#tw-slots [aria-current=step]").get_attribute("data-player") == "Ana"
    assert Move.objects.count() == 1

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
    expect(page.locator(deck.format("The Lunatic"))).to_have_accessible_name(
        "The Lunatic — 6 · Moons, Waves (card 3 of the grid)"
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


# A turn built on the phone (issue 28) ----------------------------------------------------------

#: thricewise-1's fifth turn: three players set aside, Dev places two older set-aside cards
#: around the one he revealed, then Chloé hers
TURN_5 = GAME["moves"][4]


def turn_five(page, table):
    """thricewise-1 with its first four turns entered, open on the phone."""
    from .test_play_page import example_play

    play, _log = example_play(table, "thricewise-1", 4)
    log_in(page)
    page.goto(f"/plays/{play.pk}/")
    return play


def test_a_whole_turn_is_built_with_no_request_and_sent_in_one(page, table):
    turn_five(page, table)
    # The requests a tap might make: the page's static files and its live stream (which may
    # connect late) aside.
    requests = []
    page.on("request", lambda r: re.search("/static/|/events/", r.url) or requests.append(r))
    build_turn(page, GAME["players"], TURN_5)
    # Who places and what, said as the server said it, with no request.
    expect(page.locator("#tw-reveals li[data-state=current]")).to_have_attribute(
        "data-player", "Chloé"
    )
    expect(page.locator("#tw-reveals li[data-player=Dev]")).to_contain_text("placed")
    expect(page.locator("#tw-reveals li[data-player=Ana]")).to_contain_text("set aside")
    expect(page.locator("#tw-grid [data-holds]")).to_have_count(4)
    assert requests == []

    tap(page, "#enter-turn")
    sent = [request for request in requests if request.url.endswith("/move/")]
    assert len(sent) == 1 and len(requests) == 1, [r.url for r in requests]
    assert json.loads(parse_qs(sent[0].post_data)["move_json"][0]) == TURN_5
    assert [move.data for move in Move.objects.order_by("seq")] == GAME["moves"][:5]
    expect(page.locator("#tw-grid [data-holds]")).to_have_count(0)
    expect(page.locator("#tw-grid .tw-last")).to_have_count(4)
    assert page.js_errors == []


def test_a_turn_built_offline_waits_in_the_outbox_and_is_stored_once(page, table):
    turn_five(page, table)
    page.context.set_offline(True)
    expect(page.locator("#connection")).to_be_visible()
    page.taps = 0
    build_turn(page, GAME["players"], TURN_5)  # every tap shows without the network
    in_view(page, "#enter-turn").click()
    assert page.taps == TURN_TAPS[4]
    outbox = page.locator("#outbox")
    expect(outbox).to_have_attribute("data-waiting", "1")
    expect(outbox.locator("[data-outbox-text]")).to_have_text(
        "No connection — 1 move waiting; it will be checked when the connection returns."
    )
    assert Move.objects.count() == 4

    page.context.set_offline(False)
    expect(page.locator("#move-log > li:not(.undone)")).to_have_count(5)
    expect(outbox).to_have_attribute("data-waiting", "0")
    assert [move.data for move in Move.objects.order_by("seq")] == GAME["moves"][:5]
    expect(page.locator("#tw-slots [aria-current=step]")).to_have_attribute("data-player", "Ana")
    assert page.js_errors == []


def test_a_whole_game_with_the_network_cut_for_part_of_it(page, table):
    """The five-player game on a phone that loses its network for turns 3 to 5: each turn is
    built as ever (past the options the page has once a turn waits: every card not on the
    table shown may be revealed, the referee judges), waits in the outbox, counted, and all
    three are stored once, in order, when the network returns; the game ends with the scores
    of the one tapped online."""
    log_in(page)
    start_play(page, table["night"], "thricewise", GAME["players"])
    enter_setup(page, GAME["setup"]["grid"])
    outbox = page.locator("#outbox")
    keys = []
    page.on(
        "request",
        lambda r: r.url.endswith("/move/") and keys.append(r.headers.get("idempotency-key")),
    )
    offline = (3, 4, 5)
    for number, move in enumerate(GAME["moves"], start=1):
        if number in offline:
            if number == offline[0]:
                page.context.set_offline(True)
                expect(page.locator("#connection")).to_be_visible()
            build_turn(page, GAME["players"], move)
            in_view(page, "#enter-turn").click()
            waiting = number - offline[0] + 1
            expect(outbox).to_have_attribute("data-waiting", str(waiting))
            expect(outbox.locator("[data-outbox-text]")).to_contain_text(
                f"No connection — {waiting} move"
            )
            assert Move.objects.count() == offline[0] - 1
            if number == offline[-1]:
                page.context.set_offline(False)
                expect(outbox).to_have_attribute("data-waiting", "0")
                expect(page.locator("#move-log > li:not(.undone)")).to_have_count(number)
            else:
                continue
        else:
            enter_turn(page, GAME["players"], move)
        assert [m.data for m in Move.objects.order_by("seq")] == GAME["moves"][:number]
    page.wait_for_selector("#result")
    scores = {
        row.get_attribute("data-player"): int(row.locator(".score").inner_text())
        for row in page.locator("#scores tbody tr").all()
    }
    assert scores == EXPECTED["scores"]
    assert len(keys) == len(set(keys)) == len(GAME["moves"])  # a request each, sent once
    assert page.js_errors == []
