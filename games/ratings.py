"""Ratings: openskill Plackett–Luce, rebuilt deterministically from a club's finished plays.

**Order of play.** A club's finished plays are rated in the order of ``Play.ended_at`` (when the
result became final), then ``Play.started_at``, then ``Play.id``: every finished play has an end
time, two plays ending at the same instant are ordered by when they began, and the id makes the
order total, so the same plays always give the same ratings.

**Scopes.** Each competitive play updates two ratings of each seated player: the one for its game
and the one across all games (``"all"``). Each player is a team of one; the ranks are the seats'
derived ranks (winners share rank 1, so a tie for first is a win for each tied player).
Partners (seats sharing ``Seat.team``: Punto's team play) are rated as one team of several
players, by openskill's own ``rate()`` (``rate_partners``).
A cooperative game (3-High) is never rated: the whole table wins or loses together, there is no
opponent to beat. Its rows carry only the team's running totals, in the game's own scope, and
it never enters ``"all"``.

**Rebuilding.** Rows of a club are written in play order, so within a club a higher id is a later
play. When a play's result changes (finished, undone, imported, edited), every row from the
earliest time it affects onward is deleted and rewritten, starting from each affected player's
last row before that time; finishing the newest play therefore rates just that play.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import groupby
from operator import itemgetter
from types import SimpleNamespace
from typing import Any

from django.db import connection, transaction
from django.db.models import Max, Min
from openskill.models import PlackettLuce

from referee import GAMES

from .models import ALL_GAMES, Club, Play, RatingChange, Seat

#: Games played as one team against the game (as the referee declares them): counted apart,
#: never rated.
COOPERATIVE_GAMES = tuple(name for name, engine in GAMES.items() if engine.cooperative)

MODEL = PlackettLuce()
#: A new player's rating (openskill's defaults: μ = 25, σ = 25/3).
INITIAL_MU: float = MODEL.mu
INITIAL_SIGMA: float = MODEL.sigma

BATCH_SIZE = 10_000
COPY_BATCH_SIZE = 20_000
#: SQLite's page cache during a rebuild, in KiB (see _sqlite_page_cache).
SQLITE_CACHE_KIB = 128 * 1024

_MODELS = SimpleNamespace(Club=Club, Play=Play, Seat=Seat, RatingChange=RatingChange)


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
    """One Plackett–Luce update of a game between teams of one player: the players' μ and σ
    and their ranks (lower is better, equal ranks tie) → their new μ and σ, in the same order.

    Exactly openskill 6.2.0's ``PlackettLuce().rate([[a], [b], ...], ranks=...)`` with the
    default gamma (√σ²ᵢ / c) and no weights or scores, repeating its floating-point operations in
    its order so that the results are the same to the last bit (the tests check it against
    openskill), without its per-call validation, deep copies and rating objects. For teams of
    one, openskill's ``balance`` option changes nothing (a player's weight against the team's
    best ordinal is 1), and its averaging of tied teams' μ changes compares each updated rating
    with itself, so it changes nothing either: neither is repeated here.
    """
    count = len(mus)
    tau_squared = tau * tau
    beta_squared = beta**2
    # The teams in rank order (a stable sort, as openskill's), σ widened by τ first.
    order = sorted(range(count), key=ranks.__getitem__)
    rank = [int(ranks[k]) for k in order]
    sigma = [math.sqrt(sigmas[k] * sigmas[k] + tau_squared) for k in order]
    variance = [s**2 for s in sigma]
    total = 0.0
    for v in variance:
        total += v + beta_squared
    c = math.sqrt(total)
    c_squared = c**2
    strength = [math.exp(mus[k] / c) for k in order]
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
    new_mu = [0.0] * count
    new_sigma = [0.0] * count
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
        v = variance[i]
        omega *= v / c
        delta *= v / c_squared
        delta *= math.sqrt(v) / c
        k = order[i]
        new_mu[k] = mus[k] + omega
        updated = sigma[i] * math.sqrt(max(1 - delta, kappa))
        new_sigma[k] = min(updated, sigmas[k]) if limit_sigma else updated
    return new_mu, new_sigma


def rate_partners(
    mus: list[float], sigmas: list[float], ranks: list[float], teams: list[int | None]
) -> tuple[list[float], list[float]]:
    """One update of a play with partners: seats sharing a team number (``Seat.team``) form one
    team, every other seat a team of its own, and a team's rank is its seats' (partners share
    theirs). Rated by openskill's own ``rate()`` with those teams; returns each seat's new μ and
    σ, in seat order, as ``plackett_luce`` does."""
    groups: dict[object, list[int]] = {}
    for index, team in enumerate(teams):
        groups.setdefault(("alone", index) if team is None else team, []).append(index)
    members = list(groups.values())
    rated = MODEL.rate(
        [[MODEL.rating(mu=mus[i], sigma=sigmas[i]) for i in team] for team in members],
        ranks=[ranks[team[0]] for team in members],
    )
    new_mus, new_sigmas = list(mus), list(sigmas)
    for team, ratings in zip(members, rated, strict=True):
        for index, rating in zip(team, ratings, strict=True):
            new_mus[index], new_sigmas[index] = rating.mu, rating.sigma
    return new_mus, new_sigmas


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: a conservative estimate, μ − 3σ."""
    return mu - 3 * sigma


#: A player's state in a scope, as the rebuild keeps it: [μ, σ, plays, wins].
_State = list


def refresh_for_play(play: Play) -> None:
    """Rebuild the club's ratings after ``play``'s result was rewritten (called by services).

    Rebuilds from the earlier of the play's old rated time and its new one; a play that was not
    and is not finished changes nothing and costs one indexed query.
    """
    old = RatingChange.objects.filter(play=play).aggregate(at=Min("played_at"))["at"]
    new = play.ended_at if play.status == Play.Status.FINISHED else None
    times = [at for at in (old, new) if at is not None]
    if times:
        rebuild_club(play.club_id, since=min(times))


def rebuild_club(
    club_id: int, *, since: datetime.datetime | None = None, models: Any = _MODELS
) -> int:
    """Rewrite the club's rating rows of every finished play that ended at ``since`` or later
    (all of them when ``since`` is None). Returns the number of rows written.

    ``models`` lets the data migration pass its historical models.
    """
    with transaction.atomic(), _sqlite_page_cache():
        # One rebuild per club at a time: rows must be written in play order.
        list(models.Club.objects.select_for_update().filter(pk=club_id).values_list("pk"))
        rows = models.RatingChange.objects.filter(club_id=club_id)
        plays = models.Play.objects.filter(club_id=club_id, status="finished")
        if since is not None:
            rows = rows.filter(played_at__gte=since)
            plays = plays.filter(ended_at__gte=since)
        rows.delete()
        seats = models.Seat.objects.filter(play__in=plays)
        states = (
            _states_before(club_id, seats, models)
            if since is not None
            else {}  # a full rebuild starts everyone afresh
        )
        stream = (
            seats.order_by("play__ended_at", "play__started_at", "play_id", "position")
            .values_list(
                "play_id", "play__game", "play__ended_at", "player_id", "rank", "is_winner", "team"
            )
            .iterator(chunk_size=BATCH_SIZE)
        )
        return _insert(models.RatingChange, _rate(club_id, stream, states))


@contextmanager
def _sqlite_page_cache() -> Iterator[None]:
    """On SQLite, a page cache of SQLITE_CACHE_KIB while rebuilding. SQLite's default (2 MiB)
    is smaller than the leaves of the rating table's six indexes that a rebuild keeps touching,
    so most of a full rebuild's time went to spilling pages and reading them back. The cache
    grows only as pages are used, and the connection's setting is put back afterwards."""
    if connection.vendor != "sqlite":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA cache_size")
        (previous,) = cursor.fetchone()
        cursor.execute(f"PRAGMA cache_size = -{SQLITE_CACHE_KIB:d}")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA cache_size = {int(previous):d}")


#: The columns of a rating row, in the order _rate() yields them.
COLUMNS = (
    "club_id", "play_id", "player_id", "scope", "played_at", "is_winner",
    "mu_before", "sigma_before", "mu_after", "sigma_after", "plays", "wins",
)  # fmt: skip

#: Their PostgreSQL types, for a binary COPY (cheaper to encode and to parse than text).
COPY_TYPES = (
    "int8", "int8", "int8", "text", "timestamptz", "bool",
    "float8", "float8", "float8", "float8", "int4", "int4",
)  # fmt: skip


def _insert(model: Any, rows: Iterable[list[tuple]]) -> int:
    """Write the rows in batches, straight to the table: a full rebuild writes hundreds of
    thousands of rows, and model instances and the ORM's INSERT compiler would cost more than
    the ratings themselves. PostgreSQL gets COPY; other databases executemany. (Batches, not
    one COPY: the rows are computed from a server-side cursor on the same connection.)"""
    opts = model._meta
    table = connection.ops.quote_name(opts.db_table)
    names = [opts.get_field(c.removesuffix("_id")).column for c in COLUMNS]
    columns = ", ".join(connection.ops.quote_name(name) for name in names)
    copy_sql = f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)"
    insert_sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(COLUMNS))})"
    adapt = connection.ops.adapt_datetimefield_value
    postgres = connection.vendor == "postgresql"

    def flush(batch: list[tuple]) -> None:
        with connection.cursor() as cursor:
            if postgres:
                with cursor.cursor.copy(copy_sql) as copy:
                    copy.set_types(COPY_TYPES)
                    for row in batch:
                        copy.write_row(row)
            else:
                times: dict[datetime.datetime, Any] = {}  # one adaptation per play, not per row
                cursor.executemany(
                    insert_sql,
                    [
                        (*r[:4], times.get(r[4]) or times.setdefault(r[4], adapt(r[4])), *r[5:])
                        for r in batch
                    ],
                )

    count = 0
    batch: list[tuple] = []
    for play_rows in rows:
        batch += play_rows
        if len(batch) >= COPY_BATCH_SIZE:
            flush(batch)
            count += len(batch)
            batch = []
    if batch:
        flush(batch)
    return count + len(batch)


def _states_before(club_id: int, seats: Any, models: Any) -> dict[tuple[str, int], _State]:
    """Each affected player's state after their last remaining row, per scope."""
    players = seats.values_list("player_id", flat=True).distinct()
    last_ids = (
        models.RatingChange.objects.filter(club_id=club_id, player_id__in=players)
        .values("scope", "player_id")
        .annotate(last=Max("id"))
        .values_list("last", flat=True)
    )
    states = {}
    for row in models.RatingChange.objects.filter(id__in=list(last_ids)).values(
        "scope", "player_id", "mu_after", "sigma_after", "plays", "wins"
    ):
        rated = row["mu_after"] is not None
        states[(row["scope"], row["player_id"])] = [
            row["mu_after"] if rated else INITIAL_MU,
            row["sigma_after"] if rated else INITIAL_SIGMA,
            row["plays"],
            row["wins"],
        ]
    return states


def _rate(
    club_id: int, seat_rows: Iterable[tuple], states: dict[tuple[str, int], _State]
) -> Iterator[list[tuple]]:
    """The rating rows of the seats, given in play order, one play's seats together: one list
    of rows per play."""
    rate = plackett_luce
    for play_id, group in groupby(seat_rows, key=itemgetter(0)):
        seats = list(group)
        _, game, played_at = seats[0][:3]
        rows = []
        if game in COOPERATIVE_GAMES:
            for _, _, _, player, _, won, _ in seats:
                state = states.get((game, player))
                if state is None:
                    state = states[(game, player)] = [INITIAL_MU, INITIAL_SIGMA, 0, 0]
                state[2] += 1
                state[3] += bool(won)
                rows.append(
                    (club_id, play_id, player, game, played_at, won,
                     None, None, None, None, state[2], state[3])
                )  # fmt: skip
            yield rows
            continue
        ranks = [seat[4] for seat in seats]
        teams = [seat[6] for seat in seats]
        partners = any(team is not None for team in teams)
        for scope in (game, ALL_GAMES):
            current = []
            for seat in seats:
                state = states.get((scope, seat[3]))
                if state is None:
                    state = states[(scope, seat[3])] = [INITIAL_MU, INITIAL_SIGMA, 0, 0]
                current.append(state)
            mus = [state[0] for state in current]
            sigmas = [state[1] for state in current]
            if partners:
                new_mus, new_sigmas = rate_partners(mus, sigmas, ranks, teams)
            elif len(seats) > 1:
                new_mus, new_sigmas = rate(mus, sigmas, ranks)
            else:
                new_mus, new_sigmas = mus, sigmas
            for seat, state, mu, sigma, mu_after, sigma_after in zip(
                seats, current, mus, sigmas, new_mus, new_sigmas, strict=True
            ):
                won = seat[5]
                state[0] = mu_after
                state[1] = sigma_after
                state[2] += 1
                state[3] += bool(won)
                rows.append(
                    (club_id, play_id, seat[3], scope, played_at, won,
                     mu, sigma, mu_after, sigma_after, state[2], state[3])
                )  # fmt: skip
        yield rows
