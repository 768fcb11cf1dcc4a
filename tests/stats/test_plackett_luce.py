"""games.ratings.plackett_luce is openskill 6.2.0's Plackett–Luce update for teams of one."""

import random

import pytest
from openskill.models import PlackettLuce

from games.ratings import plackett_luce


def _openskill(model, mus, sigmas, ranks, **options):
    teams = model.rate(
        [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in zip(mus, sigmas, strict=True)],
        ranks=list(ranks),
        **options,
    )
    return [team[0].mu for team in teams], [team[0].sigma for team in teams]


def _random_game(rng):
    count = rng.randint(2, 5)
    mus = [rng.uniform(-10, 60) for _ in range(count)]
    sigmas = [rng.choice([25 / 3, rng.uniform(0.05, 12)]) for _ in range(count)]
    # Ranks as the referee derives them (ties share the best rank), some all tied.
    scores = [rng.randint(0, rng.choice([1, 3, 10])) for _ in range(count)]
    ranks = [1 + sum(other > score for other in scores) for score in scores]
    return mus, sigmas, ranks


@pytest.mark.parametrize("seed", range(20))
def test_matches_openskill_on_random_games(seed):
    rng = random.Random(seed)
    model = PlackettLuce()
    for _ in range(250):
        mus, sigmas, ranks = _random_game(rng)
        expected_mu, expected_sigma = _openskill(model, mus, sigmas, ranks)
        mu, sigma = plackett_luce(mus, sigmas, ranks)
        assert mu == pytest.approx(expected_mu, rel=0, abs=1e-9)
        assert sigma == pytest.approx(expected_sigma, rel=0, abs=1e-9)


def test_is_bit_for_bit_openskill_with_default_ratings_and_ties():
    model = PlackettLuce()
    for ranks in ([1, 2], [2, 1], [1, 1], [1, 2, 3], [2, 1, 2], [1, 1, 1, 4], [3, 1, 1, 4, 2]):
        count = len(ranks)
        mus, sigmas = [model.mu] * count, [model.sigma] * count
        assert plackett_luce(mus, sigmas, ranks) == _openskill(model, mus, sigmas, ranks)


@pytest.mark.parametrize(
    "options",
    [
        {"beta": 3.0},
        {"kappa": 0.5},
        {"tau": 0.5},
        {"limit_sigma": True},
        {"beta": 2.0, "kappa": 0.01, "tau": 0.3, "limit_sigma": True},
    ],
)
def test_matches_openskill_with_other_parameters(options):
    rng = random.Random(str(options))
    model = PlackettLuce(**options)
    for _ in range(300):
        mus, sigmas, ranks = _random_game(rng)
        expected_mu, expected_sigma = _openskill(model, mus, sigmas, ranks)
        mu, sigma = plackett_luce(mus, sigmas, ranks, **options)
        assert mu == pytest.approx(expected_mu, rel=0, abs=1e-9)
        assert sigma == pytest.approx(expected_sigma, rel=0, abs=1e-9)


def test_balance_changes_nothing_for_teams_of_one():
    rng = random.Random(6)
    plain, balanced = PlackettLuce(), PlackettLuce(balance=True)
    for _ in range(300):
        mus, sigmas, ranks = _random_game(rng)
        assert _openskill(balanced, mus, sigmas, ranks) == _openskill(plain, mus, sigmas, ranks)


def test_float_and_unordered_ranks_follow_openskill():
    model = PlackettLuce()
    mus, sigmas = [20.0, 31.0, 25.0, 18.5], [3.0, 8.0, 25 / 3, 1.0]
    for ranks in ([4.0, 1.0, 2.0, 3.0], [2.5, 2.0, 1.0, 7.9], [3, 3, 1, 2]):
        assert plackett_luce(mus, sigmas, ranks) == _openskill(model, mus, sigmas, ranks)


def test_inputs_are_not_modified():
    mus, sigmas, ranks = [25.0, 20.0], [8.0, 4.0], [2, 1]
    plackett_luce(mus, sigmas, ranks)
    assert (mus, sigmas, ranks) == ([25.0, 20.0], [8.0, 4.0], [2, 1])
