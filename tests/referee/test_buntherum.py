"""Buntherum (gamelog.md §6): one test per rule and ruling, the public cases, property tests."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import IllegalMove, SetupError, judge
from referee.buntherum import ALL_CARDS, GAME, parse_card
from tests.examples import (
    assert_canonical_round_trip,
    assert_judged_as_expected,
    example_cases,
    json_values,
)
from tests.referee.crashes import assert_not_crashed, assert_refused

BENCH_LOG = Path(__file__).resolve().parents[2] / "benchmarks" / "logs" / "buntherum-bench.json"

PLAYERS = ["Ana", "Ben", "Chloé"]
# The public examples' setup: red-ball fits no side; green-die fits sides 3 to 6.
SERIES = {
    "1": ["red-die", "blue-car"],
    "2": ["orange-ball", "green-cup"],
    "3": ["yellow-ball", "purple-telephone"],
    "4": ["red-icecream", "black-butterfly"],
    "5": ["pink-ball", "orange-flower"],
    "6": ["red-telephone", "yellow-cup"],
}
FITS_NOWHERE = "red-ball"


def make_log(moves, players=PLAYERS, series=SERIES):
    return {
        "format": "gamelog/1",
        "game": "buntherum",
        "players": list(players),
        "setup": {"series": copy.deepcopy(series)},
        "moves": moves,
    }


def play(moves, players=PLAYERS, series=SERIES):
    return judge(make_log(moves, players, series))


def call(card, player, series):
    return {"card": card, "call": {"player": player, "series": series}}


def tie(card, *players):
    return {"card": card, "tie": list(players)}


def crash(player, card="green-die"):
    """A wrong "impossible": green-die fits side 3 in the starting setup."""
    return call(card, player, "impossible")


def assert_illegal_at(judgement, index, message_id, **params):
    """Refused at move ``index`` by ``message_id`` (with ``params``)."""
    assert_refused(judgement, message_id, move=index, **params)
    assert judgement.error["message"].startswith(f"move {index}: ")


def fits(cards, card):
    """An independent check of "neither its colour nor its object is already in it"."""
    colour, _, obj = card.partition("-")
    return all(c.partition("-")[0] != colour and c.partition("-")[2] != obj for c in cards)


# ----- the public cases -----


@pytest.mark.parametrize(
    ("log", "expected"), example_cases("buntherum"), ids=lambda v: str(v.get("status", ""))
)
def test_public_examples(log, expected):
    assert_judged_as_expected(judge(log).as_dict(), expected)


def test_public_examples_exist():
    assert len(example_cases("buntherum")) >= 2


# ----- setup -----


@pytest.mark.parametrize(("count", "size"), [(2, 13), (3, 9), (4, 7), (5, 6)])
def test_pile_sizes_by_player_count(count, size):
    players = ["Ana", "Ben", "Chloé", "Dev", "Eli"][:count]
    result = play([], players)
    assert result.status == "in_progress"
    assert result.details["pile"] == dict.fromkeys(players, size)
    assert result.scores == dict.fromkeys(players, 0)
    assert result.details["neutral"] == 64 - 12 - count * size - 1  # the first card is face up


@pytest.mark.parametrize("players", [["Ana"], ["A", "B", "C", "D", "E", "F"]])
def test_two_to_five_players(players):
    result = play([], players)
    assert_refused(result, "game.player_count", move=None, count=2, count_max=5)
    assert "2 to 5 players" in result.message


def test_start_refuses_a_wrong_player_count_directly():
    with pytest.raises(SetupError):
        GAME.start(["Ana"], {"series": SERIES})


@pytest.mark.parametrize(
    ("setup", "message_id", "params"),
    [
        (None, "buntherum.setup_shape", {}),
        ({}, "buntherum.setup_shape", {}),
        ({"series": [["red-die", "blue-car"]]}, "buntherum.setup_shape", {}),
        (
            {"series": {k: v for k, v in SERIES.items() if k != "6"}},
            "buntherum.setup_side_missing",
            {"sides": ["6"]},
        ),
        (
            {"series": {**SERIES, "7": ["black-die", "pink-car"]}},
            "buntherum.setup_not_side",
            {"value": "7"},
        ),
        (
            {"series": {**SERIES, " 1 ": ["black-die", "pink-car"]}},
            "buntherum.setup_side_twice",
            {"side": "1"},
        ),
        ({"series": {**SERIES, "1": ["red-die"]}}, "buntherum.setup_two_cards", {"side": "1"}),
        (
            {"series": {**SERIES, "1": ["red-die", "blue-car", "pink-cup"]}},
            "buntherum.setup_two_cards",
            {"side": "1"},
        ),
        ({"series": {**SERIES, "1": "red-die blue-car"}}, "buntherum.setup_two_cards", {}),
        (
            {"series": {**SERIES, "1": ["red-die", "blue-bicycle"]}},
            "buntherum.setup_not_card",
            {"value": "blue-bicycle"},
        ),
        ({"series": {**SERIES, "1": ["red-die", 7]}}, "buntherum.setup_not_card", {"value": 7}),
        (
            {"series": {**SERIES, "1": ["red-die", "red-car"]}},
            "buntherum.setup_colour_twice",
            {"colour": "red"},
        ),
        (
            {"series": {**SERIES, "1": ["red-die", "blue-die"]}},
            "buntherum.setup_object_twice",
            {"object": "die"},
        ),
        (
            {"series": {**SERIES, "1": ["green-cup", "blue-car"]}},
            "buntherum.setup_card_twice",
            {"card": "green-cup", "side_first": "1", "side": "2"},
        ),
    ],
)
def test_bad_setup_is_a_setup_error(setup, message_id, params):
    log = make_log([])
    log["setup"] = setup
    result = judge(log)
    assert_refused(result, message_id, move=None, **params)
    assert result.message.startswith("bad setup: ")
    assert (result.scores, result.winners, result.details) == ({}, [], {})


def test_setup_card_and_side_names_are_case_insensitive_and_trimmed():
    series = {**SERIES, " 1 ": [" Red-Die", "BLUE-car  "]}
    del series["1"]
    result = play([], series=series)
    assert result.status == "in_progress"
    assert result.details["series"]["1"] == ["red-die", "blue-car"]
    assert list(result.details["series"]) == ["1", "2", "3", "4", "5", "6"]


# ----- fitting and calls -----


def test_card_fits_when_neither_colour_nor_object_is_in_the_series():
    game = GAME.start(PLAYERS, {"series": SERIES})
    assert game.fits("green-die", "3")
    assert not game.fits("green-die", "2")  # green-cup: same colour
    assert not game.fits("green-die", "1")  # red-die: same object
    assert game.fitting_series("green-die") == ["3", "4", "5", "6"]
    assert game.fitting_series(FITS_NOWHERE) == []


def test_correct_call_lays_card_and_caller_turns_from_own_pile():
    result = play([call("green-die", "Ben", 3)])
    assert result.status == "in_progress"
    assert result.details["series"]["3"] == ["yellow-ball", "purple-telephone", "green-die"]
    assert result.scores == {"Ana": 0, "Ben": 1, "Chloé": 0}
    assert result.details["pile"] == {"Ana": 9, "Ben": 8, "Chloé": 9}
    assert result.details["turned_from"] == "Ben"


def test_scores_count_cards_turned_from_own_pile():
    result = play(
        [
            call("green-die", "Ben", 3),
            call("blue-ball", "Ben", 4),
            crash("Ben", "pink-die"),
            call(FITS_NOWHERE, "Ana", "impossible"),
        ]
    )
    assert result.scores == {"Ana": 1, "Ben": 2, "Chloé": 0}
    assert all(result.scores[p] + result.details["pile"][p] == 9 for p in PLAYERS)


def test_call_to_a_series_holding_the_colour_is_a_crash():
    result = play([call("green-die", "Ana", 2)])  # side 2 has green-cup
    assert result.status == "in_progress"
    assert result.details["crashes"] == {"Ana": 1, "Ben": 0, "Chloé": 0}
    assert result.details["series"] == SERIES
    assert result.scores["Ana"] == 0 and result.details["pile"]["Ana"] == 9


def test_call_to_a_series_holding_the_object_is_a_crash():
    result = play([call("blue-ball", "Ben", 5)])  # side 5 has pink-ball
    assert result.details["crashes"]["Ben"] == 1
    assert result.details["series"] == SERIES


def test_wrong_call_sends_the_card_under_the_neutral_pile():
    start = play([])
    result = play([call("green-die", "Ana", 2)])
    assert result.details["turned_from"] is None  # the caller turns from the neutral pile
    assert result.details["neutral"] == start.details["neutral"]
    assert "green-die" in result.state.unplaced_cards()


def test_wrong_impossible_is_a_crash():
    result = play([call("green-die", "Chloé", "impossible")])
    assert result.details["crashes"]["Chloé"] == 1
    assert result.scores["Chloé"] == 0 and result.details["pile"]["Chloé"] == 9


def test_side_call_on_a_card_that_fits_nowhere_is_a_crash():
    result = play([call(FITS_NOWHERE, "Ana", 2)])
    assert result.details["crashes"]["Ana"] == 1


def test_correct_impossible_turns_from_own_pile():
    start = play([])
    result = play([call(FITS_NOWHERE, "Ana", "impossible")])
    assert result.details["crashes"]["Ana"] == 0
    assert result.scores["Ana"] == 1 and result.details["pile"]["Ana"] == 8
    assert result.details["series"] == SERIES
    assert result.details["turned_from"] == "Ana"
    assert result.details["neutral"] == start.details["neutral"] + 1


@pytest.mark.parametrize(
    ("card", "series"),
    [
        ("green-die", 3),
        ("green-die", "3"),
        ("green-die", " 3 "),
        (FITS_NOWHERE, "impossible"),
        (FITS_NOWHERE, "IMPOSSIBLE"),
        (FITS_NOWHERE, " Impossible "),
    ],
)
def test_series_is_one_to_six_a_digit_string_or_impossible(card, series):
    result = play([call(card, "Ana", series)])
    assert result.status == "in_progress"
    assert result.scores["Ana"] == 1


@pytest.mark.parametrize("series", [0, 7, -1, "7", "0", "three", "", None, True, 3.0, [3], {}])
def test_series_outside_one_to_six_is_illegal(series):
    assert_illegal_at(play([call("green-die", "Ana", series)]), 0, "buntherum.not_series")


def test_move_card_names_are_case_insensitive():
    result = play([call("  Green-DIE ", "Ana", 3)])
    assert result.details["series"]["3"][-1] == "green-die"


@pytest.mark.parametrize("card", ["green-bicycle", "die-green", "greendie", "", 5, ["red-die"]])
def test_unknown_card_is_illegal(card):
    assert_illegal_at(play([call(card, "Ana", 3)]), 0, "buntherum.not_card", value=card)
    assert_illegal_at(play([call(None, "Ana", 3)]), 0, "buntherum.no_card")


def test_card_already_in_a_series_cannot_be_turned():
    assert_illegal_at(play([call("red-die", "Ana", 2)]), 0, "buntherum.card_in_series", side="1")
    result = play([call("green-die", "Ana", 3), call("green-die", "Ben", 4)])
    assert_illegal_at(result, 1, "buntherum.card_in_series", side="3")
    assert result.scores == {"Ana": 1, "Ben": 0, "Chloé": 0}


def test_card_in_no_series_may_be_turned_again():
    """Ruling: it goes back under the neutral pile, whose order is not recorded."""
    result = play(
        [
            call("green-die", "Ana", 2),
            tie("green-die", "Ana", "Ben"),
            call("green-die", "Ben", "impossible"),
            call(FITS_NOWHERE, "Chloé", "impossible"),
            call(FITS_NOWHERE, "Chloé", "impossible"),
            call("green-die", "Chloé", 3),
        ]
    )
    assert result.status == "in_progress"
    assert result.scores == {"Ana": 0, "Ben": 0, "Chloé": 3}


def test_call_and_tie_together_is_illegal():
    move = {"card": "green-die", "call": {"player": "Ana", "series": 3}, "tie": ["Ana", "Ben"]}
    assert_illegal_at(play([move]), 0, "buntherum.call_and_tie")


@pytest.mark.parametrize("move", [{"card": "green-die"}, {"card": "green-die", "call": None}])
def test_move_without_call_or_tie_is_illegal(move):
    assert_illegal_at(play([move]), 0, "buntherum.nothing_happened", card="green-die")


@pytest.mark.parametrize("move", [None, 3, "green-die", ["green-die"], True])
def test_move_must_be_an_object(move):
    assert_illegal_at(play([move]), 0, "buntherum.move_shape", value=move)


@pytest.mark.parametrize("call_value", ["Ana", 3, ["Ana", 3], True])
def test_call_must_be_an_object(call_value):
    move = {"card": "green-die", "call": call_value}
    assert_illegal_at(play([move]), 0, "buntherum.call_shape", value=call_value)


@pytest.mark.parametrize("player", ["ana", "Ana ", "Dev", None, 1, ""])
def test_caller_must_be_a_player_named_exactly(player):
    assert_illegal_at(play([call("green-die", player, 3)]), 0, "json.player", value=player)


# ----- ties -----


def test_tie_sends_the_card_under_the_neutral_pile():
    start = play([])
    result = play([tie("green-die", "Ana", "Chloé")])
    assert result.status == "in_progress"
    assert result.details["series"] == SERIES
    assert result.scores == dict.fromkeys(PLAYERS, 0)
    assert result.details["crashes"] == dict.fromkeys(PLAYERS, 0)
    assert result.details["turned_from"] is None
    assert result.details["neutral"] == start.details["neutral"]
    assert result.details["tied"] == ["Ana", "Chloé"]


def test_after_a_tie_only_the_tied_may_call():
    result = play([tie("green-die", "Ana", "Ben"), call("blue-ball", "Chloé", 4)])
    assert_illegal_at(result, 1, "buntherum.not_tied_call", player="Chloé", names=["Ana", "Ben"])
    assert result.details["may_call"] == ["Ana", "Ben"]


def test_after_a_tie_a_tied_player_may_call():
    result = play([tie("green-die", "Ana", "Ben"), call("blue-ball", "Ben", 4)])
    assert result.status == "in_progress" and result.scores["Ben"] == 1


def test_a_tie_restricts_only_the_next_card():
    result = play(
        [
            tie("green-die", "Ana", "Ben"),
            call("blue-ball", "Ben", 5),  # wrong: a crash, and the restriction is over
            call("green-die", "Chloé", 3),
        ]
    )
    assert result.status == "in_progress"
    assert result.details["crashes"]["Ben"] == 1
    assert result.scores["Chloé"] == 1
    assert result.details["may_call"] == PLAYERS


def test_a_tie_inside_a_tie_restricts_further():
    players = ["Ana", "Ben", "Chloé", "Dev"]
    moves = [tie("green-die", "Ana", "Ben", "Chloé"), tie("blue-ball", "Chloé", "Ana")]
    result = play(moves, players)
    assert result.status == "in_progress"
    assert result.details["may_call"] == ["Ana", "Chloé"]
    result = play([*moves, call("green-die", "Ben", 3)], players)
    assert_illegal_at(result, 2, "buntherum.not_tied_call", player="Ben", names=["Chloé", "Ana"])
    assert play([*moves, call("green-die", "Chloé", 3)], players).scores["Chloé"] == 1


def test_a_tie_inside_a_tie_cannot_add_players():
    result = play([tie("green-die", "Ana", "Ben"), tie("blue-ball", "Ana", "Chloé")])
    assert_illegal_at(result, 1, "buntherum.not_tied_tie", player="Chloé", names=["Ana", "Ben"])


def test_tie_on_a_card_that_fits_nowhere_is_legal():
    """Ruling: the tied players called "impossible" at once (French sheet, Égalité)."""
    result = play([tie(FITS_NOWHERE, "Ana", "Ben")])
    assert result.status == "in_progress"
    assert result.details["may_call"] == ["Ana", "Ben"]


@pytest.mark.parametrize("players", [[], ["Ana"]])
def test_tie_names_at_least_two_distinct_players(players):
    result = play([tie("green-die", *players)])
    assert_illegal_at(result, 0, "buntherum.tie_too_small", number=len(players))
    result = play([tie("green-die", "Ana", "Ana")])
    assert_illegal_at(result, 0, "buntherum.tied_twice", player="Ana")


@pytest.mark.parametrize("players", [["Ana", "ben"], ["Ana", "Dev"], ["Ana", None]])
def test_tied_players_must_be_players_named_exactly(players):
    assert_illegal_at(play([tie("green-die", *players)]), 0, "json.player", value=players[1])


@pytest.mark.parametrize("value", ["Ana, Ben", {"Ana": 1}, 2])
def test_tie_must_be_a_list(value):
    assert_illegal_at(
        play([{"card": "green-die", "tie": value}]), 0, "buntherum.tie_shape", value=value
    )


# ----- Crash tokens and elimination -----


def test_third_crash_eliminates():
    two = play([crash("Ben")] * 2)
    assert two.details["eliminated"] == [] and two.details["crashes"]["Ben"] == 2
    three = play([crash("Ben")] * 3)
    assert three.status == "in_progress"
    assert three.details["eliminated"] == ["Ben"]
    assert three.details["crashes"]["Ben"] == 3
    assert three.details["may_call"] == ["Ana", "Chloé"]


def test_eliminated_player_call_is_illegal():
    result = play([*[crash("Ben")] * 3, call("green-die", "Ben", 3)])
    assert_illegal_at(result, 3, "buntherum.eliminated_call", player="Ben", count=3)
    assert result.details["crashes"]["Ben"] == 3 and result.scores["Ben"] == 0


def test_eliminated_player_cannot_tie():
    result = play([*[crash("Ben")] * 3, tie("green-die", "Ana", "Ben")])
    assert_illegal_at(result, 3, "buntherum.eliminated_tie", player="Ben", count=3)


def test_last_player_left_wins():
    result = play([*[crash("Ben")] * 3, crash("Ana"), crash("Ana"), crash("Ana")])
    assert result.status == "finished"
    assert result.winners == ["Chloé"]
    assert result.details["eliminated"] == ["Ben", "Ana"]  # in the order of elimination
    assert result.details["may_call"] == []


def test_in_a_two_player_game_the_first_elimination_ends_it():
    result = play([call("green-die", "Ana", 3), *[crash("Ben", "pink-die")] * 3], ["Ana", "Ben"])
    assert result.status == "finished"
    assert result.winners == ["Ana"]
    assert result.scores == {"Ana": 1, "Ben": 0}


# ----- the end -----


def _race(players, winner, size):
    """``size`` correct calls by ``winner``, chosen by an independent fitting check."""
    series = copy.deepcopy(SERIES)
    placed = {card for cards in series.values() for card in cards}
    moves = []
    for card in ALL_CARDS:
        if len(moves) == size:
            break
        if card in placed:
            continue
        side = next((s for s, cards in series.items() if fits(cards, card)), None)
        if side is not None:
            series[side].append(card)
            placed.add(card)
            moves.append(call(card, winner, int(side)))
    assert len(moves) == size
    return moves


def test_winner_last_card_ends_the_game():
    moves = _race(["Ana", "Ben"], "Ben", 13)
    before = play(moves[:-1], ["Ana", "Ben"])
    assert before.status == "in_progress" and before.details["pile"]["Ben"] == 1
    result = play(moves, ["Ana", "Ben"])
    assert result.status == "finished"
    assert result.winners == ["Ben"]
    assert result.scores == {"Ana": 0, "Ben": 13}
    assert result.details["pile"] == {"Ana": 13, "Ben": 0}


def test_correct_impossible_on_the_last_card_wins():
    players = ["Ana", "Ben", "Chloé", "Dev", "Eli"]
    moves = [*_race(players, "Eli", 5), call(FITS_NOWHERE, "Eli", "impossible")]
    result = play(moves, players)
    assert result.status == "finished" and result.winners == ["Eli"]
    assert result.scores["Eli"] == 6


def test_ranks_put_the_winner_first_then_the_others_by_cards_turned():
    (log, _), _ = example_cases("buntherum")  # Ana 6 (won), Dev 1, Eli 1, Ben 0, Chloé 0
    assert judge(log).ranks == {"Ana": 1, "Ben": 4, "Chloé": 4, "Dev": 2, "Eli": 2}
    assert play(log["moves"][:-1], log["players"], log["setup"]["series"]).ranks == {}


def test_a_move_after_the_end_is_illegal():
    moves = _race(["Ana", "Ben"], "Ana", 13)
    result = play([*moves, call(FITS_NOWHERE, "Ben", "impossible")], ["Ana", "Ben"])
    assert_illegal_at(result, 13, "game.over")
    assert result.scores == {"Ana": 13, "Ben": 0}
    game = play(moves, ["Ana", "Ben"]).state
    with pytest.raises(IllegalMove):
        game.play(call(FITS_NOWHERE, "Ben", "impossible"))


def test_illegal_move_leaves_the_state_untouched():
    game = play([tie("green-die", "Ana", "Ben")]).state
    before = json.dumps([game.scores(), game.details()])
    for move in [
        call("blue-ball", "Chloé", 4),
        call("blue-ball", "Ana", 9),
        tie("blue-ball", "Ana", "Chloé"),
        tie("blue-ball", "Ana", "Ben", "Ana"),
        {"card": "blue-ball", "call": {"player": "Ana", "series": 4}, "tie": ["Ana", "Ben"]},
        call("red-die", "Ana", 2),
    ]:
        with pytest.raises(IllegalMove):
            game.play(move)
        assert json.dumps([game.scores(), game.details()]) == before


# ----- queries for the UI -----


def test_may_call_lists_who_may_call_the_face_up_card():
    game = GAME.start(PLAYERS, {"series": SERIES})
    assert game.may_call() == PLAYERS
    game.play(tie("green-die", "Chloé", "Ana"))
    assert game.may_call() == ["Ana", "Chloé"]  # seat order


def test_unplaced_cards_are_those_in_no_series():
    game = GAME.start(PLAYERS, {"series": SERIES})
    assert len(game.unplaced_cards()) == 64 - 12
    assert "red-die" not in game.unplaced_cards()
    game.play(call("green-die", "Ana", 3))
    assert len(game.unplaced_cards()) == 64 - 13 and "green-die" not in game.unplaced_cards()


def test_parse_card_matches_case_insensitively():
    assert parse_card(" Pink-Telephone ") == "pink-telephone"
    assert parse_card("pink telephone") is None
    assert len(ALL_CARDS) == 64


# ----- the benchmark log -----


def test_benchmark_log_is_a_finished_five_player_game():
    log = json.loads(BENCH_LOG.read_text())
    result = judge(log)
    assert result.status == "finished"
    assert len(log["players"]) == 5
    assert sum(result.details["crashes"].values()) > 0
    assert any("tie" in move for move in log["moves"])


# ----- properties -----


def _random_game(rnd: random.Random, count: int):
    """A random legal game: its log, and the engine states after every move."""
    players = ["Ana", "Ben", "Chloé", "Dev", "Eli"][:count]
    deck = list(ALL_CARDS)
    rnd.shuffle(deck)
    series: dict[str, list[str]] = {str(side): [] for side in range(1, 7)}
    for side in series.values():
        while len(side) < 2:
            card = next(c for c in deck if fits(side, c))
            deck.remove(card)
            side.append(card)
    game = GAME.start(players, {"series": series})
    moves, states = [], []
    while not game.finished and len(moves) < 300:
        details = game.details()
        placed = {card for cards in details["series"].values() for card in cards}
        card = rnd.choice([c for c in ALL_CARDS if c not in placed])
        fitting = [s for s, cards in details["series"].items() if fits(cards, card)]
        may = details["may_call"]
        roll = rnd.random()
        if roll < 0.15 and len(may) >= 2:
            move = tie(card, *rnd.sample(may, rnd.randint(2, len(may))))
        elif roll < 0.4:
            wrong = [s for s in details["series"] if s not in fitting]
            wrong += ["impossible"] if fitting else []
            move = call(card, rnd.choice(may), rnd.choice(wrong))
        else:
            right = rnd.choice(fitting) if fitting else "impossible"
            move = call(
                card, rnd.choice(may), rnd.choice([right, int(right)]) if fitting else right
            )
        game.play(move)  # legal by construction: must not raise
        moves.append(move)
        states.append(game.details() | {"scores": game.scores(), "finished": game.finished})
    log = {
        "format": "gamelog/1",
        "game": "buntherum",
        "players": players,
        "setup": {"series": series},
        "moves": moves,
    }
    return log, states


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 5))
def test_random_legal_games_keep_the_invariants(seed, count):
    log, states = _random_game(random.Random(seed), count)
    size = {2: 13, 3: 9, 4: 7, 5: 6}[count]
    for state in states:
        assert all(0 <= left <= size for left in state["pile"].values())
        assert all(state["scores"][p] == size - state["pile"][p] for p in state["pile"])
        for cards in state["series"].values():
            colours = [c.partition("-")[0] for c in cards]
            objects = [c.partition("-")[2] for c in cards]
            assert len(set(colours)) == len(colours) and len(set(objects)) == len(objects)
        assert all(0 <= n <= 3 for n in state["crashes"].values())
    # the game ends exactly once: only after the last move, and no move may follow
    assert not any(state["finished"] for state in states[:-1])
    result = judge(log)
    assert result.status == ("finished" if states and states[-1]["finished"] else "in_progress")
    if result.status == "finished":
        assert len(result.winners) == 1
        after = judge({**log, "moves": [*log["moves"], log["moves"][-1]]})
        assert_illegal_at(after, len(log["moves"]), "game.over")


JSON = json_values(12)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 5))
def test_random_games_judge_the_same_from_what_the_referee_understood(seed, count):
    log, _ = _random_game(random.Random(seed), count)
    assert assert_canonical_round_trip(log)["moves"] == judge(log).moves


@settings(max_examples=100, deadline=None)
@given(JSON)
def test_judge_answers_illegal_on_arbitrary_json_moves(move):
    for log in (make_log([move]), make_log([call("green-die", "Ana", 3), move])):
        result = judge(log)
        assert_not_crashed(result)
        assert result.status == "illegal"
        assert result.error["move"] == len(log["moves"]) - 1


@settings(max_examples=60, deadline=None)
@given(JSON)
def test_judge_answers_illegal_on_arbitrary_json_setups(setup):
    log = make_log([])
    log["setup"] = setup
    result = judge(log)
    assert result.status == "illegal" and result.error["move"] is None
    assert result.message.startswith("bad setup: ")


@settings(max_examples=100, deadline=None)
@given(st.data(), JSON)
def test_judge_never_raises_on_mutated_valid_logs(data, value):
    log, _ = data.draw(st.sampled_from(example_cases("buntherum")))
    log = copy.deepcopy(log)
    # walk down to a random container in the setup or the moves and overwrite one entry (the
    # envelope is the shared referee's business)
    node = log[data.draw(st.sampled_from(["setup", "moves"]))]
    while True:
        keys = list(range(len(node))) if isinstance(node, list) else list(node)
        key = data.draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and data.draw(st.booleans()):
            node = child
            continue
        node[key] = value
        break
    result = judge(log)  # never raises
    assert result.status in ("finished", "in_progress", "illegal")
    json.dumps(result.as_dict())
    if result.status == "illegal":
        assert result.message and "could not be read" not in result.message
        index = result.error["move"]
        if index is not None:
            # the state shown is the state just before the first illegal move
            before = judge({**log, "moves": log["moves"][:index]})
            assert before.legal
            assert (before.scores, before.details) == (result.scores, result.details)
