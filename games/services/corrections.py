"""A past move corrected (issue 30): the move at a place of the log replaced by another, and the
whole log judged again, under the play's row lock, in one transaction.

On paper one line is crossed out and the right one written beside it; here the entry replaced
stays in the log, struck as replaced (with who corrected it and when), and its replacement takes
the next place (``seq``: the later entries move one place on, so the log reads in order). If a
later move no longer judges legal, nothing is changed and the refusal says which and why; asked
to (``cut_at_refusal``), the correction is applied and the moves from that one on are struck as
dropped by it. The results, ratings and running totals follow from the corrected log by the one
path every change of a log other than an append takes (``playrow.rejudge``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from referee import Judgement

from .. import verdicts
from ..models import AuditEntry, Move, Play
from ..selectors import judge_play
from ..ui import ui_for
from .audit import audit_play
from .errors import IllegalMoveError, LaterMoveRefusedError, ServiceError, stale_error
from .moves import Keyed, _asked_before
from .playrow import advance_version, lock_seated, rejudge
from .vetting import storable


@dataclass(frozen=True)
class Correction:
    """What a correction did: the entry replaced and its replacement, the entries it dropped
    (``cut_at_refusal``), the judgement of the corrected log. ``repeated``: the same request
    was done already (its key and body sent again): nothing more was done, and the rest is
    empty."""

    replaced: Move | None = None
    entered: Move | None = None
    dropped: list[Move] = field(default_factory=list)
    judgement: Judgement | None = None
    repeated: bool = False


def replace_move(
    *,
    play: Play,
    index: int,
    move: Any,
    by: AbstractBaseUser | None,
    version: int | None = None,
    cut_at_refusal: bool = False,
    keyed: Keyed | None = None,
) -> Correction:
    """Replace the move at ``index`` (its place among the play's active moves, from 0, as in
    its ``gamelog/1`` log) with ``move``, and judge the whole log again.

    Refused, with nothing changed: the play moved on from ``version`` (StalePlayError); it was
    abandoned, or there is no such move (ServiceError); the referee refuses ``move`` where it
    stands (IllegalMoveError); a later move would become illegal (LaterMoveRefusedError,
    naming it), unless ``cut_at_refusal``: then the moves from that one on are dropped. A
    correction that ends the game earlier is such a case (the next move is refused: the game
    is over).

    ``keyed``: the request, made once by the page (services.Keyed): sent again, nothing more
    is done (``repeated``); its key used by another request of the play is refused.
    """
    try:
        return _replace_move(
            play_id=play.pk,
            index=index,
            move=move,
            by=by,
            version=version,
            cut_at_refusal=cut_at_refusal,
            keyed=keyed,
        )
    except IntegrityError:
        # The unique (play, seq) and (play, key) constraints behind the row lock: nothing stored.
        raise stale_error()


@transaction.atomic
def _replace_move(
    *,
    play_id: int,
    index: int,
    move: Any,
    by: AbstractBaseUser | None,
    version: int | None,
    cut_at_refusal: bool,
    keyed: Keyed | None,
) -> Correction:
    # A request sent again carries the version of before its own change: its key is read first.
    play, seats, _asked = lock_seated(play_id)
    if keyed is not None and _asked_before(play_id, keyed, undo=False):
        return Correction(repeated=True)
    if version is not None and play.version != version:
        raise stale_error()
    if play.status == Play.Status.ABANDONED:
        raise ServiceError(_("This play was abandoned: its log cannot change."))
    storable(move)
    rows = list(play.moves.active())
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(rows):
        raise ServiceError(_("There is no such move to correct."))
    names = [seat.player.name for seat in seats]
    corrected = [row.data for row in rows]
    corrected[index] = move
    judgement = judge_play(play, names, corrected)
    kept = len(rows)  # the moves of the log kept, the corrected one included
    if judgement.error is not None:
        at = judgement.error["move"]
        if at is None or at < index:
            # The stored log itself no longer judges legal (it should never happen): say so.
            raise ServiceError(verdicts.explain(judgement))
        if at == index:
            raise IllegalMoveError(judgement)
        if not cut_at_refusal:
            where = ui_for(play.game).move_name(judgement.state, at)
            raise LaterMoveRefusedError(judgement, where)
        kept = at
    # What the referee understood (known keys, canonical names), never the raw input.
    understood = judgement.plans[index].canonical()
    user = by if by is not None and by.is_authenticated else None
    now = timezone.now()
    replaced = rows[index]
    _make_room_after(play, replaced.seq)
    replaced.undone_at, replaced.undone_by, replaced.struck = now, user, Move.Struck.REPLACED
    replaced.save(update_fields=["undone_at", "undone_by", "struck"])
    dropped: list[Move] = []
    if kept < len(rows):
        cut = Move.objects.filter(pk__in=[row.pk for row in rows[kept:]])
        cut.update(undone_at=now, undone_by=user, struck=Move.Struck.DROPPED)
        dropped = list(cut.order_by("seq"))  # as they now stand, one place on
    entered = Move(play=play, seq=replaced.seq + 1, data=understood, entered_by=user)
    if keyed is not None:
        entered.key, entered.asked = keyed.key, keyed.asked
    entered.save()
    advance_version(play)
    after = rejudge(play)
    audit_play(
        play,
        AuditEntry.Action.MOVE_REPLACE,
        by=by,
        names=names,
        index=index,
        seq=entered.seq,
        replaced=replaced.data,
        move=understood,
        dropped=len(dropped),
    )
    return Correction(replaced, entered, dropped, after)


def _make_room_after(play: Play, seq: int) -> None:
    """Move every entry after ``seq`` one place on, for a correction to take the place after
    the entry it replaces. In two steps, out of the way first: the databases check the unique
    (play, seq) row by row, so a single ``seq + 1`` could collide with the next entry."""
    later = Move.objects.filter(play=play, seq__gt=seq)
    top = later.order_by("-seq").values_list("seq", flat=True).first()
    if top is None:
        return
    away = top + 2  # above every entry, so that no step lands on one
    later.update(seq=F("seq") + away)
    Move.objects.filter(play=play, seq__gt=top).update(seq=F("seq") - away + 1)
