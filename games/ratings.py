"""Ratings and running totals, rebuilt deterministically from a club's finished plays.

**Order of play.** A club's finished plays are rated in the order of ``Play.ended_at`` (when the
result became final), then ``Play.started_at``, then ``Play.id``: every finished play has an end
time, two plays ending at the same instant are ordered by when they began, and the id makes the
order total, so the same plays always give the same ratings.

**Teams.** A play's result is read as teams (``play_teams``): seats sharing ``Seat.team`` are
partners, every other seat is a team of one; a team's rank is its seats' rank. A play is rated
as its teams (openskill's Plackett–Luce, ``rate_teams``), and in head-to-head you beat every
player of each team ranked below yours: partners are never each other's opponents.

**Scopes.** Each competitive play updates two ratings of each seated player: the one for its game
and the one across all games (``"all"``). Winners share rank 1, so a tie for first is a win for
each tied player. A cooperative game (3-High) is never rated: the whole table wins or loses
together, there is no opponent to beat. Its rows carry only the team's running totals, in the
game's own scope, and it never enters ``"all"`` nor head-to-head.

**Running totals.** Each rating row also carries the player's totals in its scope after that
play (plays, wins, points, best and worst score, current and longest win streak), and
``HeadToHead`` keeps each pair's record per scope (as opponents, and as partners), so that a
player's page reads their last row per scope and their pair records instead of their whole
history.

**Rebuilding.** Rows of a club are written in play order. When a play's result changes
(finished, undone, imported, edited, deleted), every row from the earliest time it affects
onward is deleted and rewritten, starting from each affected player's last row before that time
(one index lookup per player and scope); head-to-head records lose what the deleted rows counted
and gain what the new ones count. Finishing the newest play therefore rates just that play.
Everything happens in the caller's transaction, with the club's row locked.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import groupby
from operator import itemgetter
from types import SimpleNamespace
from typing import Any

from django.db import connection, transaction
from django.db.models import Min, TextField
from django.db.models.functions import Cast
from openskill.models import PlackettLuce

from referee import GAMES

from .models import ALL_GAMES, Club, HeadToHead, Play, RatingChange, Seat

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
SQLITE_CACHE_KIB = 32 * 1024

_MODELS = SimpleNamespace(
    Club=Club, Play=Play, Seat=Seat, RatingChange=RatingChange, HeadToHead=HeadToHead
)


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
    ``plackett_luce``, the same operations for teams of one.)
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
    and σ and their ranks → their new μ and σ, in the same order. The same operations as
    rate_teams with teams of one, without building and unpacking teams (a full rebuild makes
    two such updates per play); for teams of one, openskill's ``balance`` option changes
    nothing either (a player's weight against the team's best ordinal is 1). The tests check it
    against openskill's ``rate()`` too."""
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
    strength = [math.exp(mus[k] / c) for k in order]
    new_mu = [0.0] * count
    new_sigma = [0.0] * count
    for i, (omega, delta) in enumerate(_updates(rank, strength, variance, c)):
        k = order[i]
        new_mu[k] = mus[k] + omega
        updated = sigma[i] * math.sqrt(max(1 - delta, kappa))
        new_sigma[k] = min(updated, sigmas[k]) if limit_sigma else updated
    return new_mu, new_sigma


def _updates(
    rank: list[int], strength: list[float], variance: list[float], c: float
) -> list[tuple[float, float]]:
    """The Plackett–Luce update (Ω, Δ) of each team, given in rank order with their ranks,
    strengths (e^(μ/c)) and variances: openskill's operations in openskill's order, so that
    rate_teams and plackett_luce give its results to the last bit."""
    count = len(rank)
    c_squared = c**2
    if len(set(rank)) == count:
        return _untied_updates(strength, variance, c, c_squared)
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
    """_updates when no two teams tie (most plays): every team is alone at its rank, so the
    teams at or below rank q are those from q on, and dividing by the number tied (1) is left
    out, which changes no bit. A full rebuild makes two updates per play."""
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
    club_id: int,
    *,
    since: datetime.datetime | None = None,
    excluding: int | None = None,
    models: Any = _MODELS,
) -> int:
    """Rewrite the club's rating rows (and head-to-head records) of every finished play that
    ended at ``since`` or later (all of them when ``since`` is None), leaving out the play
    ``excluding`` (one about to be deleted). Returns the number of rows written.

    ``models`` lets a data migration pass its historical models.
    """
    with transaction.atomic():
        # One rebuild per club at a time: rows must be written in play order.
        list(models.Club.objects.select_for_update().filter(pk=club_id).values_list("pk"))
        rows = models.RatingChange.objects.filter(club_id=club_id)
        # A join (not a subquery of plays), so that the database walks the plays in end-time
        # order on play_club_status_ended and sorts only the plays that ended together.
        seats = models.Seat.objects.filter(play__club_id=club_id, play__status="finished")
        if since is not None:
            rows = rows.filter(played_at__gte=since)
            seats = seats.filter(play__ended_at__gte=since)
        if excluding is not None:
            seats = seats.exclude(play_id=excluding)
        tally = _HeadToHead()
        # The club's whole history, and no other club's in the table: load it the way one loads
        # a table, emptied at once and indexed after (see _bulk_load).
        every = models.RatingChange.objects
        bulk = since is None and not (
            # Two ranges of rating_club_time, not a scan for "any other club".
            every.filter(club_id__lt=club_id).exists() or every.filter(club_id__gt=club_id).exists()
        )
        if since is None:
            models.HeadToHead.objects.filter(club_id=club_id).delete()
        else:
            tally.uncount(rows)  # what the rows about to be rewritten had counted
        if connection.vendor == "sqlite":
            # The play's time as the text SQLite stores it: the sqlite3 module would parse
            # every seat's and the rows would turn it back into the same text (_raw_rows).
            seats = seats.annotate(played_at=Cast("play__ended_at", TextField()))
            columns = tuple("played_at" if c == "play__ended_at" else c for c in _SEAT_COLUMNS)
        else:
            columns = _SEAT_COLUMNS
        stream = _raw_rows(
            seats.order_by("play__ended_at", "play__started_at", "play_id", "position").values_list(
                *columns
            )
        )
        states = _States(models.RatingChange, since)
        with _bulk_load(models.RatingChange) if bulk else _sqlite_page_cache():
            if not bulk:
                rows.delete()
            written = _insert(
                models.RatingChange, COLUMNS, COPY_TYPES, _rate(club_id, stream, states, tally)
            )
        tally.save(club_id, models.HeadToHead, full=since is None)
        if since is None:
            _analyze(models.RatingChange, models.HeadToHead)
        return written


@contextmanager
def _bulk_load(model: Any) -> Iterator[None]:
    """The table emptied and its secondary indexes dropped, then, once the rows are in, the
    indexes made again, in the caller's transaction. A full rebuild writes millions of rows in
    play order, and keeping three indexes in other orders up to date row by row cost most of
    its time (docs/benchmarks.md); an index built once from the finished table is a sort.
    Only for a table that holds nothing else (PostgreSQL locks it until the commit)."""
    quote = connection.ops.quote_name
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT index.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i "
                "JOIN pg_class index ON index.oid = i.indexrelid "
                "WHERE i.indrelid = %s::regclass AND NOT i.indisunique",
                [table],
            )
            indexes = cursor.fetchall()
            cursor.execute(f"TRUNCATE {quote(table)}")
            # Sorting millions of keys in memory rather than in temporary files; the server's
            # memory for this transaction only, not the app's.
            cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        else:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master "
                "WHERE type = 'index' AND tbl_name = %s AND sql IS NOT NULL",
                [table],
            )
            indexes = cursor.fetchall()
            cursor.execute(f"DELETE FROM {quote(table)}")  # no WHERE: SQLite empties it at once
        for name, _ in indexes:
            cursor.execute(f"DROP INDEX {quote(name)}")
    yield
    with connection.cursor() as cursor:
        for _, definition in indexes:
            cursor.execute(definition)


def _analyze(*tables: Any) -> None:
    """After a full rebuild, PostgreSQL's statistics of the rewritten tables are stale until
    autovacuum comes by, and its planner then takes a million rows for a few thousand (a night's
    summary scanned every rating row instead of looking up its 50 plays': 234 ms instead of
    0.3 ms at 100,000 plays). ANALYZE samples a fixed number of rows: well under a second."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in tables:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def _raw_rows(queryset: Any) -> Iterator[tuple]:
    """The queryset's rows as the database driver returns them, skipping Django's per-value
    converters (a full rebuild reads millions of seats, and their times go back into the rating
    rows as they came), read in batches from a server-side cursor on PostgreSQL."""
    sql, params = queryset.query.sql_with_params()
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(BATCH_SIZE):
            yield from rows


@contextmanager
def _sqlite_page_cache() -> Iterator[None]:
    """On SQLite, a page cache of SQLITE_CACHE_KIB while rewriting rows one by one. SQLite's
    default (2 MiB) is smaller than the leaves of the rating table's indexes that a long rebuild
    keeps touching (an insertion point per player and scope in each), so most of its time went
    to spilling pages and reading them back. A bulk load (no index to keep) needs no more than
    the default, and a larger cache would only cost resident memory: SQLite's sorts take as
    much again. The cache grows only as pages are used, and the connection's setting is put
    back afterwards."""
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


#: The columns of a head-to-head record, and their PostgreSQL types.
PAIR_TOTALS = ("plays", "won", "lost", "together", "together_won")
H2H_COLUMNS = ("club_id", "player_id", "opponent_id", "scope", *PAIR_TOTALS)
H2H_COPY_TYPES = ("int8", "int8", "int8", "text", "int4", "int4", "int4", "int4", "int4")

#: What the rebuild reads of each seat, in play order.
_SEAT_COLUMNS = (
    "play_id", "play__game", "play__ended_at", "player_id", "rank", "is_winner", "score", "team",
)  # fmt: skip

#: The columns of a rating row, in the order _rate() yields them.
COLUMNS = (
    "club_id", "play_id", "player_id", "scope", "played_at", "is_winner", "rank", "team",
    "mu_before", "sigma_before", "mu_after", "sigma_after",
    "plays", "wins", "points", "best", "worst", "streak", "longest",
)  # fmt: skip

#: Their PostgreSQL types, for a binary COPY (cheaper to encode and to parse than text).
COPY_TYPES = (
    "int8", "int8", "int8", "text", "timestamptz", "bool", "int2", "int2",
    "float8", "float8", "float8", "float8",
    "int4", "int4", "int4", "int4", "int4", "int4", "int4",
)  # fmt: skip


def _insert(
    model: Any, columns: Sequence[str], types: Sequence[str], rows: Iterable[list[tuple]]
) -> int:
    """Write the rows (given in lists) in batches, straight to the table: a full rebuild writes
    millions of rows, and model instances and the ORM's INSERT compiler would cost more than
    the ratings themselves. PostgreSQL gets a binary COPY (``types`` are the columns' types);
    other databases executemany. (Batches, not one COPY: the rows are computed from a
    server-side cursor on the same connection.)"""
    opts = model._meta
    table = connection.ops.quote_name(opts.db_table)
    names = [opts.get_field(c.removesuffix("_id")).column for c in columns]
    quoted = ", ".join(connection.ops.quote_name(name) for name in names)
    copy_sql = f"COPY {table} ({quoted}) FROM STDIN (FORMAT BINARY)"
    insert_sql = f"INSERT INTO {table} ({quoted}) VALUES ({', '.join(['%s'] * len(columns))})"
    postgres = connection.vendor == "postgresql"

    def flush(batch: list[tuple]) -> None:
        with connection.cursor() as cursor:
            if postgres:
                with cursor.cursor.copy(copy_sql) as copy:
                    copy.set_types(types)
                    for row in batch:
                        copy.write_row(row)
            else:  # on SQLite the times come as the text it stores (rebuild_club)
                cursor.executemany(insert_sql, batch)

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


#: A player's state in a scope, as the rebuild keeps it:
#: [μ, σ, plays, wins, points, best, worst, streak, longest] (points, best, worst None in "all").
_State = list
_STATE_COLUMNS = (
    "mu_after", "sigma_after", "plays", "wins", "points", "best", "worst", "streak", "longest",
)  # fmt: skip


class _States(dict):
    """Each player's state per (scope, player), fetched when first needed: their last row before
    ``since`` (one index lookup on rating_player_scope_plays), or a new player's state."""

    def __init__(self, rows: Any, since: datetime.datetime | None):
        super().__init__()
        self.rows, self.since = rows, since

    def __missing__(self, key: tuple[str, int]) -> _State:
        scope, player = key
        last = None
        if self.since is not None:  # a full rebuild starts everyone afresh
            last = (
                self.rows.objects.filter(player_id=player, scope=scope, played_at__lt=self.since)
                .order_by("-plays")
                .values_list(*_STATE_COLUMNS)
                .first()
            )
        if last is None:
            state = [INITIAL_MU, INITIAL_SIGMA, 0, 0, 0, None, None, 0, 0]
        else:
            state = list(last)
            if state[0] is None:  # a cooperative game's rows carry no rating
                state[0], state[1] = INITIAL_MU, INITIAL_SIGMA
        if scope == ALL_GAMES:
            state[4] = None
        self[key] = state
        return state


class _HeadToHead:
    """Changes to the pair records: (scope, player, other) → [plays, won, lost, together,
    together_won], the first three as opponents, the last two as partners. The "all" scope
    counts both; a game's scope counts only partners (that game's leaderboard names them), so a
    full rebuild holds one record per pair of players met, not one per pair and game."""

    def __init__(self) -> None:
        self.pairs: dict[tuple[str, int, int], list[int]] = {}

    def count(
        self,
        game: str,
        players: list[list[int]],
        ranks: list[int],
        wins: list[bool],
        sign: int = 1,
    ) -> None:
        """Count one play of ``game`` with partners, given as its teams' players, ranks and
        wins: in "all" as opponents and partners, in the game's scope as partners only
        (``sign`` -1 takes it back)."""
        pairs = self.pairs
        scopes = (game, ALL_GAMES)
        for scope in scopes:
            for mine, rank, won_together in zip(players, ranks, wins, strict=True):
                for theirs, their_rank in zip(players, ranks, strict=True):
                    if theirs is mine:
                        change = (0, 0, 0, sign, sign if won_together else 0)
                    elif scope != ALL_GAMES:
                        continue
                    else:
                        won = sign if rank < their_rank else 0
                        lost = sign if rank > their_rank else 0
                        change = (sign, won, lost, 0, 0)
                    for player in mine:
                        for other in theirs:
                            if other == player:
                                continue
                            record = pairs.get((scope, player, other))
                            if record is None:
                                pairs[(scope, player, other)] = list(change)
                            else:
                                for index, value in enumerate(change):
                                    record[index] += value

    def count_alone(self, players: list[int], ranks: list[int]) -> None:
        """count() for a play where everyone plays for themselves (most plays): opponents only,
        in the "all" scope."""
        pairs = self.pairs
        for player, rank in zip(players, ranks, strict=True):
            for other, their_rank in zip(players, ranks, strict=True):
                if other == player:
                    continue
                won = 1 if rank < their_rank else 0
                lost = 1 if rank > their_rank else 0
                record = pairs.get((ALL_GAMES, player, other))
                if record is None:
                    pairs[(ALL_GAMES, player, other)] = [1, won, lost, 0, 0]
                else:
                    record[0] += 1
                    record[1] += won
                    record[2] += lost

    def uncount(self, rows: Any) -> None:
        """Take back what the competitive plays of these rating rows counted (their rows in the
        "all" scope: a play's were written together)."""
        seats = (
            rows.filter(scope=ALL_GAMES)
            .order_by("id")
            .values_list("play_id", "play__game", "player_id", "rank", "team", "is_winner")
            .iterator(chunk_size=BATCH_SIZE)
        )
        for (_, game), group in groupby(seats, key=itemgetter(0, 1)):
            rated = list(group)
            teams = play_teams([seat[4] for seat in rated])
            self.count(
                game,
                [[rated[i][2] for i in team] for team in teams],
                [rated[team[0]][3] for team in teams],
                [rated[team[0]][5] for team in teams],
                sign=-1,
            )

    def save(self, club_id: int, model: Any, *, full: bool) -> None:
        """Write the changes: after a full rebuild (the club's records deleted first) they are
        the records; otherwise they are added to the stored ones, and a record left with no
        play is deleted."""
        changes = {pair: record for pair, record in self.pairs.items() if any(record)}
        gone = []
        if not full and changes:
            stored = model.objects.filter(
                club_id=club_id,
                player_id__in={player for _, player, _ in changes},
                opponent_id__in={other for _, _, other in changes},
            ).values_list("pk", "scope", "player_id", "opponent_id", *PAIR_TOTALS)
            for pk, scope, player, other, *totals in stored:
                record = changes.get((scope, player, other))
                if record is not None:
                    for index, value in enumerate(totals):
                        record[index] += value
                    if not record[0] and not record[3]:
                        gone.append(pk)
        if gone:
            model.objects.filter(pk__in=gone).delete()
        kept = [
            (club_id, player, other, scope, *record)
            for (scope, player, other), record in changes.items()
            if record[0] or record[3]
        ]
        if full:  # a club's every pair: straight to the table
            _insert(model, H2H_COLUMNS, H2H_COPY_TYPES, [kept])
        elif kept:
            model.objects.bulk_create(
                [model(**dict(zip(H2H_COLUMNS, row, strict=True))) for row in kept],
                update_conflicts=True,
                unique_fields=["player", "opponent", "scope"],
                update_fields=list(PAIR_TOTALS),
                batch_size=2000,
            )


def _rate(
    club_id: int, seat_rows: Iterable[tuple], states: _States, tally: _HeadToHead
) -> Iterator[list[tuple]]:
    """The rating rows of the seats, given in play order, one play's seats together: one list
    of rows per play. Counts each competitive play's head-to-head in ``tally``."""
    rate = plackett_luce
    count_alone = tally.count_alone
    for play_id, group in groupby(seat_rows, key=itemgetter(0)):
        seats = list(group)
        _, game, played_at = seats[0][:3]
        rows: list[tuple] = []
        append = rows.append
        if game in COOPERATIVE_GAMES:
            for _, _, _, player, rank, won, score, team in seats:
                state = states[(game, player)]
                _count(state, won, score)
                rows.append(
                    (club_id, play_id, player, game, played_at, won, rank, team,
                     None, None, None, None, *state[2:])
                )  # fmt: skip
            yield rows
            continue
        numbers = [seat[7] for seat in seats]
        if numbers.count(None) != len(numbers):
            _rate_teams(rows, club_id, play_id, game, played_at, seats, numbers, states, tally)
            yield rows
            continue
        # Everyone for themselves (most plays: the rebuild's hot path, _count inlined).
        players = [seat[3] for seat in seats]
        ranks = [seat[4] for seat in seats]
        count_alone(players, ranks)
        for scope in (game, ALL_GAMES):
            current = [states[(scope, player)] for player in players]
            mus = [state[0] for state in current]
            sigmas = [state[1] for state in current]
            new_mus, new_sigmas = rate(mus, sigmas, ranks) if len(seats) > 1 else (mus, sigmas)
            points = scope != ALL_GAMES
            for seat, state, mu, sigma, mu_after, sigma_after in zip(
                seats, current, mus, sigmas, new_mus, new_sigmas, strict=True
            ):
                state[0] = mu_after
                state[1] = sigma_after
                won = seat[5]
                state[2] += 1
                if won:
                    state[3] += 1
                    state[7] += 1
                    if state[7] > state[8]:
                        state[8] = state[7]
                else:
                    state[7] = 0
                if points:
                    score = seat[6]
                    state[4] += score
                    if state[5] is None or score > state[5]:
                        state[5] = score
                    if state[6] is None or score < state[6]:
                        state[6] = score
                append(
                    (club_id, play_id, seat[3], scope, played_at, won, seat[4], None,
                     mu, sigma, mu_after, sigma_after,
                     state[2], state[3], state[4], state[5], state[6], state[7], state[8])
                )  # fmt: skip
        yield rows


def _rate_teams(
    rows: list[tuple],
    club_id: int,
    play_id: int,
    game: str,
    played_at: Any,
    seats: list[tuple],
    numbers: list[int | None],
    states: _States,
    tally: _HeadToHead,
) -> None:
    """_rate for a play with partners: its seats rated as teams, into ``rows``."""
    teams = play_teams(numbers)
    ranks = [min(seats[i][4] for i in team) for team in teams]
    tally.count(
        game,
        [[seats[i][3] for i in team] for team in teams],
        ranks,
        [seats[team[0]][5] for team in teams],
    )
    for scope in (game, ALL_GAMES):
        current = [states[(scope, seat[3])] for seat in seats]
        ratings = [[(current[i][0], current[i][1]) for i in team] for team in teams]
        if len(teams) > 1:
            ratings = rate_teams(ratings, ranks)
        after = [(0.0, 0.0)] * len(seats)
        for team, rated in zip(teams, ratings, strict=True):
            for i, rating in zip(team, rated, strict=True):
                after[i] = rating
        for seat, state, (mu_after, sigma_after) in zip(seats, current, after, strict=True):
            mu, sigma = state[0], state[1]
            state[0], state[1] = mu_after, sigma_after
            won = seat[5]
            _count(state, won, seat[6])
            rows.append(
                (club_id, play_id, seat[3], scope, played_at, won, seat[4], seat[7],
                 mu, sigma, mu_after, sigma_after, *state[2:])
            )  # fmt: skip


def _count(state: _State, won: bool, score: int) -> None:
    """Add one play to a player's running totals in a scope."""
    state[2] += 1
    if won:
        state[3] += 1
        state[7] += 1
        if state[7] > state[8]:
            state[8] = state[7]
    else:
        state[7] = 0
    if state[4] is not None:  # a game's scope: points
        state[4] += score
        if state[5] is None or score > state[5]:
            state[5] = score
        if state[6] is None or score < state[6]:
            state[6] = score
