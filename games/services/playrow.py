"""A play's row, changed one change at a time: locked (with its seats, for a move entry, in one
statement written by hand: games.sqlrows), its version moved on, and its derived results (seat
scores, ranks, winners, the play's status and details, and the judged state kept for the next
move) rewritten from the referee's judgement."""

from __future__ import annotations

import base64
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field
from django.utils import timezone

from referee import Judgement, keep, resume

from .. import live, ratings, selectors
from ..models import Club, GameNight, Membership, Move, Play, Player, Seat
from ..selectors import judge_play, seat_names
from ..sqlrows import Columns, Writes, column, instances, join, quoted, update
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
def _seated_sql(
    vendor: str, member: bool
) -> tuple[str, Columns, Columns, Columns, tuple[Columns, ...]]:
    """lock_seated's one statement (sqlrows: the ORM took ten times longer to build it than
    the database to run it), with the columns of its seats, players and play, and then, for a
    request key, how many moves of the play carry it (as a move's key or an undo's) and how
    many of those asked the same (two indexed counts: the unique (play, key) and (play,
    undo_key)). ``member``: the play's club and night are read too (their columns, after the
    play's), and whether a user is a member of its club (a column of its own, 1 or NULL: the
    unique (club, user); as a join it made PostgreSQL plan a join of six tables, which took
    longer than the statement it saved)."""
    seat, player, play = Columns.of(Seat), Columns.of(Player), Columns.of(Play)
    club, night = Columns.of(Club), Columns.of(GameNight)
    seats, moves, plays = Seat._meta.db_table, Move._meta.db_table, Play._meta.db_table
    lock = ""
    if connection.features.has_select_for_update_of:
        lock = f" FOR UPDATE OF {quoted(plays)}"
    in_play = f"{column(moves, 'play_id')} = %s"
    key, undo_key, asked = (column(moves, name) for name in ("key", "undo_key", "asked"))
    keyed = f"SELECT COUNT(*) FROM {quoted(moves)} WHERE {in_play}"
    read = f"{seat.sql}, {player.sql}, {play.sql}"
    joined = join(Player, column(seats, "player_id")) + join(Play, column(seats, "play_id"))
    if member:
        members = Membership._meta.db_table
        read += (
            f", {club.sql}, {night.sql}, (SELECT 1 FROM {quoted(members)}"
            f" WHERE {column(members, 'club_id')} = {column(plays, 'club_id')}"
            f" AND {column(members, 'user_id')} = %s)"
        )
        joined += join(Club, column(plays, "club_id")) + join(GameNight, column(plays, "night_id"))
    sql = (
        f"SELECT {read},"
        f" ({keyed} AND ({key} = %s OR {undo_key} = %s)),"
        f" ({keyed} AND {key} = %s AND {asked} = %s)"
        f" FROM {quoted(seats)}{joined}"
        f" WHERE {column(seats, 'play_id')} = %s ORDER BY {column(seats, 'position')}{lock}"
    )
    return sql, seat, player, play, (club, night) if member else ()


@dataclass(frozen=True)
class Asked:
    """What the moves of a play say of a request key (read with the play's lock): how many moves
    carry it, as a move's key or an undo's (``carried``), and how many of those carry it as
    their key for the same request (``same``)."""

    carried: int
    same: int


def lock_seated(
    play_id: int, key: tuple[str, str] | None = None, *, member: int | None = None
) -> tuple[Play, list[Seat], Asked]:
    """lock_play, reading the play's seats (and their players) in the same query, with no
    version check: a move entry reads its request's key before the version (services.moves).
    ``key``: the request's key and what it asked, looked up among the play's moves by the same
    statement. ``member``: a user's id: the play is read only if they are a member of its
    club, with its club and night (as access.get_play reads them: a move entry reads the play
    once); otherwise as if it were gone. On SQLite the transaction itself holds the lock (it
    begins IMMEDIATE: config/settings.py)."""
    sql, seat_columns, player_columns, play_columns, around = _seated_sql(
        connection.vendor, member is not None
    )
    looked_up, asked = key if key is not None else (None, None)
    params = [play_id, looked_up, looked_up, play_id, looked_up, asked, play_id]
    if member is not None:
        params.insert(0, member)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if not rows:  # a play always has its seats: none means it is gone
        raise gone_error()
    start = len(seat_columns) + len(player_columns)
    end = start + len(play_columns)
    if around:
        club_columns, night_columns = around
        end += len(club_columns) + len(night_columns) + 1
        if rows[0][end - 1] is None:  # not theirs to see: as if it were gone
            raise gone_error()
    (play,) = instances(Play, play_columns, rows[:1], start=start)
    seats = instances(Seat, seat_columns, rows)
    players = instances(Player, player_columns, rows, start=len(seat_columns))
    # Each seat's play and player, cached as the descriptors cache them (their keys are the
    # row's already: nothing else to set).
    to_play, to_player = Seat._meta.get_field("play"), Seat._meta.get_field("player")
    for seat, player in zip(seats, players, strict=True):
        to_play.set_cached_value(seat, play)
        to_player.set_cached_value(seat, player)
    if around:
        after_play = start + len(play_columns)
        (play.club,) = instances(Club, club_columns, rows[:1], start=after_play)
        after_club = after_play + len(club_columns)
        (play.night,) = instances(GameNight, night_columns, rows[:1], start=after_club)
    return play, seats, Asked(*rows[0][end : end + 2])


def advance_version(play: Play, *, results: bool = False, writes: Writes | None = None) -> None:
    """The play changed: forms made at its version until now are stale. In the change's
    transaction, on the locked row; an increment in the database, so that no stale instance
    saved elsewhere can ever take the version back. Every page watching the play is told once
    the change commits (games.live). ``results``: the play's status, end and details are
    written by the same statement (one UPDATE per move entry), and the state kept for the next
    move. ``writes``: the change's other statements, run with this one (sqlrows.Writes: on
    PostgreSQL, the same statement)."""
    wrapper, notifies = connections[DEFAULT_DB_ALIAS], live.is_postgresql()
    sql, fields = _advance_sql(results, notifies)
    params = [field.get_db_prep_save(getattr(play, field.attname), wrapper) for field in fields]
    # Written by hand (games.sqlrows): the ORM took longer to build it than the database to
    # run it. On PostgreSQL the same statement also sends the play's NOTIFY (games.live).
    play.version = (writes or Writes()).run(sql, [*params, play.pk])[0]
    if not notifies:
        live.changed_on_commit(play.night_id, play.pk, play.version)


@functools.cache
def _advance_sql(results: bool, notifies: bool) -> tuple[str, tuple[Field, ...]]:
    """advance_version's statement (made once: ``notifies``, whether it sends the play's NOTIFY,
    live.is_postgresql), and the fields it sets besides the version."""
    names = ("status", "ended_at", "details", "kept") if results else ()
    fields = tuple(Play._meta.get_field(name) for name in names)
    sets = [f"{quoted(field.column)} = %s" for field in fields]
    return live.advance_version_sql(Play._meta.db_table, sets), fields


class Kept(NamedTuple):
    """What a move entry judges from: the referee's judgement of the play's active log, the
    ``seq`` of the log's next entry, and the play's position (selectors.position)."""

    judgement: Judgement
    next_seq: int
    position: str


def kept_judgement(play: Play, log: Sequence[selectors.LogEntry] | None = None) -> Kept | None:
    """The judgement of the play's active log from the state kept after its last change
    (Play.kept); None when there is none to trust (never kept, kept at another version of the
    play or by another referee, or not readable): the log is then judged again. Reads nothing:
    the state came with the play's row. ``log``: the play's log as read, which the state must be
    that of (its next entry, its number of moves), else it is not trusted either."""
    if not play.kept:
        return None
    try:
        version, next_seq, position, judged = play.kept.split(" ", 3)
        if int(version) != play.version:
            return None
        judgement = resume(base64.b64decode(judged), play.game)
    except Exception:  # a kept state that does not read is as none: the log is the truth
        return None
    if judgement is None:
        return None
    found = Kept(judgement, int(next_seq), position)
    if log is not None:
        active = sum(1 for entry in log if entry.undone_at is None)
        next_seq = log[-1].seq + 1 if log else 0
        if found.next_seq != next_seq or len(found.judgement.plans) != active:
            return None
    return found


def _kept(judgement: Judgement, version: int, position: tuple[int, str] | None) -> str:
    """What Play.kept holds after a change judged ``judgement``, at ``version``: the version, the
    log's next ``seq``, the play's position (selectors.position) and the state the referee keeps
    (referee.keep, in base64), spaced; empty when ``position`` is not known or the log does not
    judge legal (the next entry judges the log again)."""
    judged = keep(judgement) if position is not None else None
    if judged is None:
        return ""
    next_seq, made = position
    return f"{version:d} {next_seq:d} {made} {base64.b64encode(judged).decode('ascii')}"


#: What a seat holds of its play's results.
SEAT_RESULTS = ("score", "rank", "is_winner", "team")


def _seats(play: Play) -> list[Seat]:
    return list(play.seats.select_related("player").order_by("position"))


def refresh_results(
    play: Play,
    judgement: Judgement,
    seats: list[Seat] | None = None,
    *,
    advance: bool = False,
    position: tuple[int, str] | None = None,
    writes: Writes | None = None,
) -> None:
    """Rewrite the derived results of a play from the referee's judgement of its log, and the
    judged state kept for the next move.

    ``seats`` (with their players), when the caller already has them, saves a query. Only the
    rows whose values change are written. ``advance``: the play's version moves on in the same
    UPDATE (see advance_version; the caller holds the play's row lock). ``position``: the
    ``seq`` the log's next entry takes and the play's position (selectors.position); without
    it no state is kept (the next entry judges the whole log, and keeps it). ``writes``: the
    change's statements not run yet (a move entry's INSERTs), run with the play's UPDATE (with
    ``advance`` only).
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
        if advance and writes is not None:
            writes.update(changed, SEAT_RESULTS)  # with the play's UPDATE, below
        else:
            update(changed, SEAT_RESULTS)
    was_finished = play.status == Play.Status.FINISHED
    if play.status != Play.Status.ABANDONED:
        play.status = Play.Status.FINISHED if finished else Play.Status.IN_PROGRESS
        if finished and play.ended_at is None:
            play.ended_at = timezone.now()
        elif not finished:
            play.ended_at = None
    play.details = judgement.details
    # Under the row lock the UPDATE moves the version on by one: the state is kept at that one.
    # Only while moves may be entered: a finished or abandoned play keeps none (its row is read
    # by many pages; an undo or resuming judges its log again, and keeps the state then).
    version = play.version + 1 if advance else play.version
    in_progress = play.status == Play.Status.IN_PROGRESS
    play.kept = _kept(judgement, version, position) if in_progress else ""
    if advance:
        advance_version(play, results=True, writes=writes)
    else:
        play.save(update_fields=["status", "ended_at", "details", "kept"])
    if was_finished or play.status == Play.Status.FINISHED:
        # Ratings and running totals follow the results, from this play's time onward (only
        # finished plays are rated, so a play that neither was nor is finished changes none).
        ratings.refresh_for_play(play, rated=was_finished, seats=seats)


def rejudge(play: Play) -> Judgement:
    """Judge the play's active log again and rewrite its derived results and its kept state:
    the one way back to a kept state that agrees with the log after any change to it other than
    a move entered (an undo, resuming, a correction). The state is kept for ``play.version``:
    the caller's play is at its version now (locked, its version moved on: advance_version);
    a stale instance keeps it for an older version, which the next entry ignores (it judges
    the log again)."""
    log = list(play.moves.order_by("seq").values_list("seq", "data", "undone_at"))
    active = [(seq, data) for seq, data, undone_at in log if undone_at is None]
    judgement = judge_play(play, seat_names(play), [data for _seq, data in active])
    position = (log[-1][0] + 1 if log else 0, selectors.position([seq for seq, _data in active]))
    refresh_results(play, judgement, position=position)
    return judgement
