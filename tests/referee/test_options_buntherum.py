"""Buntherum's options (issue 28): ``Buntherum.options`` offers exactly the moves the referee
accepts, and says which calls are right as the referee judges them.

At every position of the public examples and at positions of random games (after a tie, after
an elimination): every call and tie the options describe is judged legal (offered ⇒ legal), a
call judged right exactly when the options say the card fits; every move ``check`` accepts among
every card × (every player × every series or "impossible", or any group of players tied) is
described (legal ⇒ offered); asking changes nothing; a finished game offers nothing.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import IllegalMove, judge
from referee.buntherum import ALL_CARDS, GAME, Buntherum
from tests.examples import example_cases, example_paths
from tests.referee.options import asked_twice
from tests.referee.test_buntherum import _random_game, fits

#: every ``series`` a call may name, and one it may not
SERIES = [1, 2, 3, 4, 5, 6, "impossible"]

# A move as a key: ("call", card, player, series) or ("tie", card, players in seat order).
Move = tuple


def as_move(key: Move) -> dict:
    if key[0] == "call":
        _, card, player, series = key
        return {"card": card, "call": {"player": player, "series": series}}
    _, card, players = key
    return {"card": card, "tie": list(players)}


def groups(players) -> list[tuple[str, ...]]:
    """Every group of the players, in seat order, the empty one included."""
    return [group for n in range(len(players) + 1) for group in combinations(players, n)]


def legal_moves(state: Buntherum) -> set[Move]:
    """Brute force: every move ``check`` accepts among every card × (every player × every series
    and "impossible", or every group of players tied)."""
    found: set[Move] = set()
    candidates = [
        *(("call", player, series) for player in state.players for series in SERIES),
        *(("tie", group) for group in groups(state.players)),
    ]
    for card in ALL_CARDS:
        for kind, *rest in candidates:
            key = (kind, card, *rest)
            try:
                state.check(as_move(key))
            except IllegalMove:
                continue
            found.add(key)
    return found


def offered_moves(options: dict) -> set[Move]:
    """The moves the options describe: each card called by each caller into each call, or tied
    on by any two or more of the callers."""
    found: set[Move] = set()
    callers = options["may_call"]
    ties = [group for group in groups(callers) if len(group) >= 2]
    for card in options["cards"]:
        found |= {("call", card, player, s) for player in callers for s in options["calls"]}
        found |= {("tie", card, group) for group in ties}
    return found


def positions(log: dict) -> Iterator[Buntherum]:
    """The state before each move the referee accepts, and after the last one accepted."""
    state = GAME.start(log["players"], log["setup"])
    for move in log["moves"]:
        yield state
        try:
            state.play(move)
        except IllegalMove:
            return
    yield state


def example_positions() -> list:
    params = []
    for path, (log, _) in zip(example_paths("buntherum"), example_cases("buntherum"), strict=True):
        for number, state in enumerate(positions(log)):
            # a copy of each: the positions are played on
            params.append(pytest.param(copy.deepcopy(state), id=f"{path.stem}-{number}"))
    return params


EXAMPLES = example_positions()


@pytest.fixture(params=EXAMPLES)
def state(request):
    """A position of the examples, copied: what one test asks of it, no other test sees."""
    return copy.deepcopy(request.param)


def random_positions(seed: int, count: int, picks: list[int]) -> Iterator[Buntherum]:
    """Some positions of a random legal game: the ones ``picks`` choose, the first after a tie
    and the first after an elimination (the callers are fewer), and the last."""
    log, _ = _random_game(random.Random(seed), count)
    moves = log["moves"]
    chosen = {pick % (len(moves) + 1) for pick in picks} | {len(moves)}
    after_tie = after_out = None
    for number, state in enumerate(positions(log)):
        if after_tie is None and state.tied is not None:
            after_tie = number
        if after_out is None and state.eliminated:
            after_out = number
        if number in chosen or number in (after_tie, after_out):
            yield state


RANDOM = dict(
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(2, 5),
    picks=st.lists(st.integers(0, 10**6), max_size=2),
)
SETTINGS = settings(max_examples=25, deadline=None)


# ---------------------------------------------------------------- the rules, position by position


def assert_offered_moves_are_legal(state: Buntherum) -> None:
    """Every move offered is accepted as written, and a call is judged right exactly when the
    options list the series (or list none, for "impossible")."""
    options = state.options()
    if state.finished:
        assert options == {}
        return
    for key in offered_moves(options):
        move = as_move(key)
        plan = state.check(move)
        assert plan.canonical() == move
        if key[0] == "call":
            fitting = options["cards"][key[1]]
            right = not fitting if key[3] == "impossible" else key[3] in fitting
            assert plan.correct == right, move


def assert_legal_moves_are_offered(state: Buntherum) -> None:
    options = state.options()
    legal = legal_moves(state)
    if state.finished:
        assert legal == set()
        return
    offered = offered_moves(options)
    assert legal - offered == set(), "legal but not offered"
    assert offered - legal == set(), "offered but not legal"


def assert_fits_are_the_series_without_its_colour_or_object(state: Buntherum) -> None:
    """Independent of the engine: a card fits a series that holds neither its colour nor its
    object; the cards offered are those in no series, as the deck lists them."""
    options = state.options()
    if state.finished:
        return
    series = state.details()["series"]
    placed = {card for cards in series.values() for card in cards}
    assert list(options["cards"]) == [card for card in ALL_CARDS if card not in placed]
    for card, fitting in options["cards"].items():
        assert fitting == [int(side) for side, cards in series.items() if fits(cards, card)]


def assert_options_change_nothing(state: Buntherum) -> None:
    asked_twice(state)


# ---------------------------------------------------------------- the public examples


def test_every_call_and_tie_offered_is_legal_and_judged_as_the_fits_say(state):
    assert_offered_moves_are_legal(state)


def test_every_legal_move_is_offered(state):
    assert_legal_moves_are_offered(state)


def test_a_card_fits_the_series_without_its_colour_or_object(state):
    assert_fits_are_the_series_without_its_colour_or_object(state)


def test_asking_for_the_options_changes_nothing(state):
    assert_options_change_nothing(state)


def test_the_move_an_illegal_example_refuses_is_not_offered():
    for log, expected in example_cases("buntherum"):
        if expected["status"] != "illegal":
            continue
        number = expected["error"]["move"]
        state = judge({**log, "moves": log["moves"][:number]}).state
        move = log["moves"][number]
        with pytest.raises(IllegalMove):
            state.check(move)
        assert move["call"]["player"] not in state.options()["may_call"]


def test_a_finished_game_offers_nothing():
    finished = [
        log for log, expected in example_cases("buntherum") if expected["status"] == "finished"
    ]
    assert finished
    for log in finished:
        state = judge(log).state
        assert state.finished and state.options() == {}


def test_after_a_tie_only_the_tied_may_call_and_a_wrong_call_is_offered_too():
    log, _ = example_cases("buntherum")[0]
    state = judge({**log, "moves": log["moves"][:3]}).state  # Chloé and Dev tied on move 2
    options = state.options()
    assert options["may_call"] == ["Chloé", "Dev"]
    assert options["cards"]["purple-car"] == [2, 4, 5, 6]  # Dev calls 2 on move 3: right
    assert options["calls"] == SERIES  # every call, right or wrong
    assert "green-die" not in options["cards"]  # laid at side 3 on move 0


# ---------------------------------------------------------------- random games


@SETTINGS
@given(**RANDOM)
def test_random_games_offer_only_legal_moves(seed, count, picks):
    for state in random_positions(seed, count, picks):
        assert_options_change_nothing(state)  # first: nothing has asked it yet
        assert_offered_moves_are_legal(state)


@SETTINGS
@given(**RANDOM)
def test_random_games_offer_every_legal_move(seed, count, picks):
    for state in random_positions(seed, count, picks):
        assert_legal_moves_are_offered(state)
        assert_fits_are_the_series_without_its_colour_or_object(state)
