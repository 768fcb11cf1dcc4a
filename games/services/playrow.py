"""A play's row, changed one change at a time: locked (with its seats, for a move entry, in one
statement written by hand: games.sqlrows), its version moved on, and its derived results (seat
scores, ranks, winners, the play's status and details) rewritten from the referee's judgement."""

from __future__ import annotations

import functools

from django.db import connection
from django.utils import timezone

from referee import Judgement

from .. import live, ratings
from ..models import Play, Player, Seat
from ..selectors import judge_play, seat_names
from ..sqlrows import Columns, column, instances, join, quoted
from .errors import gone_error, stale_error


def lock_play(play: Play, version: int | None = None) -> Play:
    """Lock the play's row, so that changes to one play are made one after the other; refuse
    the change if the play moved on from ``version`` (the one its form was made at) or is gone.

    ``version`` None skips the check: for callers that act on the play as it is now (the
    commands, the tests); every form of the site carries its version.
    """
    try:
        locked = Play.objects.select_for_update().get(pk=play.pk)
    except Play.DoesNotExist:
        raise gone_error()
    if version is not None and locked.version != version:
        raise stale_error()
    return locked


@functools.cache
def _seated_sql(vendor: str) -> tuple[str, Columns, Columns, Columns]:
    """lock_seated's one statement (sqlrows: the ORM took ten times longer to build it than
    the database to run it), with the columns of its seats, players and play."""
    seat, player, play = Columns.of(Seat), Columns.of(Player), Columns.of(Play)
    seats = Seat._meta.db_table
    lock = ""
    if connection.features.has_select_for_update_of:
        lock = f" FOR UPDATE OF {quoted(Play._meta.db_table)}"
    sql = (
        f"SELECT {seat.sql}, {player.sql}, {play.sql} FROM {quoted(seats)}"
        + join(Player, column(seats, "player_id"))
        + join(Play, column(seats, "play_id"))
        + f" WHERE {column(seats, 'play_id')} = %s ORDER BY {column(seats, 'position')}{lock}"
    )
    return sql, seat, player, play


def lock_seated(play_id: int) -> tuple[Play, list[Seat]]:
    """lock_play, reading the play's seats (and their players) in the same query, with no
    version check: a move entry reads its request's key before the version (services.moves).
    On SQLite the transaction itself holds the lock (it begins IMMEDIATE: config/settings.py)."""
    sql, seat_columns, player_columns, play_columns = _seated_sql(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [play_id])
        rows = cursor.fetchall()
    if not rows:  # a play always has its seats: none means it is gone
        raise gone_error()
    (play,) = instances(Play, play_columns, rows[:1], start=len(seat_columns) + len(player_columns))
    seats = instances(Seat, seat_columns, rows)
    players = instances(Player, player_columns, rows, start=len(seat_columns))
    for seat, player in zip(seats, players, strict=True):
        seat.play, seat.player = play, player
    return play, seats


def advance_version(play: Play, *, results: bool = False) -> None:
    """The play changed: forms made at its version until now are stale. In the change's
    transaction, on the locked row; an increment in the database, so that no stale instance
    saved elsewhere can ever take the version back. Every page watching the play is told once
    the change commits (games.live). ``results``: the play's status, end and details are
    written by the same statement (one UPDATE per move entry)."""
    fields = ("status", "ended_at", "details") if results else ()
    sets, params = [], []
    for name in fields:
        field = Play._meta.get_field(name)
        sets.append(f"{quoted(field.column)} = %s")
        params.append(field.get_db_prep_save(getattr(play, name), connection))
    # Written by hand (games.sqlrows): the ORM took longer to build it than the database to
    # run it. On PostgreSQL the same statement also sends the play's NOTIFY (games.live).
    with connection.cursor() as cursor:
        cursor.execute(live.advance_version_sql(Play._meta.db_table, sets), [*params, play.pk])
        play.version = cursor.fetchone()[0]
    if not live.is_postgresql():
        live.changed_on_commit(play.night_id, play.pk, play.version)


def _seats(play: Play) -> list[Seat]:
    return list(play.seats.select_related("player").order_by("position"))


def refresh_results(
    play: Play, judgement: Judgement, seats: list[Seat] | None = None, *, advance: bool = False
) -> None:
    """Rewrite the derived results of a play from the referee's judgement of its log.

    ``seats`` (with their players), when the caller already has them, saves a query. Only the
    rows whose values change are written. ``advance``: the play's version moves on in the same
    UPDATE (see advance_version; the caller holds the play's row lock).
    """
    finished = judgement.status == "finished"
    winners = set(judgement.winners)
    scores = judgement.scores
    # Partners (the setup's teams, numbered from 1 in its order) share a team number.
    teams = {name: number for number, team in enumerate(judgement.teams, 1) for name in team}
    if seats is None:
        seats = _seats(play)
    before = {seat.pk: (seat.score, seat.rank, seat.is_winner, seat.team) for seat in seats}
    for seat in seats:
        seat.score = int(scores.get(seat.player.name, 0))
        seat.is_winner = finished and seat.player.name in winners
        # The referee ranks a finished game (ties share a rank); no rank before the end.
        seat.rank = judgement.ranks.get(seat.player.name)
        seat.team = teams.get(seat.player.name)
    changed = [s for s in seats if before[s.pk] != (s.score, s.rank, s.is_winner, s.team)]
    if changed:
        Seat.objects.bulk_update(changed, ["score", "rank", "is_winner", "team"])
    was_finished = play.status == Play.Status.FINISHED
    if play.status != Play.Status.ABANDONED:
        play.status = Play.Status.FINISHED if finished else Play.Status.IN_PROGRESS
        if finished and play.ended_at is None:
            play.ended_at = timezone.now()
        elif not finished:
            play.ended_at = None
    play.details = judgement.details
    if advance:
        advance_version(play, results=True)
    else:
        play.save(update_fields=["status", "ended_at", "details"])
    if was_finished or play.status == Play.Status.FINISHED:
        # Ratings and running totals follow the results, from this play's time onward (only
        # finished plays are rated, so a play that neither was nor is finished changes none).
        ratings.refresh_for_play(play)


def rejudge(play: Play) -> Judgement:
    """Judge the play's active log again and rewrite its derived results."""
    moves = [m.data for m in play.moves.active()]
    judgement = judge_play(play, seat_names(play), moves)
    refresh_results(play, judgement)
    return judgement
