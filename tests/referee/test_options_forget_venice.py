"""Forget Venice's options (``ForgetVenice.options``, issue 28) agree with its judging.

A page builds a deal from the options alone, as the docstring of ``options`` says: the dealer
from ``dealers``, ``cards_per_deal`` cards of ``cards`` laid in ``piles`` non-empty piles, then
the First and Second Chooser's two different piles. Every test is run at every position of the
public examples (and of a first half ending in a tie, where two players may deal deal 7) and at
random positions of random games (Hypothesis):

- offered ⇒ legal: deals built from random choices among the options are judged legal, and the
  choosers the options name take the piles ``first`` and ``second``;
- legal ⇒ offered: every dealer, every card, every shape of piles and every pair of piles the
  choosers may take (found by brute force with ``check``) is offered;
- ``options()`` changes nothing, and is ``{}`` once the game is over.
"""

from __future__ import annotations

import copy
import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import IllegalMove
from referee.decktet import ALL_CARDS
from referee.forget_venice import GAME, ForgetVenice
from tests.examples import example_cases
from tests.referee.options import asked_twice
from tests.referee.test_forget_venice import (
    NAMES,
    TIED_FIRST_HALF,
    game_from_owners,
    legal_games,
)

KEYS = {"dealers", "cards", "piles", "cards_per_deal"}
DEALER_REFUSALS = (
    "forget-venice.dealer_first",
    "forget-venice.dealer_half_time",
    "forget-venice.dealer_left",
)


# --- Positions ----------------------------------------------------------------------------------


def replay(log: dict, played: int) -> ForgetVenice:
    """The game of ``log`` after its first ``played`` deals."""
    game = GAME.start(log["players"], log["setup"])
    for move in log["moves"][:played]:
        game.play(move)
    return game


def _legal_prefix(log: dict) -> int:
    """How many deals of ``log`` are legal, from the first."""
    game = GAME.start(log["players"], log["setup"])
    for played, move in enumerate(log["moves"]):
        try:
            game.play(move)
        except IllegalMove:
            return played
    return len(log["moves"])


def _example_positions() -> list:
    """Every position of every public example (before each legal deal, and after the last),
    and the half-time of a first half ending in a tie between Ben and Chloé."""
    params = []
    for number, (log, _expected) in enumerate(example_cases("forget-venice"), 1):
        for played in range(_legal_prefix(log) + 1):
            params.append(pytest.param(log, played, id=f"forget-venice-{number}@{played}"))
    tied = game_from_owners(TIED_FIRST_HALF, "0" * 12 + "1" * 12 + "2" * 18)
    params.append(pytest.param(tied, 6, id="tied-first-half@6"))
    return params


EXAMPLE_POSITIONS = _example_positions()
MODEST = settings(
    max_examples=30,
    deadline=None,
    # a random game is 84 cards in 12 deals: large, and slow to draw
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)


@st.composite
def random_positions(draw) -> ForgetVenice:
    """A random game (``legal_games``, written apart from the engine) after a random number of
    its deals, finished games included."""
    log, _collected = draw(legal_games())
    return replay(log, draw(st.integers(0, len(log["moves"]))))


# --- The page: a deal built from the options alone ---------------------------------------------


def lay_out(cards: list[str], sizes) -> list[list[str]]:
    """``cards`` cut into piles of ``sizes`` cards, in order."""
    piles, start = [], 0
    for size in sizes:
        piles.append(cards[start : start + size])
        start += size
    return piles


def random_sizes(options: dict, rng: random.Random) -> list[int]:
    """Random sizes of ``piles`` non-empty piles of ``cards_per_deal`` cards in all."""
    cuts = sorted(rng.sample(range(1, options["cards_per_deal"]), options["piles"] - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, options["cards_per_deal"]], strict=True)]


def random_deal(options: dict, rng: random.Random, **fixed) -> dict:
    """A deal of random choices among the options; ``fixed`` replaces some of them."""
    first, second = rng.sample(range(options["piles"]), 2)
    cards = rng.sample(options["cards"], options["cards_per_deal"])
    deal = {
        "dealer": rng.choice(options["dealers"])["dealer"],
        "piles": lay_out(cards, random_sizes(options, rng)),
        "first": first,
        "second": second,
    }
    return {**deal, **fixed}


def refusal(game: ForgetVenice, move: dict):
    """The message of ``check``'s refusal of ``move``, or None when it is legal."""
    try:
        game.check(move)
    except IllegalMove as refused:
        return refused.verdict
    return None


def _run(check, game: ForgetVenice, rng: random.Random) -> None:
    """Run one rule's check on a game not over (a finished game has no options to check)."""
    if game.finished:
        assert game.options() == {}
        return
    check(game, game.options(), rng)


# --- The rules ----------------------------------------------------------------------------------


def check_deals_built_from_the_options_are_legal(game, options, rng):
    half = game.half
    for _ in range(20):
        deal = random_deal(options, rng)
        assert refusal(game, deal) is None, deal
        # the choosers the options name take the piles "first" and "second"
        (chooser,) = [d for d in options["dealers"] if d["dealer"] == deal["dealer"]]
        played = copy.deepcopy(game)
        played.play(deal)
        kept = ({0, 1, 2} - {deal["first"], deal["second"]}).pop()
        for player, pile in (
            (chooser["first_chooser"], deal["first"]),
            (chooser["second_chooser"], deal["second"]),
            (deal["dealer"], kept),
        ):
            taken = played.collection(player, half)[len(game.collection(player, half)) :]
            assert taken == deal["piles"][pile]


def check_every_dealer_who_may_deal_is_offered(game, options, rng):
    offered = [d["dealer"] for d in options["dealers"]]
    assert offered == [p for p in game.players if p in offered]  # seat order
    for player in game.players:
        refused = refusal(game, random_deal(options, rng, dealer=player))
        if player in offered:
            assert refused is None, player
        else:
            assert refused is not None and refused.id in DEALER_REFUSALS, player


def check_every_card_that_may_be_dealt_is_offered(game, options, rng):
    for card in (card.name for card in ALL_CARDS):  # the Excuse, the Island, ... included
        others = rng.sample([c for c in options["cards"] if c != card], 6)
        piles = lay_out([card, *others], random_sizes(options, rng))
        refused = refusal(game, random_deal(options, rng, piles=piles))
        if card in options["cards"]:
            assert refused is None, card
        else:
            assert refused is not None, card
            assert refused.id in ("forget-venice.already_dealt", "forget-venice.not_in_deck")
            assert refused.params["card"] == card


def check_every_shape_of_piles_the_dealer_may_lay_is_offered(game, options, rng):
    cards = list(options["cards"])
    for count in (2, 3, 4):
        for sizes in itertools.product(range(8), repeat=count):
            if not 6 <= sum(sizes) <= min(8, len(cards)):
                continue
            rng.shuffle(cards)
            deal = random_deal(options, rng, piles=lay_out(cards, sizes), first=0, second=1)
            refused = refusal(game, deal)
            if count == options["piles"] and min(sizes) >= 1 and sum(sizes) == 7:
                assert refused is None, sizes
            else:
                assert refused is not None and refused.id in (
                    "forget-venice.three_piles",
                    "forget-venice.pile_empty",
                    "forget-venice.seven_cards",
                ), sizes
    assert options["cards_per_deal"] == 7


def check_every_pair_of_piles_the_choosers_may_take_is_offered(game, options, rng):
    piles = range(options["piles"])
    for first, second in itertools.product([-1, *piles, options["piles"], 1.0, "0"], repeat=2):
        refused = refusal(game, random_deal(options, rng, first=first, second=second))
        whole = type(first) is int and type(second) is int  # 1.0 is no pile, nor "0"
        if whole and first in piles and second in piles and first != second:
            assert refused is None, (first, second)
        else:
            assert refused is not None, (first, second)


def assert_options_change_nothing(game):
    """``options()`` leaves the game as it was (finished or not), says the same when asked
    again, and gives a copy: a page changing it changes nothing in the game."""
    before, again = asked_twice(game)
    options = game.options()
    if not options:
        return
    # what was given is the page's own: changing it changes nothing in the game
    again["cards"].clear()
    again["dealers"][0]["dealer"] = "nobody"
    assert vars(game) == before
    assert game.options() == options


def check_options_are_json_in_the_logs_spelling(game, options, rng):
    assert set(options) == KEYS
    assert json.loads(json.dumps(options)) == options
    assert options["cards"] == [name for name in NAMES if name in options["cards"]]
    assert options["piles"] == 3 and options["cards_per_deal"] == 7
    for entry in options["dealers"]:
        assert set(entry) == {"dealer", "first_chooser", "second_chooser"}
        seat = game.players.index(entry["dealer"])
        assert entry["first_chooser"] == game.players[(seat + 1) % 3]
        assert entry["second_chooser"] == game.players[(seat + 2) % 3]


# --- The tests: each rule at every position of the examples, and in random games ----------------


def at_example(check, log, played):
    _run(check, replay(log, played), random.Random(played))


positions = pytest.mark.parametrize(("log", "played"), EXAMPLE_POSITIONS)
# the random choices come from a seed: Hypothesis draws the position, not every choice
random_games = given(random_positions(), st.integers(0, 2**32))


@positions
def test_deals_built_from_the_options_are_legal(log, played):
    at_example(check_deals_built_from_the_options_are_legal, log, played)


@MODEST
@random_games
def test_deals_built_from_the_options_are_legal_in_random_games(game, seed):
    _run(check_deals_built_from_the_options_are_legal, game, random.Random(seed))


@positions
def test_every_dealer_who_may_deal_is_offered(log, played):
    at_example(check_every_dealer_who_may_deal_is_offered, log, played)


@MODEST
@random_games
def test_every_dealer_who_may_deal_is_offered_in_random_games(game, seed):
    _run(check_every_dealer_who_may_deal_is_offered, game, random.Random(seed))


@positions
def test_every_card_that_may_be_dealt_is_offered(log, played):
    at_example(check_every_card_that_may_be_dealt_is_offered, log, played)


@MODEST
@random_games
def test_every_card_that_may_be_dealt_is_offered_in_random_games(game, seed):
    _run(check_every_card_that_may_be_dealt_is_offered, game, random.Random(seed))


@positions
def test_every_shape_of_piles_the_dealer_may_lay_is_offered(log, played):
    at_example(check_every_shape_of_piles_the_dealer_may_lay_is_offered, log, played)


@MODEST
@random_games
def test_every_shape_of_piles_the_dealer_may_lay_is_offered_in_random_games(game, seed):
    _run(check_every_shape_of_piles_the_dealer_may_lay_is_offered, game, random.Random(seed))


@positions
def test_every_pair_of_piles_the_choosers_may_take_is_offered(log, played):
    at_example(check_every_pair_of_piles_the_choosers_may_take_is_offered, log, played)


@MODEST
@random_games
def test_every_pair_of_piles_the_choosers_may_take_is_offered_in_random_games(game, seed):
    _run(check_every_pair_of_piles_the_choosers_may_take_is_offered, game, random.Random(seed))


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


def test_a_tie_for_the_first_half_offers_every_leader_the_deal():
    tied = game_from_owners(TIED_FIRST_HALF, "0" * 12 + "1" * 12 + "2" * 18)
    options = replay(tied, 6).options()
    assert options["dealers"] == [
        {"dealer": "Ben", "first_chooser": "Chloé", "second_chooser": "Ana"},
        {"dealer": "Chloé", "first_chooser": "Ana", "second_chooser": "Ben"},
    ]
    assert len(options["cards"]) == 42  # the deck is shuffled again at half-time


def test_a_finished_game_has_no_options():
    finished = [
        replay(log, len(log["moves"]))
        for log, expected in example_cases("forget-venice")
        if expected["status"] == "finished"
    ]
    assert finished  # forget-venice-1
    for game in finished:
        assert game.finished and game.options() == {}


@MODEST
@given(legal_games())
def test_a_finished_game_has_no_options_in_random_games(game):
    log, _collected = game
    assert replay(log, 12).finished and replay(log, 12).options() == {}
    assert replay(log, 11).options() != {}
