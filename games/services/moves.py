"""Moves at the table: one entered (judged with the log, stored with the results and the new
version, under the play's row lock), or the last one undone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from referee import Judgement, judge_next

from .. import verdicts
from ..models import AuditEntry, Move, Play, Seat
from ..selectors import LogEntry, judge_play, log_moves
from ..sqlrows import insert
from .audit import audit_play
from .errors import IllegalMoveError, ServiceError, stale_error
from .playrow import advance_version, lock_play, lock_seated, refresh_results, rejudge
from .vetting import storable

#: What a move entry's ``compose`` returns while the move is not complete (nothing is stored).
NOT_COMPLETE = object()


@dataclass
class PlayState:
    """A play as its page shows it, read once under the play's row lock by a move entry, so
    that the page is rendered from memory: the seats (players joined), the whole move log
    (undone entries included), the referee's judgement of its active moves, and, once a move
    is stored, that entry and the judgement before it."""

    play: Play
    seats: list[Seat]
    log: list[LogEntry]
    judgement: Judgement
    entered: LogEntry | None = None
    before: Judgement | None = None

    @property
    def names(self) -> list[str]:
        return [seat.player.name for seat in self.seats]


def enter_move(
    *,
    play: Play,
    by: AbstractBaseUser | None,
    version: int | None,
    compose: Callable[[Judgement, list[str]], Any],
) -> PlayState:
    """One entry at the table: under the play's row lock, read its seats and its move log
    once, judge the log, let ``compose`` make the move from that judgement and the players'
    names (what was tapped; it returns NOT_COMPLETE while the move is not complete, and then
    nothing is stored), judge the move from that judgement (judge_next: the log is judged
    once), and store the move, the results and the new version; or refuse (IllegalMoveError,
    ServiceError, with ``state``).

    ``version`` is the play's version the entry form was made at: if the play changed since
    (another entry, an undo, abandoning it), the entry is refused (StalePlayError) rather than
    applied to a position its author did not see. On success ``play`` itself carries the new
    status, details and version.
    """
    try:
        state = _enter_move(play_id=play.pk, by=by, version=version, compose=compose)
    except IntegrityError:
        # The unique (play, seq) constraint, last line of defence behind the row lock: the
        # whole transaction is rolled back and nothing is stored.
        raise stale_error()
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
) -> Judgement:
    """Judge the whole log with ``move`` appended; store the move and the results, or refuse
    (enter_move, for a move already composed)."""
    return enter_move(play=play, by=by, version=version, compose=lambda *_: move).judgement


@transaction.atomic
def _enter_move(
    *,
    play_id: int,
    by: AbstractBaseUser | None,
    version: int | None,
    compose: Callable[[Judgement, list[str]], Any],
) -> PlayState:
    play, seats = lock_seated(play_id, version)
    log = log_moves(play)
    names = [seat.player.name for seat in seats]
    active = [entry.data for entry in log if entry.undone_at is None]
    state = PlayState(play, seats, log, judge_play(play, names, active))
    move = compose(state.judgement, names)
    if move is NOT_COMPLETE:
        return state
    try:
        storable(move)
        if play.status == Play.Status.ABANDONED:
            raise ServiceError(_("This play was abandoned: no more moves can be entered."))
        judgement = judge_next(state.judgement, move)
        if judgement.error is not None:
            if judgement.error["move"] == len(active):
                raise IllegalMoveError(judgement)
            # The stored log itself no longer judges legal (it should never happen): say so.
            raise ServiceError(verdicts.explain(judgement))
    except ServiceError as refusal:
        refusal.state = state
        raise
    # What the referee understood (known keys, canonical names), never the raw input.
    understood = judgement.plans[-1].canonical()
    seq = log[-1].seq + 1 if log else 0
    stored = Move(play=play, seq=seq, data=understood, entered_by=by)
    insert(stored)
    refresh_results(play, judgement, seats, advance=True)
    audit_play(play, AuditEntry.Action.MOVE_ENTER, by=by, names=names, seq=seq, move=understood)
    entered = LogEntry(seq, understood, _entered_by(by), stored.entered_at, None, None)
    return PlayState(play, seats, [*log, entered], judgement, entered, state.judgement)


def _entered_by(by: AbstractBaseUser | None) -> str | None:
    return by.get_username() if by is not None and by.is_authenticated else None


@transaction.atomic
def undo_last_move(
    *, play: Play, by: AbstractBaseUser | None = None, version: int | None = None
) -> Move:
    """Mark the last active move undone (kept in the log, with who and when).

    ``version``: as for ``record_move`` — two undos sent from one page undo one move, not two.
    """
    play = lock_play(play, version)
    if play.status == Play.Status.ABANDONED:
        raise ServiceError(_("This play was abandoned: its log cannot change."))
    last = play.moves.active().last()
    if last is None:
        raise ServiceError(_("There is no move to undo."))
    last.undone_at = timezone.now()
    last.undone_by = by
    last.save(update_fields=["undone_at", "undone_by"])
    advance_version(play)
    rejudge(play)
    audit_play(play, AuditEntry.Action.MOVE_UNDO, by=by, seq=last.seq, move=last.data)
    return last
