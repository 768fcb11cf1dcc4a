"""Punto at the table: colours at setup, then each move as two taps (the card, then a cell)."""

import json

import pytest
from django.urls import reverse
from django.utils import translation

from games import jinja, services
from games.models import Move, Play, Seat
from games.ui import cell_label, ui_for
from games.ui.punto.board import _board, _card, _hand_card, _span
from games.ui.punto.table import draw_grid
from games.ui.punto.words import colour_names, label_origin
from referee import judge
from tests.dom import ANY, attr, chosen, classes, dom, find, find_all, text
from tests.examples import EXAMPLES

PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())


def shown_hands(node) -> list:
    """The hand's colours shown (the player to play's): the others are drawn hidden, for the
    phone while moves wait to be sent."""
    hands = find_all(node, "fieldset", class_="punto-hand")
    return [colour for colour in hands if "hidden" not in dict(colour.attributes)]


def builds(card: str, words: str) -> dict:
    """What the phone's builder reads on a hand's card (static/js/move-builder.js): the card it
    sets, offered if the referee's options list it, and how the outbox tells it; and what a
    keyboard types to reach it (static/js/play-keys.js): its value."""
    return {
        "data-set": "card", "data-string": "", "data-value": card, "data-offered": "cards",
        "data-label": words, "data-key-text": card.split("-")[1],
    }  # fmt: skip


pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def db_state():
    return (
        list(Move.objects.values_list("play_id", "seq", "undone_at")),
        list(Seat.objects.values_list("score", "rank", "is_winner")),
        list(Play.objects.values_list("status", "details")),
    )


def tap(client, play, data, *, draft=None, htmx=True):
    seq = play.moves.count()
    return client.post(
        reverse("play-move", args=[play.pk]),
        {"version": seq, "draft": json.dumps(draft) if draft else "", **data},
        headers=HTMX if htmx else {},
    )


def enter(client, play, move):
    """The taps a player makes for one logged move: the card, then the cell (or blocked)."""
    response = tap(client, play, {"card": move["card"]})
    assert response.status_code == 200, response.content.decode()
    draft = {"player": move["player"], "card": move["card"]}
    if move.get("blocked"):
        return tap(client, play, {"blocked": "1"}, draft=draft)
    x, y = move["at"]
    return tap(client, play, {"at": f"{x},{y}"}, draft=draft)


# Setup ----------------------------------------------------------------------------------------


def setup_url(night, seats):
    query = "&".join(f"seat={p.pk}" for p in seats)
    return f"{reverse('play-setup', args=[night.pk])}?game=punto&{query}"


def post_setup(client, night, seats, data):
    return client.post(
        reverse("play-setup", args=[night.pk]),
        {"game": "punto", "seat": [p.pk for p in seats], **data},
    )


def test_setup_prefills_red_blue_against_orange_green_for_two(member_client, night, players):
    page = dom(member_client.get(setup_url(night, players[:2])))
    colours = find(page, "fieldset", id="punto-colours")
    # each select chooses one colour, the one the rules give
    assert {attr(select, "name"): chosen(colours, attr(select, "name"))
            for select in find_all(colours, "select")} == {
        "colour-0-0": ["red"], "colour-0-1": ["blue"],
        "colour-1-0": ["orange"], "colour-1-1": ["green"],
    }  # fmt: skip


def test_default_colours_for_three_and_four_players_are_one_each():
    from games.ui import ui_for

    assert ui_for("punto").default_setup(["A", "B", "C"]) == {
        "colours": {"A": ["red"], "B": ["orange"], "C": ["blue"]}
    }
    four = ui_for("punto").default_setup(["A", "B", "C", "D"])["colours"]
    assert list(four.values()) == [["red"], ["orange"], ["blue"], ["green"]]


def test_setup_for_three_gives_one_colour_each_and_names_the_neutral(member_client, night, players):
    page = dom(member_client.get(setup_url(night, players)))
    colours = find(page, "fieldset", id="punto-colours")
    assert [attr(select, "name") for select in find_all(colours, "select")] == [
        "colour-0-0", "colour-1-0", "colour-2-0",
    ]  # fmt: skip
    assert not find_all(page, None, name="colour-0-1")
    hint = find(colours, "p", class_="punto-hint")
    assert "the fourth colour is neutral" in text(hint)


def test_setup_form_starts_the_play_with_the_chosen_colours(member_client, night, players):
    ana, ben, chloe = players
    response = post_setup(
        member_client,
        night,
        players,
        {"colour-0-0": "green", "colour-1-0": "red", "colour-2-0": "blue"},
    )
    play = Play.objects.get()
    assert response["Location"] == reverse("play", args=[play.pk])
    assert play.setup == {"colours": {"Ana": ["green"], "Ben": ["red"], "Chloé": ["blue"]}}


def test_setup_with_a_colour_given_twice_shows_the_referees_message(member_client, night, players):
    response = post_setup(
        member_client,
        night,
        players[:2],
        {"colour-0-0": "red", "colour-0-1": "blue", "colour-1-0": "red", "colour-1-1": "green"},
    )
    assert response.status_code == 422
    assert "Red is given twice" in text(find(dom(response), "p", id="setup-error"))
    assert Play.objects.count() == 0


@pytest.mark.parametrize("value", ["", "purple"])
def test_setup_with_a_missing_or_tampered_colour_says_so(member_client, night, players, value):
    response = post_setup(
        member_client,
        night,
        players[:2],
        {"colour-0-0": "red", "colour-0-1": value, "colour-1-0": "orange", "colour-1-1": "green"},
    )
    assert response.status_code == 422
    assert text(find(dom(response), "p", id="setup-error")) == "Choose Ana's colours."
    assert Play.objects.count() == 0


# Move entry -----------------------------------------------------------------------------------


def test_the_card_picker_offers_the_players_colours_with_copies_left(member_client, punto):
    page = dom(member_client.get(reverse("play", args=[punto.pk])))
    assert text(find(page, "p", id="punto-turn")) == "Ana drew:"
    form = find(page, "form", id="move-form")
    hand = shown_hands(form)
    assert [text(find(colour, "legend")) for colour in hand] == ["Red", "Blue"]
    offered = [[attr(button, "value") for button in find_all(colour, "button")] for colour in hand]
    assert offered == [
        [f"{colour}-{value}" for value in range(1, 10)] for colour in ("red", "blue")
    ]
    # the buttons offered are those of the hand, each a card to submit
    assert find_all(page, None, name="card") == find_all(form, "button", type="submit", name="card")
    # Ben's colours are drawn hidden, for the phone while moves wait (who drew is asked then)
    ben = [f for f in find_all(form, "fieldset", class_="punto-hand") if f not in hand]
    assert [text(find(colour, "legend")) for colour in ben] == ["Orange", "Green"]
    assert {attr(colour, "data-players") for colour in ben} == {'["Ben"]'}
    assert all("hidden" in dict(colour.attributes) for colour in ben)
    assert text(find(page, "p", id="punto-round")) == "Round 1 · Ana to play"
    assert "The table is empty" in text(find(page, "p", id="punto-empty"))


@pytest.mark.parametrize("htmx", [True, False])
def test_first_card_of_a_round_offers_the_centre_cell(member_client, punto, htmx):
    response = tap(member_client, punto, {"card": "red-1"}, htmx=htmx)
    page = dom(response)
    assert response.status_code == 200
    assert (page.name == "html") is not htmx
    # one cell to tap, the centre, a button of the grid that submits the move form
    (centre,) = find_all(page, None, name="at")
    assert centre in find_all(find(page, "div", role="grid"), "button", form="move-form")
    assert (attr(centre, "type"), attr(centre, "value")) == ("submit", "0,0")
    draft = find(find(page, "form", id="move-form"), "input", type="hidden", name="draft")
    assert json.loads(attr(draft, "value")) == {"player": "Ana", "card": "red-1"}
    assert punto.moves.count() == 0


def test_the_cell_tap_stores_the_complete_move(member_client, punto):
    response = tap(member_client, punto, {"at": "0,0"}, draft={"player": "Ana", "card": "red-1"})
    assert response.status_code == 200
    assert punto.moves.get().data == {"player": "Ana", "card": "red-1", "at": [0, 0]}
    assert text(find(dom(response), "p", id="punto-turn")) == "Ben drew:"


def test_without_javascript_the_cell_tap_redirects_to_the_play(member_client, punto):
    response = tap(
        member_client, punto, {"at": "0,0"}, draft={"player": "Ana", "card": "red-1"}, htmx=False
    )
    assert response.status_code == 302
    assert punto.moves.count() == 1


def test_only_legal_cells_are_offered_and_covering_shows_the_card_under(member_client, punto):
    for move in PUNTO["moves"][:2]:  # red-1 at (0,0), orange-1 at (0,1)
        enter(member_client, punto, move)
    page = dom(tap(member_client, punto, {"card": "red-2"}))
    buttons = find_all(find(page, "div", role="grid"), "button", name="at")
    assert find_all(page, None, name="at") == buttons  # no cell offered but in the grid
    cells = {attr(button, "value") for button in buttons}
    # the 8 + 8 neighbours minus the 2 cards, and both cards (lower than 2) to cover
    assert len(buttons) == len(cells) == 12 and {"0,0", "0,1", "-1,-1", "1,2"} <= cells
    covers = [attr(button, "value") for button in find_all(page, "button", class_="cover")]
    assert sorted(covers) == ["0,0", "0,1"]
    # the board labels the cells: the round's first card is F6
    cover = find(page, "button", name="at", value="0,1")
    assert attr(cover, "aria-label") == "Cover the orange 1 at F7 with the red 2"
    # the orange 1, the last card played, still marked so under the tap
    assert classes(cover) == {
        "punto-cell", "punto-card", "punto-orange", "legal", "cover", "last-move",
    }  # fmt: skip


def test_a_card_that_cannot_cover_is_not_offered_on_that_cell(member_client, punto):
    enter(member_client, punto, PUNTO["moves"][0])
    page = dom(tap(member_client, punto, {"card": "orange-1"}))
    assert len(find_all(page, "button", name="at")) == 8  # the cells around it are offered
    assert not find_all(page, None, name="at", value="0,0")
    # the red 1 is drawn, not tapped
    assert find(page, "span", role="gridcell", data_at="0,0", data_card="red-1")


def test_copies_left_this_round_are_shown_and_none_left_is_disabled(member_client, punto):
    enter(member_client, punto, {"player": "Ana", "card": "red-5", "at": [0, 0]})
    enter(member_client, punto, {"player": "Ben", "card": "orange-1", "at": [1, 0]})
    enter(member_client, punto, {"player": "Ana", "card": "red-5", "at": [2, 0]})
    enter(member_client, punto, {"player": "Ben", "card": "orange-1", "at": [3, 0]})
    page = dom(member_client.get(reverse("play", args=[punto.pk])))
    red_5, red_4 = (find(page, "button", name="card", value=card) for card in ("red-5", "red-4"))
    hand = shown_hands(page)
    assert [b for colour in hand for b in find_all(colour, "button", disabled=None)] == [red_5]
    assert dict(red_5.attributes) == {
        "type": "submit", "name": "card", "value": "red-5", "class": attr(red_5, "class"),
        "disabled": None, "aria-label": "red 5, 0 copies left", **builds("red-5", "red 5"),
    }  # fmt: skip
    assert classes(red_5) == {"punto-pick", "punto-red"}
    assert text(find(red_5, "small")) == "×0"
    assert attr(red_4, "aria-label") == "red 4, 2 copies left"
    assert text(find(red_4, "small")) == "×2"


def test_the_drawn_span_is_the_cards_plus_one_each_side_up_to_the_full_box():
    assert list(_span(0, 0)) == [-1, 0, 1]  # one card: room on both sides
    assert list(_span(0, 4)) == [-1, 0, 1, 2, 3, 4, 5]  # 5 wide: either side may still grow
    assert list(_span(0, 5)) == [0, 1, 2, 3, 4, 5]  # 6 wide: the full box, nothing beyond
    assert list(_span(-3, 2)) == [-3, -2, -1, 0, 1, 2]  # wherever the box stands


def test_the_cells_one_ring_further_are_where_one_more_card_may_grow_the_table():
    assert list(_span(0, 0, 2)) == [-2, -1, 0, 1, 2]
    assert list(_span(0, 3, 2)) == [-2, -1, 0, 1, 2, 3, 4, 5]  # either side, not both
    assert list(_span(0, 4, 2)) == [-1, 0, 1, 2, 3, 4, 5]  # the box allows one more only
    assert list(_span(0, 5, 2)) == [0, 1, 2, 3, 4, 5]


def test_a_table_built_on_while_moves_wait_draws_one_ring_further_for_them_alone():
    """Issue 28: while moves wait in the outbox the table shown is behind; a card may go one
    ring further than the drawn ring. Those cells are buttons marked ``further`` (the template
    shows them only while moves wait), within the 6 × 6 box."""
    cells = {(0, 0): "red-1", (1, 0): "blue-2"}
    near = _board(cells, legal=set(), every_cell=True)
    board = _board(cells, legal=set(), every_cell=True, further=True)
    assert [len(row["cells"]) for row in near["rows"]] == [4, 4, 4]
    assert [len(row["cells"]) for row in board["rows"]] == [6] * 5
    assert [row["further"] for row in board["rows"]] == [True, False, False, False, True]
    further = {cell["at"] for row in board["rows"] for cell in row["cells"] if cell["further"]}
    drawn = {cell["at"] for row in near["rows"] for cell in row["cells"]}
    every = {cell["at"] for row in board["rows"] for cell in row["cells"]}
    assert further == every - drawn and len(further) == 30 - 12
    assert all(cell["candidate"] for row in board["rows"] for cell in row["cells"])
    # a full box grows no further
    full = {(x, y): "red-1" for x in range(6) for y in range(6)}
    box = _board(full, legal=set(), every_cell=True, further=True)
    assert not any(cell["further"] for row in box["rows"] for cell in row["cells"])


def test_a_full_box_draws_exactly_its_six_by_six_cells():
    cells = {(x, y): "red-1" for x in range(-2, 4) for y in range(6)}
    board = _board(cells, legal=set())
    assert [[cell["at"] for cell in row["cells"]] for row in board["rows"]] == [
        [f"{x},{y}" for x in range(-2, 4)] for y in range(6)
    ]
    assert board["full_width"] and board["full_height"]
    assert all(cell["in_box"] for row in board["rows"] for cell in row["cells"])


def test_a_full_width_strip_still_draws_a_row_above_and_below():
    board = _board({(x, 0): "red-1" for x in range(6)}, legal=set())
    assert [len(row["cells"]) for row in board["rows"]] == [6, 6, 6]
    assert [row["cells"][0]["y"] for row in board["rows"]] == [-1, 0, 1]
    assert board["full_width"] and not board["full_height"]


def full_table_moves():
    """36 cards filling the 6 × 6 box row by row, colours cycling so that no two of a colour
    touch in a line (no round is won); Ana plays red and blue, Ben orange and green, in turn."""
    colours = ["red", "orange", "blue", "green"]
    used = dict.fromkeys(colours, 0)
    moves = []
    for y in range(6):
        for x in range(6):
            colour = colours[(x + 2 * y) % 4]
            value = min(2 + used[colour], 9)
            used[colour] += 1
            player = "Ana" if colour in ("red", "blue") else "Ben"
            moves.append({"player": player, "card": f"{colour}-{value}", "at": [x, y]})
    return moves


@pytest.fixture
def full_table(punto):
    for move in full_table_moves():
        services.record_move(play=punto, move=move)
    return punto


def test_a_full_table_shows_that_no_row_or_column_can_be_added(member_client, full_table):
    page = dom(member_client.get(reverse("play", args=[full_table.pk])))
    limit = find(page, "p", id="punto-limit")
    assert text(limit) == (
        "The cards span 6 × 6 of at most 6 × 6. No more columns or rows can be added."
    )
    assert text(find(limit, "strong")) == "No more columns or rows can be added."
    assert classes(find(page, "div", role="grid")) == {"punto-grid", "limit-x", "limit-y"}


def test_a_blocked_card_offers_the_blocked_button_and_ends_the_round(member_client, full_table):
    page = dom(tap(member_client, full_table, {"card": "red-1"}))
    blocked = find(find(page, "form", id="move-form"), "button", id="punto-blocked")
    assert (attr(blocked, "type"), attr(blocked, "name"), attr(blocked, "value")) == (
        "submit", "blocked", "1",
    )  # fmt: skip
    assert text(blocked) == "No legal cell: blocked"
    assert not find_all(page, None, name="at")
    response = tap(
        member_client, full_table, {"blocked": "1"}, draft={"player": "Ana", "card": "red-1"}
    )
    assert full_table.moves.last().data == {"player": "Ana", "card": "red-1", "blocked": True}
    page = dom(response)
    first = find(find(page, "table", id="punto-rounds"), "tr", data_round="1")
    assert [text(cell) for cell in find_all(first, "td")] == [
        "1", "nobody", "blocked: series counted", "—",
    ]  # fmt: skip
    assert text(find(page, "p", id="punto-round")) == "Round 2 · Ben to play"


def test_no_blocked_button_when_the_card_has_a_cell(member_client, punto):
    enter(member_client, punto, PUNTO["moves"][0])
    page = dom(tap(member_client, punto, {"card": "orange-5"}))
    assert not find_all(page, None, id="punto-blocked") and not find_all(page, None, name="blocked")
    assert find_all(page, "button", name="at")


def test_an_illegal_move_shows_the_referees_message_and_stores_nothing(member_client, punto):
    enter(member_client, punto, PUNTO["moves"][0])
    before = db_state()
    # a tampered cell: (5, 5) does not touch the red 1
    response = tap(member_client, punto, {"at": "5,5"}, draft={"player": "Ben", "card": "orange-1"})
    error = find(find(dom(response), "div", id="verdict"), "p", id="move-error")
    assert text(error).startswith("Round 1, card 2: the orange 1 cannot go at K11")
    assert db_state() == before


def test_a_card_of_another_players_colour_is_refused_by_the_referee(member_client, punto):
    response = tap(member_client, punto, {"at": "0,0"}, draft={"player": "Ana", "card": "green-3"})
    assert "Ana plays red and blue, not green" in text(find(dom(response), "p", id="move-error"))
    assert punto.moves.count() == 0


@pytest.mark.parametrize(
    "data, draft",
    [
        ({"card": "purple-3"}, None),
        ({"card": "red-10"}, None),
        ({"at": "0,0"}, None),
        ({"at": "zero"}, {"player": "Ana", "card": "red-1"}),
        ({"at": "0,0"}, {"player": "Zoé", "card": "red-1"}),
        ({}, {"player": "Ana", "card": "red-1"}),
    ],
)
def test_tampered_or_missing_input_gets_a_message_and_stores_nothing(
    member_client, punto, data, draft
):
    response = tap(member_client, punto, data, draft=draft)
    assert response.status_code == 200
    assert text(find(find(dom(response), "div", id="verdict"), "p", id="move-error"))
    assert punto.moves.count() == 0


def test_a_cell_that_is_no_cell_is_refused_saying_what_to_tap(member_client, punto):
    response = tap(member_client, punto, {"at": "zero"}, draft={"player": "Ana", "card": "red-1"})
    error = find(find(dom(response), "div", id="verdict"), "p", id="move-error")
    assert text(error) == "Tap one of the highlighted cells on the board."


def test_the_colours_are_named_in_the_language_of_each_page_in_turn():
    for language, red in (("en", "red"), ("fr", "rouge"), ("en", "red"), ("fr", "rouge")):
        with translation.override(language):
            assert colour_names()["red"] == red


def test_a_damaged_draft_gets_a_message(member_client, punto):
    response = member_client.post(
        reverse("play-move", args=[punto.pk]),
        {"version": 0, "draft": "{nope", "at": "0,0"},
        headers=HTMX,
    )
    assert "The form was damaged" in text(find(dom(response), "p", id="move-error"))


def test_change_the_card_drops_the_draft(member_client, punto):
    response = tap(member_client, punto, {"reset": "1"}, draft={"player": "Ana", "card": "red-1"})
    page = dom(response)
    assert text(find(page, "p", id="punto-turn")) == "Ana drew:"
    assert not find_all(page, None, id="punto-drafted")
    # no cell offered: on an empty table only the centre, for the phone once a card is tapped,
    # and the cells around it, shown only while moves wait to be sent (a second card built
    # while the first waits)
    cells = find_all(page, None, name="at")
    (centre,) = [cell for cell in cells if attr(cell, "data-when") is None]
    assert attr(centre, "value") == "0,0" and find_all(page, "button", name="at", disabled=ANY)
    around = [cell for cell in cells if attr(cell, "data-when") == "past"]
    assert sorted(attr(cell, "value") for cell in around) == sorted(
        f"{x},{y}" for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)
    )
    assert all("hidden" in dict(cell.attributes) for cell in around)
    draft = find(find(page, "form", id="move-form"), "input", type="hidden", name="draft")
    assert not attr(draft, "value")


def test_the_json_fallback_still_enters_a_move(member_client, punto):
    move = PUNTO["moves"][0]
    tap(member_client, punto, {"move_json": json.dumps(move)})
    assert punto.moves.get().data == move


# The whole match and the sheet ------------------------------------------------------------------


def test_a_whole_match_tapped_in_ends_with_the_winner_and_the_rounds(member_client, punto):
    for move in PUNTO["moves"]:
        assert enter(member_client, punto, move).status_code == 200
    punto.refresh_from_db()
    assert punto.status == "finished"
    page = dom(member_client.get(reverse("play", args=[punto.pk])))
    assert not find_all(page, None, id="move-form")
    assert text(find(page, "p", id="punto-round")) == "The match is over."
    board = find(page, "div", id="punto-board")
    # the last round's table, said before it is drawn
    said, grid = board.children[3:5]
    assert (said.name, classes(said), text(said)) == (
        "p", {"punto-hint"}, "The table as the last round ended:",
    )  # fmt: skip
    assert grid == find(board, "div", role="grid") and "punto-past" in classes(grid)
    sheet = dom(member_client.get(reverse("play-sheet", args=[punto.pk])))
    rounds = find_all(find(sheet, "table", id="punto-rounds"), "tr", data_round=ANY)
    assert [[text(cell) for cell in find_all(row, "td")] for row in rounds] == [
        ["1", "Ana", "a line", "9 red 9"],  # the card removed, then its name
        ["2", "Ana", "a line", "8 blue 8"],
    ]
    assert [text(find(row, "td", class_="punto-round-winner")) for row in rounds] == ["Ana"] * 2
    won = find_all(find(find(sheet, "table", id="punto-won"), "tbody"), "tr")
    assert {
        attr(row, "data-player"): text(find(row, "td", class_="punto-wins")) for row in won
    } == {"Ana": "2", "Ben": "0"}


def test_the_board_shows_the_round_and_the_standing(member_client, punto):
    for move in PUNTO["moves"][:10]:  # round 1 won by Ana, then Ben's first card of round 2
        enter(member_client, punto, move)
    page = dom(member_client.get(reverse("play", args=[punto.pk])))
    assert text(find(page, "p", id="punto-round")) == "Round 2 · Ana to play"
    standing = find(page, "ul", id="punto-standing")
    wins = {attr(seat, "data-player"): find(seat, "span", class_="punto-wins") for seat in
            find_all(standing, "li", data_player=ANY)}  # fmt: skip
    assert {name: (attr(w, "data-wins"), text(w)) for name, w in wins.items()} == {
        "Ana": ("1", "1 round won"), "Ben": ("0", "0 rounds won"),
    }  # fmt: skip
    # the card on the table is a cell a card may cover: a button the phone offers once a card
    # is tapped
    (card,) = find_all(find(page, "div", role="grid"), None, role="gridcell", class_="punto-card")
    assert (attr(card, "data-card"), classes(card)) == (
        "orange-6", {"punto-cell", "punto-card", "punto-orange", "last-move", "candidate"},
    )  # fmt: skip


def test_the_six_by_six_limit_is_shown(member_client, punto):
    for move in PUNTO["moves"][:5]:  # red 1, 2, 3 and orange 1, 2 on two rows, 3 wide
        enter(member_client, punto, move)
    page = dom(member_client.get(reverse("play", args=[punto.pk])))
    assert text(find(page, "p", id="punto-limit")) == "The cards span 3 × 2 of at most 6 × 6."
    assert classes(find(page, "div", role="grid")) == {"punto-grid"}


# Team play and rounds to win (issue 18) --------------------------------------------------------

TEAMS = [["Ana", "Chloé"], ["Ben", "Dev"]]
#: Chloé lays the fifth red of her team's line; one round wins the match.
TEAM_MATCH = [
    {"player": p, "card": c, "at": [x, y]}
    for p, c, x, y in [
        ("Ana", "red-1", 0, 0), ("Ben", "orange-1", 0, 1), ("Chloé", "red-2", 1, 0),
        ("Dev", "green-1", 1, 1), ("Ana", "blue-5", 0, 2), ("Ben", "orange-2", 2, 1),
        ("Chloé", "red-3", 2, 0), ("Dev", "green-2", 3, 1), ("Ana", "red-4", 3, 0),
        ("Ben", "orange-3", 1, 2), ("Chloé", "red-5", 4, 0),
    ]
]  # fmt: skip


@pytest.fixture
def four(players):
    return [*players, services.add_player(club=players[0].club, name="Dev")]


def team_defaults(**changes):
    """What the setup form posts for four players when "Teams" is tapped and nothing else."""
    data = {
        "mode": "teams", "rounds_to_win": "2",
        "team-0-0": "red", "team-0-1": "blue", "team-1-0": "orange", "team-1-1": "green",
        "colour-0-0": "red", "colour-1-0": "orange", "colour-2-0": "blue", "colour-3-0": "green",
    }  # fmt: skip
    return data | changes


def test_setup_for_four_proposes_opposite_teams_and_their_colours(member_client, night, four):
    page = dom(member_client.get(setup_url(night, four)))
    mode = find(page, "fieldset", id="punto-mode")
    taps = find_all(mode, "label")
    assert [attr(find(label, "input", type="radio", name="mode"), "value") for label in taps] == [
        "solo", "teams",
    ]  # fmt: skip
    assert text(taps[1]) == "Teams: Ana & Chloé against Ben & Dev"
    checked = find_all(page, "input", name="mode", checked=None)
    assert [(attr(radio, "value"), attr(radio, "id")) for radio in checked] == [
        ("solo", "punto-mode-solo"),
    ]
    teams = find(page, "fieldset", id="punto-team-colours")
    assert {attr(select, "name"): chosen(teams, attr(select, "name"))
            for select in find_all(teams, "select")} == {
        "team-0-0": ["red"], "team-0-1": ["blue"], "team-1-0": ["orange"], "team-1-1": ["green"],
    }  # fmt: skip
    # two or three players: no teams
    assert not find_all(dom(member_client.get(setup_url(night, four[:3]))), None, name="mode")


def test_setup_offers_one_to_five_rounds_to_win_two_chosen(member_client, night, players):
    page = dom(member_client.get(setup_url(night, players[:2])))
    taps = find_all(page, "input", type="radio", name="rounds_to_win")
    assert find_all(page, None, name="rounds_to_win") == taps  # nothing else by that name
    assert [attr(tap, "value") for tap in taps] == ["1", "2", "3", "4", "5"]
    assert chosen(page, "rounds_to_win") == ["2"]


def test_setup_starts_a_team_play_with_the_teams_colours(member_client, night, four):
    response = post_setup(
        member_client, night, four, team_defaults(**{"team-1-0": "green", "team-1-1": "orange"})
    )
    play = Play.objects.get()
    assert response["Location"] == reverse("play", args=[play.pk])
    assert play.setup == {
        "colours": {"Ana": ["red", "blue"], "Ben": ["green", "orange"],
                    "Chloé": ["red", "blue"], "Dev": ["green", "orange"]},
        "teams": TEAMS,
    }  # fmt: skip
    seats = {seat.player.name: seat.team for seat in play.seats.all()}
    assert seats["Ana"] == seats["Chloé"] != seats["Ben"] == seats["Dev"]


def test_setup_each_for_themselves_ignores_the_team_fields(member_client, night, four):
    post_setup(member_client, night, four, team_defaults(mode="solo"))
    assert Play.objects.get().setup == {
        "colours": {"Ana": ["red"], "Ben": ["orange"], "Chloé": ["blue"], "Dev": ["green"]}
    }


@pytest.mark.parametrize(("tapped", "kept"), [("1", 1), ("2", None), ("5", 5)])
def test_setup_keeps_rounds_to_win_unless_it_is_the_default(
    member_client, night, players, tapped, kept
):
    data = {"colour-0-0": "red", "colour-0-1": "blue", "colour-1-0": "orange",
            "colour-1-1": "green", "rounds_to_win": tapped}  # fmt: skip
    post_setup(member_client, night, players[:2], data)
    assert Play.objects.get().setup.get("rounds_to_win") == kept


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"rounds_to_win": "6"}, "Choose how many rounds win the match."),
        ({"rounds_to_win": "two"}, "Choose how many rounds win the match."),
        ({"mode": "pairs"}, "The form was damaged"),
        ({"team-1-1": "pink"}, "Choose the colours of Ben and Dev's team."),
        ({"team-1-0": "red"}, "Red is given twice (Ana and Ben)"),
    ],
)
def test_a_wrong_team_setup_says_why_and_starts_nothing(member_client, night, four, data, message):
    response = post_setup(member_client, night, four, team_defaults(**data))
    assert response.status_code == 422
    page = dom(response)
    assert message in text(find(page, "p", id="setup-error"))
    assert Play.objects.count() == 0
    # the form comes back as it was posted (a tampered choice as "each for themselves")
    mode = "teams" if "mode" not in data else "solo"
    checked = find_all(page, "input", name="mode", checked=None)
    assert [(attr(radio, "value"), attr(radio, "id")) for radio in checked] == [
        (mode, f"punto-mode-{mode}"),
    ]


def test_teams_for_three_players_are_refused(member_client, night, four):
    response = post_setup(member_client, night, four[:3], team_defaults())
    assert response.status_code == 422 and Play.objects.count() == 0


@pytest.fixture
def team_punto(night, four):
    setup = {
        "colours": {"Ana": ["red", "blue"], "Ben": ["orange", "green"],
                    "Chloé": ["blue", "red"], "Dev": ["green", "orange"]},
        "teams": TEAMS,
        "rounds_to_win": 1,
    }  # fmt: skip
    return services.start_play(night=night, game="punto", players=four, setup=setup)


def test_a_partner_picks_any_card_of_the_teams_colours(member_client, team_punto):
    for move in TEAM_MATCH[:2]:
        enter(member_client, team_punto, move)
    page = dom(member_client.get(reverse("play", args=[team_punto.pk])))
    assert text(find(page, "p", id="punto-turn")) == "Chloé drew:"
    hand = shown_hands(find(page, "form", id="move-form"))
    assert [text(find(colour, "legend")) for colour in hand] == ["Blue", "Red"]
    assert [attr(colour, "data-players") for colour in hand] == ['["Ana", "Chlo\\u00e9"]'] * 2
    offered = [[attr(button, "value") for button in find_all(colour, "button")] for colour in hand]
    assert offered == [
        [f"{colour}-{value}" for value in range(1, 10)] for colour in ("blue", "red")
    ]
    assert not any(find_all(colour, None, value="green-1") for colour in hand)
    assert text(find(page, "p", id="punto-partner-hint")) == (
        "With Ana: either partner may play any card of the team's colours."
    )
    # red-1 is down once (Ana's): Chloé, her partner, has one copy left
    red_1 = find(page, "button", name="card", value="red-1")
    assert dict(red_1.attributes) == {
        "type": "submit", "name": "card", "value": "red-1", "class": attr(red_1, "class"),
        "aria-label": "red 1, 1 copy left", **builds("red-1", "red 1"),
    }  # fmt: skip
    assert classes(red_1) == {"punto-pick", "punto-red"}


def test_a_team_match_tapped_in_counts_rounds_per_team(member_client, team_punto):
    page = dom(member_client.get(reverse("play", args=[team_punto.pk])))
    teams = find_all(find(page, "ul", id="punto-standing"), "li")
    assert [(attr(team, "data-team"), classes(team)) for team in teams] == [
        ("0", {"punto-team", "to-play"}), ("1", {"punto-team"}),
    ]  # fmt: skip
    members = [
        find_all(find(team, "span", class_="punto-name"), "span", data_player=ANY) for team in teams
    ]
    assert [[(attr(span, "data-player"), text(span)) for span in spans] for spans in members] == [
        [("Ana", "Ana"), ("Chloé", "Chloé")],
        [("Ben", "Ben"), ("Dev", "Dev")],
    ]
    assert text(find(page, "p", id="punto-goal")) == (
        "5 in a row of a team's colour, laid by either partner, wins the round; "
        "1 round wins the match."
    )
    for move in TEAM_MATCH:
        assert enter(member_client, team_punto, move).status_code == 200
    team_punto.refresh_from_db()
    assert team_punto.status == "finished"
    page = dom(member_client.get(reverse("play", args=[team_punto.pk])))
    assert text(find(page, "p", id="result")) == "Winners: Ana, Chloé"
    teams = find_all(find(page, "ul", id="punto-standing"), "li")
    # the match is over: nobody to play; the first team won its one round
    assert [(attr(team, "data-team"), classes(team)) for team in teams] == [
        ("0", {"punto-team"}), ("1", {"punto-team"}),
    ]  # fmt: skip
    wins = [find(team, "span", class_="punto-wins") for team in teams]
    assert [(attr(w, "data-wins"), text(w)) for w in wins] == [
        ("1", "1 round won"), ("0", "0 rounds won"),
    ]  # fmt: skip
    sheet = dom(member_client.get(reverse("play-sheet", args=[team_punto.pk])))
    (won_round,) = find_all(find(sheet, "table", id="punto-rounds"), "tr", data_round=ANY)
    winner = find(won_round, "td", class_="punto-round-winner")
    assert text(winner) == "Chloé (with Ana)" and text(find(winner, "small")) == "(with Ana)"
    won = find_all(find(find(sheet, "table", id="punto-won"), "tbody"), "tr")
    assert [attr(row, "data-team") for row in won] == ["0", "1"]
    assert [[text(cell) for cell in find_all(row, "td")] for row in won] == [
        ["Ana & Chloé", "red, blue", "1"],
        ["Ben & Dev", "orange, green", "0"],
    ]
    assert [classes(cell) for cell in find_all(won[0], "td")] == [set(), set(), {"punto-wins"}]
    assert text(find(sheet, "p", id="punto-rounds-to-win-note")) == "Played to 1 round won."


def test_the_board_labels_its_cells_from_the_rounds_first_card(member_client, punto):
    """The cards of a round stay within 5 columns and rows of its first card: it is F6, and a
    cell keeps its name for the whole round."""
    page = dom(tap(member_client, punto, {"card": "red-1"}))
    # the empty table: the centre cell
    centre = find(page, "button", name="at", value="0,0")
    assert attr(centre, "aria-label") == "Play the red 1 at F6"
    enter(member_client, punto, PUNTO["moves"][0])  # red-1 at (0, 0)
    page = dom(tap(member_client, punto, {"card": "orange-1"}))
    # read from the page as drawn: an answer drawn by Jinja alone has no response.context
    labels, *rows = find_all(find(page, "div", role="grid"), "div", class_="punto-row")
    assert [text(s) for s in find_all(labels, "span", class_="punto-label")] == ["", "E", "F", "G"]
    assert [text(find(row, "span", class_="punto-label")) for row in rows] == ["5", "6", "7"]
    red_1 = find(page, "span", role="gridcell", data_at="0,0")
    assert (attr(red_1, "data-cell"), attr(red_1, "data-card")) == ("F6", "red-1")
    corner = find(page, "button", name="at", value="1,1")
    assert attr(corner, "aria-label") == "Play the orange 1 at G7"


def test_the_box_around_the_first_card_is_labelled_from_a1_to_k11():
    """The first card is F6: the box reaches 5 columns and 5 rows either side of it, so its
    top left corner is A1; a cell beyond it has no label."""
    origin = label_origin((0, 0))
    assert cell_label((0, 0), origin) == "F6"
    assert cell_label((-5, -5), origin) == "A1" and cell_label((5, 5), origin) == "K11"
    assert cell_label((-5, -6), origin) is None and cell_label((-6, -5), origin) is None


def grid_html(board, drafted=None, *, past=False):
    """The table as board.html draws it (games.ui.punto.grid)."""
    return str(draw_grid(board, drafted, past))


def test_the_grid_offers_only_the_legal_cells_as_buttons():
    """A drafted card: its legal cells are buttons (an empty one, or a lower card to cover),
    the other cells are drawn, not tapped; the ring is told from the box."""
    cells = {(0, 0): "red-7", (1, 0): "blue-2"}
    board = _board(cells, {(1, 0), (2, 0)}, last=(0, 0), origin=(-5, -5))
    page = dom(grid_html(board, _card("green-5")))
    cover, empty = find_all(page, "button")
    assert dict(cover.attributes) == {
        "type": "submit", "form": "move-form", "name": "at", "value": "1,0", "role": "gridcell",
        "class": attr(cover, "class"), "aria-label": "Cover the blue 2 at G6 with the green 5",
    }  # fmt: skip
    assert classes(cover) == {"punto-cell", "punto-card", "punto-blue", "legal", "cover"}
    assert text(find(cover, "span", class_="punto-value")) == "2"
    assert dict(empty.attributes) == {
        "type": "submit", "form": "move-form", "name": "at", "value": "2,0", "role": "gridcell",
        "class": attr(empty, "class"), "aria-label": "Play the green 5 at H6",
    }  # fmt: skip
    assert classes(empty) == {"punto-cell", "legal"}
    # the last card played: drawn, not tapped, told to the eye and the ear
    last = find(page, None, data_at="0,0")
    assert last.name == "span" and dict(last.attributes) == {
        "role": "gridcell", "class": attr(last, "class"), "data-at": "0,0", "data-cell": "F6",
        "data-card": "red-7", "title": "red 7",
    }  # fmt: skip
    assert classes(last) == {"punto-cell", "punto-card", "punto-red", "last-move"}
    value, said = last.children
    assert (value.name, classes(value), text(value)) == ("span", {"punto-value"}, "7")
    assert (said.name, classes(said), text(said)) == (
        "span", {"punto-sr"}, "red, the last card played",
    )  # fmt: skip
    ring = find(page, None, data_at="-1,-1")
    assert (ring.name, attr(ring, "role"), attr(ring, "data-cell")) == ("span", "gridcell", "E5")
    assert classes(ring) == {"punto-cell", "ring"} and not ring.children
    grid = find(page, "div", role="grid")
    assert classes(grid) == {"punto-grid"}
    assert text(find(page, "p", id="punto-limit")) == "The cards span 2 × 1 of at most 6 × 6."


def test_the_grid_holds_only_rows_and_says_the_limit_beside_it():
    board = _board({(0, 0): "red-7", (1, 0): "blue-2"}, {(2, 0)}, origin=(-5, -5))
    page = dom(grid_html(board, _card("green-5")))
    grid = find(page, "div", class_="punto-grid")
    # the letters' row, then one row a line of cells: nothing else inside the grid
    assert grid.children == find_all(grid, "div", class_="punto-row")
    assert len(grid.children) == 1 + len(board["rows"])
    assert page.children[-1] == find(page, "p", id="punto-limit")


def test_the_grid_says_when_the_box_is_full():
    """Six columns: no more can be added, said beside the grid and marked on its sides."""
    board = _board({(x, 0): f"red-{x + 1}" for x in range(6)}, set())
    page = dom(grid_html(board))
    grid = find(page, "div", class_="punto-grid")
    assert classes(grid) == {"punto-grid", "limit-x"}
    assert text(find(page, "p", id="punto-limit")) == (
        "The cards span 6 × 1 of at most 6 × 6. No more columns can be added."
    )


def test_the_grid_marks_the_winning_line_on_the_last_rounds_table():
    """The table as a round ended: no buttons, the winning line told to the eye and the ear."""
    board = _board({(0, 0): "red-7", (0, 1): "red-8"}, set(), (0, 1), frozenset({(0, 0), (0, 1)}))
    page = dom(grid_html(board, past=True))
    assert not find_all(page, "button") and not find_all(page, None, name="at")
    assert classes(find(page, "div", role="grid")) == {"punto-grid", "punto-past"}
    line = find_all(page, None, class_="win-line")
    assert [(cell.name, attr(cell, "data-at")) for cell in line] == [
        ("span", "0,0"), ("span", "0,1"),
    ]  # fmt: skip
    last = find(page, "span", role="gridcell", class_="last-move")
    assert last == line[1]
    assert classes(last) == {"punto-cell", "punto-card", "punto-red", "last-move", "win-line"}
    assert (attr(last, "data-at"), attr(last, "data-card")) == ("0,1", "red-8")
    assert attr(last, "data-cell") is None  # no origin given: the cells are not named
    said = text(find(last, "span", class_="punto-sr"))
    assert said == "red, the last card played, in the winning line"
    assert text(find(line[0], "span", class_="punto-sr")) == "red, in the winning line"


def test_the_grid_escapes_what_it_says():
    """Its words go into attributes: a cell's name with a quote must not end one."""
    board = _board({(0, 0): "red-7"}, {(1, 0)}, origin=(-5, -5))
    (cell,) = [cell for row in board["rows"] for cell in row["cells"] if cell["at"] == "1,0"]
    cell["label"] = 'G"6'
    html = grid_html(board, _card("green-5"))
    # escaped as written (raw text on purpose: the tree reads the attribute back either way)
    assert 'aria-label="Play the green 5 at G&quot;6"' in html
    cell = find(dom(html), "button", name="at", value="1,0")
    assert attr(cell, "aria-label") == 'Play the green 5 at G"6'


def names_context(players: list[str], setup: dict) -> dict:
    """move_context's ``p`` at the start of a match of ``players``."""
    log = {"format": "gamelog/1", "game": "punto", "players": players, "setup": setup}
    return ui_for("punto").move_context(judge({**log, "moves": []}), players, None)["punto"]


def drawn(name: str, p: dict) -> str:
    """board.html, move_form.html or sheet.html drawn from move_context's ``p``, written as the
    page writes it ({% jinja %})."""
    return jinja.render(f"plays/games/punto/{name}.html", {"punto": p, "play": None})


THREE = {"Ana": ["red"], "Ben": ["blue"], "Chloé": ["green"]}


def test_the_hand_names_the_neutral_colour_and_escapes_its_labels():
    card = _hand_card("green", 3, 0) | {"label": 'green "3"'}
    p = names_context(["Ana", "Ben", "Chloé"], {"colours": THREE})
    p["hand"] = [
        {
            "colour": "green",
            "label": "green",
            "neutral": True,
            "theirs": True,
            "players": '["Chlo\\u00e9"]',
            "cards": [card],
        }
    ]
    html = drawn("move_form", p)
    # the label escaped as written (raw text on purpose: the tree reads it back either way)
    assert 'aria-label="green &quot;3&quot;"' in html
    (hand,) = find_all(dom(html), "fieldset", class_="punto-hand")
    legend, values = [child for child in hand.children if not isinstance(child, str)]
    assert (legend.name, text(legend)) == ("legend", "Green (neutral)")
    (button,) = find_all(values, "button")
    assert dict(button.attributes) == {
        "type": "submit", "name": "card", "value": "green-3", "class": attr(button, "class"),
        "disabled": None, "aria-label": 'green "3"',
        **builds("green-3", "green 3"),
    }  # fmt: skip
    assert classes(button) == {"punto-pick", "punto-green"}
    value, left = button.children
    assert (value.name, dict(value.attributes), text(value)) == (
        "span", {"class": "punto-value"}, "3",
    )  # fmt: skip
    assert (left.name, dict(left.attributes), text(left)) == (
        "small", {"aria-hidden": "true"}, "×0",
    )  # fmt: skip


ODD = ["A<b>'", 'B&"x', "C>", "D'"]
ODD_TEAMS = {
    "teams": [[ODD[0], ODD[2]], [ODD[1], ODD[3]]],
    "rounds_to_win": 3,
    "colours": {
        ODD[0]: ["red", "blue"],
        ODD[1]: ["orange", "green"],
        ODD[2]: ["blue", "red"],
        ODD[3]: ["green", "orange"],
    },
}


def test_the_standing_escapes_the_names_and_counts_rounds_per_team():
    html = drawn("board", names_context(ODD, ODD_TEAMS))
    # the names escaped as written (raw text on purpose: the tree reads an attribute back
    # whether "<" was escaped or not, and an unescaped "<b>" would not show in its text)
    assert "Round 1 · A&lt;b&gt;&#x27; to play" in html and "<b>" not in html
    assert 'data-player="A&lt;b&gt;&#x27;">A&lt;b&gt;&#x27;</span>' in html
    assert 'data-player="C&gt;">C&gt;</span>' in html
    page = dom(html)
    assert text(find(page, "p", id="punto-round")) == "Round 1 · A<b>' to play"
    teams = find_all(find(page, "ul", id="punto-standing"), "li")
    assert [(attr(team, "data-team"), classes(team)) for team in teams] == [
        ("0", {"punto-team", "to-play"}), ("1", {"punto-team"}),
    ]  # fmt: skip
    names = [find(team, "span", class_="punto-name") for team in teams]
    assert [text(name) for name in names] == ["A<b>' & C>", "B&\"x & D'"]
    members = [find_all(name, "span", data_player=ANY) for name in names]
    assert [[(attr(s, "data-player"), text(s), classes(s)) for s in team] for team in members] == [
        [("A<b>'", "A<b>'", {"punto-member-to-play"}), ("C>", "C>", set())],
        [('B&"x', 'B&"x', set()), ("D'", "D'", set())],
    ]  # fmt: skip
    wins = [find(team, "span", class_="punto-wins") for team in teams]
    assert [(attr(w, "data-wins"), text(w)) for w in wins] == [("0", "0 rounds won")] * 2
    assert text(find(page, "p", id="punto-goal")).endswith("; 3 rounds win the match.")


def test_the_standing_names_the_neutral_colour_for_three():
    page = dom(drawn("board", names_context(["Ana", "Ben", "Chloé"], {"colours": THREE})))
    rows = find_all(find(page, "ul", id="punto-standing"), "li")
    assert [(attr(row, "data-player"), classes(row)) for row in rows] == [
        ("Ana", {"to-play"}), ("Ben", set()), ("Chloé", set()), (None, {"punto-neutral"}),
    ]  # fmt: skip
    neutral = rows[-1]
    chip = neutral.children[0]
    assert (chip.name, classes(chip), chip.children) == ("span", {"punto-chip", "punto-orange"}, [])
    assert text(neutral) == "orange is neutral"
    assert text(find(page, "p", id="punto-goal")) == (
        "4 in a row wins the round; 2 rounds win the match."
    )


def test_the_sheet_escapes_the_names_and_says_each_round():
    p = names_context(ODD, ODD_TEAMS)
    p["rounds"] = [
        {
            "number": 1,
            "winner": ODD[2],
            "partner": ODD[0],
            "how": "line",
            "removed": _card("red-9"),
        },
        {"number": 2, "winner": None, "partner": None, "how": "blocked", "removed": None},
    ]
    html = drawn("sheet", p)
    # the names escaped as written (raw text on purpose: read as a tree, an unescaped "<b>"
    # would not show in its text, and "&" reads the same escaped or not)
    assert "C&gt; <small>(with A&lt;b&gt;&#x27;)</small>" in html and "<b>" not in html
    assert "<td>B&amp;&quot;x &amp; D&#x27;</td>" in html
    page = dom(html)
    first, second = find_all(find(page, "table", id="punto-rounds"), "tr", data_round=ANY)
    said = [text(cell) for cell in find_all(first, "td")]
    assert said == ["1", "C> (with A<b>')", "a line", "9 red 9"]  # the card, then its name
    winner = find(first, "td", class_="punto-round-winner")
    assert text(find(winner, "small")) == "(with A<b>')"
    # nobody wins a blocked round: said in the winner's cell, and no card is removed
    assert [(classes(cell), text(cell)) for cell in find_all(second, "td")] == [
        (set(), "2"), ({"punto-round-winner"}, "nobody"), (set(), "blocked: series counted"),
        (set(), "—"),
    ]  # fmt: skip
    team = find(find(page, "table", id="punto-won"), "tr", data_team="1")
    assert [text(cell) for cell in find_all(team, "td")] == ["B&\"x & D'", "orange, green", "0"]


# What the tests over every game ask of this one (tests/per_game.py) ---------------------------

REFUSED_MOVE = {
    "en": "Round 1, card 3: the green 3 cannot cover the orange 3 at G6: a card covers only a card "
    "of strictly lower value.",
    "fr": "Manche 1, carte 3 : le 3 vert ne peut pas recouvrir le 3 orange en G6 : une carte ne "
    "recouvre qu'une carte de valeur strictement inférieure.",
}
REFUSED_SETUP = (
    {"colours": {"Ana": ["red"], "Ben": ["red"], "Chloé": ["blue"]}},
    "Le rouge est donné deux fois (Ana et Ben) : chaque couleur appartient à un joueur au plus.",
)
SAMPLES = {"card": "red-7", "cell": (1, 0), "colour": "orange", "colours": ["red", "blue"]}
SAYS = [
    ("card", "red-7", "the red 7", "7 rouge"),
    ("cell", (0, 0), "F6", "F6"),  # the round's first card
    ("cell", (-5, 5), "A11", "A11"),
]


def test_or_list_joins_the_last_with_or_in_the_readers_language():
    from games.ui import or_list

    assert or_list(["Ana", "Ben", "Chloé"]) == "Ana, Ben or Chloé"
    assert or_list(iter(["Ana", "Ben"])) == "Ana or Ben"
    assert (or_list(["Ana"]), or_list([])) == ("Ana", "")
