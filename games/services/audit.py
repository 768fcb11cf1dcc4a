"""The audit trail: every entry of it is written here, in the transaction of the change it
records."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from ..models import AuditEntry, Play
from ..selectors import seat_names
from ..sqlrows import Writes, insert


def _actor_name(by: AbstractBaseUser | None) -> str:
    return by.get_username() if by is not None else ""


def record_audit(
    *,
    club_id: int,
    action: str,
    by: AbstractBaseUser | None,
    object_kind: str,
    object_id: int | None,
    summary: str,
    data: dict[str, Any] | None = None,
    writes: Writes | None = None,
) -> AuditEntry:
    """Add one entry to a club's audit trail (the caller's transaction keeps it with the change;
    ``writes``: with the change's statements still to run, sqlrows.Writes)."""
    entry = AuditEntry(
        club_id=club_id,
        actor=by if by is not None and by.is_authenticated else None,
        actor_name=_actor_name(by),
        action=action,
        object_kind=object_kind,
        object_id=object_id,
        summary=summary[:300],
        data=data or {},
    )
    if writes is not None:
        writes.insert(entry)
    else:
        insert(entry)  # sqlrows
    return entry


def _play_summary(play: Play, names: Sequence[str] | None = None) -> str:
    names = ", ".join(seat_names(play) if names is None else names)
    return f"{play.game_title} #{play.pk} ({names})"


def audit_play(
    play: Play,
    action: str,
    *,
    by: AbstractBaseUser | None,
    names: Sequence[str] | None = None,
    writes: Writes | None = None,
    **data: Any,
) -> AuditEntry:
    """An audit entry about ``play`` (``names``: its players, when the caller has them;
    ``writes``: see record_audit)."""
    return record_audit(
        club_id=play.club_id,
        action=action,
        by=by,
        object_kind="play",
        object_id=play.pk,
        summary=_play_summary(play, names),
        data={"game": play.game, **data},
        writes=writes,
    )
