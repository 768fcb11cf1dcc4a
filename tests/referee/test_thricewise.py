"""Thricewise: one test per rule and per ruling of gamelog.md §3, the public cases, properties."""

from __future__ import annotations

import copy
import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import IllegalMove, SetupError, judge
from referee.decktet import BASIC_DECK
from referee.thricewise import GAME, Thricewise, turns_for, window_points
from tests.examples import (
    assert_canonical_round_trip,
    assert_judged_as_expected,
    example_cases,
    example_params,
    json_values,
)
from tests.referee.crashes import assert_not_crashed, assert_refused

JSON_VALUES = json_values(16)

NAMES = ("Ana", "Ben", "Chloé", "Dev", "Eli")
RANKS = {
    c.name: (1 if c.rank == "Ace" else 10 if c.rank == "Crown" else int(c.rank)) for c in BASIC_DECK
}
# The setup of the public case thricewise-2: Author 2, Journey 3 / Ace of Suns, Bard.
GRID2 = [
    {"card": "The Author", "at": [0, 0]},
    {"card": "The Journey", "at": [1, 0]},
    {"card": "Ace of Suns", "at": [0, 1]},
    {"card": "The Bard", "at": [1, 1]},
]


def gamelog(moves, players=("Ana", "Ben"), grid=None):
    return {
        "format": "gamelog/1",
        "game": "thricewise",
        "players": list(players),
        "setup": {"grid": GRID2 if grid is None else grid},
        "moves": moves,
    }


def grid_of(*cards_at):
    return [{"card": card, "at": [x, y]} for card, (x, y) in cards_at]


def turn(reveal, *placed):
    """A turn: the reveal {player: card}, then placements (player, card, (x, y)) in order."""
    return {
        "reveal": dict(reveal),
        "place": [{"player": p, "card": c, "at": [x, y]} for p, c, (x, y) in placed],
    }


def points_of(judgement, card):
    (entry,) = [e for e in judgement.details["placements"] if e["card"] == card]
    return entry["points"]


def assert_illegal_at(judgement, move, message_id, **params):
    """Refused at ``move`` by ``message_id`` (with ``params``)."""
    assert_refused(judgement, message_id, move=move, **params)
    assert judgement.error["message"].startswith(f"move {move}: ")


# --- A random legal game, written independently of the engine ---------------------------------


def _legal_cells(board):
    xs = [x for x, _ in board]
    ys = [y for _, y in board]
    cells = set()
    for x, y in board:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                c = (x + dx, y + dy)
                if c in board:
                    continue
                if (
                    max(xs + [c[0]]) - min(xs + [c[0]]) < 6
                    and max(ys + [c[1]]) - min(ys + [c[1]]) < 6
                ):
                    cells.add(c)
    return sorted(cells)


def random_game(seed, n_players=2):
    """A random legal finished game: random reveals, random groups, random legal cells."""
    rng = random.Random(seed)
    players = list(NAMES[:n_players])
    deck = [c.name for c in BASIC_DECK]
    rng.shuffle(deck)
    size = 4 if n_players % 2 == 0 else 6
    width, height = (2, 2) if size == 4 else rng.choice([(3, 2), (2, 3)])
    ox, oy = rng.randint(-9, 9), rng.randint(-9, 9)
    cells = [(ox + i, oy + j) for j in range(height) for i in range(width)]
    board = {cell: deck.pop() for cell in cells}
    grid = [{"card": card, "at": list(cell)} for cell, card in board.items()]
    hands = {p: [deck.pop() for _ in range(3)] for p in players}
    set_aside = {p: [] for p in players}
    moves = []
    while hands[players[0]]:
        reveal = {p: hands[p].pop(rng.randrange(len(hands[p]))) for p in players}
        ranks = [RANKS[c] for c in reveal.values()]
        tied = [p for p in players if ranks.count(RANKS[reveal[p]]) > 1]
        placing = sorted((p for p in players if p not in tied), key=lambda p: RANKS[reveal[p]])
        place = []
        for p in placing:
            older = rng.sample(set_aside[p], rng.randint(0, len(set_aside[p])))
            group = [reveal[p], *older]
            rng.shuffle(group)
            for card in group:
                cell = rng.choice(_legal_cells(board))
                board[cell] = card
                place.append({"player": p, "card": card, "at": list(cell)})
            set_aside[p] = [c for c in set_aside[p] if c not in older]
        for p in tied:
            set_aside[p].append(reveal[p])
        moves.append({"reveal": reveal, "place": place})
        if len(deck) >= n_players:
            for p in players:
                hands[p].append(deck.pop())
    return gamelog(moves, players, grid)


# --- The public cases ---------------------------------------------------------------------------


@pytest.mark.parametrize(("log", "expected"), example_params("thricewise"))
def test_public_examples(log, expected):
    assert_judged_as_expected(judge(log).as_dict(), expected)


def test_engine_is_registered():
    assert GAME is Thricewise
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("thricewise", 2, 5)


# --- Setup --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 6])
def test_two_to_five_players(players):
    judgement = judge(gamelog([], NAMES[:1] if players == 1 else [*NAMES, "Fay"]))
    assert_refused(judgement, "game.player_count", move=None, count_max=5, number=players)
    assert (judgement.scores, judgement.winners, judgement.details) == ({}, [], {})


def test_setup_two_or_four_players_is_a_full_two_by_two():
    assert judge(gamelog([])).status == "in_progress"
    assert judge(gamelog([], NAMES[:4])).status == "in_progress"
    result = judge(gamelog([], grid=GRID2[:3]))
    assert_refused(result, "thricewise.setup_size_4", move=None, count=2, number=3)
    six = grid_of(*[(c.name, (i % 3, i // 3)) for i, c in enumerate(BASIC_DECK[6:12])])
    result = judge(gamelog([], grid=six))
    assert_refused(result, "thricewise.setup_size_4", move=None, count=2, number=6)


@pytest.mark.parametrize("shape", [(3, 2), (2, 3)])
def test_setup_three_or_five_players_is_a_full_three_by_two_or_two_by_three(shape):
    width, _ = shape
    cards = [c.name for c in BASIC_DECK[6:12]]
    grid = grid_of(*[(card, (i % width, i // width)) for i, card in enumerate(cards)])
    assert judge(gamelog([], NAMES[:3], grid)).status == "in_progress"
    assert judge(gamelog([], NAMES[:5], grid)).status == "in_progress"
    result = judge(gamelog([], NAMES[:3], GRID2))
    assert_refused(result, "thricewise.setup_size_6", move=None, count=3, number=4)


def test_setup_rectangle_must_be_full():
    gap = grid_of(
        ("The Author", (0, 0)),
        ("The Journey", (1, 0)),
        ("Ace of Suns", (0, 1)),
        ("The Bard", (2, 1)),
    )
    line = grid_of(*[(g["card"], (i, 0)) for i, g in enumerate(GRID2)])
    same_cell = grid_of(*[(g["card"], (0, 0)) for g in GRID2])
    for grid, message_id in (
        (gap, "thricewise.setup_gap_4"),
        (line, "thricewise.setup_gap_4"),
        (same_cell, "thricewise.setup_same_cell"),
    ):
        assert_refused(judge(gamelog([], grid=grid)), message_id, move=None)


def test_setup_two_cards_on_one_cell_name_both_cards_and_the_cell():
    same_cell = grid_of(
        ("The Author", (0, 0)), ("The Journey", (0, 0)), ("Ace of Suns", (0, 1)),
        ("The Bard", (1, 1)),
    )  # fmt: skip
    result = judge(gamelog([], grid=same_cell))
    assert_refused(
        result, "thricewise.setup_same_cell", move=None,
        card="The Journey", card_other="The Author", cell=(0, 0),
    )  # fmt: skip


def test_setup_cells_are_any_integers():
    grid = grid_of(*[(g["card"], (g["at"][0] - 100, g["at"][1] + 7)) for g in GRID2])
    moves = [
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (-98, 8)),
            ("Ben", "The Castle", (-101, 8)),
        )
    ]
    assert judge(gamelog(moves, grid=grid)).status == "in_progress"


@pytest.mark.parametrize(
    ("setup", "message_id"),
    [
        (None, "json.object"),
        ([], "json.object"),
        ({"grid": None}, "json.list"),
        ({"grid": "The Author"}, "json.list"),
        ({"grid": [1, 2, 3, 4]}, "json.object"),
        ({"grid": [{"card": "The Excuse", "at": [0, 0]}, *GRID2[1:]]}, "thricewise.not_card"),
        ({"grid": [*GRID2[:3], {"card": "the author", "at": [1, 1]}]}, "thricewise.setup_twice"),
        ({"grid": [{"card": "The Author", "at": [0, True]}, *GRID2[1:]]}, "json.cell"),
        ({"grid": [{"card": "The Author", "at": [0.0, 0]}, *GRID2[1:]]}, "json.cell"),
    ],
)
def test_bad_setup_is_a_setup_error(setup, message_id):
    with pytest.raises(SetupError):
        Thricewise.start(["Ana", "Ben"], setup)
    log = gamelog([])
    log["setup"] = setup
    judgement = judge(log)
    assert_refused(judgement, message_id, move=None)
    assert judgement.error["message"].startswith("bad setup: ")


# --- The reveal ---------------------------------------------------------------------------------


def test_reveal_must_name_every_player():
    judgement = judge(gamelog([turn({"Ana": "The Sailor"}, ("Ana", "The Sailor", (2, 0)))]))
    assert_illegal_at(judgement, 0, "thricewise.reveal_missing", player="Ben")


def test_unknown_player_key_in_reveal_is_illegal():
    reveal = {"Ana": "The Sailor", "Ben": "The Castle", "Zoé": "The Mill"}
    judgement = judge(gamelog([turn(reveal, ("Ana", "The Sailor", (2, 0)))]))
    assert_illegal_at(judgement, 0, "thricewise.reveal_not_player", value="Zoé")


def test_player_names_are_matched_exactly():
    judgement = judge(gamelog([turn({"ana": "The Sailor", "Ben": "The Castle"})]))
    assert_illegal_at(judgement, 0, "thricewise.reveal_not_player", value="ana")
    reveal = {"Ana": "The Sailor", "Ben": "The Castle"}
    judgement = judge(gamelog([turn(reveal, ("Ana ", "The Sailor", (2, 0)))]))
    assert_illegal_at(judgement, 0, "json.player", value="Ana ")


def test_card_seen_twice_is_illegal():
    # Tied reveals, so that nobody has to place and only the repeated card is wrong.
    # a setup card
    judgement = judge(gamelog([turn({"Ana": "The Author", "Ben": "The Desert"})]))
    assert_illegal_at(judgement, 0, "thricewise.reveal_in_setup", card="The Author")
    # the same card twice in one reveal (spelled differently)
    judgement = judge(gamelog([turn({"Ana": "The Sailor", "Ben": "sailor"})]))
    assert_illegal_at(judgement, 0, "thricewise.reveal_twice", card="The Sailor", player="Ben")
    # a card revealed in an earlier turn, even one still set aside
    first = turn({"Ana": "The Forest", "Ben": "The Discovery"})
    again = turn({"Ana": "The Soldier", "Ben": "The Forest"})
    result = judge(gamelog([first, again]))
    assert_illegal_at(result, 1, "thricewise.reveal_seen", card="The Forest", turn=0)


def test_only_basic_deck_cards_are_revealed():
    for card in ("The Excuse", "The Watchman", "The Consul", "Ace of Swords", 7, None):
        judgement = judge(gamelog([turn({"Ana": card, "Ben": "The Castle"})]))
        assert_illegal_at(judgement, 0, "thricewise.reveal_not_card", value=card)


def test_card_names_match_case_insensitively_and_come_out_canonical():
    reveal = {"Ana": "  SAILOR ", "Ben": "the castle"}
    moves = [turn(reveal, ("Ana", "sailor", (2, 1)), ("Ben", "THE CASTLE", (-1, 1)))]
    judgement = judge(gamelog(moves))
    assert judgement.status == "in_progress"
    cards = [e["card"] for e in judgement.details["placements"]]
    assert cards == ["The Sailor", "The Castle"]
    assert judgement.scores == {"Ana": 0, "Ben": 7}


def test_any_unseen_card_may_be_revealed_by_any_player():
    """Hands are not recorded: two Crowns and the last Aces may come from anyone."""
    reveal = {"Ana": "Ace of Moons", "Ben": "The Windfall"}
    moves = [turn(reveal, ("Ana", "Ace of Moons", (2, 0)), ("Ben", "The Windfall", (2, 1)))]
    assert judge(gamelog(moves)).status == "in_progress"


# --- Set aside ----------------------------------------------------------------------------------


def test_revealed_cards_of_a_tied_rank_are_set_aside():
    moves = [turn({"Ana": "The Forest", "Ben": "The Discovery"})]
    judgement = judge(gamelog(moves))
    assert judgement.status == "in_progress"
    assert judgement.details["set_aside"] == {"Ana": ["The Forest"], "Ben": ["The Discovery"]}
    assert judgement.details["placements"] == []


def test_only_the_tied_cards_are_set_aside_the_others_place():
    reveal = {"Ana": "The Forest", "Ben": "The Discovery", "Chloé": "The Sailor"}
    grid = grid_of(*[(c.name, (i % 3, i // 3)) for i, c in enumerate(BASIC_DECK[30:36])])
    moves = [turn(reveal, ("Chloé", "The Sailor", (3, 0)))]
    judgement = judge(gamelog(moves, NAMES[:3], grid))
    assert judgement.status == "in_progress"
    assert judgement.details["set_aside"] == {
        "Ana": ["The Forest"],
        "Ben": ["The Discovery"],
        "Chloé": [],
    }


def test_player_with_set_aside_card_this_turn_places_nothing():
    """Not even older set-aside cards: the public case thricewise-2."""
    moves = [
        turn({"Ana": "The Forest", "Ben": "The Discovery"}),
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (2, 1)),
            ("Ben", "The Castle", (-1, 1)),
        ),
        turn({"Ana": "The Mountain", "Ben": "The Battle"}, ("Ben", "The Discovery", (-1, 0))),
    ]
    judgement = judge(gamelog(moves))
    assert_illegal_at(judgement, 2, "thricewise.tied_places", player="Ben")
    assert judgement.details["set_aside"] == {"Ana": ["The Forest"], "Ben": ["The Discovery"]}


def test_tied_player_cannot_place_the_tied_card_either():
    moves = [turn({"Ana": "The Forest", "Ben": "The Discovery"}, ("Ana", "The Forest", (2, 0)))]
    assert_illegal_at(judge(gamelog(moves)), 0, "thricewise.tied_places", player="Ana")


def test_set_aside_cards_may_join_a_later_group_in_any_order_and_the_placer_scores():
    moves = [
        turn({"Ana": "The Forest", "Ben": "The Discovery"}),
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Forest", (2, 0)),
            ("Ana", "The Sailor", (2, 1)),
            ("Ben", "The Castle", (-1, 1)),
        ),
    ]
    judgement = judge(gamelog(moves))
    assert judgement.status == "in_progress"
    # Author 2, Journey 3, Forest 5 share Moons: a flush worth 2, scored by Ana.
    assert points_of(judgement, "The Forest") == 2
    assert judgement.scores == {"Ana": 2, "Ben": 7}
    assert judgement.details["set_aside"] == {"Ana": [], "Ben": ["The Discovery"]}
    placed = [(e["turn"], e["player"], e["card"]) for e in judgement.details["placements"]]
    assert placed == [(1, "Ana", "The Forest"), (1, "Ana", "The Sailor"), (1, "Ben", "The Castle")]


def test_set_aside_cards_may_stay_set_aside():
    moves = [
        turn({"Ana": "The Forest", "Ben": "The Discovery"}),
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (2, 1)),
            ("Ben", "The Castle", (-1, 1)),
        ),
    ]
    assert judge(gamelog(moves)).details["set_aside"] == {
        "Ana": ["The Forest"],
        "Ben": ["The Discovery"],
    }


def test_set_aside_cards_placed_only_in_their_owners_group():
    moves = [
        turn({"Ana": "The Forest", "Ben": "The Discovery"}),
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (2, 1)),
            ("Ana", "The Discovery", (2, 0)),
            ("Ben", "The Castle", (-1, 1)),
        ),
    ]
    assert_illegal_at(judge(gamelog(moves)), 1, "thricewise.not_own_card", card="The Discovery")


def test_set_aside_card_is_placed_at_most_once():
    moves = [
        turn({"Ana": "The Forest", "Ben": "The Discovery"}),
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (2, 1)),
            ("Ana", "The Forest", (2, 0)),
            ("Ben", "The Castle", (-1, 1)),
        ),
        turn(
            {"Ana": "The Mountain", "Ben": "The Soldier"},
            ("Ana", "The Mountain", (3, 1)),
            ("Ana", "The Forest", (3, 0)),
            ("Ben", "The Soldier", (-1, 0)),
        ),
    ]
    assert_illegal_at(judge(gamelog(moves)), 2, "thricewise.not_own_card", card="The Forest")


def test_set_aside_lists_every_player_in_the_order_set_aside():
    moves = [
        turn({"Ana": "The Forest", "Ben": "The Discovery"}),
        turn({"Ana": "The Mill", "Ben": "The Betrayal"}),
        turn({"Ana": "Ace of Moons", "Ben": "Ace of Waves"}),
    ]
    judgement = judge(gamelog(moves))
    assert judgement.details["set_aside"] == {
        "Ana": ["The Forest", "The Mill", "Ace of Moons"],
        "Ben": ["The Discovery", "The Betrayal", "Ace of Waves"],
    }
    assert list(judge(gamelog([])).details["set_aside"]) == ["Ana", "Ben"]


def test_place_may_be_omitted_when_nobody_places():
    assert judge(gamelog([{"reveal": {"Ana": "The Forest", "Ben": "The Discovery"}}])).legal
    assert judge(
        gamelog([{"reveal": {"Ana": "The Forest", "Ben": "The Discovery"}, "place": None}])
    ).legal


def test_every_player_not_set_aside_must_place():
    judgement = judge(gamelog([{"reveal": {"Ana": "The Sailor", "Ben": "The Castle"}}]))
    assert_illegal_at(judgement, 0, "thricewise.group_missing", player="Ana", card="The Sailor")
    only_ana = turn({"Ana": "The Sailor", "Ben": "The Castle"}, ("Ana", "The Sailor", (2, 1)))
    result = judge(gamelog([only_ana]))
    assert_illegal_at(result, 0, "thricewise.group_missing", player="Ben", card="The Castle")


# --- Groups -------------------------------------------------------------------------------------


def test_group_order_by_ascending_rank():
    moves = [
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ben", "The Castle", (-1, 1)),
            ("Ana", "The Sailor", (2, 1)),
        )
    ]
    assert_illegal_at(
        judge(gamelog(moves)), 0, "thricewise.group_order", player_first="Ana", player="Ben"
    )


def test_ace_places_first_and_crown_last():
    reveal = {"Ana": "The Windfall", "Ben": "Ace of Moons"}
    good = turn(reveal, ("Ben", "Ace of Moons", (2, 0)), ("Ana", "The Windfall", (2, 1)))
    bad = turn(reveal, ("Ana", "The Windfall", (2, 1)), ("Ben", "Ace of Moons", (2, 0)))
    assert judge(gamelog([good])).legal
    assert_illegal_at(judge(gamelog([bad])), 0, "thricewise.group_order", player_first="Ben")


def test_group_must_contain_the_card_revealed_this_turn():
    moves = [
        turn({"Ana": "The Forest", "Ben": "The Discovery"}),
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Forest", (2, 0)),
            ("Ben", "The Castle", (-1, 1)),
        ),
    ]
    assert_illegal_at(
        judge(gamelog(moves)),
        1,
        "thricewise.group_without_revealed",
        player="Ana",
        card="The Sailor",
    )


def test_group_holds_the_revealed_card_exactly_once():
    moves = [
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (2, 1)),
            ("Ana", "The Sailor", (2, 0)),
            ("Ben", "The Castle", (-1, 1)),
        )
    ]
    assert_illegal_at(judge(gamelog(moves)), 0, "thricewise.placed_twice", card="The Sailor")


def test_group_is_a_run_of_consecutive_entries():
    moves = [
        turn({"Ana": "The Forest", "Ben": "The Discovery"}),
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (2, 1)),
            ("Ben", "The Castle", (-1, 1)),
            ("Ana", "The Forest", (2, 0)),
        ),
    ]
    assert_illegal_at(judge(gamelog(moves)), 1, "thricewise.group_split", player="Ana")


def test_group_may_not_hold_another_card():
    moves = [
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (2, 1)),
            ("Ana", "The Mill", (2, 0)),
            ("Ben", "The Castle", (-1, 1)),
        )
    ]
    assert_illegal_at(judge(gamelog(moves)), 0, "thricewise.not_own_card", card="The Mill")
    stolen = [turn({"Ana": "The Sailor", "Ben": "The Castle"}, ("Ana", "The Castle", (2, 1)))]
    assert_illegal_at(judge(gamelog(stolen)), 0, "thricewise.not_own_card", card="The Castle")


def test_unknown_player_in_place_is_illegal():
    moves = [turn({"Ana": "The Sailor", "Ben": "The Castle"}, ("Zoé", "The Sailor", (2, 1)))]
    assert_illegal_at(judge(gamelog(moves)), 0, "json.player", value="Zoé")


# --- The placing order with 3 to 5 players ------------------------------------------------------
# "Every card whose rank another player also revealed this turn is set aside [...] groups come in
# the ascending rank of the card each player revealed this turn" (docs/gamelog.md §3): with more
# than two players, ties leave some players placing and the order is not the seat order.

#: a 3 × 2 setup for 3 and 5 players (2 × 2 for 4: GRID2, its first four cards)
GRID6 = [*GRID2, {"card": "Ace of Moons", "at": [2, 0]}, {"card": "The Huntress", "at": [2, 1]}]
#: free cells next to either setup, filled in this order
ORDER_CELLS = [(-1, 0), (-1, 1), (0, 2), (1, 2), (0, -1)]


def revealing(ranks):
    """Each seat's card of the rank given, none of the setup's and no card twice."""
    taken = {entry["card"] for entry in GRID6}
    reveal = {}
    for player, rank in zip(NAMES, ranks, strict=False):
        card = next(c for c, r in RANKS.items() if r == rank and c not in taken)
        taken.add(card)
        reveal[player] = card
    return reveal


def placing_in(order, ranks):
    """The game's first turn, with the reveal of ``ranks`` and groups placed in ``order``."""
    players = NAMES[: len(ranks)]
    reveal = revealing(ranks)
    placed = [(p, reveal[p], cell) for p, cell in zip(order, ORDER_CELLS, strict=False)]
    grid = GRID2 if len(players) == 4 else GRID6
    return gamelog([turn(reveal, *placed)], players, grid)


#: seats' ranks (Ace 1, Crown 10) → who places, in order; the others' cards wait
PLACING_ORDERS = [
    ((9, 2, 5), ["Ben", "Chloé", "Ana"]),
    ((7, 3, 10, 1), ["Dev", "Ben", "Ana", "Chloé"]),
    ((6, 8, 2, 4, 1), ["Eli", "Chloé", "Dev", "Ana", "Ben"]),
    ((5, 2, 5), ["Ben"]),
    ((5, 2, 5, 8), ["Ben", "Dev"]),
    ((4, 9, 4, 1, 4), ["Dev", "Ben"]),  # three of a rank wait together
    ((3, 6, 3, 6, 2), ["Eli"]),  # two ties
    ((10, 10, 10, 10), []),  # everybody waits
]


@pytest.mark.parametrize(("ranks", "order"), PLACING_ORDERS)
def test_with_three_to_five_players_groups_go_in_ascending_rank_and_ties_wait(ranks, order):
    log = placing_in(order, ranks)
    judgement = judge(log)
    assert judgement.status == "in_progress", judgement.message
    assert [e["player"] for e in judgement.details["placements"]] == order
    waiting = {p: cards for p, cards in judgement.details["set_aside"].items() if cards}
    assert list(waiting) == [p for p in log["players"] if p not in order]
    start = judge({**log, "moves": []}).state
    assert start.placing_order(log["moves"][0]["reveal"]) == order


@pytest.mark.parametrize(("ranks", "order"), PLACING_ORDERS)
def test_with_three_to_five_players_any_other_order_is_refused_at_the_first_group_out_of_place(
    ranks, order
):
    for other in itertools.permutations(order):
        if list(other) == order:
            continue
        wrong = next(i for i, (a, b) in enumerate(zip(order, other, strict=True)) if a != b)
        judgement = judge(placing_in(other, ranks))
        assert_illegal_at(
            judgement, 0, "thricewise.group_order", player_first=order[wrong], player=other[wrong]
        )


@pytest.mark.parametrize(("ranks", "order"), PLACING_ORDERS)
def test_with_three_to_five_players_every_placer_places_and_no_tied_player_does(ranks, order):
    reveal = revealing(ranks)
    if order:  # the last group left out
        judgement = judge(placing_in(order[:-1], ranks))
        last = order[-1]
        assert_illegal_at(judgement, 0, "thricewise.group_missing", player=last, card=reveal[last])
    for tied in (p for p in NAMES[: len(ranks)] if p not in order):  # a waiting player placing
        judgement = judge(placing_in([*order, tied], ranks))
        assert_illegal_at(judgement, 0, "thricewise.tied_places", player=tied, card=reveal[tied])


# --- Cells --------------------------------------------------------------------------------------


def test_card_goes_on_an_empty_cell():
    moves = [
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (1, 1)),
            ("Ben", "The Castle", (-1, 1)),
        )
    ]
    assert_illegal_at(
        judge(gamelog(moves)),
        0,
        "thricewise.cell_taken",
        card="The Sailor",
        cell=(1, 1),
        card_other="The Bard",
    )
    placed_this_turn = [
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (2, 1)),
            ("Ben", "The Castle", (2, 1)),
        )
    ]
    result = judge(gamelog(placed_this_turn))
    assert_illegal_at(result, 0, "thricewise.cell_taken", card="The Castle", cell=(2, 1))


def test_card_must_touch_a_card_orthogonally_or_diagonally():
    diagonal = [
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (2, 2)),
            ("Ben", "The Castle", (-1, -1)),
        )
    ]
    assert judge(gamelog(diagonal)).legal
    far = [
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (3, 0)),
            ("Ben", "The Castle", (-1, 1)),
        )
    ]
    assert_illegal_at(
        judge(gamelog(far)), 0, "thricewise.cell_alone", card="The Sailor", cell=(3, 0)
    )


def test_card_may_touch_a_card_placed_earlier_in_the_same_turn():
    moves = [
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (2, 1)),
            ("Ben", "The Castle", (3, 2)),
        )
    ]
    assert judge(gamelog(moves)).legal


def _widening(direction):
    """Cards placed in a line away from the setup, Ana then Ben each turn."""
    cards = [("The Desert", "The Castle"), ("The Savage", "The Mill"), ("The Origin", "The Cave")]
    moves, step = [], 2
    for low, high in cards:
        cells = []
        for _ in range(2):
            cells.append((step, 0) if direction == "wide" else (0, step))
            step += 1
        moves.append(
            turn({"Ana": low, "Ben": high}, ("Ana", low, cells[0]), ("Ben", high, cells[1]))
        )
    return moves


@pytest.mark.parametrize("direction", ["wide", "tall"])
def test_bounding_box_never_exceeds_six(direction):
    moves = _widening(direction)
    judgement = judge(gamelog(moves))
    too_far = f"thricewise.too_{direction}"
    assert_illegal_at(judgement, 2, too_far, card="The Origin", count=7, count_max=6)
    # the first two turns made the grid exactly 6 long: both ends are now closed
    assert judge(gamelog(moves[:2])).legal
    other_end = (-1, 0) if direction == "wide" else (0, -1)
    closed = turn(
        {"Ana": "The Origin", "Ben": "The Cave"},
        ("Ana", "The Origin", other_end),
        ("Ben", "The Cave", (1, 2)),
    )
    assert_illegal_at(judge(gamelog([*moves[:2], closed])), 2, too_far, cell=other_end, count=7)


def test_grid_floats_so_the_setup_may_end_on_a_side():
    moves = [
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Sailor", (-1, -1)),
            ("Ben", "The Castle", (-2, -2)),
        )
    ]
    assert judge(gamelog(moves)).legal


# --- Scoring ------------------------------------------------------------------------------------


def window(a, b, c):
    """Ana places ``c`` at (2, 0), completing only the row window a (0, 0), b (1, 0), c (2, 0)."""
    taken = {a, b, c}
    free = [card.name for card in BASIC_DECK if card.name not in taken]
    filler1, filler2 = free[0], free[1]
    other = next(n for n in free[2:] if RANKS[n] != RANKS[c])
    grid = grid_of((a, (0, 0)), (b, (1, 0)), (filler1, (0, 1)), (filler2, (1, 1)))
    placed = [("Ana", c, (2, 0)), ("Ben", other, (-1, 2))]
    placed.sort(key=lambda p: RANKS[p[1]])
    judgement = judge(gamelog([turn({"Ana": c, "Ben": other}, *placed)], grid=grid))
    assert judgement.legal, judgement.error
    assert window_points(
        *[next(i for i, k in enumerate(BASIC_DECK) if k.name == n) for n in (a, b, c)]
    ) == points_of(judgement, c)
    return points_of(judgement, c)


def test_set_of_three_same_rank_is_worth_that_rank():
    assert window("The Journey", "The Painter", "The Savage") == 3


def test_set_of_aces_or_crowns_is_worth_zero():
    assert window("Ace of Moons", "Ace of Suns", "Ace of Waves") == 0
    assert window("The Huntress", "The Bard", "The Sea") == 0


def test_three_crowns_are_worth_zero():
    assert window("The Huntress", "The End", "The Calamity") == 0


def test_flush_sharing_one_suit_is_worth_the_lowest_number_card():
    assert window("The Pact", "The Author", "The Forest") == 2  # Moons; 9, 2, 5


def test_flush_sharing_two_suits_scores_once():
    assert window("The Mountain", "The Diplomat", "The Pact") == 4  # Moons and Suns; 4, 8, 9


def test_straight_increasing_or_decreasing_along_the_line():
    assert window("The Origin", "The Painter", "The Mountain") == 2  # 2-3-4
    assert window("The Mountain", "The Painter", "The Origin") == 2  # 4-3-2


def test_straight_must_be_monotone_along_the_line():
    assert window("The Origin", "The Mountain", "The Painter") == 0  # 2-4-3
    assert window("The Painter", "The Forest", "The Battle") == 0  # 3-5-4
    assert window("The Journey", "The Mountain", "The Painter") == 0  # 3-4-3: up, then down


def test_ace_two_three_straight_is_worth_two():
    assert window("Ace of Moons", "The Desert", "The Painter") == 2


def test_eight_nine_crown_straight_is_worth_eight():
    assert window("The Diplomat", "The Darkness", "The End") == 8


def test_crown_ace_two_is_no_straight():
    assert window("The Huntress", "Ace of Suns", "The Origin") == 0
    assert window("The Origin", "Ace of Suns", "The Huntress") == 0


def test_no_kind_scores_nothing():
    assert window("The Origin", "The Painter", "The Forest") == 0


def test_window_scores_once_for_each_kind():
    # Moons flush and straight 2-3-4: 2 + 2
    assert window("The Author", "The Journey", "The Mountain") == 4
    # the public case: Crown-9-8 straight and Knots flush, worth 8 each
    assert window("The Windfall", "The Merchant", "The Betrayal") == 16


def test_card_in_the_middle_of_a_longer_line_completes_several_windows():
    grid = grid_of(
        ("The Origin", (0, 0)),
        ("The Painter", (1, 0)),
        ("The End", (0, 1)),
        ("The Calamity", (1, 1)),
    )
    moves = [
        turn(
            {"Ana": "Ace of Knots", "Ben": "The Forest"},
            ("Ana", "Ace of Knots", (2, 1)),
            ("Ben", "The Forest", (3, 0)),
        ),
        turn(
            {"Ana": "The Mountain", "Ben": "The Sea"},
            ("Ana", "The Mountain", (2, 0)),
            ("Ben", "The Sea", (-1, 0)),
        ),
    ]
    judgement = judge(gamelog(moves, grid=grid))
    # 2-3-4 straight worth 2, and 3-4-5 straight worth 3
    assert points_of(judgement, "The Mountain") == 5


def test_windows_in_all_four_directions_score():
    grid = grid_of(
        ("The Sea", (0, 0)),
        ("The Diplomat", (1, 0)),
        ("The End", (2, 0)),
        ("The Lunatic", (0, 1)),
        ("The Chance Meeting", (1, 1)),
        ("The Forest", (2, 1)),
    )
    players = NAMES[:3]
    moves = [
        turn(
            {"Ana": "The Mountain", "Ben": "The Pact", "Chloé": "Ace of Moons"},
            ("Chloé", "Ace of Moons", (0, 2)),
            ("Ana", "The Mountain", (-1, 0)),
            ("Ben", "The Pact", (2, 2)),
        ),
        turn(
            {"Ana": "The Huntress", "Ben": "The Desert", "Chloé": "The Origin"},
            ("Ana", "The Huntress", (3, 0)),
        ),
        turn(
            {"Ana": "The Author", "Ben": "The Savage", "Chloé": "The Painter"},
            ("Ana", "The Author", (1, 2)),
        ),
    ]
    judgement = judge(gamelog(moves, players, grid))
    assert judgement.legal, judgement.error
    # row, column, diagonal and anti-diagonal: four Moons flushes worth 2 each
    assert points_of(judgement, "The Author") == 8


def test_setup_cards_score_nothing_and_scores_are_in_seat_order():
    judgement = judge(
        gamelog(
            [],
            NAMES[:3],
            grid_of(*[(c.name, (i % 3, i // 3)) for i, c in enumerate(BASIC_DECK[6:12])]),
        )
    )
    assert judgement.scores == {"Ana": 0, "Ben": 0, "Chloé": 0}
    assert list(judgement.scores) == ["Ana", "Ben", "Chloé"]


# --- Turns and end ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "turns"), [(2, 16), (3, 10), (4, 8), (5, 6)])
def test_a_game_has_three_plus_pile_over_players_turns(players, turns):
    assert turns_for(players, 4 if players % 2 == 0 else 6) == turns
    log = random_game(players, players)
    assert len(log["moves"]) == turns
    assert judge(log).status == "finished"
    assert judge({**log, "moves": log["moves"][:-1]}).status == "in_progress"


def test_turn_after_the_last_is_illegal():
    (log, _), _ = example_cases("thricewise")
    extra = turn(dict.fromkeys(log["players"], "The Mill"))
    judgement = judge({**log, "moves": [*log["moves"], extra]})
    assert_illegal_at(judgement, 6, "game.over")
    assert judgement.scores == {"Ana": 0, "Ben": 0, "Chloé": 0, "Dev": 9, "Eli": 16}


def test_cards_still_set_aside_at_the_end_are_never_placed():
    (log, _), _ = example_cases("thricewise")
    judgement = judge(log)
    assert judgement.status == "finished"
    assert judgement.details["set_aside"]["Dev"] == ["The Castle", "The Darkness"]


def test_winners_empty_until_finished():
    (log, _), _ = example_cases("thricewise")
    judgement = judge({**log, "moves": log["moves"][:5]})
    assert judgement.status == "in_progress"
    assert judgement.winners == []


def test_ties_share_the_win():
    # Five players, every card tied every turn: nobody ever places, all five share the win at 0.
    grid = grid_of(
        ("The Author", (0, 0)),
        ("The Journey", (1, 0)),
        ("The Mountain", (2, 0)),
        ("The Forest", (0, 1)),
        ("The Lunatic", (1, 1)),
        ("The Chance Meeting", (2, 1)),
    )
    reveals = [
        ["The Desert", "The Origin", "The Diplomat", "The Mill", "The Betrayal"],
        ["The Painter", "The Savage", "The Pact", "The Darkness", "The Merchant"],
        ["The Sailor", "The Battle", "Ace of Moons", "Ace of Suns", "Ace of Waves"],
        ["The Discovery", "The Soldier", "Ace of Leaves", "Ace of Wyrms", "Ace of Knots"],
        ["The Penitent", "The Market", "The Huntress", "The Bard", "The Sea"],
        ["The Castle", "The Cave", "The End", "The Calamity", "The Windfall"],
    ]
    moves = [{"reveal": dict(zip(NAMES, cards, strict=True))} for cards in reveals]
    judgement = judge(gamelog(moves, NAMES, grid))
    assert judgement.status == "finished"
    assert judgement.winners == list(NAMES)
    # and a random two-player game ending level on points, both players win
    for seed in range(2000):
        judgement = judge(random_game(seed))
        a, b = judgement.scores.values()
        if a == b and a > 0:
            assert judgement.winners == ["Ana", "Ben"]
            break
    else:
        pytest.fail("no tied game found")


def test_highest_score_wins_alone():
    (log, _), _ = example_cases("thricewise")
    assert judge(log).winners == ["Eli"]


def test_ranks_follow_the_scores_and_players_level_share_a_rank():
    (log, _), _ = example_cases("thricewise")  # Eli 16, Dev 9, Ana, Ben and Chloé 0
    assert judge(log).ranks == {"Ana": 3, "Ben": 3, "Chloé": 3, "Dev": 2, "Eli": 1}
    four = judge(random_game(8, n_players=4))
    assert four.scores == {"Ana": 18, "Ben": 4, "Chloé": 4, "Dev": 0}
    assert four.ranks == {"Ana": 1, "Ben": 2, "Chloé": 2, "Dev": 4}
    # not before the end: an unfinished game, or a log broken after the last turn
    assert judge({**log, "moves": log["moves"][:-1]}).ranks == {}
    assert judge({**log, "moves": [*log["moves"], log["moves"][-1]]}).ranks == {}


def test_illegal_move_leaves_the_state_untouched():
    game = Thricewise.start(["Ana", "Ben"], {"grid": GRID2})
    game.play(turn({"Ana": "The Forest", "Ben": "The Discovery"}))

    def snapshot():
        return (game.scores(), game.details(), game.unseen_cards(), game.legal_cells(), game.turn)

    before = snapshot()
    late_failures = [
        # the first placement scores, the second is on an occupied cell
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Forest", (2, 0)),
            ("Ana", "The Sailor", (2, 0)),
            ("Ben", "The Castle", (-1, 1)),
        ),
        # Ana's group is fine, Ben's card goes nowhere near the grid
        turn(
            {"Ana": "The Sailor", "Ben": "The Castle"},
            ("Ana", "The Forest", (2, 0)),
            ("Ana", "The Sailor", (2, 1)),
            ("Ben", "The Castle", (9, 9)),
        ),
        # the first entry is fine, the second is not even an object
        {
            "reveal": {"Ana": "The Sailor", "Ben": "The Castle"},
            "place": [{"player": "Ana", "card": "The Sailor", "at": [2, 1]}, "oops"],
        },
    ]
    for move in late_failures:
        with pytest.raises(IllegalMove):
            game.play(move)
        assert snapshot() == before


# --- Malformed moves ----------------------------------------------------------------------------


GOOD_REVEAL = {"Ana": "The Sailor", "Ben": "The Castle"}


@pytest.mark.parametrize(
    ("move", "message_id"),
    [
        (None, "thricewise.turn_not_object"),
        ("The Sailor", "thricewise.turn_not_object"),
        (3, "thricewise.turn_not_object"),
        ([], "thricewise.turn_not_object"),
        ([GOOD_REVEAL], "thricewise.turn_not_object"),
        ({}, "thricewise.reveal_not_object"),
        ({"reveal": None}, "thricewise.reveal_not_object"),
        ({"reveal": "The Sailor"}, "thricewise.reveal_not_object"),
        ({"reveal": ["The Sailor", "The Castle"]}, "thricewise.reveal_not_object"),
        ({"reveal": {"Ana": None, "Ben": "The Castle"}}, "thricewise.reveal_not_card"),
        ({"reveal": {"Ana": ["The Sailor"], "Ben": "The Castle"}}, "thricewise.reveal_not_card"),
        ({"reveal": GOOD_REVEAL, "place": "Ana"}, "thricewise.place_not_list"),
        ({"reveal": GOOD_REVEAL, "place": {}}, "thricewise.place_not_list"),
        ({"reveal": GOOD_REVEAL, "place": [None]}, "thricewise.placement_not_object"),
        ({"reveal": GOOD_REVEAL, "place": [[1, 2]]}, "thricewise.placement_not_object"),
        (
            {"reveal": GOOD_REVEAL, "place": [{"player": 1, "card": "The Sailor", "at": [2, 1]}]},
            "json.player",
        ),
        (
            {"reveal": GOOD_REVEAL, "place": [{"player": "Ana", "card": 4, "at": [2, 1]}]},
            "thricewise.not_card",
        ),
        (
            {
                "reveal": GOOD_REVEAL,
                "place": [{"player": "Ana", "card": "The Sailor", "at": "2,1"}],
            },
            "json.cell",
        ),
        (
            {"reveal": GOOD_REVEAL, "place": [{"player": "Ana", "card": "The Sailor", "at": [2]}]},
            "json.cell",
        ),
        (
            {
                "reveal": GOOD_REVEAL,
                "place": [{"player": "Ana", "card": "The Sailor", "at": [2, 1.5]}],
            },
            "json.cell",
        ),
        (
            {
                "reveal": GOOD_REVEAL,
                "place": [{"player": "Ana", "card": "The Sailor", "at": [True, 1]}],
            },
            "json.cell",
        ),
        ({"reveal": GOOD_REVEAL, "place": [{"player": "Ana", "card": "The Sailor"}]}, "json.cell"),
    ],
)
def test_malformed_move_is_illegal_never_a_crash(move, message_id):
    judgement = judge(gamelog([move]))
    assert_illegal_at(judgement, 0, message_id)
    assert judgement.scores == {"Ana": 0, "Ben": 0}


# --- Queries for a score sheet ------------------------------------------------------------------


def test_turn_and_turns_total():
    game = judge(gamelog([turn({"Ana": "The Forest", "Ben": "The Discovery"})])).state
    assert (game.turn, game.turns_total) == (1, 16)
    assert judge(gamelog([])).details["turns"] == 16


def test_unseen_cards_exclude_setup_and_reveals():
    game = judge(gamelog([turn({"Ana": "The Forest", "Ben": "The Discovery"})])).state
    unseen = game.unseen_cards()
    assert len(unseen) == 36 - 4 - 2
    assert not {"The Author", "The Bard", "The Forest", "The Discovery"} & set(unseen)
    assert unseen[0] == "Ace of Moons"


def test_legal_cells_ring_the_grid_within_six_by_six():
    game = judge(gamelog([])).state
    assert len(game.legal_cells()) == 12  # the ring around a 2×2 square
    assert (2, 2) in game.legal_cells() and (1, 1) not in game.legal_cells()
    game = judge(gamelog(_widening("wide")[:2])).state
    assert all(0 <= x <= 5 for x, _ in game.legal_cells())


def test_legal_cells_count_the_cells_a_turn_being_entered_has_taken():
    game = judge(gamelog([])).state
    row = [(2, 0), (3, 0), (4, 0), (5, 0)]  # the 2×2 square grown to 6 columns
    cells = game.legal_cells(row)
    assert (5, 1) in cells and (3, -1) in cells  # next to the cards being placed
    assert (2, 0) not in cells  # taken by one of them
    assert (6, 0) not in cells and (-1, 0) not in cells  # a seventh column
    assert (2, 0) in game.legal_cells() and game.box == (0, 1, 0, 1)  # the game is untouched


def test_legal_cells_come_row_by_row_then_column_by_column():
    # the order a board offers them in: the row above the 2×2 setup, then along each row
    cells = judge(gamelog([])).state.legal_cells()
    assert cells[:6] == [(-1, -1), (0, -1), (1, -1), (2, -1), (-1, 0), (2, 0)]
    assert cells[-4:] == [(-1, 2), (0, 2), (1, 2), (2, 2)]


def test_placing_order_and_set_aside_cards_queries():
    game = judge(gamelog([turn({"Ana": "The Forest", "Ben": "The Discovery"})])).state
    assert game.set_aside_cards("Ben") == ["The Discovery"]
    assert game.placing_order({"Ana": "The Castle", "Ben": "Ace of Moons"}) == ["Ben", "Ana"]
    assert game.placing_order({"Ana": "The Castle", "Ben": "The Cave"}) == []
    with pytest.raises(IllegalMove):
        game.placing_order({"Ana": "The Forest", "Ben": "The Cave"})
    assert len(game.board) == 4


def test_turn_points_add_up_to_the_scores():
    log = random_game(7)
    judgement = judge(log)
    per_turn = judgement.details["turn_points"]
    assert len(per_turn) == 16
    assert {p: sum(t[p] for t in per_turn) for p in ("Ana", "Ben")} == judgement.scores


# --- Properties ---------------------------------------------------------------------------------

MODEST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)


@MODEST
@given(seed=seeds, n_players=st.integers(min_value=2, max_value=5))
def test_random_legal_games_finish_after_the_right_number_of_turns(seed, n_players):
    log = random_game(seed, n_players)
    judgement = judge(log)
    assert judgement.status == "finished", judgement.error
    assert len(log["moves"]) == {2: 16, 3: 10, 4: 8, 5: 6}[n_players]
    cells = [g["at"] for g in log["setup"]["grid"]]
    cells += [e["at"] for e in judgement.details["placements"]]
    assert len({tuple(c) for c in cells}) == len(cells)
    assert max(x for x, _ in cells) - min(x for x, _ in cells) < 6
    assert max(y for _, y in cells) - min(y for _, y in cells) < 6
    assert sum(judgement.scores.values()) == sum(
        e["points"] for e in judgement.details["placements"]
    )
    assert judgement.winners


@MODEST
@given(seed=seeds, n_players=st.integers(min_value=2, max_value=5), shuffle=st.randoms())
def test_judgement_does_not_depend_on_the_order_of_keys_in_reveal(seed, n_players, shuffle):
    log = random_game(seed, n_players)
    reordered = copy.deepcopy(log)
    for move in reordered["moves"]:
        items = list(move["reveal"].items())
        shuffle.shuffle(items)
        move["reveal"] = dict(items)
    assert judge(reordered).as_dict() == judge(log).as_dict()


@MODEST
@given(seed=seeds, n_players=st.integers(min_value=2, max_value=5), data=st.data())
def test_moving_one_placement_to_an_occupied_or_lonely_cell_is_illegal_there(seed, n_players, data):
    log = random_game(seed, n_players)
    spots = [(m, k) for m, move in enumerate(log["moves"]) for k in range(len(move["place"]))]
    if not spots:
        return
    m, k = data.draw(st.sampled_from(spots))
    occupied = data.draw(st.booleans())
    if occupied:
        cell = data.draw(st.sampled_from([g["at"] for g in log["setup"]["grid"]]))
    else:  # three cells away from every card ever on the table: touches nothing
        all_cells = [g["at"] for g in log["setup"]["grid"]]
        all_cells += [e["at"] for move in log["moves"] for e in move["place"]]
        cell = [min(x for x, _ in all_cells) - 3, data.draw(st.integers(-50, 50))]
    bad = copy.deepcopy(log)
    bad["moves"][m]["place"][k]["at"] = cell
    judgement = judge(bad)
    assert_illegal_at(
        judgement, m, "thricewise.cell_taken" if occupied else "thricewise.cell_alone"
    )
    assert judgement.details == judge({**log, "moves": log["moves"][:m]}).details


@MODEST
@given(seed=seeds, n_players=st.integers(min_value=2, max_value=5))
def test_random_games_judge_the_same_from_what_the_referee_understood(seed, n_players):
    log = random_game(seed, n_players)
    # the generator writes what the referee understands: canonical names, reveals in seat order
    assert assert_canonical_round_trip(log)["moves"] == log["moves"]


def _never_crashes(judgement):
    assert judgement.status in ("finished", "in_progress", "illegal")
    assert_not_crashed(judgement)
    if judgement.error is not None:
        assert judgement.error["message"]
    json.dumps(judgement.as_dict())


@settings(max_examples=60, deadline=None)
@given(value=JSON_VALUES)
def test_judge_never_raises_on_arbitrary_json(value):
    judgement = judge(value)
    _never_crashes(judgement)
    assert judgement.status == "illegal"
    judgement = judge({**gamelog([]), "setup": value})
    _never_crashes(judgement)
    assert judgement.status == "illegal"


@settings(max_examples=60, deadline=None)
@given(value=JSON_VALUES, seed=seeds, data=st.data())
def test_arbitrary_json_move_is_illegal_at_that_move(value, seed, data):
    log = random_game(seed)
    m = data.draw(st.integers(0, len(log["moves"]) - 1))
    where = data.draw(st.sampled_from(["move", "reveal", "place", "entry", "card", "at"]))
    bad = copy.deepcopy(log)
    move = bad["moves"][m]
    if where == "move":
        bad["moves"][m] = value
    elif where == "reveal":
        move["reveal"] = value
    elif where == "place" and move["place"]:
        move["place"] = value
    elif move["place"]:
        entry = data.draw(st.sampled_from(move["place"]))
        if where == "entry":
            move["place"][move["place"].index(entry)] = value
        else:
            entry[where] = value
    judgement = judge(bad)
    _never_crashes(judgement)
    if judgement.legal:  # the value happened to be harmless (e.g. an empty place when all tie)
        return
    assert judgement.error["move"] == m


@settings(max_examples=60, deadline=None)
@given(value=JSON_VALUES, seed=seeds, data=st.data())
def test_judge_never_raises_on_mutated_valid_logs(value, seed, data):
    log = random_game(seed, data.draw(st.integers(2, 5)))
    # walk down a random path of the log and replace what is there
    node = log
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = data.draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and data.draw(st.booleans()):
            node = child
            continue
        node[key] = value
        break
    _never_crashes(judge(log))


def test_benchmark_log_is_a_finished_two_player_game_without_ties():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "logs" / "thricewise-bench.json"
    log = json.loads(path.read_text())
    judgement = judge(log)
    assert judgement.status == "finished"
    assert len(log["moves"]) == 16
    assert len(judgement.details["placements"]) == 32
