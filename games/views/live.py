"""Server-sent events: a page showing a play (or a night's plays) is told when it changes.

An async view, async all the way while it waits: under ASGI (production) an idle stream holds no
thread, only a coroutine waiting on an ``asyncio.Event`` that games.live sets when the play
changes. Each event is the play's version (its id too, so a browser that lost the connection
resumes with ``Last-Event-ID`` and is told at once if it missed a change); the page then fetches
its fresh fragment. Access is checked like any page's on connect (an outsider gets 404), and
again on every wake-up and keep-alive: a member removed from the club, or a deleted play, ends
the stream.

Under WSGI (``runserver``, the tests' live server) Django would buffer an async stream whole
before sending any of it, so there the same stream runs as a plain generator that blocks its
request thread while it waits: fine for development, not for production (README).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable, Iterator

from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import Http404, HttpRequest, StreamingHttpResponse

from .. import access, live

#: the browser waits this long before reconnecting after the stream ends or breaks: a page
#: shows the play as it stands within 2 s of the connection coming back (issue 28)
RETRY_MS = 1000
HELLO = f"retry: {RETRY_MS}\n\n".encode()
KEEPALIVE = b": keep-alive\n\n"


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
    """This pool thread's own database connection, kept between reads (a stream's reads may
    run in any thread of the pool; Django's own connection belongs to the request's thread)."""
    wrapper = getattr(_pool, "connection", None)
    if wrapper is None:
        wrapper = _pool.connection = connections.create_connection(DEFAULT_DB_ALIAS)
        _pool_wrappers.append(wrapper)
    wrapper.close_if_unusable_or_obsolete()  # broken or too old: a new one, as for a request
    return wrapper


def close_pool_connections() -> None:
    """Close the streams' pool connections from any thread (the tests, before dropping their
    database); a pool thread that reads again opens a new one."""
    for wrapper in list(_pool_wrappers):
        wrapper.inc_thread_sharing()
        try:
            wrapper.close()
        finally:
            wrapper.dec_thread_sharing()


def _reader(query: Callable, wrapper: Callable) -> Callable[[], tuple | None]:
    """Run ``query`` on the connection ``wrapper()`` gives, in the calling thread: its row."""

    def read() -> tuple | None:
        db = wrapper()
        sql, params = query().query.get_compiler(connection=db).as_sql()
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchone()

    return read


async def _async_stream(
    key: str, read, version_of: Callable, last_seen: int | None
) -> AsyncIterator[bytes]:
    watcher = live.hub.watch(key)  # watch, then read: a change in between is not missed
    try:
        await _release_request_thread()
        await live.listening()
        stream = _Stream(last_seen)
        yield HELLO
        woken = True
        while True:
            frame = stream.after_read(version_of(await read()), woken)
            if frame is None:
                return
            if frame:
                yield frame
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(watcher.event.wait(), settings.LIVE_KEEPALIVE_SECONDS)
            woken = watcher.event.is_set()
            watcher.event.clear()
    finally:
        live.hub.forget(watcher)


def _blocking_stream(key: str, read, last_seen: int | None) -> Iterator[bytes]:
    watcher = live.hub.watch(key, threaded=True)
    try:
        if live.is_postgresql():
            live.listener.ready.wait(5)
        stream = _Stream(last_seen)
        yield HELLO
        woken = True
        while True:
            frame = stream.after_read(read(), woken)
            if frame is None:
                return
            if frame:
                yield frame
            woken = watcher.event.wait(settings.LIVE_KEEPALIVE_SECONDS)
            watcher.event.clear()
    finally:
        live.hub.forget(watcher)


def _django_connection():
    return connections[DEFAULT_DB_ALIAS]


async def _open(
    request: HttpRequest, key: str, query: Callable, version_of: Callable
) -> StreamingHttpResponse:
    """404 unless the watcher may see it now; then the stream of its changes."""
    if version_of(await sync_to_async(_reader(query, _django_connection))()) is None:
        raise Http404
    live.start_listening()
    last_seen = _last_seen(request)

    if isinstance(request, ASGIRequest):
        # the shared pool's threads, not one of its own (_release_request_thread)
        read = sync_to_async(_reader(query, _pool_connection), thread_sensitive=False)
        content = _async_stream(key, read, version_of, last_seen)
    else:
        read_here = _reader(query, _django_connection)
        content = _blocking_stream(key, lambda: version_of(read_here()), last_seen)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy in front must not hold the events back
    return response


async def play_events(request: HttpRequest, play_id: int) -> StreamingHttpResponse:
    user_id = await access.watcher_id(request)
    return await _open(
        request,
        f"play:{play_id}",
        lambda: access.watched_play(user_id, play_id),
        access.play_version,
    )


async def night_events(request: HttpRequest, night_id: int) -> StreamingHttpResponse:
    user_id = await access.watcher_id(request)
    return await _open(
        request,
        f"night:{night_id}",
        lambda: access.watched_night(user_id, night_id),
        access.night_version,
    )


async def shared_night_events(request: HttpRequest, token: str) -> StreamingHttpResponse:
    """A night's stream through its read-only link (no account): it ends once the owner
    withdraws the link (games.services.revoke_share wakes it to find out)."""
    night = await sync_to_async(access.get_shared_night)(token)
    return await _open(
        request,
        f"night:{night.pk}",
        lambda: access.watched_shared_night(token),
        access.night_version,
    )
