"""A stream of games.views.live on its own, fed versions by hand: what it sends after each read,
how it waits (a coroutine under ASGI, a blocking thread under WSGI), and that it leaves the hub
when it ends."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import SyncToAsync, ThreadSensitiveContext, sync_to_async
from django.db import DEFAULT_DB_ALIAS, connection, connections

from games import live
from games.views import live as views

EVENT_5 = b"id: 5\nevent: changed\ndata: 5\n\n"


@pytest.fixture(autouse=True)
def own_hub(monkeypatch, settings):
    """A hub of the test's own, a quick keep-alive, and the in-process wake-ups (SQLite's)."""
    monkeypatch.setattr(live, "hub", live.Hub())
    monkeypatch.setattr(connection, "vendor", "sqlite")
    settings.LIVE_KEEPALIVE_SECONDS = 0.05


def test_a_new_version_is_told_once_then_nothing_when_woken_and_a_keep_alive_when_idle():
    stream = views._Stream(last_seen=4)
    assert stream.after_read(5, woken=True) == EVENT_5
    assert stream.after_read(5, woken=True) == b""
    assert stream.after_read(5, woken=False) == views.KEEPALIVE
    assert stream.after_read(None, woken=True) is None  # no longer visible: the end


def versions(*seen: int | None, woken: bool = False):
    """A read that gives these versions in turn; ``woken``: each read comes with a wake-up (a
    change announced that left the version as it was)."""
    remaining = iter(seen)

    def read():
        version = next(remaining)
        if woken:
            live.hub.publish("play:1")
        return version

    return read


def test_the_blocking_stream_tells_the_new_version_keeps_alive_and_leaves_the_hub():
    frames = list(views._blocking_stream("play:1", versions(4, 4, 5, None), last_seen=4))
    assert frames == [views.HELLO, views.KEEPALIVE, EVENT_5]
    assert live.hub.count() == 0


def test_the_blocking_stream_sends_nothing_for_a_wake_up_without_a_new_version():
    read = versions(4, 4, None, woken=True)
    assert list(views._blocking_stream("play:1", read, last_seen=4)) == [views.HELLO]


def async_frames(read, last_seen: int | None) -> list[bytes]:
    async def run():
        async def read_async():
            return read()

        stream = views._async_stream("play:1", read_async, lambda version: version, last_seen)
        frames = [frame async for frame in stream]
        assert live.hub.count() == 0  # the stream has left the hub
        return frames

    return asyncio.run(run())


def test_the_async_stream_tells_the_new_version_keeps_alive_and_leaves_the_hub():
    frames = async_frames(versions(4, 4, 5, None), last_seen=4)
    assert frames == [views.HELLO, views.KEEPALIVE, EVENT_5]


def test_the_async_stream_sends_nothing_for_a_wake_up_without_a_new_version():
    assert async_frames(versions(4, 4, None, woken=True), last_seen=4) == [views.HELLO]


def test_a_stream_lets_go_of_the_thread_its_request_ran_in():
    """Under ASGI each request runs its synchronous parts in a thread of its own, kept until the
    response ends: an idle stream must not keep one."""

    async def run():
        async with ThreadSensitiveContext() as request_context:
            await sync_to_async(threading.get_ident)()  # the middleware's work, in that thread
            executor = SyncToAsync.context_to_thread_executor[request_context]
            await views._release_request_thread()
            assert request_context not in SyncToAsync.context_to_thread_executor
            assert executor._shutdown

    asyncio.run(run())


def in_a_thread(work):
    done = []
    thread = threading.Thread(target=lambda: done.append(work()))
    thread.start()
    thread.join()
    return done[0]


def test_a_pool_thread_keeps_its_connection_from_one_read_to_the_next():
    first, second = in_a_thread(lambda: (views._pool_connection(), views._pool_connection()))
    assert first is second


def test_the_request_threads_connection_is_closed_by_that_thread():
    def release() -> list:
        db = connections[DEFAULT_DB_ALIAS]  # this thread's own
        closed = []
        db.close = lambda: closed.append(db)
        views._close_request_connection()
        return closed

    assert len(in_a_thread(release)) == 1


def test_the_pool_threads_connections_can_all_be_closed_from_another_thread():
    """The tests close them before dropping their database (each belongs to its pool thread)."""
    wrapper = in_a_thread(views._pool_connection)
    closed = []
    wrapper.close = lambda: closed.append(wrapper.allow_thread_sharing)
    views.close_pool_connections()
    assert closed == [True]  # allowed to, for the while: Django refuses another thread's close
    assert not wrapper.allow_thread_sharing
