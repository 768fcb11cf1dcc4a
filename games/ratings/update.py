"""One Plackett–Luce update of a play's teams: openskill's, in plain floats.

**Teams.** A play's result is read as teams (``play_teams``): seats sharing ``Seat.team`` are
partners, every other seat is a team of one; a team's rank is its seats' rank. A play is rated
as its teams (openskill's Plackett–Luce, ``rate_teams``; ``plackett_luce`` when everyone plays
for themselves). Pure Python: the tests check ``rate_teams`` against openskill's own ``rate()``
to the last bit, and ``plackett_luce`` (a closed form of the same update) to 1e-9. A full
rebuild rates most plays by the C twin of ``plackett_luce`` (games/ratings/_native.c: the same
operations in the same order, the same bits, tests/stats/test_native.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
#: A new player's rating (openskill's defaults: μ = 25, σ = 25/3).
INITIAL_MU: float = MODEL.mu
INITIAL_SIGMA: float = MODEL.sigma


def rate_teams(
    teams: Sequence[Sequence[tuple[float, float]]],
    ranks: Sequence[float],
    *,
    beta: float = MODEL.beta,
    kappa: float = MODEL.kappa,
    tau: float = MODEL.tau,
    limit_sigma: bool = MODEL.limit_sigma,
) -> list[list[tuple[float, float]]]:
    """One Plackett–Luce update of a game between teams: each team a list of its players'
    (μ, σ), a rank per team (lower is better, equal ranks tie) → the players' new (μ, σ), in
    the same shape and order. A play without partners is teams of one.

    Exactly openskill 6.2.0's ``PlackettLuce().rate(teams, ranks=...)`` with the default gamma
    (√σ²ᵢ / c) and no weights or scores, repeating its floating-point operations in its order so
    that the results are the same to the last bit (the tests check it against openskill), but
    without its per-call validation, deep copies and rating objects: a full rebuild rates
    hundreds of thousands of plays, and openskill's own ``rate()`` costs several times as much
    per play (docs/benchmarks.md). Its ``balance`` option is off by default and not repeated;
    its averaging of tied teams' μ changes compares each updated rating with itself, so it
    changes nothing and is not repeated either. (The rebuild rates plays without partners with
    ``plackett_luce``, the same update for teams of one in closed form.)
    """
    sqrt = math.sqrt
    count = len(teams)
    tau_squared = tau * tau
    beta_squared = beta**2
    # The teams in rank order (a stable sort, as openskill's), every σ widened by τ first.
    order = sorted(range(count), key=ranks.__getitem__)
    rank = [int(ranks[k]) for k in order]
    ordered = [teams[k] for k in order]
    widened = []
    team_mu = []
    variance = []
    for team in ordered:
        if len(team) == 1:  # most plays: every player for themselves
            sigma = team[0][1]
            sigma = sqrt(sigma * sigma + tau_squared)
            widened.append((sigma,))
            team_mu.append(0.0 + team[0][0])
            variance.append(0.0 + sigma**2)
            continue
        sigmas = [sqrt(s * s + tau_squared) for _, s in team]
        widened.append(sigmas)
        # openskill sums a team's players by descending ordinal (μ − 3σ, σ widened).
        players = sorted(
            zip([mu for mu, _ in team], sigmas, strict=True),
            key=lambda p: p[0] - 3.0 * p[1],
            reverse=True,
        )
        mu_sum = 0.0
        variance_sum = 0.0
        for mu, sigma in players:
            mu_sum += mu
            variance_sum += sigma**2
        team_mu.append(mu_sum)
        variance.append(variance_sum)
    total = 0.0
    for v in variance:
        total += v + beta_squared
    c = sqrt(total)
    strength = [math.exp(mu / c) for mu in team_mu]
    rated: list[list[tuple[float, float]]] = [[]] * count
    for i, (omega, delta) in enumerate(_updates(rank, strength, variance, c)):
        v = variance[i]
        players = []
        for (mu, original), sigma in zip(ordered[i], widened[i], strict=False):
            share = sigma**2 / v  # the player's part of the team's variance (1 alone)
            updated = sigma * sqrt(max(1 - share * delta, kappa))
            players.append((mu + share * omega, min(updated, original) if limit_sigma else updated))
        rated[order[i]] = players
    return rated


def plackett_luce(
    mus: list[float],
    sigmas: list[float],
    ranks: list[float],
    *,
    beta: float = MODEL.beta,
    kappa: float = MODEL.kappa,
    tau: float = MODEL.tau,
    limit_sigma: bool = MODEL.limit_sigma,
) -> tuple[list[float], list[float]]:
    """rate_teams for a play where everyone plays for themselves (most plays): the players' μ
    and σ and their ranks → their new μ and σ, in the same order. The rebuild makes two per
    play, so this is the rating's hot path, and it takes openskill's update in closed form
    rather than in openskill's order of operations: equal to openskill's ``rate()`` within
    1e-12 (the tests hold it to 1e-9, over long histories too), not to the last bit as
    rate_teams is, for 40 % less time. For teams of one, openskill's ``balance`` option changes
    nothing (a player's weight against the team's best ordinal is 1).

    The closed form: with the players in rank order, each group of players tied at a rank
    shares the sum S of the strengths (e^(μ/c)) of everyone ranked there or below, and
    openskill's sums over the ranks at or above a player's (each term divided by the number
    tied there) add up, group by group, to A = Σ 1/S and B = Σ 1/S², so that a player of
    strength s tied with t − 1 others gets Ω = 1/t − s·A and Δ = s·(A − s·B), before the
    scaling by their variance (openskill's ``_scaled``)."""
    count = len(mus)
    tau_squared = tau * tau
    beta_squared = beta * beta
    sqrt = math.sqrt
    # The players in rank order (a stable sort, as openskill's), σ widened by τ first.
    order = sorted(range(count), key=ranks.__getitem__)
    variance = [sigmas[k] * sigmas[k] + tau_squared for k in order]
    total = 0.0
    for v in variance:
        total += v + beta_squared
    c = sqrt(total)
    c_squared = total
    strength = [math.exp(mus[k] / c) for k in order]
    # Each player's sum of the strengths from them down (the first of a tied group's is the
    # group's S).
    below = [0.0] * count
    running = 0.0
    for i in range(count - 1, -1, -1):
        running += strength[i]
        below[i] = running
    new_mu = [0.0] * count
    new_sigma = [0.0] * count
    a = b = 0.0
    first = 0
    while first < count:
        rank = int(ranks[order[first]])  # openskill ties ranks by their whole part
        end = first + 1
        while end < count and int(ranks[order[end]]) == rank:
            end += 1
        s_sum = below[first]
        a += 1.0 / s_sum
        b += 1.0 / (s_sum * s_sum)
        alone = 1.0 / (end - first)
        for i in range(first, end):
            k = order[i]
            v = variance[i]
            s = strength[i]
            widened = sqrt(v)
            new_mu[k] = mus[k] + (alone - s * a) * v / c
            delta = s * (a - s * b) * v / c_squared * widened / c
            updated = widened * sqrt(max(1 - delta, kappa))
            new_sigma[k] = min(updated, sigmas[k]) if limit_sigma else updated
        first = end
    return new_mu, new_sigma


def _updates(
    rank: list[int], strength: list[float], variance: list[float], c: float
) -> list[tuple[float, float]]:
    """The Plackett–Luce update (Ω, Δ) of each team, given in rank order with their ranks,
    strengths (e^(μ/c)) and variances: openskill's operations in openskill's order, so that
    rate_teams gives its results to the last bit."""
    c_squared = c**2
    if len(set(rank)) == len(rank):
        return _untied_updates(strength, variance, c, c_squared)
    return _tied_updates(rank, strength, variance, c, c_squared)


def _tied_updates(
    rank: list[int], strength: list[float], variance: list[float], c: float, c_squared: float
) -> list[tuple[float, float]]:
    """_updates when some teams tie: each team's sums run over the teams ranked at or below
    each rank at or above its own, divided by the number of teams tied at that rank."""
    count = len(rank)
    # Ranks are sorted, so the teams ranked at or below q are those from the first one tied with
    # q onwards (``start[q]``), and the teams ranked at or above i are those before ``end[i]``.
    start = [rank.index(r) for r in rank]
    end = [start[i] + rank.count(r) for i, r in enumerate(rank)]
    tied = [end[q] - start[q] for q in range(count)]
    sums: dict[int, float] = {}
    for first in start:
        if first not in sums:
            total = 0.0
            for e in strength[first:]:  # summed in openskill's order
                total += e
            sums[first] = total
    sum_q = [sums[first] for first in start]
    updates = []
    for i in range(count):
        omega = 0.0
        delta = 0.0
        strength_i = strength[i]
        for q in range(end[i]):
            share = strength_i / sum_q[q]
            delta += share * (1 - share) / tied[q]
            if q == i:
                omega += (1 - share) / tied[q]
            else:
                omega -= share / tied[q]
        updates.append(_scaled(omega, delta, variance[i], c, c_squared))
    return updates


def _untied_updates(
    strength: list[float], variance: list[float], c: float, c_squared: float
) -> list[tuple[float, float]]:
    """_updates when no two teams tie (most team plays): every team is alone at its rank, so
    the teams at or below rank q are those from q on, and dividing by the number tied (1) is
    left out, which changes no bit."""
    count = len(strength)
    sums = []
    for first in range(count):
        total = 0.0
        for e in strength[first:]:  # summed in openskill's order
            total += e
        sums.append(total)
    updates = []
    for i in range(count):
        omega = 0.0
        delta = 0.0
        strength_i = strength[i]
        for q in range(i):
            share = strength_i / sums[q]
            delta += share * (1 - share)
            omega -= share
        share = strength_i / sums[i]
        delta += share * (1 - share)
        omega += 1 - share
        updates.append(_scaled(omega, delta, variance[i], c, c_squared))
    return updates


def _scaled(
    omega: float, delta: float, v: float, c: float, c_squared: float
) -> tuple[float, float]:
    """A team's (Ω, Δ) sums scaled by its variance ``v``, in openskill's order of operations."""
    omega *= v / c
    delta *= v / c_squared
    delta *= math.sqrt(v) / c
    return omega, delta


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: a conservative estimate, μ − 3σ."""
    return mu - 3 * sigma


def play_teams(teams: Sequence[int | None]) -> list[list[int]]:
    """A play's seats (given by their ``Seat.team``, in seat order) grouped into teams: the
    indexes of each team's seats, teams in order of their first seat. Seats with the same
    team number are partners; a seat without one is a team of its own."""
    groups: list[list[int]] = []
    by_number: dict[int, list[int]] = {}
    for index, number in enumerate(teams):
        if number is None:
            groups.append([index])
        elif number in by_number:
            by_number[number].append(index)
        else:
            group = by_number[number] = [index]
            groups.append(group)
    return groups
