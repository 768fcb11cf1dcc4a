"""3-High's options (issue 28): ``ThreeHigh.options`` offers exactly the moves the referee accepts,
each with the square the referee moves the piece to.

At every position of the public examples, of a hand emptied by trees, and at positions of random
games: every card, side and piece the options describe is judged legal, the piece landing where
the options say (offered ⇒ legal); every move ``check`` accepts among every player × every card ×
every side × every piece, and every "cannot play", is described (legal ⇒ offered); asking changes
nothing; a finished game offers nothing.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import IllegalMove, judge
from referee.three_high import GAME, PIECES, SIDES, SQUARE_NAMES, ThreeHigh
from tests.examples import example_cases, example_paths
from tests.referee.options import asked_twice
from tests.referee.test_three_high import ALL_CARDS, mv, random_games

LOGS = Path(__file__).resolve().parents[2] / "benchmarks" / "logs"

# A move as a key: (player, card, side, piece), or (player, "cannot_play").
Move = tuple


def as_move(key: Move) -> dict:
    if key[1] == "cannot_play":
        return {"player": key[0], "cannot_play": True}
    return mv(*key)


def legal_moves(state: ThreeHigh) -> set[Move]:
    """Brute force: every move ``check`` accepts among every player × every card × every side ×
    every piece, and every player's "cannot play"."""
    found: set[Move] = set()
    for player in state.players:
        keys = [(player, "cannot_play")]
        keys += [
            (player, card, side, piece) for card in ALL_CARDS for side in SIDES for piece in PIECES
        ]
        for key in keys:
            try:
                state.check(as_move(key))
            except IllegalMove:
                continue
            found.add(key)
    return found


def offered_moves(options: dict) -> dict[Move, str | None]:
    """The moves the options describe, each with the square it would land on (None: off)."""
    player = options["player"]
    found: dict[Move, str | None] = {}
    if options["cannot_play"]:
        found[(player, "cannot_play")] = None
    for card, sides in options["cards"].items():
        for side, pieces in sides.items():
            for piece, square in pieces.items():
                found[(player, card, side, piece)] = square
    return found


def positions(log: dict) -> Iterator[ThreeHigh]:
    """The state before each move the referee accepts, and after the last one accepted."""
    state = GAME.start(log["players"], log["setup"])
    for move in log["moves"]:
        yield state
        try:
            state.play(move)
        except IllegalMove:
            return
    yield state


#: Four players (3 cards each) on the setup of three-high-1: Ana completes a tree at each of her
#: turns, never draws, and has no card left at her fourth turn.
EMPTY_HAND = {
    **example_cases("three-high")[0][0],
    "players": ["Ana", "Ben", "Chloé", "Dev"],
    "moves": [
        mv("Ana", "6S", "south", "red-1"),
        mv("Ben", "2S", "north", "blue-2"),
        mv("Chloé", "2H", "north", "blue-2"),
        mv("Dev", "AS", "north", "blue-1"),
        mv("Ana", "4H", "south", "yellow-1"),
        mv("Ben", "AH", "north", "black-1"),
        mv("Chloé", "AC", "north", "black-1"),
        mv("Dev", "3S", "west", "blue-1"),
        mv("Ana", "2C", "south", "green-1"),
        mv("Ben", "3C", "west", "blue-1"),
        mv("Chloé", "3H", "north", "black-1"),
        mv("Dev", "AD", "south", "blue-1"),
    ],
}


def example_positions() -> list:
    params = []
    cases = zip(example_paths("three-high"), example_cases("three-high"), strict=True)
    logs = [(path.stem, log) for path, (log, _) in cases] + [("empty-hand", EMPTY_HAND)]
    for name, log in logs:
        for number, state in enumerate(positions(log)):
            # a copy of each: the positions are played on
            params.append(pytest.param(copy.deepcopy(state), id=f"{name}-{number}"))
    return params


EXAMPLES = example_positions()


@pytest.fixture(params=EXAMPLES)
def state(request):
    """A position of the examples, copied: what one test asks of it, no other test sees."""
    return copy.deepcopy(request.param)


def random_positions(case, picks: list[int]) -> Iterator[ThreeHigh]:
    """Some positions of a random legal game: the ones ``picks`` choose, and the last."""
    log, _ = case
    chosen = {pick % (len(log["moves"]) + 1) for pick in picks} | {len(log["moves"])}
    for number, state in enumerate(positions(log)):
        if number in chosen:
            yield state


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PICKS = st.lists(st.integers(0, 10**6), max_size=2)


# ---------------------------------------------------------------- the rules, position by position


def assert_offered_moves_are_legal(state: ThreeHigh) -> None:
    """Every move offered is accepted as written, and moves its piece to the square offered."""
    options = state.options()
    if state.finished:
        assert options == {}
        return
    for key, square in offered_moves(options).items():
        move = as_move(key)
        plan = state.check(move)
        assert plan.canonical() == move
        if plan.card is not None:
            assert (None if plan.target is None else SQUARE_NAMES[plan.target]) == square, move


def assert_legal_moves_are_offered(state: ThreeHigh) -> None:
    options = state.options()
    legal = legal_moves(state)
    if state.finished:
        assert legal == set()
        return
    offered = set(offered_moves(options))
    assert legal - offered == set(), "legal but not offered"
    assert offered - legal == set(), "offered but not legal"


def assert_options_change_nothing(state: ThreeHigh) -> None:
    asked_twice(state)


# ---------------------------------------------------------------- the public examples


def test_every_card_side_and_piece_offered_is_legal_and_lands_where_offered(state):
    assert_offered_moves_are_legal(state)


def test_every_legal_move_is_offered(state):
    assert_legal_moves_are_offered(state)


def test_asking_for_the_options_changes_nothing(state):
    assert_options_change_nothing(state)


def test_the_move_an_illegal_example_refuses_is_not_offered():
    for log, expected in example_cases("three-high"):
        if expected["status"] != "illegal":
            continue
        number = expected["error"]["move"]
        state = judge({**log, "moves": log["moves"][:number]}).state
        move = log["moves"][number]
        with pytest.raises(IllegalMove):
            state.check(move)
        sides = state.options()["cards"][move["card"]]
        assert move["piece"] not in sides[move["side"]]  # three-high-2: red-3 is under red-2


def test_a_finished_game_offers_nothing():
    cases = example_cases("three-high")
    finished = [log for log, expected in cases if expected["status"] == "finished"]
    assert finished
    for log in finished:
        state = judge(log).state
        assert state.finished and state.options() == {}


def test_a_player_with_no_card_left_may_only_record_that_they_cannot_play():
    state = judge(EMPTY_HAND).state
    assert state.details()["hands"]["Ana"] == 0
    assert state.options() == {"player": "Ana", "cannot_play": True, "cards": {}}


def test_where_each_piece_lands_and_what_may_not_move():
    log, _ = example_cases("three-high")[1]  # three-high-2: every piece alone on its square
    cards = judge({**log, "moves": []}).state.options()["cards"]
    assert cards["5S"]["north"]["red-1"] is None  # a6, 4 squares north: off the board
    assert "black-1" not in cards["5S"]["east"]  # d8, 4 east: on the black large, not its medium
    assert cards["4S"]["south"]["yellow-2"] == "c1"  # c3, 2 south: onto its large
    assert cards["2S"]["north"]["red-2"] == "a4"  # 2 − 2 = 0: it stays
    assert cards["AS"]["north"]["red-2"] == "a3"  # 1 − 2 = −1: a square away from the north
    assert cards["AD"]["north"]["red-2"] == "a5"  # a diamond: its value towards the side
    assert len(cards) == 32 and all(len(sides) == 4 for sides in cards.values())
    # after move 1 red-2 stands on red-3 at a1, and 3D is played
    cards = judge({**log, "moves": log["moves"][:2]}).state.options()["cards"]
    assert "3D" not in cards and "AS" not in cards
    assert all("red-3" not in pieces for sides in cards.values() for pieces in sides.values())


# ---------------------------------------------------------------- random games


@SETTINGS
@given(random_games(), PICKS)
def test_random_games_offer_only_legal_moves(case, picks):
    for state in random_positions(case, picks):
        assert_options_change_nothing(state)  # first: nothing has asked it yet
        assert_offered_moves_are_legal(state)


@SETTINGS
@given(random_games(), PICKS)
def test_random_games_offer_every_legal_move(case, picks):
    for state in random_positions(case, picks):
        assert_legal_moves_are_offered(state)


def test_the_cards_that_move_alike_are_worked_out_once(monkeypatch):
    """Issue 32: a card moves a piece by its value, a diamond whatever the piece's size; the
    options work out each value and kind (diamond or not) once, not each card."""
    log = json.loads((LOGS / "three-high-bench.json").read_text())
    state = judge({**log, "moves": log["moves"][:13]}).state
    worked: list[tuple[int, bool]] = []
    moves_of = ThreeHigh._moves_of
    monkeypatch.setattr(
        ThreeHigh,
        "_moves_of",
        lambda self, card, pieces: (
            worked.append((card[1], card[2] == "d")) or moves_of(self, card, pieces)
        ),
    )
    options = state.options()
    assert worked and len(worked) == len(set(worked)) < len(options["cards"])


def test_each_piece_is_judged_without_a_call_per_card_side_and_piece(monkeypatch):
    """Issue 32: the options judge some 750 cards × sides × pieces a position; they work out
    where each piece goes and whether it may stop there without asking ``_target`` and
    ``_blocker`` each time, and say what asking them would say, at every position of the
    benchmark's game."""
    log = json.loads((LOGS / "three-high-bench.json").read_text())
    states = [judge({**log, "moves": log["moves"][:number]}).state for number in range(25)]

    def asked(state: ThreeHigh) -> dict:
        """The options as ``_target`` and ``_blocker`` say them, card by card."""
        cards = {}
        tops = [stack[-1] for stack in state.stacks.values()]
        for card in ALL_CARDS:
            if card in state.played:
                continue
            parsed = state._read_card(card)
            sides = {}
            for side, step in SIDES.items():
                moves = {}
                for piece in (piece for piece in PIECES if piece in tops):
                    target = state._target(parsed, step, piece)
                    if state._blocker(piece, target) is None:
                        moves[piece] = None if target is None else SQUARE_NAMES[target]
                if moves:
                    sides[side] = moves
            if sides:
                cards[card] = sides
        return cards

    expected = [asked(state) for state in states if not state.finished]
    calls = []
    for name in ("_target", "_blocker"):
        rule = getattr(ThreeHigh, name)
        monkeypatch.setattr(
            ThreeHigh, name, lambda *args, rule=rule, name=name: calls.append(name) or rule(*args)
        )
    options = [state.options()["cards"] for state in states if not state.finished]
    assert calls == []
    assert options == expected and len(options) == 24
