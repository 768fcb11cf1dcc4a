"""Thricewise's options (``Thricewise.options``, issue 28) agree with its judging.

A page builds a turn from the options alone, tap by tap, as the docstring of ``options`` says:
the reveal from ``reveal``, who places and in which order from ``ranks``, each group from the
revealed card and ``set_aside``, the first cell from ``legal_cells`` and every later cell by the
step rule (``step_cells`` below, the test's own reading of it). Every test is run at every
position of the public examples and at random positions of random games (Hypothesis):

- offered ⇒ legal: turns built from random choices among the options are judged legal;
- legal ⇒ offered: every card a player may reveal, every set-aside card a group may hold, every
  cell the first card may take and every cell a later card may take (found by brute force with
  ``check``) is offered;
- ``options()`` changes nothing, and is ``{}`` once the game is over.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import IllegalMove
from referee.decktet import ALL_CARDS, BASIC_DECK
from referee.thricewise import GAME, Thricewise
from tests.examples import example_cases
from tests.referee.options import asked_twice
from tests.referee.test_thricewise import random_game

# The test's own view of the deck: every basic-deck card and its rank (Ace 1, 2–9, Crown 10).
RANKS = {
    c.name: (1 if c.rank == "Ace" else 10 if c.rank == "Crown" else int(c.rank)) for c in BASIC_DECK
}
KEYS = {"reveal", "ranks", "set_aside", "grid", "max_side", "legal_cells"}
CELL_REFUSALS = (
    "thricewise.cell_taken",
    "thricewise.cell_alone",
    "thricewise.too_wide",
    "thricewise.too_tall",
)


# --- Positions ----------------------------------------------------------------------------------


def replay(log: dict, played: int) -> Thricewise:
    """The game of ``log`` after its first ``played`` moves."""
    game = GAME.start(log["players"], log["setup"])
    for move in log["moves"][:played]:
        game.play(move)
    return game


def _legal_prefix(log: dict) -> int:
    """How many moves of ``log`` are legal, from the first."""
    game = GAME.start(log["players"], log["setup"])
    for played, move in enumerate(log["moves"]):
        try:
            game.play(move)
        except IllegalMove:
            return played
    return len(log["moves"])


def _example_positions() -> list:
    """Every position of every public example: before each legal move, and after the last."""
    params = []
    for number, (log, _expected) in enumerate(example_cases("thricewise"), 1):
        for played in range(_legal_prefix(log) + 1):
            params.append(pytest.param(log, played, id=f"thricewise-{number}@{played}"))
    return params


EXAMPLE_POSITIONS = _example_positions()
MODEST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def random_positions(draw) -> Thricewise:
    """A random game (``random_game``, written apart from the engine) after a random number of
    its turns, finished games included."""
    log = random_game(draw(st.integers(0, 2**32)), draw(st.integers(2, 5)))
    return replay(log, draw(st.integers(0, len(log["moves"]))))


# --- The page: a turn built from the options alone ---------------------------------------------


def step_cells(options: dict, placed: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The step rule of ``Thricewise.options``, read from the options only: with O the cells of
    ``grid`` and of the cards placed earlier this turn, a cell C not in O, touching a cell of O
    (8 neighbours), with O and C within ``max_side`` columns and rows."""
    occupied = {tuple(entry["at"]) for entry in options["grid"]} | set(placed)
    side = options["max_side"]
    left, right = min(x for x, _ in occupied), max(x for x, _ in occupied)
    top, bottom = min(y for _, y in occupied), max(y for _, y in occupied)
    touching = {(x + dx, y + dy) for x, y in occupied for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    return sorted(
        (
            (x, y)
            for x, y in touching - occupied
            if max(right, x) - min(left, x) < side and max(bottom, y) - min(top, y) < side
        ),
        key=lambda cell: (cell[1], cell[0]),
    )


def placing_order(options: dict, reveal: dict[str, str]) -> list[str]:
    """Who places, in order, read from ``ranks``: a rank revealed twice or more is set aside,
    the others place in ascending rank."""
    ranks = [options["ranks"][card] for card in reveal.values()]
    placing = [p for p, card in reveal.items() if ranks.count(options["ranks"][card]) == 1]
    return sorted(placing, key=lambda p: options["ranks"][reveal[p]])


def random_reveal(options: dict, players, rng: random.Random) -> dict[str, str]:
    """Every player's card, distinct cards of ``reveal``."""
    return dict(zip(players, rng.sample(options["reveal"], len(players)), strict=True))


def random_groups(options: dict, reveal: dict[str, str], rng: random.Random) -> list:
    """The groups of a reveal, in placing order: each placer's revealed card and a random
    choice of their set-aside cards, in a random order."""
    groups = []
    for player in placing_order(options, reveal):
        aside = options["set_aside"][player]
        cards = [reveal[player], *rng.sample(aside, rng.randint(0, len(aside)))]
        rng.shuffle(cards)
        groups.append((player, cards))
    return groups


def groups_of_cards(options: dict, players, rng: random.Random, cards: int) -> tuple[dict, list]:
    """A random reveal and its groups placing ``cards`` cards or more (a reveal where everyone
    ties places nothing), or an empty reveal and no groups when a few tries find none."""
    for _ in range(20):
        reveal = random_reveal(options, players, rng)
        groups = random_groups(options, reveal, rng)
        if sum(len(group) for _player, group in groups) >= cards:
            return reveal, groups
    return {}, []


def place(options: dict, groups: list, rng: random.Random, cells=()) -> list[dict]:
    """The ``place`` of a turn: the first cards at ``cells``, the others each on a random cell
    the page offers (``legal_cells`` for the turn's first card, the step rule after)."""
    entries: list[dict] = []
    placed: list[tuple[int, int]] = []
    for player, cards in groups:
        for card in cards:
            if len(placed) < len(cells):
                cell = tuple(cells[len(placed)])
            else:
                offered = (
                    [tuple(c) for c in options["legal_cells"]]
                    if not placed
                    else step_cells(options, placed)
                )
                # none after a cell a test forced and the referee refuses: any cell will do
                cell = rng.choice(offered) if offered else (0, 0)
            placed.append(cell)
            entries.append({"player": player, "card": card, "at": list(cell)})
    return entries


def random_turn(options: dict, players, rng: random.Random) -> dict:
    reveal = random_reveal(options, players, rng)
    return {"reveal": reveal, "place": place(options, random_groups(options, reveal, rng), rng)}


def around(options: dict, placed=(), margin: int = 2) -> list[tuple[int, int]]:
    """Every cell within ``margin`` of the cards on the grid and ``placed``: the brute force's
    range (a legal cell touches a card, so it is within 1)."""
    cells = [tuple(e["at"]) for e in options["grid"]] + list(placed)
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return [
        (x, y)
        for y in range(min(ys) - margin, max(ys) + margin + 1)
        for x in range(min(xs) - margin, max(xs) + margin + 1)
    ]


def refusal(game: Thricewise, move: dict):
    """The message of ``check``'s refusal of ``move``, or None when it is legal."""
    try:
        game.check(move)
    except IllegalMove as refused:
        return refused.verdict
    return None


def _run(check, game: Thricewise, rng: random.Random) -> None:
    """Run one rule's check on a game not over (a finished game has no options to check)."""
    if game.finished:
        assert game.options() == {}
        return
    check(game, game.options(), rng)


# --- The rules ----------------------------------------------------------------------------------


def check_turns_built_from_the_options_are_legal(game, options, rng):
    for _ in range(20):
        move = random_turn(options, game.players, rng)
        assert refusal(game, move) is None, move


def check_every_card_a_player_may_reveal_is_offered(game, options, rng):
    offered = set(options["reveal"])
    for player in game.players:
        for card in (card.name for card in ALL_CARDS):  # the Pawns, Courts, Excuse included
            others = [c for c in options["reveal"] if c != card]
            reveal = dict(
                zip(
                    [p for p in game.players if p != player],
                    rng.sample(others, len(game.players) - 1),
                    strict=True,
                )
            )
            reveal[player] = card
            reveal = {p: reveal[p] for p in game.players}
            # who places, from the test's own ranks: the turn is whole, so only the card counts
            ranks = [RANKS.get(c) for c in reveal.values()]
            placing = sorted(
                (p for p, c in reveal.items() if c in RANKS and ranks.count(RANKS[c]) == 1),
                key=lambda p: RANKS[reveal[p]],
            )
            move = {
                "reveal": reveal,
                "place": place(options, [(p, [reveal[p]]) for p in placing], rng),
            }
            refused = refusal(game, move)
            if card in offered:
                assert refused is None, (card, move, refused)
            elif card in RANKS:
                assert refused is not None, card
                assert refused.id in ("thricewise.reveal_seen", "thricewise.reveal_in_setup")
                assert refused.params["card"] == card
            else:
                assert refused is not None and refused.id == "thricewise.reveal_not_card", card


def _reveal_placing(options, players, player, rng) -> dict[str, str] | None:
    """A reveal of offered cards in which ``player`` places (no one else revealed the rank of
    their card), or None when the cards left allow none."""
    cards = list(options["reveal"])
    rng.shuffle(cards)
    ranks = options["ranks"]
    for mine in cards:
        others = [c for c in cards if ranks[c] != ranks[mine]]
        if len(others) >= len(players) - 1:
            reveal = dict(zip([p for p in players if p != player], others, strict=False))
            reveal[player] = mine
            return {p: reveal[p] for p in players}
    return None


def check_every_set_aside_card_a_group_may_hold_is_offered(game, options, rng):
    for player in game.players:
        reveal = _reveal_placing(options, game.players, player, rng)
        if reveal is None:
            continue
        for card in RANKS:
            if card == reveal[player]:
                continue
            groups = [
                (p, [reveal[p], card] if p == player else [reveal[p]])
                for p in placing_order(options, reveal)
            ]
            move = {"reveal": reveal, "place": place(options, groups, rng)}
            refused = refusal(game, move)
            if card in options["set_aside"][player]:
                assert refused is None, (card, move, refused)
            else:
                assert refused is not None and refused.id == "thricewise.not_own_card", card


def check_every_cell_legal_for_the_first_card_is_offered(game, options, rng):
    reveal, groups = groups_of_cards(options, game.players, rng, 1)
    if not groups:
        return
    offered = {tuple(cell) for cell in options["legal_cells"]}
    first = groups[0][1][0]
    for cell in around(options):
        refused = refusal(game, {"reveal": reveal, "place": place(options, groups, rng, [cell])})
        if cell in offered:
            assert refused is None, cell
        else:
            assert refused is not None and refused.id in CELL_REFUSALS, cell
            assert refused.params["card"] == first and refused.params["cell"] == cell


def check_every_cell_legal_for_a_later_card_follows_the_step_rule(game, options, rng):
    reveal, groups = groups_of_cards(options, game.players, rng, 2)
    cards = [card for _player, group in groups for card in group]
    if not groups:
        return
    entries = place(options, groups, rng)
    before = rng.randint(1, len(cards) - 1)  # cards placed before the one tried everywhere
    placed = [tuple(entry["at"]) for entry in entries[:before]]
    offered = set(step_cells(options, placed))
    for cell in around(options, placed):
        move = {"reveal": reveal, "place": place(options, groups, rng, [*placed, cell])}
        refused = refusal(game, move)
        if cell in offered:
            assert refused is None, (placed, cell)
        else:
            assert refused is not None and refused.id in CELL_REFUSALS, (placed, cell)
            assert refused.params["card"] == cards[before] and refused.params["cell"] == cell


def assert_options_change_nothing(game):
    """``options()`` leaves the game as it was (finished or not), says the same when asked
    again, and gives a copy: a page changing it changes nothing in the game."""
    before, again = asked_twice(game)
    options = game.options()
    if not options:
        return
    # what was given is the page's own: changing it changes nothing in the game
    again["reveal"].clear()
    again["set_aside"][game.players[0]].append("The Sea")
    again["grid"][0]["at"][0] += 99
    again["legal_cells"].append([99, 99])
    assert vars(game) == before
    assert game.options() == options


def check_options_are_json_in_the_logs_spelling(game, options, rng):
    assert set(options) == KEYS
    assert json.loads(json.dumps(options)) == options
    assert options["reveal"] == [card for card in RANKS if card in options["reveal"]]
    assert options["ranks"] == {card: RANKS[card] for card in options["reveal"]}
    assert list(options["set_aside"]) == list(game.players)
    assert options["max_side"] == 6
    grid = options["grid"]
    assert all(entry["card"] in RANKS and len(entry["at"]) == 2 for entry in grid)
    assert len({tuple(entry["at"]) for entry in grid}) == len(grid)
    cells = [tuple(cell) for cell in options["legal_cells"]]
    assert cells == sorted(cells, key=lambda c: (c[1], c[0]))
    # the first card's cells are the step rule with nothing placed yet
    assert cells == step_cells(options, [])


# --- The tests: each rule at every position of the public examples, and in random games ---------


def at_example(check, log, played):
    _run(check, replay(log, played), random.Random(played))


positions = pytest.mark.parametrize(("log", "played"), EXAMPLE_POSITIONS)
# the random choices come from a seed: Hypothesis draws the position, not every choice
random_games = given(random_positions(), st.integers(0, 2**32))


@positions
def test_turns_built_from_the_options_are_legal(log, played):
    at_example(check_turns_built_from_the_options_are_legal, log, played)


@MODEST
@random_games
def test_turns_built_from_the_options_are_legal_in_random_games(game, seed):
    _run(check_turns_built_from_the_options_are_legal, game, random.Random(seed))


@positions
def test_every_card_a_player_may_reveal_is_offered(log, played):
    at_example(check_every_card_a_player_may_reveal_is_offered, log, played)


@MODEST
@random_games
def test_every_card_a_player_may_reveal_is_offered_in_random_games(game, seed):
    _run(check_every_card_a_player_may_reveal_is_offered, game, random.Random(seed))


@positions
def test_every_set_aside_card_a_group_may_hold_is_offered(log, played):
    at_example(check_every_set_aside_card_a_group_may_hold_is_offered, log, played)


@MODEST
@random_games
def test_every_set_aside_card_a_group_may_hold_is_offered_in_random_games(game, seed):
    _run(check_every_set_aside_card_a_group_may_hold_is_offered, game, random.Random(seed))


@positions
def test_every_cell_legal_for_the_first_card_is_offered(log, played):
    at_example(check_every_cell_legal_for_the_first_card_is_offered, log, played)


@MODEST
@random_games
def test_every_cell_legal_for_the_first_card_is_offered_in_random_games(game, seed):
    _run(check_every_cell_legal_for_the_first_card_is_offered, game, random.Random(seed))


@positions
def test_every_cell_legal_for_a_later_card_follows_the_step_rule(log, played):
    at_example(check_every_cell_legal_for_a_later_card_follows_the_step_rule, log, played)


@MODEST
@random_games
def test_every_cell_legal_for_a_later_card_follows_the_step_rule_in_random_games(game, seed):
    _run(check_every_cell_legal_for_a_later_card_follows_the_step_rule, game, random.Random(seed))


@positions
def test_options_change_nothing(log, played):
    assert_options_change_nothing(replay(log, played))


@MODEST
@given(random_positions())
def test_options_change_nothing_in_random_games(game):
    assert_options_change_nothing(game)


@positions
def test_options_are_json_in_the_logs_spelling(log, played):
    at_example(check_options_are_json_in_the_logs_spelling, log, played)


@MODEST
@random_games
def test_options_are_json_in_the_logs_spelling_in_random_games(game, seed):
    _run(check_options_are_json_in_the_logs_spelling, game, random.Random(seed))


def test_a_finished_game_has_no_options():
    finished = [
        replay(log, len(log["moves"]))
        for log, expected in example_cases("thricewise")
        if expected["status"] == "finished"
    ]
    assert finished  # thricewise-1
    for game in finished:
        assert game.finished and game.options() == {}


@MODEST
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_a_finished_game_has_no_options_in_random_games(seed, players):
    log = random_game(seed, players)
    game = replay(log, len(log["moves"]))
    assert game.finished and game.options() == {}
    before = replay(log, len(log["moves"]) - 1)
    assert not before.finished and before.options() != {}
