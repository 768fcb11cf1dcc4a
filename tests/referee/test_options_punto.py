"""Punto's options (issue 28): ``Punto.options`` offers exactly the moves the referee accepts.

At every position of the public examples, of a few full tables and of random matches: every move
the options describe is judged legal (offered ⇒ legal); every move ``check`` accepts among every
player × every card × every cell around the table (and "blocked") is described (legal ⇒
offered); asking changes nothing; a finished match offers nothing.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import IllegalMove, judge
from referee.punto import COLOURS, GAME, VALUES, Punto
from tests.examples import example_cases, example_paths
from tests.referee.options import asked_twice
from tests.referee.test_punto import (
    COLOURS_2,
    GRID_MOST_SERIES,
    GRID_NO_SERIES,
    SEATINGS,
    TWO,
    grid_moves,
    random_match,
)

LOGS = Path(__file__).resolve().parents[2] / "benchmarks" / "logs"

CARDS = [f"{colour}-{value}" for colour in COLOURS for value in VALUES]
#: a cell no 6 × 6 table reaches: where a card that goes anywhere is also tried
FAR = (1000, -1000)

Move = tuple[str, str, tuple[int, int] | None]  # player, card, cell (None: blocked)


def at(player: str, card: str, cell: tuple[int, int]) -> dict:
    return {"player": player, "card": card, "at": list(cell)}


def blocked(player: str, card: str) -> dict:
    return {"player": player, "card": card, "blocked": True}


def as_move(key: Move) -> dict:
    player, card, cell = key
    return blocked(player, card) if cell is None else at(player, card, cell)


def cells_to_try(state: Punto) -> list[tuple[int, int]]:
    """Every cell a card could go to and more: the cards' extent grown by 2 each way (a legal
    cell is on a card or touches one); on an empty table, the cells around the origin."""
    board = [tuple(map(int, key.split(","))) for key in state.details()["board"]]
    if not board:
        return [(x, y) for x in range(-3, 4) for y in range(-3, 4)]
    xs, ys = [x for x, _ in board], [y for _, y in board]
    return [
        (x, y) for x in range(min(xs) - 2, max(xs) + 3) for y in range(min(ys) - 2, max(ys) + 3)
    ]


def legal_moves(state: Punto) -> set[Move]:
    """Brute force: every move ``check`` accepts among every player × every card × every cell of
    ``cells_to_try`` or "blocked"."""
    found: set[Move] = set()
    cells = cells_to_try(state)
    for player in state.players:
        for card in CARDS:
            for cell in [None, *cells]:
                key = (player, card, cell)
                try:
                    state.check(as_move(key))
                except IllegalMove:
                    continue
                found.add(key)
    return found


def offered_moves(options: dict, cells: list[tuple[int, int]]) -> set[Move]:
    """The moves the options describe; a card that goes anywhere is taken at each of ``cells``."""
    player = options["player"]
    found: set[Move] = {(player, card, None) for card in options["blocked"]}
    for card, where in options["cards"].items():
        for cell in cells if where is None else where:
            found.add((player, card, (cell[0], cell[1])))
    return found


def positions(players: list[str], setup: dict, moves: list) -> Iterator[tuple[Punto, Counter]]:
    """The state before each move the referee accepts and after the last one accepted, with the
    copies of each card played in the current round, counted from the moves."""
    state = GAME.start(players, setup)
    played: Counter = Counter()
    for move in moves:
        yield state, played
        try:
            plan = state.check(move)
        except IllegalMove:
            return
        rounds = len(state.rounds)
        state.commit(plan)
        if len(state.rounds) > rounds:
            played = Counter()  # a new round: every card's copies come back
        else:
            played[plan.canonical()["card"]] += 1
    yield state, played


def example_positions() -> list:
    params = []
    for path, (log, _) in zip(example_paths("punto"), example_cases("punto"), strict=True):
        for number, position in enumerate(positions(log["players"], log["setup"], log["moves"])):
            # a copy of each: the positions are played on
            state, played = copy.deepcopy(position)
            params.append(pytest.param((state, log["setup"], played), id=f"{path.stem}-{number}"))
    return params


def table_positions() -> list:
    """Full 6 × 6 tables, where low cards are blocked and covering is the only way."""
    params = []
    for name, rows in (("no-series", GRID_NO_SERIES), ("most-series", GRID_MOST_SERIES)):
        setup = {"colours": COLOURS_2}
        *_, (state, played) = positions(TWO, setup, grid_moves(TWO, COLOURS_2, rows))
        params.append(pytest.param((state, setup, played), id=name))
    return params


EXAMPLES = example_positions()
TABLES = table_positions()


@pytest.fixture(params=EXAMPLES + TABLES)
def position(request):
    """A position of the examples or the full tables, copied: what one test asks of it, no other
    test sees."""
    return copy.deepcopy(request.param)


def random_positions(seed: int, seating, rounds_to_win, picks: list[int]):
    """Some positions of a random legal match: the ones ``picks`` choose, the one before the
    first blocked move, and the last."""
    players, setup = seating
    if rounds_to_win is not None:
        setup = {**setup, "rounds_to_win": rounds_to_win}
    moves = random_match(random.Random(seed), players, setup)
    chosen = {pick % (len(moves) + 1) for pick in picks} | {len(moves)}
    chosen |= {next((n for n, move in enumerate(moves) if move.get("blocked")), 0)}
    for number, (state, played) in enumerate(positions(players, setup, moves)):
        if number in chosen:
            yield state, setup, played


RANDOM = dict(
    seed=st.integers(0, 2**32 - 1),
    seating=st.sampled_from(SEATINGS),
    rounds_to_win=st.sampled_from([None, 1, 3]),
    picks=st.lists(st.integers(0, 10**6), max_size=3),
)
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- the rules, position by position


def assert_offered_moves_are_legal(state: Punto) -> None:
    options = state.options()
    if state.finished:
        assert options == {}
        return
    for key in offered_moves(options, [(0, 0), (-3, 2), FAR]):
        move = as_move(key)
        assert state.check(move).canonical() == move, move


def assert_legal_moves_are_offered(state: Punto) -> None:
    options = state.options()
    legal = legal_moves(state)
    if state.finished:
        assert legal == set()
        return
    offered = offered_moves(options, cells_to_try(state))
    assert legal - offered == set(), "legal but not offered"
    assert offered - legal == set(), "offered but not legal"


def assert_cards_are_the_players_own_with_copies_left(
    state: Punto, setup: dict, played: Counter
) -> None:
    """The cards offered are the player's colours (the team's) or the neutral one, as the setup
    gives them, with the copies left counted from the moves: 2, less the copies the verdict says
    were removed, less those played this round."""
    options = state.options()
    if state.finished:
        return
    held = {colour for colours in setup["colours"].values() for colour in colours}
    neutral = [colour for colour in COLOURS if colour not in held and len(state.players) == 3]
    player = state.to_play
    removed = Counter(state.details()["removed"])
    left = {
        f"{colour}-{value}": 2 - removed[f"{colour}-{value}"] - played[f"{colour}-{value}"]
        for colour in [*setup["colours"][player], *neutral]
        for value in VALUES
    }
    assert options["player"] == player
    assert options["left"] == {card: n for card, n in left.items() if n > 0}
    assert list(options["cards"]) == list(options["left"])
    assert options["blocked"] == [card for card, cells in options["cards"].items() if cells == []]


def assert_options_change_nothing(state: Punto) -> None:
    asked_twice(state)


# ---------------------------------------------------------------- the public examples


def test_every_card_and_cell_offered_is_a_legal_move(position):
    state, setup, played = position
    assert_offered_moves_are_legal(state)


def test_every_legal_move_is_offered(position):
    state, setup, played = position
    assert_legal_moves_are_offered(state)


def test_the_cards_offered_are_the_players_own_or_neutral_with_a_copy_left(position):
    state, setup, played = position
    assert_cards_are_the_players_own_with_copies_left(state, setup, played)


def test_asking_for_the_options_changes_nothing(position):
    state, setup, played = position
    assert_options_change_nothing(state)


def test_the_move_an_illegal_example_refuses_is_not_offered():
    for log, expected in example_cases("punto"):
        if expected["status"] != "illegal":
            continue
        number = expected["error"]["move"]
        state = judge({**log, "moves": log["moves"][:number]}).state
        move = log["moves"][number]
        with pytest.raises(IllegalMove):
            state.check(move)
        key = (move["player"], move["card"], tuple(move["at"]) if "at" in move else None)
        assert key not in offered_moves(state.options(), cells_to_try(state))


def test_a_finished_match_offers_nothing():
    finished = [log for log, expected in example_cases("punto") if expected["status"] == "finished"]
    assert finished
    for log in finished:
        state = judge(log).state
        assert state.finished and state.options() == {}


def test_a_full_table_blocks_the_low_cards_and_offers_covers_to_the_others():
    state, _, _ = copy.deepcopy(TABLES[0].values[0])
    options = state.options()
    # GRID_NO_SERIES: every card is at least 2 (a 2 covers none of them); both red 2s and both
    # blue 8s are on the table
    assert options["player"] == "Ana" and options["blocked"] == ["red-1", "blue-1", "blue-2"]
    assert "red-2" not in options["cards"] and "blue-8" not in options["cards"]
    assert options["left"]["red-8"] == 1 and options["left"]["red-3"] == 1
    assert options["cards"]["red-3"] == [[0, 0], [1, 0], [0, 1], [1, 1], [4, 4], [5, 4]]


def test_the_first_card_of_a_round_goes_anywhere():
    state = GAME.start(TWO, {"colours": COLOURS_2})
    options = state.options()
    assert options["player"] == "Ana" and options["blocked"] == []
    assert options["cards"] == dict.fromkeys(
        [f"{c}-{v}" for c in ("red", "blue") for v in VALUES], None
    )
    assert set(options["left"].values()) == {2}


# ---------------------------------------------------------------- random matches


@SETTINGS
@given(**RANDOM)
def test_random_matches_offer_only_legal_moves(seed, seating, rounds_to_win, picks):
    for state, _setup, _played in random_positions(seed, seating, rounds_to_win, picks):
        assert_options_change_nothing(state)  # first: nothing has asked it yet
        assert_offered_moves_are_legal(state)


@SETTINGS
@given(**RANDOM)
def test_random_matches_offer_every_legal_move(seed, seating, rounds_to_win, picks):
    for state, setup, played in random_positions(seed, seating, rounds_to_win, picks):
        assert_legal_moves_are_offered(state)
        assert_cards_are_the_players_own_with_copies_left(state, setup, played)
        if state.finished:
            assert state.options() == {}


def test_the_empty_cells_are_judged_once_for_every_value(monkeypatch):
    """Issue 32: where a card may go on an empty cell does not depend on its value; the options
    judge each empty cell around the table once, not once per value (nine times)."""
    log = json.loads((LOGS / "punto-bench.json").read_text())
    state = judge({**log, "moves": log["moves"][:28]}).state
    judged: list[tuple[int, int]] = []
    fault = Punto._empty_cell_fault
    monkeypatch.setattr(
        Punto, "_empty_cell_fault", lambda self, cell: judged.append(cell) or fault(self, cell)
    )
    options = state.options()
    assert judged and len(judged) == len(set(judged))
    assert len({len(cells) for cells in options["cards"].values()}) > 1  # several values
