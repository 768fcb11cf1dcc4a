"""The play page's fragment drawn once per version for every member alike (issue 32: live latency
as a person sees it).

A move at a table of six makes five other phones fetch the play (games.views.play_live): each
fetch drew the whole fragment again, the same five times. What a member's phone is shown of a
play in progress, when it has nothing of its own to keep or to be told (no half-built move, no
refusal, no notice), is the same for every member: the play at its version, in their language.
So it is drawn once per (play, version, language, club time zone) in each process and kept here,
and each fetch answers from it: only the parts its page does not show already (games.parts), with
what each viewer gets anew filled in (below).

What differs between two viewers is never kept:

- **Per viewer, filled in each answer**: the form's CSRF token (it belongs to the viewer's
  session) and the idempotency keys of the move and undo forms (made once per page). They are
  drawn as markers (``CSRF``, ``MOVE_KEY``, ``UNDO_KEY``) and replaced in every answer, kept or
  not (``personal``); so the parts' fingerprints no longer change with them.
- **Never drawn from here**: anything with a viewer's own state — a half-built move, an error, the
  notice of another phone's change, the events of the viewer's own move, a replay or a correction
  — and anything that is not a member's fragment of a play in progress: the whole page (its
  owner-only links), a finished play (its ratings change without its version), an abandoned one
  (its owner's "Resume"). A read-only link (games.views.shares) has its own page and never comes
  here. ``alike`` says which requests may be answered from here.

An entry is never stale: it is looked up by the version the request has just read (get_play),
and it is kept only if the play was still at that version once its log had been read (a move
committed between the two is drawn, but not kept).

The play page's stream pushes the same drawings (games.views.live._Push): from the drawing its
page showed to the new one, the answer a fetch would get (``pushed``, ``Drawn.event_data``), made
once for all its streams, each viewer's markers then filled in (``personal``).
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils import translation

from .. import parts
from ..models import Play

#: What each viewer's answer gets anew, drawn as markers: unguessable, so that nothing a player
#: types (a name) can be mistaken for one. They stand in for values made of [a-zA-Z0-9].
_MARK = secrets.token_hex(12)
_KINDS = ("csrf", "movekey", "undokey")
CSRF, MOVE_KEY, UNDO_KEY = (f"{kind}{_MARK}" for kind in _KINDS)


def markers() -> dict[str, str]:
    """The context values that draw the markers."""
    return {"csrf_token": CSRF, "move_key": MOVE_KEY, "undo_key": UNDO_KEY}


def personal(html: str, request: HttpRequest) -> str:
    """``html`` for this viewer: their session's CSRF token, and fresh keys for its forms (one
    of each kind for the whole answer, wherever its markers are). The answer is searched once
    for the three (it was searched and copied once for each: some 50 KB, issue 32)."""
    pieces = html.split(_MARK)
    if len(pieces) == 1:
        return html
    made: dict[str, str] = {}
    filled = []
    for piece in pieces[:-1]:  # each ends with the kind of its marker
        kind = next((kind for kind in _KINDS if piece.endswith(kind)), None)
        if kind is None:  # never drawn: the mark is secret
            filled += (piece, _MARK)
            continue
        if kind not in made:
            made[kind] = get_token(request) if kind == "csrf" else secrets.token_hex(16)
        filled += (piece[: -len(kind)], made[kind])
    filled.append(pieces[-1])
    return "".join(filled)


@dataclass(frozen=True)
class Drawn:
    """One drawing of the play's fragment (or page), with markers in place of what is personal."""

    html: str
    drawing: parts.Drawing
    #: the play's version it shows
    version: int = 0
    #: the events pushed from it, by the drawing the page showed before (``event_data``)
    _pushes: dict = field(default_factory=dict, compare=False, repr=False)

    def answer(self, have: dict[str, str] | None) -> str | None:
        """Only what differs from the parts the page shows (``have``), or None: the whole."""
        if have is None:
            return None
        return parts.answer(self.drawing, have)

    def fingerprints(self) -> dict[str, str]:
        """The parts a page shows once this drawing is on it, as its requests say them."""
        return {name: part.fingerprint for name, part in self.drawing.parts.items()}

    def event_data(self, base: Drawn) -> str | None:
        """The data of the stream's event that brings a page showing ``base`` to this drawing
        (``pushed``, as one line of JSON, the viewer's markers still in it: ``personal`` fills
        them in, as they are letters and digits that JSON leaves as they are); None: the page
        fetches. Made once for all the streams that push it."""
        have = base.fingerprints()
        key = (base.version, tuple(sorted(have.items())))
        if key not in self._pushes:
            found = pushed(base, self, have)
            self._pushes[key] = found and json.dumps(
                {"since": found.since, "expect": found.expect, "html": found.html},
                separators=(",", ":"),
            )
        return self._pushes[key]


@dataclass(frozen=True)
class Pushed:
    """What a page that shows ``base`` gets in the event that says the play is at ``new``'s
    version (games.views.live), instead of fetching it: the same answer its fetch would get,
    made once per process and version for all the phones watching (issue 32).

    ``expect`` holds the fingerprints, as ``base`` has them, of every part that answer was
    decided on (games.parts.changed): a page that shows exactly those gets from its fetch the
    answer pushed, and puts it in place; any other (its own refusal, notice or answer shown, a
    part missing: "" for a part ``base`` does not have) fetches as before
    (static/js/live-catchup.js)."""

    html: str  # with the markers of what is each viewer's (``personal``)
    since: int  # the version the page must show
    expect: dict[str, str]


def pushed(base: Drawn, new: Drawn, have: dict[str, str]) -> Pushed | None:
    """The parts of ``new`` that differ from ``base`` (whose fingerprints are ``have``), as a
    fetch from a page showing ``base`` gets them; None when the page must be sent whole (its
    own element changed)."""
    compared: list[str] = []
    answer = parts.answer(new.drawing, have, compared)
    if answer is None:
        return None
    return Pushed(answer, base.version, {name: have.get(name, "") for name in compared})


def alike(request: HttpRequest, play: Play, plain: bool) -> bool:
    """Whether the answer is the same for every member: a fragment (htmx) of a play in progress
    fetched with nothing of the viewer's own (``plain``: no draft, error, notice, replay, …)."""
    return (
        plain
        and bool(request.htmx)
        and request.method == "GET"
        and play.status == Play.Status.IN_PROGRESS
    )


def key(play: Play) -> tuple:
    """What the fragment of a play in progress depends on besides its version: the language it
    is told in and the club's time zone (the log's times). ``started_at`` tells two plays apart
    that got the same id (a database put back; tests rolled back)."""
    zone = play.club.time_zone
    return (play.pk, play.version, play.started_at, zone, translation.get_language())


def still_at(play: Play) -> bool:
    """The play is still at the version its request read (after its log was read)."""
    return Play.objects.filter(pk=play.pk, version=play.version).exists()


class Kept:
    """The drawings kept in this process, the newest version of each play (and language) only,
    ``size`` at most. Fetches that miss at the same moment draw once: the others wait for it."""

    WAIT_SECONDS = 5.0

    def __init__(self, size: int = 128) -> None:
        self.size = size
        self._entries: OrderedDict[tuple, Drawn] = OrderedDict()
        self._drawing: dict[tuple, threading.Lock] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def get(self, key: tuple) -> Drawn | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def newest(self, play_id: int, version: int, language: str) -> Drawn | None:
        """The drawing kept of the play at ``version`` in ``language`` (the last one used, were
        there two: the club's time zone changed), looked up without reading the play."""
        with self._lock:
            found = [
                drawn
                for (pk, at, _started, _zone, lang), drawn in self._entries.items()
                if pk == play_id and at == version and lang == language
            ]
        return found[-1] if found else None

    def get_or_draw(self, key: tuple, draw: Callable[[], tuple[Drawn, bool]]) -> Drawn:
        """The drawing kept for ``key``, or ``draw``'s: (drawing, whether it may be kept)."""
        found = self.get(key)
        if found is not None:
            return found
        with self._lock:
            turn = self._drawing.setdefault(key, threading.Lock())
        # Another fetch is drawing it: wait for it (not forever: a stuck one is drawn again).
        waited = turn.acquire(timeout=self.WAIT_SECONDS)
        try:
            found = self.get(key)
            if found is not None:
                return found
            drawn, keep = draw()
            if keep:
                self._put(key, drawn)
            return drawn
        finally:
            if waited:
                turn.release()
            with self._lock:
                if self._drawing.get(key) is turn:
                    del self._drawing[key]

    def _put(self, key: tuple, drawn: Drawn) -> None:
        play_id, version, *rest = key
        with self._lock:
            # the play's older versions (in this language) are done with
            for older in [k for k in self._entries if k[0] == play_id and k[2:] == tuple(rest)]:
                if older[1] < version:
                    del self._entries[older]
            self._entries[key] = drawn
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)


#: This process's drawings (each uvicorn process has its own).
KEPT = Kept()
