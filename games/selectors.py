"""Read-side helpers for plays: the move log and the judged state of a play, for the pages."""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from referee import Judgement, judge
from referee.judge import FORMAT

from .models import Move, Play
from .sqlrows import Columns, column, join, quoted


class LogEntry(NamedTuple):
    """One entry of a play's move log, as the pages show it (no model instances: the log of a
    long game is read on every move entry)."""

    seq: int
    data: Any
    entered_by: str | None
    entered_at: datetime.datetime
    undone_by: str | None
    undone_at: datetime.datetime | None
    #: why it left the log, once undone (Move.Struck: "" undone, "replaced", "dropped")
    struck: str = ""

    @property
    def is_undone(self) -> bool:
        return self.undone_at is not None

    @property
    def text(self) -> str:
        return json.dumps(self.data, ensure_ascii=False)

    @property
    def entered_time(self) -> str:
        return _clock(self.entered_at)

    @property
    def undone_time(self) -> str:
        return _clock(self.undone_at) if self.undone_at else ""


def _clock(moment: datetime.datetime) -> str:
    # The night's date is on the page already: the time of day is enough, and formatting it
    # here is much cheaper than a template filter per row of a long log.
    return timezone.localtime(moment).strftime("%H:%M")


#: The position of a play with no active move (position([])).
NO_MOVE = "0-"


def position(active: Sequence[int]) -> str:
    """A short fingerprint of a play's position: the ``seq`` of its active moves, in order (an
    undo then a new move gives a different position, even with as many moves)."""
    made = NO_MOVE
    for seq in active:
        made = position_after(made, seq)
    return made


def position_after(before: str, seq: int) -> str:
    """The position once the move ``seq`` is made at ``before``: a chain, so that a move entry
    makes it from the last one, whatever the log's length (issue 32: a move costs the same at
    move 1,000), and only the active moves in their order make it."""
    count, digest = before.split("-", 1)
    digest = hashlib.blake2s(f"{digest}:{seq}".encode(), digest_size=6).hexdigest()
    return f"{int(count) + 1}-{digest}"


def seat_names(play: Play) -> list[str]:
    return list(play.seats.order_by("position").values_list("player__name", flat=True))


@functools.cache
def _log_sql() -> tuple[str, Columns]:
    """log_moves' statement (written by hand: sqlrows), with the columns of its LogEntry."""
    user = get_user_model()
    moves = Move._meta.db_table
    username = user._meta.get_field(user.USERNAME_FIELD).column
    # The joined users' usernames are read as the move's own columns would be: plain text, and
    # so is the move's JSON, decoded at once for the whole log (log_moves).
    names = ("seq", "entered_at", "undone_at", "struck")
    fields = [Move._meta.get_field(name) for name in names]
    columns = Columns(moves, fields)
    sql = (
        f"SELECT {columns.sql}, {column(moves, 'data')}, {column('entered', username)},"
        f" {column('undone', username)}"
        f" FROM {quoted(moves)}"
        + join(user, column(moves, "entered_by_id"), alias="entered", outer=True)
        + join(user, column(moves, "undone_by_id"), alias="undone", outer=True)
        + f" WHERE {column(moves, 'play_id')} = %s ORDER BY {column(moves, 'seq')}"
    )
    return sql, columns


def log_moves(play: Play) -> list[LogEntry]:
    """Every entry of the play's move log, undone ones included, in order (one query)."""
    sql, columns = _log_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [play.pk])
        rows = cursor.fetchall()
    converters = columns.converters()
    # The moves' JSON as the ORM's JSONField reads it (json.loads), in one call for all of them:
    # a long log's thousand calls took longer than the database to read it (issue 32).
    moves = json.loads(f"[{','.join(row[4] for row in rows)}]")
    entries = []
    for row, data in zip(rows, moves, strict=True):
        seq, entered_at, undone_at, struck = columns.values(row, 0, converters)
        entries.append(LogEntry(seq, data, row[5], entered_at, row[6], undone_at, struck))
    return entries


def judge_play(play: Play, players: Sequence[str], moves: list[Any]) -> Judgement:
    """The referee's judgement of ``moves`` (JSON, as in the log) played in ``play``."""
    return judge(
        {
            "format": FORMAT,
            "game": play.game,
            "players": list(players),
            "setup": play.setup,
            "moves": moves,
        }
    )


def judge_moves(play: Play, players: list[str], moves: list[LogEntry]) -> Judgement:
    """The referee's judgement of the play's active log (moves not undone)."""
    return judge_play(play, players, [move.data for move in moves if move.undone_at is None])
