"""games.ratings.rate_teams is openskill 6.2.0's Plackett–Luce update (``rate()``), teams of one
and teams of several players alike, to the last bit; games.ratings.plackett_luce, its shortcut
for plays where everyone plays for themselves (the same update in closed form), is within 1e-12
of it for one play and within 1e-9 over a long history."""

import math
import random
from unittest import mock

import pytest
from openskill.models import PlackettLuce

from games import ratings
from games.ratings import rate_teams, update


def _openskill(model, mus, sigmas, ranks, **options):
    teams = model.rate(
        [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in zip(mus, sigmas, strict=True)],
        ranks=list(ranks),
        **options,
    )
    return [team[0].mu for team in teams], [team[0].sigma for team in teams]


def teams_of_one(mus, sigmas, ranks, **options):
    """rate_teams with teams of one, in plackett_luce's shape."""
    teams = rate_teams(
        [[(mu, sigma)] for mu, sigma in zip(mus, sigmas, strict=True)], ranks, **options
    )
    return [team[0][0] for team in teams], [team[0][1] for team in teams]


@pytest.fixture(params=[ratings.plackett_luce, teams_of_one], ids=["plackett_luce", "rate_teams"])
def plackett_luce(request):
    """Both ways the rebuild rates a play without partners."""
    return request.param


def _random_game(rng):
    count = rng.randint(2, 5)
    mus = [rng.uniform(-10, 60) for _ in range(count)]
    sigmas = [rng.choice([25 / 3, rng.uniform(0.05, 12)]) for _ in range(count)]
    # Ranks as the referee derives them (ties share the best rank), some all tied.
    scores = [rng.randint(0, rng.choice([1, 3, 10])) for _ in range(count)]
    ranks = [1 + sum(other > score for other in scores) for score in scores]
    return mus, sigmas, ranks


@pytest.mark.parametrize("seed", range(20))
def test_matches_openskill_on_random_games(seed, plackett_luce):
    rng = random.Random(seed)
    model = PlackettLuce()
    for _ in range(250):
        mus, sigmas, ranks = _random_game(rng)
        expected = _openskill(model, mus, sigmas, ranks)
        _assert_close(plackett_luce(mus, sigmas, ranks), expected, plackett_luce)


def _assert_close(rated, expected, plackett_luce, tolerance=1e-12):
    """rate_teams gives openskill's bits; plackett_luce (a closed form) the same within 1e-12."""
    if plackett_luce is teams_of_one:
        assert rated == expected
        return
    for got, want in zip(rated, expected, strict=True):
        assert got == pytest.approx(want, rel=0, abs=tolerance)


def test_is_openskill_with_default_ratings_and_ties(plackett_luce):
    model = PlackettLuce()
    for ranks in ([1, 2], [2, 1], [1, 1], [1, 2, 3], [2, 1, 2], [1, 1, 1, 4], [3, 1, 1, 4, 2]):
        count = len(ranks)
        mus, sigmas = [model.mu] * count, [model.sigma] * count
        expected = _openskill(model, mus, sigmas, ranks)
        _assert_close(plackett_luce(mus, sigmas, ranks), expected, plackett_luce)


@pytest.mark.parametrize("seed", range(3))
def test_a_long_history_stays_within_1e_9_of_openskill(seed):
    """plackett_luce's rounding differs from openskill's in the last bits: rated play after play
    (each player's rating the input of their next play, as in a rebuild), the differences must
    not add up. 3,000 plays of 2–6 among 8 players, some tied: every rating within 1e-9."""
    rng = random.Random(seed)
    model = PlackettLuce()
    ours = [(model.mu, model.sigma)] * 8
    theirs = list(ours)
    for _ in range(3000):
        players = rng.sample(range(8), rng.randint(2, 6))
        scores = [rng.randint(0, rng.choice([1, 3, 10])) for _ in players]
        ranks = [1 + sum(other > score for other in scores) for score in scores]
        for ratings_, rate in ((ours, ratings.plackett_luce), (theirs, None)):
            mus = [ratings_[p][0] for p in players]
            sigmas = [ratings_[p][1] for p in players]
            if rate is None:
                mus, sigmas = _openskill(model, mus, sigmas, ranks)
            else:
                mus, sigmas = rate(mus, sigmas, ranks)
            for player, mu, sigma in zip(players, mus, sigmas, strict=True):
                ratings_[player] = (mu, sigma)
        for (mu, sigma), (their_mu, their_sigma) in zip(ours, theirs, strict=True):
            assert mu == pytest.approx(their_mu, rel=0, abs=1e-9)
            assert sigma == pytest.approx(their_sigma, rel=0, abs=1e-9)
    assert min(sigma for _, sigma in ours) < 2  # the ratings did settle: a real history


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
def test_matches_openskill_with_other_parameters(options, plackett_luce):
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


@pytest.mark.parametrize(
    ("ranks", "untied"),
    [([2, 1], True), ([1, 1], False), ([1, 2, 3], True), ([3, 1, 3], False), ([1, 2, 2, 4], False)],
)
def test_only_a_play_without_ties_takes_the_untied_path(ranks, untied):
    """rate_teams' boundary between its two paths: one tie anywhere sends the play down the
    tied one."""
    count = len(ranks)
    with mock.patch.object(update, "_untied_updates", wraps=update._untied_updates) as fast:
        teams_of_one([25.0] * count, [25 / 3] * count, ranks)
    assert fast.called is untied


@pytest.mark.parametrize("seed", range(5))
def test_the_untied_path_gives_the_tied_paths_bits(seed):
    """Where both apply (no tie), leaving out the division by the number tied (1) changes no
    bit: the untied path is a shortcut, not another rating."""
    rng = random.Random(seed)
    for _ in range(200):
        count = rng.randint(2, 6)
        strength = [math.exp(rng.uniform(-3, 3)) for _ in range(count)]
        variance = [rng.uniform(0.01, 150) for _ in range(count)]
        c = math.sqrt(sum(v + update.MODEL.beta**2 for v in variance))
        tied = update._tied_updates(list(range(1, count + 1)), strength, variance, c, c**2)
        assert update._untied_updates(strength, variance, c, c**2) == tied


def test_float_and_unordered_ranks_follow_openskill(plackett_luce):
    model = PlackettLuce()
    mus, sigmas = [20.0, 31.0, 25.0, 18.5], [3.0, 8.0, 25 / 3, 1.0]
    for ranks in ([4.0, 1.0, 2.0, 3.0], [2.5, 2.0, 1.0, 7.9], [3, 3, 1, 2]):
        expected = _openskill(model, mus, sigmas, ranks)
        _assert_close(plackett_luce(mus, sigmas, ranks), expected, plackett_luce)


def test_inputs_are_not_modified(plackett_luce):
    mus, sigmas, ranks = [25.0, 20.0], [8.0, 4.0], [2, 1]
    plackett_luce(mus, sigmas, ranks)
    assert (mus, sigmas, ranks) == ([25.0, 20.0], [8.0, 4.0], [2, 1])


def _openskill_teams(model, teams, ranks):
    rated = model.rate(
        [[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=list(ranks),
    )
    return [[(player.mu, player.sigma) for player in team] for team in rated]


@pytest.mark.parametrize("ranks", [[1, 2], [2, 1], [1, 1]])
def test_two_teams_of_two_are_rated_as_openskill_rates_them(ranks):
    """Punto for four in teams (issue 18): two teams of two, won, lost or level."""
    model = PlackettLuce()
    teams = [[(27.1, 6.2), (22.4, 8.0)], [(25.0, 25 / 3), (31.7, 3.1)]]
    assert rate_teams(teams, ranks) == _openskill_teams(model, teams, ranks)
    assert rate_teams([[(25.0, 25 / 3)] * 2] * 2, ranks) == _openskill_teams(
        model, [[(25.0, 25 / 3)] * 2] * 2, ranks
    )


@pytest.mark.parametrize("seed", range(10))
def test_teams_of_any_size_match_openskill_to_the_last_bit(seed):
    rng = random.Random(seed)
    model = PlackettLuce()
    for _ in range(200):
        count = rng.randint(2, 4)
        teams = [
            [(rng.uniform(-10, 60), rng.choice([25 / 3, rng.uniform(0.05, 12)]))
             for _ in range(rng.randint(1, 3))]
            for _ in range(count)
        ]  # fmt: skip
        ranks = [rng.randint(1, count) for _ in range(count)]
        assert rate_teams(teams, ranks) == _openskill_teams(model, teams, ranks)


def test_limit_sigma_applies_to_each_partner():
    model = PlackettLuce(limit_sigma=True)
    teams = [[(30.0, 0.5), (20.0, 7.0)], [(25.0, 2.0), (26.0, 0.01)]]
    assert rate_teams(teams, [2, 1], limit_sigma=True) == _openskill_teams(model, teams, [2, 1])
