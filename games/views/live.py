"""Server-sent events: a page showing a play (or a night's plays) is told when it changes.

An async view, async all the way while it waits: under ASGI (production) an idle stream holds no
thread, only a coroutine waiting on an ``asyncio.Event`` that games.live sets when the play
changes. Each event is the play's version (its id too, so a browser that lost the connection
resumes with ``Last-Event-ID`` and is told at once if it missed a change); the page then fetches
its fresh fragment — or, for a play page that asks (``parts=1``), the event carries the parts
that changed itself, and the page puts them in place without a request (``_Push``, issue 32).
Access is checked like any page's on connect (an outsider gets 404), and again on every
keep-alive and at once when a member leaves the club or an account is made inactive (games.live
tells the streams): a member removed from the club, or a deleted play, ends the stream.

Under WSGI (``runserver``, the tests' live server) Django would buffer an async stream whole
before sending any of it, so there the same stream runs as a plain generator that blocks its
request thread while it waits: fine for development, not for production (README).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import datetime
import logging
import random
import re
import struct
import threading
import time
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from functools import partial
from importlib import import_module

from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.handlers.asgi import ASGIRequest
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from .. import access, live
from . import drawn

logger = logging.getLogger(__name__)

#: the browser waits this long before reconnecting after the stream ends or breaks: a page
#: shows the play as it stands within 2 s of the connection coming back (issue 28)
RETRY_MS = 1000
HELLO = f"retry: {RETRY_MS}\n\n".encode()
KEEPALIVE = b": keep-alive\n\n"
#: a refused stream's browser is asked to wait this long, and its page asks every so often
#: meanwhile (static/js/live-catchup.js)
REFUSED_RETRY_SECONDS = 5


def _last_seen(request: HttpRequest) -> int | None:
    """The version the page already shows: from ``Last-Event-ID`` on a reconnection, else the
    ``v`` the page put in the stream's address (the version it was rendered at)."""
    for raw in (request.headers.get("Last-Event-ID"), request.GET.get("v")):
        try:
            return int(raw)
        except (TypeError, ValueError):
            continue
    return None


def _event(version: int) -> bytes:
    return f"id: {version}\nevent: changed\ndata: {version}\n\n".encode()


def _is_event(frame: bytes) -> bool:
    return frame.startswith(b"id: ")


class _Push:
    """The parts that changed, pushed in the event itself to a play page that asks for them
    (``?parts=1``; issue 32: a watching phone's screen showed a move only after its event and
    then its fetch, five fetches a move at a table of six, each a whole request).

    The stream keeps the drawing of the play as every member sees it (games.views.drawn) at the
    version it last told its page: ``base``. On a new version it takes the new drawing (drawn
    once per process and version, shared with the fetches: ``drawn.KEPT``) and sends the parts
    that differ from ``base``, with its viewer's own CSRF token and fresh keys filled in and the
    fingerprints the page must show for them to be what its fetch would get
    (``drawn.pushed``); the page puts them in place, or fetches as before when it cannot
    (static/js/live-catchup.js). Whenever that drawing is not to be had (the play no longer in
    progress, the viewer no longer a member, its page further behind), the event is the plain
    one and the page fetches. A drawing this process has kept is pushed without reading the
    database: what the stream's viewer may see is checked as for the plain event — on connect,
    at every keep-alive, and at once when they leave the club or their account changes (the
    notifications of games.live end such a stream before it pushes again); a drawing made for
    the stream reads the play as its viewer may see it."""

    def __init__(self, play_id: int, user_id: int, language: str, request: HttpRequest) -> None:
        self.play_id, self.user_id, self.language = play_id, user_id, language
        self.request = request
        self.base: drawn.Drawn | None = None

    @classmethod
    def asked(cls, request: HttpRequest, play_id: int, user_id: int) -> _Push | None:
        """A push for this stream, if its page asked for one and can take it: in a language of
        the site's, with a CSRF cookie (the token of the forms pushed; a fetch would set a new
        cookie, which a stream's answer, long sent, cannot)."""
        language = getattr(request, "LANGUAGE_CODE", None)
        if request.GET.get("parts") != "1" or language not in dict(settings.LANGUAGES):
            return None
        if not request.META.get("CSRF_COOKIE"):
            return None
        return cls(play_id, user_id, language, request)

    def _drawn(self) -> drawn.Drawn | None:
        from .play_page import drawn_for_members  # the play page's views import this module

        return drawn_for_members(self.play_id, self.user_id, self.language)

    def start(self, version: int) -> None:
        """The page shows ``version`` (the stream opens on it, or it was just told of it): the
        drawing of it, if the play is still there, is the base of the next push."""
        found = self._drawn()
        self.base = found if found is not None and found.version == version else None

    def ready(self, version: int) -> bool:
        """Whether an event for ``version`` may carry the parts: the stream has the drawing its
        page shows, of an older version. Otherwise the plain event goes at once, and the drawing
        of ``version`` is taken after it (``start``), the base of the next push."""
        return self.base is not None and self.base.version < version

    def at(self, version: int) -> bool:
        return self.base is not None and self.base.version == version

    def kept(self, version: int) -> drawn.Drawn | None:
        """The drawing of ``version`` this process keeps, if any (no database read)."""
        return drawn.KEPT.newest(self.play_id, version, self.language)

    def event(self, version: int, new: drawn.Drawn | None = None) -> bytes | None:
        """The event that the play is at ``version`` with the parts that changed, or None (the
        plain event: the page fetches). ``new``: the drawing of ``version`` (``kept``), else it
        is looked up or drawn here."""
        new = new or self.kept(version) or self._drawn()
        base, self.base = self.base, new
        if new is None or base is None or new.version != version or base.version >= version:
            return None
        data = new.event_data(base)  # one line: SSE's data ends at a newline, JSON escapes them
        if data is None:
            return None
        data = drawn.personal(data, self.request)
        return f"id: {version}\nevent: parts\ndata: {data}\n\n".encode()

    async def draws(self, version: int) -> None:
        """Wait until this process has drawn ``version`` (``_DRAWINGS``): the streams of a play
        woken together do not each hold a thread of the pool while one of them draws."""
        key = (self.play_id, version, self.language)
        await _DRAWINGS.wait(key, self._drawn)


class _Gzip:
    """A pushing stream's frames gzipped, for a browser that takes it (issue 28: a phone on a
    slow network waits for every byte; a push is 40-60 KB of HTML, 5-7 KB gzipped, as the
    fetch's answer it replaces was). Each frame is compressed on its own and flushed at once:
    its own deflate blocks, ending on a byte, so that one after another they make one gzip
    stream that the browser reads as it comes. No compressor is kept between frames (a waiting
    stream holds nothing more than before, and nothing waits in one); the gzip trailer closes
    the stream when it ends."""

    HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    #: quick rather than small: each viewer's event is compressed anew (its token, its keys)
    LEVEL = 1
    ACCEPTS = re.compile(r"\bgzip\b")

    def __init__(self) -> None:
        self.crc = self.size = 0
        self.started = False

    @classmethod
    def accepted(cls, request: HttpRequest) -> bool:
        return bool(cls.ACCEPTS.search(request.headers.get("Accept-Encoding", "")))

    def _start(self) -> bytes:
        start, self.started = (b"" if self.started else self.HEADER), True
        return start

    def frame(self, data: bytes) -> bytes:
        self.crc = zlib.crc32(data, self.crc)
        self.size += len(data)
        deflate = zlib.compressobj(self.LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        return self._start() + deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH)

    def end(self) -> bytes:
        last = zlib.compressobj(self.LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS).flush(zlib.Z_FINISH)
        return self._start() + last + struct.pack("<II", self.crc, self.size & 0xFFFFFFFF)

    async def async_frames(self, frames: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
        try:
            async for frame in frames:
                yield self.frame(frame)
            yield self.end()
        finally:
            await frames.aclose()  # its watcher and slot given back, whoever ends it

    def blocking_frames(self, frames: Iterator[bytes]) -> Iterator[bytes]:
        try:
            for frame in frames:
                yield self.frame(frame)
            yield self.end()
        finally:
            frames.close()


class _Drawings:
    """The drawings the streams of this process are waiting for, by (play, version,
    language): the first stream draws it in a thread, the others wait for that without a
    thread of their own (each then takes it from ``drawn.KEPT``)."""

    def __init__(self) -> None:
        self._pending: dict[tuple, asyncio.Future] = {}

    async def wait(self, key: tuple, draw: Callable) -> None:
        future = self._pending.get(key)
        if future is None or future.get_loop() is not asyncio.get_running_loop():
            future = asyncio.ensure_future(_in_fresh_thread(draw))
            self._pending[key] = future
            future.add_done_callback(lambda done: self._forget(key, done))
        with contextlib.suppress(Exception):  # the stream's own drawing says what went wrong
            await asyncio.shield(future)

    def _forget(self, key: tuple, done: asyncio.Future) -> None:
        if self._pending.get(key) is done:
            del self._pending[key]
        if not done.cancelled():
            done.exception()  # seen: a failed drawing is the streams' own to retry


_DRAWINGS = _Drawings()


def _in_fresh_thread(work: Callable) -> Awaitable:
    """``work`` (which draws the play) in a thread of the event loop's pool, with a context of
    its own: Django's connection and language there are its own, not the request's (whose
    thread is gone: ``_release_request_thread``), and its connection is closed (given back to
    PostgreSQL's pool) as soon as it is done."""

    def run():
        try:
            return work()
        finally:
            connections.close_all()

    loop = asyncio.get_running_loop()
    return loop.run_in_executor(None, contextvars.Context().run, run)


class _Stream:
    """What a stream sends, whichever way it waits: the version at once if the page is behind,
    then one event per new version, a keep-alive comment when nothing happened, the end when
    its watcher may no longer see what it watches."""

    def __init__(self, last_seen: int | None) -> None:
        self.version = last_seen

    def after_read(self, current: int | None, woken: bool) -> bytes | None:
        """The frame to send after reading ``current`` (None: the stream ends)."""
        if current is None:
            return None
        if current != self.version:
            self.version = current
            return _event(current)
        return b"" if woken else KEEPALIVE


class _Watched:
    """What a stream knows of what it watches: the versions of its plays (one play, or a
    night's), from the database and then from the notifications (games.live.News)."""

    def __init__(self, version_of: Callable[[dict[int, int]], int]) -> None:
        self.version_of = version_of
        self.versions: dict[int, int] | None = None

    def read(self, rows: list) -> int | None:
        """The version after a read of the database (None: out of reach, the stream ends)."""
        self.versions = access.versions_of(rows)
        return None if self.versions is None else self.version_of(self.versions)

    def told(self, news: live.News) -> int | None:
        """The version after ``news``, or None when only the database can say (a play it does
        not know of, or a notification without a version)."""
        if news.reread or self.versions is None:
            return None
        for play_id, version in news.versions.items():
            if play_id not in self.versions:
                return None
            self.versions[play_id] = max(self.versions[play_id], version)
        return self.version_of(self.versions)


def _keepalive_wait() -> float:
    """The wait before a keep-alive: a little less at random, so that streams opened together
    (a server's restart) do not all read the database at the same moment."""
    return settings.LIVE_KEEPALIVE_SECONDS * random.uniform(0.8, 1.0)


def _close_request_connection() -> None:
    """The request thread's connection, closed in that thread (one made elsewhere, as in the
    tests' clients, is not this request's to close)."""
    db = connections[DEFAULT_DB_ALIAS]
    if db._thread_ident == threading.get_ident():
        db.close()


async def _release_request_thread() -> None:
    """Let go of the thread (and its database connection) that asgiref keeps for this request
    while its response lasts: Django's synchronous middleware ran in it, and an idle stream
    must not hold one each. The stream's own reads run in the shared pool.

    asgiref keeps that thread per request context (``ThreadSensitiveContext``) until the
    response ends; if its internals change, this does nothing and the stream still works."""
    await sync_to_async(_close_request_connection)()
    context_var = getattr(SyncToAsync, "thread_sensitive_context", None)
    executors = getattr(SyncToAsync, "context_to_thread_executor", None)
    context = context_var.get(None) if context_var is not None else None
    if context is None or executors is None:
        return
    executor = executors.pop(context, None)
    if executor is not None:
        executor.shutdown(wait=False)  # its thread ends; a later call would start another


_pool = threading.local()
_pool_wrappers: list = []  # every pool thread's connection, so that they can all be closed


def _pool_connection():
    """This pool thread's own database connection (a stream's reads may run in any thread of
    the pool; Django's own connection belongs to the request's thread)."""
    wrapper = getattr(_pool, "connection", None)
    if wrapper is None:
        wrapper = _pool.connection = connections.create_connection(DEFAULT_DB_ALIAS)
        _pool_wrappers.append(wrapper)
    wrapper.close_if_unusable_or_obsolete()  # broken or too old: a new one, as for a request
    return wrapper


def _in_pool_thread(read: Callable) -> Callable:
    """``read`` run in a thread of the shared pool; the connection it took from a connection
    pool (PostgreSQL's) is given back as soon as it is done. Kept between reads, each of the
    event loop's threads held one for good: up to 32 on a big machine against a pool of 20,
    so that requests waited for none, and an event loop that ended (the tests run many) took
    its threads' connections with it and the pool ran dry. Without a connection pool
    (SQLite) the thread keeps its own: nothing else waits for it."""

    def read_and_give_back():
        try:
            return read()
        finally:
            wrapper = getattr(_pool, "connection", None)
            if wrapper is not None and wrapper.settings_dict["OPTIONS"].get("pool"):
                wrapper.close()

    return sync_to_async(read_and_give_back, thread_sensitive=False)


def close_pool_connections() -> None:
    """Close the streams' pool connections from any thread (the tests, before dropping their
    database); a pool thread that reads again opens a new one."""
    for wrapper in list(_pool_wrappers):
        wrapper.inc_thread_sharing()
        try:
            wrapper.close()
        finally:
            wrapper.dec_thread_sharing()


def _rows(db, queryset) -> list[tuple]:
    sql, params = queryset.query.get_compiler(connection=db).as_sql()
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _reader(query: Callable, wrapper: Callable) -> Callable[[], list[tuple]]:
    """Run ``query`` on the connection ``wrapper()`` gives, in the calling thread: its rows."""

    def read() -> list[tuple]:
        return _rows(wrapper(), query())

    return read


class _Session:
    """The browser session a member's stream belongs to: it ends with it."""

    def __init__(self, key: str, user_id: int) -> None:
        self.key, self.user_id = key, user_id
        self.digest = live.session_digest(key)

    def holder(self, wrapper: Callable) -> Callable[[], float | None]:
        """When the session expires if it still holds (None: it does not), read on the
        connection ``wrapper()`` gives: it exists and has not expired, is this user's, the user
        is active, and its password is the one it was signed in with (a changed password ends
        every other session, as Django's own check does on the next request)."""

        def holds() -> float | None:
            engine = import_module(settings.SESSION_ENGINE)
            store = engine.SessionStore()
            db = wrapper()
            model = getattr(store, "model", None)
            expires = float("inf")
            if model is None:  # a session engine without a table: ask it (a cache, a cookie)
                data = engine.SessionStore(self.key).load()
            else:
                found = _rows(
                    db,
                    model.objects.filter(
                        session_key=self.key, expire_date__gt=timezone.now()
                    ).values_list("session_data", "expire_date"),
                )
                data = store.decode(found[0][0]) if found else {}
                if found:
                    expires = _timestamp(found[0][1])
            if str(data.get(SESSION_KEY)) != str(self.user_id):
                return None
            users = get_user_model().objects.filter(pk=self.user_id, is_active=True)
            found = _rows(db, users.values_list("password"))
            if not found:
                return None
            user = get_user_model()(pk=self.user_id, password=found[0][0])
            signed = data.get(HASH_SESSION_KEY) or ""
            secrets = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
            if not any(
                constant_time_compare(signed, user._get_session_auth_hash(secret=secret))
                for secret in secrets
            ):
                return None
            return expires

        return holds


def _timestamp(value: datetime.datetime | str) -> float:
    """A column's date as the database driver gives it, read outside the ORM: aware from
    PostgreSQL, naive UTC (or text) from SQLite."""
    when = parse_datetime(value) if isinstance(value, str) else value
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.UTC)
    return when.timestamp()


class _Look:
    """What a stream does after a wait: the database read, the session checked, or neither."""

    def __init__(self, *, read: bool, check: bool) -> None:
        self.read, self.check = read, check


#: A session is checked at a keep-alive this often at most (and when it expires): a logout
#: and a new password are told at once by a notification; this catches what no notification
#: says, at a third of the database reads a check at every keep-alive would cost.
SESSION_CHECK_SECONDS = 300


class _SessionClock:
    """When a stream next checks its session at a keep-alive: at the first, then every
    ``SESSION_CHECK_SECONDS``, or when the session expires if that comes first."""

    def __init__(self) -> None:
        self.next = 0.0

    def checked(self, held: float | bool) -> None:
        expires = held if isinstance(held, float) else float("inf")
        self.next = min(time.time() + SESSION_CHECK_SECONDS, expires)

    def look(self, news: live.News, timed_out: bool) -> _Look:
        due = timed_out and time.time() >= self.next
        return _Look(read=timed_out or news.reread, check=news.recheck or due)


def _woke(watcher, watched: _Watched, clock: _SessionClock, *, timed_out: bool):
    """What a stream does once its wait is over, the same in both loops below: None when it is to
    end; else whether a notification woke it, what to do (read the play again, check the
    session) and, when the notification told the version, the state it told (then not read)."""
    watcher.event.clear()
    news = watcher.take()
    if news.ended:
        return None
    look = clock.look(news, timed_out)
    current = None
    if not look.read:
        current = watched.told(news)
        look.read = current is None
    return not timed_out, look, current


async def _async_stream(
    keys: tuple[str, ...],
    read,
    watched: _Watched,
    last_seen: int | None,
    holds=None,
    slot: live.Slot | None = None,
    push: _Push | None = None,
) -> AsyncIterator[bytes]:
    watcher = live.hub.watch(*keys)  # watch, then read: a change in between is not missed
    try:
        await _release_request_thread()
        await live.listening()
        stream = _Stream(last_seen)
        yield HELLO
        woken, look = True, _Look(read=True, check=False)
        current, clock, starting = None, _SessionClock(), True
        while True:
            if look.read:
                current = watched.read(await read())
            if look.check and holds is not None:
                held = await holds()
                if not held:
                    return
                clock.checked(held)
            frame = stream.after_read(current, woken)
            if frame is None:
                return
            told = _is_event(frame)
            if push is not None and told and push.ready(current):
                await push.draws(current)
                if (kept := push.kept(current)) is not None:
                    frame = push.event(current, kept) or frame  # a few string operations
                else:
                    frame = await _in_fresh_thread(partial(push.event, current)) or frame
            if frame:
                yield frame
            if push is not None and (told or starting) and not push.at(current):
                await _in_fresh_thread(partial(push.start, current))
            starting = False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(watcher.event.wait(), _keepalive_wait())
            woke = _woke(watcher, watched, clock, timed_out=not watcher.event.is_set())
            if woke is None:
                return
            woken, look, current = woke
    finally:
        live.hub.forget(watcher)
        if slot is not None:
            slot.release()


def _blocking_stream(
    keys: tuple[str, ...],
    read,
    watched: _Watched,
    last_seen: int | None,
    holds=None,
    slot: live.Slot | None = None,
    push: _Push | None = None,
) -> Iterator[bytes]:
    watcher = live.hub.watch(*keys, threaded=True)
    try:
        if live.is_postgresql():
            live.listener.ready.wait(5)
        stream = _Stream(last_seen)
        yield HELLO
        woken, look = True, _Look(read=True, check=False)
        current, clock, starting = None, _SessionClock(), True
        while True:
            if look.read:
                current = watched.read(read())
            if look.check and holds is not None:
                held = holds()
                if not held:
                    return
                clock.checked(held)
            frame = stream.after_read(current, woken)
            if frame is None:
                return
            told = _is_event(frame)
            if push is not None and told and push.ready(current):
                frame = push.event(current) or frame
            if frame:
                yield frame
            if push is not None and (told or starting) and not push.at(current):
                push.start(current)
            starting = False
            woke = _woke(
                watcher, watched, clock, timed_out=not watcher.event.wait(_keepalive_wait())
            )
            if woke is None:
                return
            woken, look, current = woke
    finally:
        live.hub.forget(watcher)
        if slot is not None:
            slot.release()


def _django_connection():
    return connections[DEFAULT_DB_ALIAS]


_last_ceiling_warning = 0.0


def _refused(which: str) -> HttpResponse:
    """A stream beyond a limit: 429 (the session's, the account's or the link's), 503 (the
    process's ceiling), asking the browser to wait before trying again. Not logged one by one:
    a page retrying would fill the log; the ceiling is said once a minute at most."""
    global _last_ceiling_warning
    if which == live.PROCESS:
        now = time.monotonic()
        if now - _last_ceiling_warning > 60:
            _last_ceiling_warning = now
            logger.warning(
                "live: %s streams open, the process's ceiling: new streams refused (503)",
                live.process_ceiling(),
            )
        text, status = _("This server has too many live pages open just now."), 503
    else:
        text, status = _("Too many live pages are open from your account or link."), 429
    response = HttpResponse(text, content_type="text/plain; charset=utf-8", status=status)
    response["Retry-After"] = str(REFUSED_RETRY_SECONDS)
    response["Cache-Control"] = "no-cache"
    response._has_been_logged = True  # see above
    return response


async def _open(
    request: HttpRequest,
    key: str,
    query: Callable,
    version_of: Callable[[dict[int, int]], int],
    limits: dict[str, int],
    session: _Session | None = None,
    push: _Push | None = None,
) -> HttpResponse:
    """404 unless the watcher may see it now; a refusal past the limits; then the stream of
    its changes."""
    if access.versions_of(await sync_to_async(_reader(query, _django_connection))()) is None:
        raise Http404
    slot = live.slots.take(limits)
    if isinstance(slot, str):
        return _refused(slot)
    live.start_listening()
    last_seen = _last_seen(request)
    keys = (
        (key,) if session is None else (key, f"user:{session.user_id}", f"session:{session.digest}")
    )
    watched = _Watched(version_of)

    if isinstance(request, ASGIRequest):
        # the shared pool's threads, not one of its own (_release_request_thread)
        read = _in_pool_thread(_reader(query, _pool_connection))
        holds = session and _in_pool_thread(session.holder(_pool_connection))
        content = _async_stream(keys, read, watched, last_seen, holds, slot, push)
    else:
        read_here = _reader(query, _django_connection)
        holds_here = session and session.holder(_django_connection)
        content = _blocking_stream(keys, read_here, watched, last_seen, holds_here, slot, push)
    gzipped = push is not None and _Gzip.accepted(request)
    if gzipped:
        gzip = _Gzip()
        if isinstance(request, ASGIRequest):
            content = gzip.async_frames(content)
        else:
            content = gzip.blocking_frames(content)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    if gzipped:
        response["Content-Encoding"] = "gzip"
    if push is not None:
        response["Vary"] = "Accept-Encoding"
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy in front must not hold the events back
    # Given back when the response is closed, even if its stream never started.
    response._resource_closers.append(slot.release)
    return response


async def _member(request: HttpRequest) -> _Session:
    """The signed-in person opening a stream, and their session; anyone else gets 404."""
    user_id = await access.watcher_id(request)
    return _Session(request.session.session_key or "", user_id)


def _member_limits(session: _Session) -> dict[str, int]:
    return {
        f"session:{session.digest}": settings.LIVE_STREAMS_PER_SESSION,
        f"user:{session.user_id}": settings.LIVE_STREAMS_PER_ACCOUNT,
    }


async def play_events(request: HttpRequest, play_id: int) -> HttpResponse:
    session = await _member(request)
    return await _open(
        request,
        f"play:{play_id}",
        lambda: access.watched_play(session.user_id, play_id),
        access.play_version,
        _member_limits(session),
        session,
        _Push.asked(request, play_id, session.user_id),
    )


async def night_events(request: HttpRequest, night_id: int) -> HttpResponse:
    session = await _member(request)
    return await _open(
        request,
        f"night:{night_id}",
        lambda: access.watched_night(session.user_id, night_id),
        access.night_version,
        _member_limits(session),
        session,
    )


async def shared_night_events(request: HttpRequest, token: str) -> HttpResponse:
    """A night's stream through its read-only link (no account): it ends once the owner
    withdraws the link (games.services.revoke_share wakes it to find out)."""
    night = await sync_to_async(access.get_shared_night)(token)
    return await _open(
        request,
        f"night:{night.pk}",
        lambda: access.watched_shared_night(token),
        access.night_version,
        {f"share:{live.session_digest(token)}": settings.LIVE_STREAMS_PER_SHARE},
    )
