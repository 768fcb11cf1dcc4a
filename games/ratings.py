"""Ratings: openskill Plackett–Luce, rebuilt deterministically from a club's finished plays.

**Order of play.** A club's finished plays are rated in the order of ``Play.ended_at`` (when the
result became final), then ``Play.started_at``, then ``Play.id``: every finished play has an end
time, two plays ending at the same instant are ordered by when they began, and the id makes the
order total, so the same plays always give the same ratings.

**Scopes.** Each competitive play updates two ratings of each seated player: the one for its game
and the one across all games (``"all"``). Each player is a team of one; the ranks are the seats'
derived ranks (winners share rank 1, so a tie for first is a win for each tied player).
The cooperative 3-High is never rated: the whole table wins or loses together, there is no
opponent to beat. Its rows carry only the team's running totals, in the ``three-high`` scope, and
it never enters ``"all"``.

**Rebuilding.** Rows of a club are written in play order, so within a club a higher id is a later
play. When a play's result changes (finished, undone, imported, edited), every row from the
earliest time it affects onward is deleted and rewritten, starting from each affected player's
last row before that time; finishing the newest play therefore rates just that play.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from types import SimpleNamespace
from typing import Any

from django.db import connection, transaction
from django.db.models import Max, Min
from openskill.models import PlackettLuce

from .models import ALL_GAMES, Club, Play, RatingChange, Seat

#: Games played as one team against the game: counted apart, never rated.
COOPERATIVE_GAMES = frozenset({"three-high"})

MODEL = PlackettLuce()
#: A new player's rating (openskill's defaults: μ = 25, σ = 25/3).
INITIAL_MU: float = MODEL.mu
INITIAL_SIGMA: float = MODEL.sigma

BATCH_SIZE = 2000
COPY_BATCH_SIZE = 20_000

_MODELS = SimpleNamespace(Club=Club, Play=Play, Seat=Seat, RatingChange=RatingChange)


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: a conservative estimate, μ − 3σ."""
    return mu - 3 * sigma


@dataclass
class _State:
    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA
    plays: int = 0
    wins: int = 0


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
    with transaction.atomic():
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
                "play_id", "play__game", "play__ended_at", "player_id", "rank", "is_winner"
            )
            .iterator(chunk_size=BATCH_SIZE)
        )
        return _insert(models.RatingChange, _rate(club_id, stream, states))


#: The columns of a rating row, in the order _rate() yields them.
COLUMNS = (
    "club_id", "play_id", "player_id", "scope", "played_at", "is_winner",
    "mu_before", "sigma_before", "mu_after", "sigma_after", "plays", "wins",
)  # fmt: skip


def _insert(model: Any, rows: Iterable[tuple]) -> int:
    """Write the rows in batches, straight to the table: a full rebuild writes hundreds of
    thousands of rows, and model instances and the ORM's INSERT compiler would cost more than
    the ratings themselves. PostgreSQL gets COPY; other databases executemany. (Batches, not
    one COPY: the rows are computed from a server-side cursor on the same connection.)"""
    opts = model._meta
    table = connection.ops.quote_name(opts.db_table)
    names = [opts.get_field(c.removesuffix("_id")).column for c in COLUMNS]
    columns = ", ".join(connection.ops.quote_name(name) for name in names)
    copy_sql = f"COPY {table} ({columns}) FROM STDIN"
    insert_sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(COLUMNS))})"
    adapt = connection.ops.adapt_datetimefield_value
    postgres = connection.vendor == "postgresql"

    def flush(batch: list[tuple]) -> None:
        with connection.cursor() as cursor:
            if postgres:
                with cursor.cursor.copy(copy_sql) as copy:
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
    for row in rows:
        batch.append(row)
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
        state = _State(plays=row["plays"], wins=row["wins"])
        if row["mu_after"] is not None:
            state.mu, state.sigma = row["mu_after"], row["sigma_after"]
        states[(row["scope"], row["player_id"])] = state
    return states


def _rate(
    club_id: int, seat_rows: Iterable[tuple], states: dict[tuple[str, int], _State]
) -> Iterator[tuple]:
    """The rating rows of the seats, given in play order, one play's seats together."""
    for play_id, group in groupby(seat_rows, key=itemgetter(0)):
        seats = list(group)
        game, played_at = seats[0][1], seats[0][2]
        cooperative = game in COOPERATIVE_GAMES
        for scope in (game,) if cooperative else (game, ALL_GAMES):
            current = [states.setdefault((scope, seat[3]), _State()) for seat in seats]
            if cooperative or len(seats) < 2:
                after = [(None, None) if cooperative else (s.mu, s.sigma) for s in current]
            else:
                teams = MODEL.rate(
                    [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in current],
                    ranks=[seat[4] for seat in seats],
                )
                after = [(team[0].mu, team[0].sigma) for team in teams]
            for seat, state, (mu, sigma) in zip(seats, current, after, strict=True):
                state.plays += 1
                state.wins += bool(seat[5])
                yield (
                    club_id,
                    play_id,
                    seat[3],
                    scope,
                    played_at,
                    seat[5],
                    None if cooperative else state.mu,
                    None if cooperative else state.sigma,
                    mu,
                    sigma,
                    state.plays,
                    state.wins,
                )
                if not cooperative:
                    state.mu, state.sigma = mu, sigma
