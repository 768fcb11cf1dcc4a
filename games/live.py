"""Live pages: who is told that a play changed, across threads and server processes.

A change to a play (a move, an undo, abandoning or deleting it) advances its ``version`` in the
change's transaction (games.services). Once that transaction commits, every stream watching the
play (games.views.live) is woken up; the stream then reads the play's version from the database
(the source of truth) and tells its browser. A wake-up carries no state of its own, so a lost or
doubled one costs nothing: the version in the database decides what the browser is sent.

- On PostgreSQL the change's own statement sends ``NOTIFY`` (delivered on commit, never for a
  rolled-back change), and each server process keeps ONE listening connection, in one
  background thread with its own event loop, shared by all the process's streams; so a move
  entered through one process wakes the streams of every other.
- On SQLite (one process: ``make run``) the wake-up is sent in-process from
  ``transaction.on_commit``.

No broker, no extra service: the database already orders and commits the changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections import defaultdict
from collections.abc import Sequence

from django.db import connection, transaction

logger = logging.getLogger(__name__)

#: the PostgreSQL channel; its payload is "<night id> <play id> <version>"
CHANNEL = "referee_play"


def is_postgresql() -> bool:
    return connection.vendor == "postgresql"


# The hub: the streams of this process, by what they watch ----------------------------------


class Watcher:
    """One stream waiting for changes, woken from any thread: a coroutine waiting on an
    ``asyncio.Event`` in its loop (ASGI), or a thread waiting on a ``threading.Event`` (the
    development server and the tests' live server, which speak WSGI)."""

    def __init__(self, *, threaded: bool = False) -> None:
        self.loop = None if threaded else asyncio.get_running_loop()
        self.event = threading.Event() if threaded else asyncio.Event()

    def wake(self) -> None:
        if self.loop is None:
            self.event.set()
            return
        with contextlib.suppress(RuntimeError):  # its loop is closed: the stream is gone
            self.loop.call_soon_threadsafe(self.event.set)


class Hub:
    """Watchers by key ("play:<id>", "night:<id>"). Thread-safe: the SQLite wake-ups come from
    the request threads, the PostgreSQL ones from the listener's thread, and under ``runserver``
    each stream runs its own event loop in its own thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watchers: dict[str, set[Watcher]] = defaultdict(set)

    def watch(self, *keys: str, threaded: bool = False) -> Watcher:
        watcher = Watcher(threaded=threaded)
        with self._lock:
            for key in keys:
                self._watchers[key].add(watcher)
        return watcher

    def forget(self, watcher: Watcher) -> None:
        with self._lock:
            for key in list(self._watchers):
                self._watchers[key].discard(watcher)
                if not self._watchers[key]:
                    del self._watchers[key]

    def publish(self, *keys: str) -> None:
        with self._lock:
            woken = set().union(*(self._watchers.get(key, ()) for key in keys))
        for watcher in woken:
            watcher.wake()

    def wake_all(self) -> None:
        """After the listener reconnected: anything may have changed meanwhile."""
        with self._lock:
            woken = set().union(*self._watchers.values()) if self._watchers else set()
        for watcher in woken:
            watcher.wake()

    def count(self) -> int:
        with self._lock:
            return len(set().union(*self._watchers.values())) if self._watchers else 0


hub = Hub()


def play_keys(night_id: int, play_id: int) -> tuple[str, str]:
    return (f"play:{play_id}", f"night:{night_id}")


# Telling: called by the services, inside the change's transaction ---------------------------


def advance_version_sql(table: str, sets: Sequence[str] = ()) -> str:
    """The UPDATE that advances a play's version and returns the new one; on PostgreSQL it
    sends the NOTIFY in the same statement (no extra round trip per move; delivered when the
    transaction commits). ``sets``: more ``"column" = %s`` assignments of the same UPDATE
    (their parameters come before the play's id)."""
    assignments = ", ".join(['"version" = "version" + 1', *sets])
    returning = '"version"'
    if is_postgresql():
        returning += (
            f", pg_notify('{CHANNEL}', "
            f'"night_id"::text || \' \' || "id"::text || \' \' || "version"::text)'
        )
    return f'UPDATE "{table}" SET {assignments} WHERE "id" = %s RETURNING {returning}'


def changed_on_commit(night_id: int, play_id: int) -> None:
    """In-process wake-up once the change's transaction commits (SQLite, or any database in a
    single process); PostgreSQL sends its NOTIFY from the change's own statement instead."""
    keys = play_keys(night_id, play_id)
    transaction.on_commit(lambda: hub.publish(*keys))


def notify(night_id: int, play_id: int) -> None:
    """A change that does not advance a version (a new play, a deleted one): one statement on
    PostgreSQL, none on SQLite."""
    if is_postgresql():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{night_id} {play_id} 0"])
    else:
        changed_on_commit(night_id, play_id)


# Listening: one PostgreSQL connection per process -------------------------------------------


class Listener:
    """The process's LISTEN connection, in a daemon thread running its own event loop: started
    by the first stream, kept for the process's life, reconnected if the database goes away
    (and then every stream is woken, to read where its play stands now)."""

    RETRY_SECONDS = 1.0

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.ready = threading.Event()

    def ensure_started(self, params: dict) -> None:
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self.ready.clear()
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(
                target=self._loop.run_until_complete,
                args=(self._run(params),),
                name="referee-listen",
                daemon=True,
            )
            self._thread.start()

    def stop(self) -> None:
        """Close the connection and end the thread (the tests, before dropping their database)."""
        with self._lock:
            thread, loop, self._thread = self._thread, self._loop, None
        if thread is None or loop is None:
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(lambda: [task.cancel() for task in asyncio.all_tasks(loop)])
        thread.join(timeout=5)
        loop.close()

    async def _run(self, params: dict) -> None:
        import psycopg

        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    if not first:
                        hub.wake_all()
                    first = False
                    async for note in conn.notifies():
                        try:
                            night_id, play_id, _version = note.payload.split()
                        except ValueError:
                            continue
                        hub.publish(*play_keys(int(night_id), int(play_id)))
            except asyncio.CancelledError:
                return
            except Exception:  # the database went away: try again, then catch everyone up
                logger.warning("live: listener connection lost; reconnecting", exc_info=True)
                self.ready.clear()
                await asyncio.sleep(self.RETRY_SECONDS)


listener = Listener()


def connection_params() -> dict:
    """What psycopg needs to reach the database Django uses now (in tests, the test one)."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    return params


def start_listening() -> None:
    """On PostgreSQL, make sure this process listens (the first stream starts it)."""
    if is_postgresql():
        listener.ensure_started(connection_params())


async def listening() -> None:
    """Wait (a moment at most) for the listener's LISTEN to be in place, so that no change
    slips between a stream's first read and its first wake-up."""
    for _ in range(100):
        if not is_postgresql() or listener.ready.is_set():
            return
        await asyncio.sleep(0.05)
