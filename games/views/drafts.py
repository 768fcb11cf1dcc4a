"""The move a browser without a script is building on the server, tap by tap: kept in the
session per play (a few plays at most), and carried signed by the page for its live refresh,
with the position it was built on. (With a script the move is built on the phone:
static/js/move-builder.js.)"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.http import HttpRequest

from .. import selectors
from ..models import Play
from ..ui import Draft


def draft_key(play: Play) -> str:
    return f"play-draft-{play.pk}"


def saved_draft(request: HttpRequest, play: Play) -> Draft | None:
    """The move this browser was building on the play, kept on the server so that it survives
    a reload or a dropped connection. Only drafts the server made are kept (never what a form
    posted), and only for the version they were built on: a move entered since makes it moot."""
    saved = request.session.get(draft_key(play))
    if isinstance(saved, dict) and saved.get("version") == play.version:
        data = saved.get("data")
        if isinstance(data, dict) and data:
            return Draft(data)
    return None


#: The plays whose half-built move a session keeps at most (a browser without a script builds
#: its moves on the server; with one, on the phone, and keeps none here). The oldest goes first.
KEPT_DRAFTS = 5
_DRAFTS_KEPT = "play-drafts"


def keep_draft(request: HttpRequest, play: Play, draft: Draft | None) -> None:
    key = draft_key(play)
    wanted = {"version": play.version, "data": draft.data} if draft and draft.data else None
    if request.session.get(key) == wanted:  # a session write only when the draft changed
        return
    kept = [k for k in request.session.get(_DRAFTS_KEPT, []) if k != key]
    if wanted is None:
        request.session.pop(key, None)
    else:
        request.session[key] = wanted
        kept.append(key)
        for oldest in kept[:-KEPT_DRAFTS]:
            request.session.pop(oldest, None)
        kept = kept[-KEPT_DRAFTS:]
    request.session[_DRAFTS_KEPT] = kept


def forget_draft(request: HttpRequest, play: Play) -> None:
    keep_draft(request, play, None)


# The page carries its draft signed, for its live refresh to send back (games.views.play_live).
LIVE_SALT = "games.play_live.draft"


def signed_draft(play: Play, position: str, draft: Draft | None, user_id: int) -> str:
    """The half-built move and the position it was built on (position_of), signed, for
    ``user_id`` only: only a draft this site made is ever kept, so it need not be judged again.
    It holds for
    ``LIVE_KEPT_DRAFT_SECONDS`` and for its user (issue 29: it never expired, and anyone could
    replay it), checked by ``kept_draft``."""
    if not draft or not draft.data:
        return ""
    kept = {"play": play.pk, "user": user_id, "position": position, "draft": draft.data}
    return signing.dumps(kept, salt=LIVE_SALT)


def kept_draft(signed: str, play: Play, user_id: int) -> dict | None:
    """What ``signed_draft`` signed for this play and this user, if it still holds."""
    try:
        kept = signing.loads(signed, salt=LIVE_SALT, max_age=settings.LIVE_KEPT_DRAFT_SECONDS)
    except signing.BadSignature:  # forged, or expired (SignatureExpired is one)
        return None
    if not isinstance(kept, dict) or kept.get("play") != play.pk or kept.get("user") != user_id:
        return None
    return kept


def position_of(moves: list[selectors.LogEntry]) -> str:
    """A short fingerprint of the position a page shows: its active moves (selectors.position;
    a move entry has it without the log: services.PlayState.position)."""
    return selectors.position([m.seq for m in moves if m.undone_at is None])
