"""What the referee understood: every legal move and setup in canonical JSON (issue 14).

The app stores ``Judgement.setup`` and ``Judgement.moves`` instead of what was sent, so they must
say exactly what the referee understood: judging them gives the same judgement as the log as
written, understanding them again changes nothing, and two spellings the rules treat alike
(docs/gamelog.md §1: names matched case-insensitively ignoring surrounding spaces, unknown fields
ignored) are understood alike.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import judge
from tests.examples import (
    assert_canonical_round_trip,
    canonical_log,
    example_cases,
    example_paths,
    json_values,
)

BENCH_LOGS = sorted((Path(__file__).resolve().parents[2] / "benchmarks" / "logs").glob("*.json"))
#: every public example (legal or not) and every benchmark log
SOURCES = [json.loads(path.read_text()) for path in [*example_paths(""), *BENCH_LOGS]]
#: a key no game knows: "Other unknown fields are ignored" (docs/gamelog.md §1)
UNKNOWN = "x-unknown"

SLOW = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: respellings are drawn with plain randomness from a seed: fast, and realistic enough
SEEDS = st.integers(0, 2**32 - 1)


@pytest.mark.parametrize("log", SOURCES, ids=lambda log: f"{log['game']}")
def test_every_example_judges_the_same_from_what_the_referee_understood(log):
    assert_canonical_round_trip(log)


def test_the_examples_include_legal_and_illegal_logs_of_every_game():
    games = {log["game"] for log in SOURCES}
    assert len(games) == 5
    for game in games:
        statuses = {expected["status"] for _, expected in example_cases(game)}
        assert "illegal" in statuses and "finished" in statuses, game


def test_an_envelope_or_setup_error_understands_nothing():
    log = copy.deepcopy(SOURCES[0])
    log["setup"] = "nonsense"
    judgement = judge(log)
    assert judgement.setup is None and judgement.moves == []


# --- Spellings the rules treat alike are understood alike ---------------------------------------


#: values an unknown field may hold, nested ones included
UNKNOWN_VALUES = [None, 0, "x", [1, [2, [3]]], {"a": {"b": {"c": []}}}, {"card": "The Sailor"}]


def respelled(log: dict, rng: random.Random) -> dict:
    """``log`` written differently in ways the rules say do not matter: names in another case
    with spaces around them, "The" left out of Decktet names, a Buntherum series as a digit
    string, and unknown fields added to move objects, the setup and list entries."""
    players = set(log["players"])

    def name(value: str) -> str:
        if value in players:  # player names are matched exactly
            return value
        if value.lower().startswith("the ") and rng.random() < 0.5:
            value = value[4:]
        change = rng.choice([str.upper, str.lower, str.title, str])
        before, after = rng.choice([("", ""), (" ", "  "), ("\t", "")])
        return before + change(value) + after

    def walk(value, key=None, open_object=False):
        if isinstance(value, str):
            return name(value)
        if key == "series" and isinstance(value, int) and not isinstance(value, bool):
            return str(value) if rng.random() < 0.5 else value
        if isinstance(value, list):
            return [walk(item, open_object=True) for item in value]
        if isinstance(value, dict):
            copied = {k: walk(v, key=k, open_object=k == "call") for k, v in value.items()}
            if open_object and rng.random() < 0.5:
                copied[UNKNOWN] = copy.deepcopy(rng.choice(UNKNOWN_VALUES))
            return copied
        return value

    written = copy.deepcopy(log)
    if written.get("setup") is not None:
        written["setup"] = walk(written["setup"], open_object=True)
    written["moves"] = [walk(move, open_object=True) for move in written["moves"]]
    return written


@SLOW
@given(st.sampled_from(SOURCES), SEEDS)
def test_spellings_the_rules_treat_alike_are_understood_alike(log, seed):
    written = respelled(log, random.Random(seed))
    original, again = judge(log), judge(written)
    assert again.setup == original.setup
    assert again.moves == original.moves
    assert (again.status, again.scores, again.winners, again.details, again.ranks) == (
        original.status,
        original.scores,
        original.winners,
        original.details,
        original.ranks,
    )
    assert (again.error or {}).get("move") == (original.error or {}).get("move")
    assert assert_canonical_round_trip(written) is not None or original.setup is None


@SLOW
@given(st.sampled_from(SOURCES), st.data())
def test_a_broken_log_judges_the_same_from_what_was_understood_up_to_the_break(log, data):
    written = respelled(log, random.Random(data.draw(SEEDS)))
    moves = written["moves"]
    if moves:
        index = data.draw(st.integers(0, len(moves) - 1))
        broken = data.draw(st.sampled_from(["replace", "drop a field", "cut"]))
        if broken == "replace":
            moves[index] = data.draw(json_values(10))
        elif broken == "drop a field" and isinstance(moves[index], dict) and moves[index]:
            del moves[index][data.draw(st.sampled_from(sorted(moves[index])))]
        else:
            del moves[index:]
    canonical = assert_canonical_round_trip(written)
    if canonical is not None:
        # idempotent: what the referee understood from the canonical log is that log again
        assert canonical_log(canonical, judge(canonical)) == canonical


# --- The canonical form of each game ----------------------------------------------------------


def log_of(game: str, players: list[str], setup, moves: list) -> dict:
    return {"format": "gamelog/1", "game": game, "players": players, "setup": setup, "moves": moves}


def test_thricewise_turns_name_every_card_canonically_and_always_list_the_placements():
    grid = [
        {"card": "the author", "at": [0, 0], "colour": "blue"},
        {"card": " DESERT ", "at": [1, 0]},
        {"card": "The Origin", "at": [0, 1]},
        {"card": "The Journey", "at": [1, 1]},
    ]
    moves = [
        {"reveal": {"Ana": "forest", "Ben": "THE DISCOVERY"}, "note": "tied fives"},
        {
            "reveal": {"Ana": "The Sailor", "Ben": "the castle"},
            "place": [
                {"player": "Ana", "card": "sailor", "at": [2, 0], "why": "flush"},
                {"player": "Ben", "card": "Castle", "at": [-1, 1]},
            ],
        },
    ]
    judgement = judge(log_of("thricewise", ["Ana", "Ben"], {"grid": grid}, moves))
    assert judgement.status == "in_progress"
    assert judgement.setup == {
        "grid": [
            {"card": "The Author", "at": [0, 0]},
            {"card": "The Desert", "at": [1, 0]},
            {"card": "The Origin", "at": [0, 1]},
            {"card": "The Journey", "at": [1, 1]},
        ]
    }
    assert judgement.moves == [
        {"reveal": {"Ana": "The Forest", "Ben": "The Discovery"}, "place": []},
        {
            "reveal": {"Ana": "The Sailor", "Ben": "The Castle"},
            "place": [
                {"player": "Ana", "card": "The Sailor", "at": [2, 0]},
                {"player": "Ben", "card": "The Castle", "at": [-1, 1]},
            ],
        },
    ]


def test_forget_venice_default_sheets_are_understood_as_no_sheets():
    from referee.forget_venice import CRITERIA, DEFAULT_SHEETS

    players = ["Ana", "Ben", "Chloé"]
    for setup in (None, {}, {"sheets": None}, {"sheets": None, "table": 4}):
        assert judge(log_of("forget-venice", players, setup, [])).setup == {}
    written = {
        player: {
            half: {
                c: [s.upper() for s in pair] for c, pair in zip(CRITERIA, sheet[half], strict=True)
            }
            for half in ("1", "2")
        }
        for player, sheet in zip(players, DEFAULT_SHEETS, strict=True)
    }
    # the default table written out in full is the default table
    assert judge(log_of("forget-venice", players, {"sheets": written}, [])).setup == {}
    written["Ana"]["1"]["I"].reverse()  # Knots, Moons: a sheet of its own
    understood = judge(log_of("forget-venice", players, {"sheets": written}, [])).setup
    assert understood["sheets"]["Ana"]["1"]["I"] == ["Knots", "Moons"]
    assert understood["sheets"]["Ben"]["2"]["II"] == ["Waves", "Wyrms"]


def test_forget_venice_deals_name_cards_canonically():
    deal = {
        "dealer": "Ana",
        "piles": [["author", "THE DESERT"], ["lightkeeper"], ["Pact", "The End", "rite", "Mill"]],
        "first": 2,
        "second": 0,
        "comment": "a good deal",
    }
    judgement = judge(log_of("forget-venice", ["Ana", "Ben", "Chloé"], None, [deal]))
    assert judgement.moves == [
        {
            "dealer": "Ana",
            "piles": [
                ["The Author", "The Desert"],
                ["The Light Keeper"],
                ["The Pact", "The End", "The Rite", "The Mill"],
            ],
            "first": 2,
            "second": 0,
        }
    ]


def test_punto_moves_name_the_card_and_either_a_cell_or_blocked():
    setup = {"colours": {"Ben": ["Green", " ORANGE"], "Ana": ["red", "blue"]}, "rounds": "x"}
    moves = [
        {"player": "Ana", "card": " RED-7 ", "at": [0, 0], "blocked": False, "note": 1},
        {"player": "Ben", "card": "Green-3", "at": [1, 0]},
    ]
    judgement = judge(log_of("punto", ["Ana", "Ben"], setup, moves))
    # seat order, colours in the order given (it breaks ties in a blocked round)
    assert judgement.setup == {"colours": {"Ana": ["red", "blue"], "Ben": ["green", "orange"]}}
    assert list(judgement.setup["colours"]) == ["Ana", "Ben"]
    assert judgement.moves == [
        {"player": "Ana", "card": "red-7", "at": [0, 0]},
        {"player": "Ben", "card": "green-3", "at": [1, 0]},
    ]
    # the benchmark match has a blocked round
    log = next(log for log in SOURCES if log["game"] == "punto" and len(log["moves"]) > 50)
    index = next(i for i, move in enumerate(log["moves"]) if move.get("blocked"))
    move = log["moves"][index]
    written = copy.deepcopy(log)
    written["moves"][index] = {**move, "card": move["card"].upper(), "at": None, "why": "full"}
    understood = judge(written).moves[index]
    assert understood == {"player": move["player"], "card": move["card"], "blocked": True}


def test_buntherum_calls_name_the_series_as_a_number_or_impossible():
    from tests.conftest import BUNTHERUM_SERIES

    setup = {
        "series": {side: [c.upper() for c in cards] for side, cards in BUNTHERUM_SERIES.items()}
    }
    moves = [
        {"card": "Green-Die", "call": {"player": "Ana", "series": " 3 ", "shout": "!"}},
        {"card": "pink-cup", "call": {"player": "Ben", "series": " IMPOSSIBLE "}, "tie": None},
        {"card": "blue-ball", "tie": ["Ana", "Chloé"], "call": None},
    ]
    judgement = judge(log_of("buntherum", ["Ana", "Ben", "Chloé"], setup, moves))
    assert judgement.setup == {"series": BUNTHERUM_SERIES}
    assert judgement.moves == [
        {"card": "green-die", "call": {"player": "Ana", "series": 3}},
        {"card": "pink-cup", "call": {"player": "Ben", "series": "impossible"}},
        {"card": "blue-ball", "tie": ["Ana", "Chloé"]},
    ]


def test_three_high_moves_name_card_side_and_piece_or_cannot_play():
    from tests.referee.test_three_high import pieces

    written = [{"piece": e["piece"].upper(), "square": f" {e['square'].upper()}"} for e in pieces()]
    moves = [
        {"player": "Ana", "card": "5s", "side": "South", "piece": "RED-2", "cannot_play": False},
        {"player": "Ben", "cannot_play": True, "card": None, "why": "no card fits"},
    ]
    judgement = judge(log_of("three-high", ["Ana", "Ben"], {"pieces": written}, moves))
    assert judgement.setup == {"pieces": pieces()}
    assert judgement.moves == [
        {"player": "Ana", "card": "5S", "side": "south", "piece": "red-2"},
        {"player": "Ben", "cannot_play": True},
    ]
