"""3-High (gamelog.md §7): one test per rule and ruling, the public examples, property tests."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import IllegalMove, judge
from referee.three_high import (
    CARDS,
    COLOURS,
    GAME,
    PIECES,
    SIDES,
    SQUARE_NAMES,
    square_from_cards,
)
from tests.examples import (
    assert_canonical_round_trip,
    assert_judged_as_expected,
    example_cases,
    json_values,
)
from tests.referee.crashes import assert_not_crashed, assert_refused

BENCH_LOG = Path(__file__).resolve().parents[2] / "benchmarks" / "logs" / "three-high-bench.json"

#: the setup of the public example three-high-2: every piece alone on its square
LAYOUT = {
    "red-3": "a1",
    "yellow-3": "c1",
    "green-3": "e1",
    "blue-3": "g1",
    "black-3": "h8",
    "red-2": "a4",
    "yellow-2": "c3",
    "green-2": "e5",
    "blue-2": "g8",
    "black-2": "h1",
    "red-1": "a6",
    "yellow-1": "d4",
    "green-1": "f6",
    "blue-1": "b7",
    "black-1": "d8",
}
PLAYERS = ["Ana", "Ben"]


def pieces(layout: dict[str, str] | None = None, **changes: str) -> list[dict]:
    """Setup entries, large first, then medium, then small (dict order within a size)."""
    placed = dict(LAYOUT if layout is None else layout)
    placed.update({name.replace("_", "-"): square for name, square in changes.items()})
    order = sorted(placed, key=lambda piece: -int(piece[-1]))
    return [{"piece": piece, "square": placed[piece]} for piece in order]


def make_log(moves=(), players=PLAYERS, setup_pieces=None) -> dict:
    return {
        "format": "gamelog/1",
        "game": "three-high",
        "players": list(players),
        "setup": {"pieces": pieces() if setup_pieces is None else setup_pieces},
        "moves": list(moves),
    }


def mv(player: str, card: str, side: str, piece: str) -> dict:
    return {"player": player, "card": card, "side": side, "piece": piece}


def run(moves=(), **kwargs):
    return judge(make_log(moves, **kwargs))


def assert_illegal_at(judgement, index: int, message_id: str, **params) -> None:
    """Refused at move ``index`` by ``message_id`` (with ``params``)."""
    assert_refused(judgement, message_id, move=index, **params)
    assert judgement.error["message"].startswith(f"move {index}: ")


# --- the public examples ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("log", "expected"), example_cases("three-high"), ids=["three-high-1", "three-high-2"]
)
def test_public_examples(log, expected):
    assert_judged_as_expected(judge(log).as_dict(), expected)


# --- players, hands and the pile --------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "hand", "pile"),
    [
        (["Ana"], 6, 26),
        (["Ana", "Ben"], 5, 22),
        (["A", "B", "C"], 4, 20),
        (["A", "B", "C", "D"], 3, 20),
    ],
)
def test_hands_of_six_five_four_three_and_the_rest_in_the_pile(players, hand, pile):
    judgement = run(players=players)
    assert judgement.status == "in_progress"
    assert judgement.details["hands"] == {player: hand for player in players}
    assert judgement.details["pile"] == pile
    assert judgement.details["to_play"] == players[0]


@pytest.mark.parametrize("count", [0, 5])
def test_one_to_four_players(count):
    judgement = judge(make_log(players=[f"P{i}" for i in range(count)]))
    if count:
        assert_refused(judgement, "game.player_count", move=None, count=1, count_max=4, number=5)
    else:  # no players at all: the log's envelope is wrong before the game is asked
        assert_refused(judgement, "log.players", move=None)


def test_players_play_in_seat_order_from_the_first_seat():
    assert_illegal_at(
        run([mv("Ben", "2S", "north", "blue-2")]), 0, "three-high.not_your_turn", player_turn="Ana"
    )
    moves = [
        mv("Ana", "2S", "north", "blue-2"),
        mv("Ben", "2H", "north", "blue-2"),
        mv("Ana", "2C", "north", "blue-2"),
    ]
    assert run(moves).status == "in_progress"
    result = run([*moves, mv("Ana", "AS", "north", "blue-1")])
    assert_illegal_at(result, 3, "three-high.not_your_turn", player_turn="Ben", player="Ana")


def test_player_names_are_matched_exactly():
    assert_illegal_at(
        run([mv("ana", "2S", "north", "blue-2")]), 0, "three-high.not_player", value="ana"
    )


def test_a_single_player_plays_every_turn():
    moves = [mv("Ana", "2S", "north", "blue-2"), mv("Ana", "2H", "north", "blue-2")]
    judgement = run(moves, players=["Ana"])
    assert judgement.status == "in_progress"
    assert judgement.details["hands"] == {"Ana": 6}
    assert judgement.details["pile"] == 24


# --- how far a piece moves --------------------------------------------------------------------


def test_card_value_minus_size_moves_toward_the_side():
    # "jouez un 8 pour déplacer une grande pièce de 5 cases"
    judgement = run([mv("Ana", "8C", "north", "yellow-3")])
    assert judgement.details["board"]["c6"] == ["yellow-3"]
    assert "c1" not in judgement.details["board"]


def test_diamond_five_moves_a_large_piece_five():
    judgement = run([mv("Ana", "5D", "north", "green-3")])
    assert judgement.details["board"]["e6"] == ["green-3"]


def test_ace_moves_a_medium_piece_away_one_square():
    judgement = run([mv("Ana", "AH", "east", "yellow-2")])
    assert judgement.details["board"]["b3"] == ["yellow-2"]


def test_ace_moves_a_large_piece_away_two_squares():
    judgement = run([mv("Ana", "AC", "south", "green-3")])
    assert judgement.details["board"]["e3"] == ["green-3"]


@pytest.mark.parametrize(
    ("side", "square"), [("north", "d5"), ("south", "d3"), ("east", "e4"), ("west", "c4")]
)
def test_each_side_moves_the_piece_toward_it(side, square):
    judgement = run([mv("Ana", "2S", side, "yellow-1")])
    assert judgement.details["board"][square] == ["yellow-1"]


def test_zero_move_is_legal():
    judgement = run([mv("Ana", "2S", "north", "blue-2")])
    assert judgement.status == "in_progress"
    assert judgement.details["board"]["g8"] == ["blue-2"]
    assert judgement.details["pile"] == 21
    assert judgement.details["hands"] == {"Ana": 5, "Ben": 5}


def test_zero_move_is_legal_for_a_piece_resting_on_another_colour():
    judgement = run([mv("Ana", "3S", "west", "blue-3")], setup_pieces=pieces(blue_3="a1"))
    assert judgement.status == "in_progress"
    assert judgement.details["board"]["a1"] == ["red-3", "blue-3"]


def test_zero_move_of_a_small_on_its_tree_completes_nothing_and_draws():
    # Ruling: the small does not land anywhere, so the move completes no tree.
    setup = pieces(red_2="a1", red_1="a1")
    judgement = run([mv("Ana", "AS", "north", "red-1")], setup_pieces=setup)
    assert judgement.scores == {"Ana": 1, "Ben": 1}
    assert judgement.details["pile"] == 21
    assert judgement.details["hands"]["Ana"] == 5


def test_piece_passes_over_pieces():
    # black-1 from d8 five squares south passes over yellow-1 on d4.
    judgement = run([mv("Ana", "6S", "south", "black-1")])
    assert judgement.status == "in_progress"
    assert judgement.details["board"]["d3"] == ["black-1"]
    assert judgement.details["board"]["d4"] == ["yellow-1"]


# --- which piece moves, and where it may stop --------------------------------------------------


def test_piece_under_another_cannot_move():
    moves = [mv("Ana", "3D", "south", "red-2"), mv("Ben", "2H", "west", "red-3")]
    judgement = run(moves)
    assert_illegal_at(
        judgement, 1, "three-high.under", piece="red-3", piece_above="red-2", square="a1"
    )
    assert judgement.details["board"]["a1"] == ["red-3", "red-2"]


def test_piece_inside_a_setup_stack_cannot_move():
    setup = pieces(yellow_3="a1", green_3="a1")
    judgement = run([mv("Ana", "3S", "north", "yellow-3")], setup_pieces=setup)
    assert_illegal_at(judgement, 0, "three-high.under", piece="yellow-3", piece_above="green-3")


def test_any_stacking_is_allowed_in_the_setup():
    setup = pieces({piece: "d4" for piece in LAYOUT})
    judgement = run(setup_pieces=setup)
    assert judgement.status == "in_progress"
    assert judgement.details["board"] == {"d4": [entry["piece"] for entry in setup]}
    assert judgement.state.top_pieces() == {"d4": "black-1"}


def test_landing_on_wrong_colour_piece_is_illegal():
    setup = pieces(red_1="c6")
    before = run(setup_pieces=setup)
    judgement = run([mv("Ana", "4S", "south", "red-1")], setup_pieces=setup)
    assert_illegal_at(
        judgement, 0, "three-high.cannot_stop", piece="red-1", piece_below="yellow-2", square="c3"
    )
    assert judgement.details == before.details
    assert judgement.scores == before.scores


def test_landing_on_own_colour_piece_two_sizes_larger_is_illegal():
    result = run([mv("Ana", "6S", "south", "red-1")])
    assert_illegal_at(result, 0, "three-high.cannot_stop", piece="red-1", piece_below="red-3")


def test_landing_on_own_colour_smaller_piece_is_illegal():
    result = run([mv("Ana", "4S", "north", "red-2")])
    assert_illegal_at(result, 0, "three-high.cannot_stop", piece="red-2", piece_below="red-1")


def test_medium_stops_on_its_own_large():
    judgement = run([mv("Ana", "5S", "south", "red-2")])
    assert judgement.details["board"]["a1"] == ["red-3", "red-2"]
    assert judgement.details["pile"] == 21


def test_small_on_a_medium_without_its_large_is_no_tree():
    judgement = run([mv("Ana", "3S", "south", "red-1")])
    assert judgement.details["board"]["a4"] == ["red-2", "red-1"]
    assert judgement.scores == {"Ana": 0, "Ben": 0}
    assert judgement.details["pile"] == 21


# --- leaving the board ------------------------------------------------------------------------


@pytest.mark.parametrize("square", sorted(SQUARE_NAMES.values()))
def test_eight_of_diamonds_always_leaves_the_board(square):
    game = judge(make_log(setup_pieces=pieces(black_1=square))).state
    for side in SIDES:
        assert game.destination("8D", side, "black-1") is None


def test_leaving_the_board_loses_at_once_without_a_draw():
    judgement = run([mv("Ana", "8D", "west", "yellow-1")])
    assert judgement.status == "finished"
    assert judgement.winners == []
    assert judgement.details["outcome"] == "lost"
    assert "yellow-1" in judgement.details["reason"]
    assert "yellow-1" not in json.dumps(judgement.details["board"])
    assert sum(len(stack) for stack in judgement.details["board"].values()) == 14
    assert judgement.details["pile"] == 22
    assert judgement.details["hands"] == {"Ana": 4, "Ben": 5}


def test_moving_away_from_a_side_can_leave_the_board():
    judgement = run([mv("Ana", "AS", "north", "red-3")])
    assert judgement.details["outcome"] == "lost"


def test_move_after_the_game_ended_is_illegal():
    moves = [mv("Ana", "8D", "west", "yellow-1"), mv("Ben", "2S", "north", "blue-2")]
    assert_illegal_at(run(moves), 1, "game.over")


# --- trees, drawing and the end ---------------------------------------------------------------


def test_completed_tree_skips_the_draw():
    moves = [mv("Ana", "5S", "south", "red-2"), mv("Ben", "6C", "south", "red-1")]
    judgement = run(moves)
    assert judgement.details["board"]["a1"] == ["red-3", "red-2", "red-1"]
    assert judgement.scores == {"Ana": 1, "Ben": 1}
    assert judgement.details["trees"] == ["red"]
    assert judgement.details["pile"] == 21
    assert judgement.details["hands"] == {"Ana": 5, "Ben": 4}


def test_completed_tree_shrinks_the_hand_for_the_rest_of_the_game():
    moves = [
        mv("Ana", "5S", "south", "red-2"),
        mv("Ben", "6C", "south", "red-1"),
        mv("Ana", "2S", "north", "blue-2"),
        mv("Ben", "2H", "north", "blue-2"),
    ]
    judgement = run(moves)
    assert judgement.details["hands"] == {"Ana": 5, "Ben": 4}
    assert judgement.details["pile"] == 19


def test_tree_may_stand_anywhere_in_a_stack():
    # red tree on top of blue-3, with black-1 on top of the tree
    setup = pieces(blue_3="a1", red_2="a1", red_1="a1", black_1="a1")
    judgement = run(setup_pieces=setup)
    assert judgement.details["board"]["a1"] == ["red-3", "blue-3", "red-2", "red-1", "black-1"]
    assert judgement.scores == {"Ana": 0, "Ben": 0}
    blue_first = {"blue-3": "a1", **{k: v for k, v in LAYOUT.items() if k != "blue-3"}}
    setup = pieces(blue_first, red_2="a1", red_1="a1", black_1="a1")
    judgement = run(setup_pieces=setup)
    assert judgement.details["board"]["a1"] == [
        "blue-3",
        "red-3",
        "red-2",
        "red-1",
        "black-1",
    ]
    assert judgement.scores == {"Ana": 1, "Ben": 1}
    assert judgement.details["trees"] == ["red"]


def test_moving_a_piece_off_a_tree_keeps_the_tree():
    setup = pieces(red_2="a1", red_1="a1", black_1="a1")
    judgement = run([mv("Ana", "2S", "north", "black-1")], setup_pieces=setup)
    assert judgement.details["board"]["a1"] == ["red-3", "red-2", "red-1"]
    assert judgement.scores == {"Ana": 1, "Ben": 1}


def test_moving_the_small_off_its_tree_breaks_it():
    setup = pieces(red_2="a1", red_1="a1")
    judgement = run([mv("Ana", "3S", "north", "red-1")], setup_pieces=setup)
    assert judgement.details["board"]["a3"] == ["red-1"]
    assert judgement.scores == {"Ana": 0, "Ben": 0}
    assert judgement.details["trees"] == []


def test_drawing_the_last_card_loses():
    log = json.loads(BENCH_LOG.read_text())
    before = judge({**log, "moves": log["moves"][:-1]})
    assert before.status == "in_progress"
    assert before.details["pile"] == 1
    judgement = judge(log)
    assert judgement.status == "finished"
    assert judgement.winners == []
    assert judgement.details["outcome"] == "lost"
    assert judgement.details["reason"] == "the last card of the pile was drawn"
    assert judgement.details["pile"] == 0


def test_five_trees_win():
    log, _ = example_cases("three-high")[0]
    judgement = judge(log)
    assert judgement.status == "finished"
    assert judgement.winners == ["Ana", "Ben"]
    assert judgement.details["outcome"] == "won"
    assert judgement.scores == {"Ana": 5, "Ben": 5}
    before = judge({**log, "moves": log["moves"][:-1]})
    assert before.status == "in_progress"
    assert before.scores == {"Ana": 4, "Ben": 4}


def test_ranks_are_shared_by_the_whole_team_won_or_lost():
    won, _ = example_cases("three-high")[0]
    assert judge(won).ranks == {"Ana": 1, "Ben": 1}
    lost = json.loads(BENCH_LOG.read_text())
    assert judge(lost).winners == [] and judge(lost).ranks == {"Ana": 1, "Ben": 1}
    assert judge({**lost, "moves": lost["moves"][:-1]}).ranks == {}


def test_five_trees_in_setup_win_before_any_move():
    setup = [
        {"piece": f"{colour}-{size}", "square": square}
        for size in (3, 2, 1)
        for colour, square in zip(COLOURS, ("a1", "b2", "c3", "d4", "e5"), strict=True)
    ]
    judgement = run(setup_pieces=setup, players=["Ana", "Ben", "Chloé"])
    assert judgement.status == "finished"
    assert judgement.winners == ["Ana", "Ben", "Chloé"]
    assert judgement.scores == {"Ana": 5, "Ben": 5, "Chloé": 5}
    assert judgement.details["outcome"] == "won"
    assert judgement.details["to_play"] is None
    moved = run([mv("Ana", "AS", "north", "red-1")], setup_pieces=setup)
    assert_illegal_at(moved, 0, "game.over")


# --- cards ------------------------------------------------------------------------------------


def test_card_played_twice_is_illegal():
    moves = [mv("Ana", "2C", "north", "blue-2"), mv("Ben", " 2c ", "north", "blue-2")]
    judgement = run(moves)
    assert_illegal_at(judgement, 1, "three-high.played_twice", card="2C")
    assert judgement.details["played"] == ["2C"]


def test_names_are_case_insensitive_and_cards_shown_upper_case():
    judgement = run([mv("Ana", " 3s ", " South ", "RED-1")])
    assert judgement.status == "in_progress"
    assert judgement.details["board"]["a4"] == ["red-2", "red-1"]
    assert judgement.details["played"] == ["3S"]


@pytest.mark.parametrize("card", ["9S", "10H", "1S", "KD", "S5", "", 5, None, ["5D"]])
def test_only_the_32_cards_ace_to_eight_exist(card):
    assert_illegal_at(
        run([mv("Ana", card, "north", "blue-2")]), 0, "three-high.not_card", value=card
    )


@pytest.mark.parametrize("side", ["up", "n", "", 1, None])
def test_a_card_is_laid_by_north_south_east_or_west(side):
    assert_illegal_at(run([mv("Ana", "2S", side, "blue-2")]), 0, "three-high.not_side", value=side)


@pytest.mark.parametrize("piece", ["red-4", "white-1", "red", 3, None])
def test_a_piece_is_a_colour_and_a_size(piece):
    assert_illegal_at(
        run([mv("Ana", "2S", "north", piece)]), 0, "three-high.not_piece", value=piece
    )


@pytest.mark.parametrize("move", [5, None, "2S", [], ["Ana", "2S"], True])
def test_a_move_must_be_an_object(move):
    assert_illegal_at(run([move]), 0, "three-high.move_shape")


# --- cannot_play and empty hands --------------------------------------------------------------


def test_cannot_play_loses():
    judgement = run([{"player": "Ana", "cannot_play": True}])
    assert judgement.status == "finished"
    assert judgement.winners == []
    assert judgement.details["outcome"] == "lost"
    assert "Ana" in judgement.details["reason"]
    assert judgement.details["hands"] == {"Ana": 5, "Ben": 5}


def test_cannot_play_comes_from_the_player_whose_turn_it_is():
    result = run([{"player": "Ben", "cannot_play": True}])
    assert_illegal_at(result, 0, "three-high.not_your_turn", player_turn="Ana", player="Ben")


def test_cannot_play_with_a_card_is_illegal():
    move = {"player": "Ana", "cannot_play": True, "card": "2S", "side": "north", "piece": "blue-2"}
    assert_illegal_at(run([move]), 0, "three-high.cannot_play_and_card", player="Ana")


def test_cannot_play_must_be_true():
    result = run([{"player": "Ana", "cannot_play": "yes"}])
    assert_illegal_at(result, 0, "three-high.cannot_play_value", value="yes")


def test_empty_hand_must_record_cannot_play():
    # Ana completes three trees with her three cards; the others make zero moves.
    setup = pieces(red_2="a1", red_1="a3", yellow_2="c1", yellow_1="c3", green_2="e1", green_1="e3")
    players = ["Ana", "Ben", "Chloé", "Dev"]
    moves = [
        mv("Ana", "3S", "south", "red-1"),
        mv("Ben", "AS", "north", "blue-1"),
        mv("Chloé", "AH", "north", "blue-1"),
        mv("Dev", "AC", "north", "blue-1"),
        mv("Ana", "3H", "south", "yellow-1"),
        mv("Ben", "2S", "north", "blue-2"),
        mv("Chloé", "2H", "north", "blue-2"),
        mv("Dev", "2C", "north", "blue-2"),
        mv("Ana", "3C", "south", "green-1"),
        mv("Ben", "4S", "north", "blue-3"),
        mv("Chloé", "4H", "south", "blue-3"),
        mv("Dev", "4C", "north", "blue-3"),
    ]
    judgement = run(moves, players=players, setup_pieces=setup)
    assert judgement.status == "in_progress"
    assert judgement.details["hands"] == {"Ana": 0, "Ben": 3, "Chloé": 3, "Dev": 3}
    assert judgement.scores["Ana"] == 3
    assert judgement.details["pile"] == 11
    card = run([*moves, mv("Ana", "5S", "north", "blue-1")], players=players, setup_pieces=setup)
    assert_illegal_at(card, 12, "three-high.empty_hand", player="Ana")
    assert card.details == judgement.details
    lost = run(
        [*moves, {"player": "Ana", "cannot_play": True}], players=players, setup_pieces=setup
    )
    assert lost.status == "finished"
    assert lost.details["outcome"] == "lost"


# --- the setup --------------------------------------------------------------------------------


def _swap(entries, i, j):
    entries = copy.deepcopy(entries)
    entries[i], entries[j] = entries[j], entries[i]
    return entries


@pytest.mark.parametrize(
    ("setup", "message_id"),
    [
        (None, "three-high.setup_shape"),
        ({}, "three-high.setup_shape"),
        ({"pieces": pieces()[:14]}, "three-high.setup_count"),
        ({"pieces": [*pieces(), {"piece": "red-1", "square": "a1"}]}, "three-high.setup_count"),
        (
            {"pieces": [*pieces()[:14], {"piece": "red-1", "square": "b1"}]},
            "three-high.setup_twice",
        ),
        ({"pieces": _swap(pieces(), 4, 5)}, "three-high.setup_order"),
        (
            {"pieces": [*pieces()[:14], {"piece": "black-1", "square": "i9"}]},
            "three-high.setup_not_square",
        ),
        (
            {"pieces": [*pieces()[:14], {"piece": "black-1", "square": 5}]},
            "three-high.setup_not_square",
        ),
        (
            {"pieces": [*pieces()[:14], {"piece": "pink-1", "square": "a1"}]},
            "three-high.setup_not_piece",
        ),
        ({"pieces": [*pieces()[:14], "black-1"]}, "three-high.setup_entry"),
    ],
)
def test_bad_setup_is_refused_with_a_sentence(setup, message_id):
    log = make_log()
    log["setup"] = setup
    judgement = judge(log)
    assert_refused(judgement, message_id, move=None)
    assert judgement.error["message"].startswith("bad setup: ")
    assert (judgement.scores, judgement.winners, judgement.details) == ({}, [], {})


def test_setup_names_are_case_insensitive():
    setup = [{"piece": e["piece"].upper(), "square": f" {e['square'].upper()} "} for e in pieces()]
    judgement = run(setup_pieces=setup)
    assert judgement.status == "in_progress"
    assert judgement.details["board"] == run().details["board"]


# --- the red/black card helper (our convention) -----------------------------------------------


def test_square_from_cards_red_gives_the_rank_black_the_file():
    assert square_from_cards("5H", "3S") == "c5"
    assert square_from_cards("AD", "8C") == "h1"
    assert square_from_cards(" 8h ", "as") == "a8"


@pytest.mark.parametrize(
    ("red", "black"), [("5S", "3S"), ("5H", "3D"), ("9H", "3S"), ("5H", "XX"), (5, "3S")]
)
def test_square_from_cards_refuses_wrong_colours_and_values(red, black):
    with pytest.raises(ValueError):
        square_from_cards(red, black)


# --- queries for the UI -----------------------------------------------------------------------


def test_queries_do_not_change_the_game():
    game = judge(make_log([mv("Ana", "5S", "south", "red-2")])).state
    before = game.details()
    assert game.to_play == "Ben"
    assert game.top_pieces()["a1"] == "red-2"
    assert game.destination("6C", "south", "red-1") == "a1"
    assert game.destination("8D", "north", "red-1") is None
    assert game.played == ["5S"]
    with pytest.raises(IllegalMove):
        game.check(mv("Ben", "5S", "north", "red-1"))
    game.check(mv("Ben", "6C", "south", "red-1"))
    assert game.trees() == []
    assert game.details() == before


# --- properties -------------------------------------------------------------------------------

ALL_SQUARES = sorted(SQUARE_NAMES.values())
ALL_CARDS = [code for code, _, _ in CARDS.values()]


@st.composite
def random_games(draw):
    """A random legal game: the log, and the game state after each move."""
    players = ["Ana", "Ben", "Chloé", "Dev"][: draw(st.integers(1, 4))]
    squares = draw(st.lists(st.sampled_from(ALL_SQUARES), min_size=15, max_size=15))
    setup = [{"piece": p, "square": s} for p, s in zip(PIECES, squares, strict=True)]
    rng = random.Random(draw(st.integers(0, 2**32)))  # plain randomness: realistic games
    game = GAME.start(players, {"pieces": setup})
    moves, states = [], []
    while not game.finished and len(moves) < 60:
        move = None
        if game.hands[game.turn] == 0 or rng.random() < 0.005:
            move = {"player": game.to_play, "cannot_play": True}
        else:
            for _ in range(200):
                candidate = mv(
                    game.to_play,
                    rng.choice(ALL_CARDS),
                    rng.choice(list(SIDES)),
                    rng.choice(list(game.top_pieces().values())),
                )
                try:
                    game.check(candidate)
                except IllegalMove:
                    continue
                off = game.destination(candidate["card"], candidate["side"], candidate["piece"])
                if off is None and rng.random() > 0.01:
                    continue
                move = candidate
                break
        if move is None:
            break
        game.play(move)
        moves.append(move)
        states.append(copy.deepcopy(game))
    return make_log(moves, players=players, setup_pieces=setup), states


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_games())
def test_random_legal_games_keep_every_invariant(case):
    log, states = case
    for game in states:
        on_board = sum(len(stack) for stack in game.stacks.values())
        if game.outcome == "lost" and game.reason.endswith("off the board"):
            assert on_board == 14
        else:
            assert on_board == 15
        assert game.pile >= 0
        assert game.pile + sum(game.hands) + len(game.played) == 32
        assert len(set(game.played)) == len(game.played)
        assert all(hand >= 0 for hand in game.hands)
        assert game.tree_colours == game._scan_trees()
        assert set(game.scores().values()) == {len(game.trees())}
    judgement = judge(log)
    assert judgement.status in ("finished", "in_progress")
    if states:
        assert judgement.details == states[-1].details()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_games())
def test_random_games_judge_the_same_from_what_the_referee_understood(case):
    log, _ = case
    assert assert_canonical_round_trip(log)["moves"] == log["moves"]


JSON = json_values(20)


@settings(max_examples=100, deadline=None)
@given(JSON)
def test_judge_never_raises_on_arbitrary_json(value):
    assert judge(value).status == "illegal"
    log = make_log()
    log["setup"] = value
    assert judge(log).status == "illegal"
    assert judge(make_log([value])).status == "illegal"


MOVE_FIELDS = st.sampled_from(["player", "card", "side", "piece", "cannot_play"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_games(), st.data())
def test_judge_never_raises_on_mutated_logs(case, data):
    log, _ = case
    if not log["moves"]:
        return
    index = data.draw(st.integers(0, len(log["moves"]) - 1))
    mutated = copy.deepcopy(log)
    if data.draw(st.booleans()):
        mutated["moves"][index] = data.draw(JSON)
    else:
        mutated["moves"][index][data.draw(MOVE_FIELDS)] = data.draw(JSON)
    judgement = judge(mutated)
    assert judgement.status in ("finished", "in_progress", "illegal")
    assert_not_crashed(judgement)
    if judgement.error is not None:
        assert judgement.error["move"] is not None
        assert judgement.error["move"] >= index
    if not isinstance(mutated["moves"][index], dict):
        assert_illegal_at(judgement, index, "three-high.move_shape")
