"""Moves at the table: one entered (judged with the log, stored with the results and the new
version, under the play's row lock), or the last one undone; each exactly once when its request
carries a key (``Keyed``: a phone on a bad network sends the same request again)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from referee import Judgement, judge_next

from .. import selectors, verdicts
from ..models import AuditEntry, Move, Play, Seat
from ..selectors import LogEntry, judge_play, log_moves
from ..sqlrows import Writes, column, quoted
from .audit import audit_play
from .errors import IllegalMoveError, ServiceError, key_reused_error, stale_error
from .playrow import (
    Asked,
    Kept,
    advance_version,
    kept_judgement,
    lock_play,
    lock_seated,
    refresh_results,
    rejudge,
)
from .vetting import storable

#: What a move entry's ``compose`` returns while the move is not complete (nothing is stored).
NOT_COMPLETE = object()

#: The longest request key kept (Move.key); the page makes 32 characters.
KEY_LENGTH = 64


@dataclass(frozen=True)
class Keyed:
    """A request the page made once, for one move or one undo: its key (the Idempotency-Key
    header, or the form's field) and what it asked (a fingerprint of its body). The same key
    with the same fingerprint is the same request sent again."""

    key: str
    asked: str

    @classmethod
    def of(cls, key: str, body: Any) -> Keyed:
        """``key`` for a request that asked ``body`` (any JSON value: a move, the fields of a
        form)."""
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return cls(key, hashlib.blake2s(text.encode(), digest_size=16).hexdigest())


def _asked_before(play_id: int, keyed: Keyed, undo: bool) -> bool:
    """Whether the play has already done this very request (a move or, ``undo``, an undo):
    then it is answered as the first time and nothing is stored. A key that an earlier request
    of the play used to ask something else is refused (KeyReusedError). One indexed read, under
    the play's row lock, so two copies of one request racing are done once (a move entry reads
    it with the lock itself: _done_before)."""
    table = Move._meta.db_table
    sql = (
        f"SELECT {quoted('key')}, {quoted('asked')} FROM {quoted(table)}"
        f" WHERE {column(table, 'play_id')} = %s"
        f" AND ({quoted('key')} = %s OR {quoted('undo_key')} = %s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [play_id, keyed.key, keyed.key])
        found = cursor.fetchall()
    if not found:
        return False
    entered = any(key == keyed.key and asked == keyed.asked for key, asked in found)
    undone = any(key != keyed.key for key, _asked in found)
    if (undone if undo else entered) and len(found) == 1:
        return True
    raise key_reused_error()


def _done_before(asked: Asked) -> bool:
    """_asked_before for a move, from what the lock's statement read of its key: done already
    when the one move carrying the key asked the same; any other use of the key is refused."""
    if not asked.carried:
        return False
    if asked.carried == 1 and asked.same == 1:
        return True
    raise key_reused_error()


class PlayState:
    """A play as its page shows it, read once under the play's row lock by a move entry, so
    that the page is rendered from memory: the seats (players joined), the referee's judgement
    of its active moves, and, once a move is stored, that entry and the judgement before it.

    The entry judges from the state kept with the play (Play.kept) and never reads the log;
    ``log``, the whole move log (undone entries included), is read when first asked for (by a
    page that tells it), after the entry, up to the entry's own move."""

    def __init__(
        self,
        play: Play,
        seats: list[Seat],
        log: list[LogEntry] | None,
        judgement: Judgement,
        entered: LogEntry | None = None,
        before: Judgement | None = None,
        *,
        next_seq: int,
        position: str | None = None,
        repeated: bool = False,
    ):
        self.play = play
        self.seats = seats
        self._log = log
        self.judgement = judgement
        self.entered = entered
        self.before = before
        #: the ``seq`` of the log's next entry: the log read later stops before it
        self.next_seq = next_seq
        #: the play's position (selectors.position), when known without the log (the kept
        #: state's)
        self._position = position
        #: the entry's request was done already (the same key and body sent again): nothing was
        #: stored, and the play is shown as it stands
        self.repeated = repeated

    @property
    def log(self) -> list[LogEntry]:
        if self._log is None:
            self._log = [entry for entry in log_moves(self.play) if entry.seq < self.next_seq]
        return self._log

    @property
    def active_moves(self) -> int:
        """How many moves the log holds, undone ones left out (no read of the log)."""
        return len(self.judgement.plans)

    @property
    def position(self) -> str:
        """The fingerprint of the play's position (selectors.position), as the page carries it:
        from the kept state, without reading the log, when the entry judged from it."""
        if self._position is None:
            return selectors.position([e.seq for e in self.log if e.undone_at is None])
        return self._position

    @property
    def names(self) -> list[str]:
        return [seat.player.name for seat in self.seats]


def enter_move(
    *,
    play: Play | int,
    by: AbstractBaseUser | None,
    version: int | None,
    compose: Callable[[Play, Judgement, list[str]], Any],
    keyed: Keyed | None = None,
    member: int | None = None,
) -> PlayState:
    """One entry at the table: under the play's row lock, read its seats and the judged state
    kept after its last move (in the same statement: Play.kept; the log is read and judged
    only when no state is kept at the play's version), let ``compose`` make the move from the
    play as locked, that judgement and the players' names (what was tapped; it returns
    NOT_COMPLETE while the move is not complete, and then nothing is stored), judge the move
    from that judgement (judge_next), and store the move, the results, the new kept state and
    the new version; or refuse (IllegalMoveError, ServiceError, with ``state``).

    ``version`` is the play's version the entry form was made at: if the play changed since
    (another entry, an undo, abandoning it), the entry is refused (StalePlayError) rather than
    applied to a position its author did not see. On success ``play`` itself carries the new
    status, details and version.

    ``play`` may be the play's id, with ``member``, a user's id: the page's one read of the
    play is the lock's (issue 32: it was read once for the page, once under the lock). It is
    then read only if that user is a member of its club, with its club and night (the state's
    ``play``); otherwise it is as gone (PlayGoneError), before anything else.

    ``keyed``: the entry's request, made once by the page. Sent again (its answer was lost),
    it is checked before the version (it carries the version of before its own move): the
    play is returned as it stands, ``repeated``, and nothing is stored; its key used by another
    request of the play is refused (KeyReusedError).
    """
    play_id = play if isinstance(play, int) else play.pk
    try:
        state = _enter_move(
            play_id=play_id, by=by, version=version, compose=compose, keyed=keyed, member=member
        )
    except IntegrityError:
        # The unique (play, seq) and (play, key) constraints, last line of defence behind the
        # row lock: the whole transaction is rolled back and nothing is stored.
        raise stale_error()
    if isinstance(play, Play):
        stored = state.play
        play.status, play.ended_at, play.details = stored.status, stored.ended_at, stored.details
        play.version = stored.version
    return state


def record_move(
    *,
    play: Play,
    move: Any,
    by: AbstractBaseUser | None = None,
    version: int | None = None,
    key: str | None = None,
) -> Judgement:
    """Judge the log with ``move`` appended (from its kept state); store the move and the
    results, or refuse
    (enter_move, for a move already composed; ``key``: its request's key, see Keyed)."""
    keyed = Keyed.of(key, move) if key is not None else None
    compose = lambda *_: move  # noqa: E731
    return enter_move(play=play, by=by, version=version, compose=compose, keyed=keyed).judgement


@transaction.atomic
def _enter_move(
    *,
    play_id: int,
    by: AbstractBaseUser | None,
    version: int | None,
    compose: Callable[[Play, Judgement, list[str]], Any],
    keyed: Keyed | None,
    member: int | None,
) -> PlayState:
    # A request sent again carries the version of before its own move: its key is read first.
    key = (keyed.key, keyed.asked) if keyed else None
    play, seats, asked = lock_seated(play_id, key, member=member)
    repeated = keyed is not None and _done_before(asked)
    if not repeated and version is not None and play.version != version:
        # On PostgreSQL the lock's statement may have waited for the very change that moved the
        # version on, then counted the keys as they stood when it began: this request may be
        # that change sent again. Its key is read again, by a statement of its own (only then).
        if keyed is None or not _asked_before(play_id, keyed, undo=False):
            raise stale_error()
        repeated = True
    if play.kind == Play.Kind.RESULT:
        raise ServiceError(result_has_no_moves())
    names = [seat.player.name for seat in seats]
    log, judged = None, kept_judgement(play)
    if judged is None:  # no state kept at this version: the log is judged (and kept below)
        log = log_moves(play)
        active = [entry for entry in log if entry.undone_at is None]
        judgement = judge_play(play, names, [entry.data for entry in active])
        made = selectors.position([entry.seq for entry in active])
        judged = Kept(judgement, log[-1].seq + 1 if log else 0, made)
    before, seq, made = judged
    state = PlayState(play, seats, log, before, next_seq=seq, position=made, repeated=repeated)
    if repeated:
        return state
    move = compose(play, before, names)
    if move is NOT_COMPLETE:
        return state
    try:
        storable(move)
        if play.status == Play.Status.ABANDONED:
            raise ServiceError(_("This play was abandoned: no more moves can be entered."))
        judgement = judge_next(before, move)
        if judgement.error is not None:
            if judgement.error["move"] == len(before.plans):
                raise IllegalMoveError(judgement)
            # The stored log itself no longer judges legal (it should never happen): say so.
            raise ServiceError(verdicts.explain(judgement))
    except ServiceError as refusal:
        refusal.state = state
        raise
    # What the referee understood (known keys, canonical names), never the raw input.
    understood = judgement.plans[-1].canonical()
    stored = Move(play=play, seq=seq, data=understood, entered_by=by)
    if keyed is not None:
        stored.key, stored.asked = keyed.key, keyed.asked
    # The move, its audit entry, the seats' results and the play's row: written together, as
    # one statement on PostgreSQL (sqlrows.Writes), once the play's new state is known.
    writes = Writes()
    writes.insert(stored)
    audit_play(
        play,
        AuditEntry.Action.MOVE_ENTER,
        by=by,
        names=names,
        writes=writes,
        seq=seq,
        move=understood,
    )
    after = selectors.position_after(made, seq)
    position = (seq + 1, after)
    refresh_results(play, judgement, seats, advance=True, position=position, writes=writes)
    entered = LogEntry(seq, understood, _entered_by(by), stored.entered_at, None, None)
    log = [*log, entered] if log is not None else None
    return PlayState(play, seats, log, judgement, entered, before, next_seq=seq + 1, position=after)


def _entered_by(by: AbstractBaseUser | None) -> str | None:
    return by.get_username() if by is not None and by.is_authenticated else None


def undo_last_move(
    *,
    play: Play,
    by: AbstractBaseUser | None = None,
    version: int | None = None,
    key: str | None = None,
) -> Move | None:
    """Mark the last active move undone (kept in the log, with who and when), and return it.

    ``version``: as for ``record_move`` — two undos sent from one page undo one move, not two.
    ``key``: the undo's request key (see Keyed): the same undo sent again undoes nothing more
    and returns None; a key another request of the play used is refused (KeyReusedError).
    """
    try:
        return _undo_last_move(play=play, by=by, version=version, key=key)
    except IntegrityError:
        # The unique (play, undo_key) constraint, behind the row lock: nothing is stored.
        raise stale_error()


def result_has_no_moves() -> str:
    return _("This play was entered as a result: it has no move log to change.")


#: What an undo asked: an undo has no body of its own (its version says where it was made).
UNDO = "undo"


@transaction.atomic
def _undo_last_move(
    *, play: Play, by: AbstractBaseUser | None, version: int | None, key: str | None
) -> Move | None:
    play = lock_play(play)  # the version is checked below, once the key is read
    if key is not None and _asked_before(play.pk, Keyed.of(key, UNDO), undo=True):
        return None
    if version is not None and play.version != version:
        raise stale_error()
    if play.kind == Play.Kind.RESULT:
        raise ServiceError(result_has_no_moves())
    if play.status == Play.Status.ABANDONED:
        raise ServiceError(_("This play was abandoned: its log cannot change."))
    last = play.moves.active().last()
    if last is None:
        raise ServiceError(_("There is no move to undo."))
    last.undone_at = timezone.now()
    last.undone_by = by
    last.undo_key = key
    last.save(update_fields=["undone_at", "undone_by", "undo_key"])
    advance_version(play)
    rejudge(play)
    audit_play(play, AuditEntry.Action.MOVE_UNDO, by=by, seq=last.seq, move=last.data)
    return last
