"""A stream of games.views.live on its own, fed versions by hand: what it sends after each read,
how it waits (a coroutine under ASGI, a blocking thread under WSGI), and that it leaves the hub
when it ends."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time

import pytest
from asgiref.sync import SyncToAsync, ThreadSensitiveContext, sync_to_async
from django.db import DEFAULT_DB_ALIAS, connection, connections

from games import access, live
from games.views import live as views

EVENT_5 = b"id: 5\nevent: changed\ndata: 5\n\n"


@pytest.fixture(autouse=True)
def own_hub(monkeypatch, settings):
    """A hub of the test's own, a quick keep-alive, and the in-process wake-ups (SQLite's)."""
    monkeypatch.setattr(live, "hub", live.Hub())
    monkeypatch.setattr(connection, "vendor", "sqlite")
    # and where the stream asks from its event loop (another context, another connection)
    monkeypatch.setattr(live, "is_postgresql", lambda: False)
    settings.LIVE_KEEPALIVE_SECONDS = 0.05


def test_a_new_version_is_told_once_then_nothing_when_woken_and_a_keep_alive_when_idle():
    stream = views._Stream(last_seen=4)
    assert stream.after_read(5, woken=True) == EVENT_5
    assert stream.after_read(5, woken=True) == b""
    assert stream.after_read(5, woken=False) == views.KEEPALIVE
    assert stream.after_read(None, woken=True) is None  # no longer visible: the end


def versions(*seen: int | None, woken: bool = False, calls: list | None = None):
    """A read that gives these versions of play 1 in turn (None: out of reach); ``woken``: each
    read comes with a wake-up that says nothing (a notification without a version)."""
    remaining = iter(seen)

    def read():
        version = next(remaining)
        if calls is not None:
            calls.append(version)
        if woken:
            live.hub.publish("play:1")
        return [] if version is None else [(1, version)]

    return read


def watched():
    return views._Watched(access.play_version)


def blocking_frames(read, last_seen, **kwargs):
    return list(views._blocking_stream(("play:1",), read, watched(), last_seen, **kwargs))


def test_the_blocking_stream_tells_the_new_version_keeps_alive_and_leaves_the_hub():
    frames = blocking_frames(versions(4, 4, 5, None), last_seen=4)
    assert frames == [views.HELLO, views.KEEPALIVE, EVENT_5]
    assert live.hub.count() == 0


def test_the_blocking_stream_sends_nothing_for_a_wake_up_without_a_new_version():
    read = versions(4, 4, None, woken=True)
    assert blocking_frames(read, last_seen=4) == [views.HELLO]


def async_frames(read, last_seen: int | None, keys=("play:1",), **kwargs) -> list[bytes]:
    async def run():
        async def read_async():
            return read()

        stream = views._async_stream(keys, read_async, watched(), last_seen, **kwargs)
        frames = [frame async for frame in stream]
        assert live.hub.count() == 0  # the stream has left the hub
        return frames

    return asyncio.run(run())


def test_the_async_stream_tells_the_new_version_keeps_alive_and_leaves_the_hub():
    frames = async_frames(versions(4, 4, 5, None), last_seen=4)
    assert frames == [views.HELLO, views.KEEPALIVE, EVENT_5]


def test_the_async_stream_sends_nothing_for_a_wake_up_without_a_new_version():
    assert async_frames(versions(4, 4, None, woken=True), last_seen=4) == [views.HELLO]


# Issue 29: the version comes with the notification; the session ends the stream ---------------


def later(publish) -> None:
    """``publish`` once the stream waits (from another thread, as the listener does)."""
    threading.Timer(0.02, publish).start()


def test_a_notification_with_a_version_is_told_without_reading_the_database(settings):
    """One read when the stream opens; the next version comes in the notification itself."""
    settings.LIVE_KEEPALIVE_SECONDS = 5
    calls: list = []
    read = versions(4, None, calls=calls)

    async def run():
        async def read_async():
            return read()

        stream = views._async_stream(("play:1",), read_async, watched(), 4)
        frames = [await anext(stream)]  # HELLO
        later(lambda: live.hub.publish("play:1", note=live.Change(1, 5)))
        frames.append(await anext(stream))
        await stream.aclose()
        return frames

    assert asyncio.run(run()) == [views.HELLO, EVENT_5]
    assert calls == [4]  # read once, at the start


def test_a_notification_about_an_unknown_play_or_without_a_version_reads_again(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 5
    for note in (live.Change(1, 0), live.Change(7, 3), None):
        calls: list = []
        read = versions(4, 5, calls=calls)

        async def run(note=note, read=read):
            async def read_async():
                return read()

            stream = views._async_stream(("play:1",), read_async, watched(), 4)
            await anext(stream)
            later(lambda: live.hub.publish("play:1", note=note))
            frame = await anext(stream)
            await stream.aclose()
            return frame

        assert asyncio.run(run()) == EVENT_5
        assert calls == [4, 5]


def test_a_stream_ends_when_its_session_ends(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 5
    read = versions(4, 4, 4)

    async def run():
        async def read_async():
            return read()

        keys = ("play:1", "session:abc")
        stream = views._async_stream(keys, read_async, watched(), 4)
        frames = [await anext(stream)]
        later(lambda: live.hub.publish("session:abc", note=live.ENDED))
        frames += [frame async for frame in stream]
        return frames

    assert asyncio.run(run()) == [views.HELLO]
    assert live.hub.count() == 0


@pytest.mark.parametrize("still", [True, False])
def test_a_changed_password_makes_the_stream_check_its_session(settings, still):
    settings.LIVE_KEEPALIVE_SECONDS = 5
    checked: list = []

    async def holds():
        checked.append(1)
        return still

    async def run():
        async def read_async():
            return [(1, 4)]

        stream = views._async_stream(("play:1", "user:3"), read_async, watched(), 4, holds)
        await anext(stream)
        later(lambda: live.hub.publish("user:3", note=live.RECHECK))
        ending = asyncio.ensure_future(anext(stream, "ended"))
        await asyncio.sleep(0.3)
        ended = ending.done() and ending.result() == "ended"
        ending.cancel()
        return ended

    assert asyncio.run(run()) is not still  # it goes on only while its session holds
    assert checked == [1]


def test_the_keep_alive_checks_the_session_too():
    """A session that expired, or whose password changed while no notification reached this
    process, ends the stream at the next keep-alive."""
    checked: list = []

    async def holds():
        checked.append(1)
        return False

    async def run():
        async def read_async():
            return [(1, 4)]

        stream = views._async_stream(("play:1",), read_async, watched(), 4, holds)
        return [frame async for frame in stream]

    assert asyncio.run(run()) == [views.HELLO]
    assert checked == [1]


def test_a_slot_is_given_back_when_the_stream_ends():
    slots = live.Slots()
    slot = slots.take({"session:x": 1})
    assert isinstance(slot, live.Slot) and slots.take({"session:x": 1}) == "session:x"

    async def run():
        async def read_async():
            return []

        return [
            f async for f in views._async_stream(("play:1",), read_async, watched(), 4, None, slot)
        ]

    assert asyncio.run(run()) == [views.HELLO]
    assert slots.count() == 0 and slots.count("session:x") == 0
    slot.release()  # once only, however often it is called
    assert slots.count() == 0


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


def _read_in_a_new_event_loop():
    """One read of a stream in the shared pool of a new event loop (a new thread, as every
    test's loop has): the connection it read on."""

    def read():
        db = views._pool_connection()
        with db.cursor() as cursor:
            cursor.execute("SELECT 1")
        return db

    return asyncio.run(views._in_pool_thread(read)())


@pytest.mark.django_db
def test_a_pool_threads_read_gives_a_pooled_connection_back_at_once():
    """With a connection pool (PostgreSQL) a stream's read holds its connection only while it
    reads; without one (SQLite) the thread keeps its own for the next read."""
    db = _read_in_a_new_event_loop()
    pooled = bool(db.settings_dict["OPTIONS"].get("pool"))
    assert (db.connection is None) is pooled


@pytest.mark.django_db
def test_event_loops_that_end_do_not_take_the_pools_connections_with_them():
    """More loops than the pool has connections, each reading once: every read still gets one
    (each loop's thread kept its connection, and the 21st waited and failed: CI's concurrent
    writers then found the pool empty)."""
    pool = connection.settings_dict["OPTIONS"].get("pool")
    if not pool:
        pytest.skip("SQLite has no connection pool")
    for _ in range(pool["max_size"] + 2):
        _read_in_a_new_event_loop()


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


def test_the_session_is_checked_at_the_first_keep_alive_then_every_few_minutes():
    """Every keep-alive reads the version; the session is checked at the first, then every
    SESSION_CHECK_SECONDS or when it expires (a third of the reads at every keep-alive)."""
    checked: list = []

    async def holds():
        checked.append(1)
        return time.time() + 3600.0

    async def run():
        async def read_async():
            return [(1, 4)]

        stream = views._async_stream(("play:1",), read_async, watched(), 4, holds)
        frames = []
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0.6):
                async for frame in stream:
                    frames.append(frame)
        await stream.aclose()
        return frames

    frames = asyncio.run(run())
    assert frames.count(views.KEEPALIVE) >= 3 and checked == [1]


def test_a_session_is_checked_again_when_it_expires():
    clock = views._SessionClock()
    assert clock.look(live.News({}), timed_out=True).check  # the first keep-alive
    clock.checked(time.time() - 1)  # it expires now
    assert clock.look(live.News({}), timed_out=True).check
    clock.checked(time.time() + 3600.0)
    assert not clock.look(live.News({}), timed_out=True).check
    assert clock.look(live.News({}, recheck=True), timed_out=False).check


def test_a_page_it_cannot_push_to_is_told_at_once_and_the_drawing_taken_after(monkeypatch):
    """Issue 32: a stream that has no drawing of what its page shows (it reconnects behind the
    play, after a server's restart) sends the plain event first — its page fetches — and only
    then takes the drawing of the new version, the base of its next push."""
    told: list = []
    push = views._Push(1, 1, "en", request=None)
    monkeypatch.setattr(push, "_drawn", lambda: told.append("drawn"))
    stream = views._blocking_stream(
        ("play:1",), versions(5, None), watched(), last_seen=4, push=push
    )
    for frame in stream:
        told.append(frame)
    assert told == [views.HELLO, EVENT_5, "drawn"]
