"""Live pages: who is told that a play changed, across threads and server processes.

A change to a play (a move, an undo, abandoning or deleting it) advances its ``version`` in the
change's transaction (games.services). Once that transaction commits, the streams watching that
play or its night (games.views.live), and only those, are woken up with the play's new version
in the notification itself: a stream tells its browser without reading the database (issue 29:
with 3,000 streams, one read each per move made watchers hear of it 9.7 s late). A notification
without a version (0: a play created or deleted, a link withdrawn) makes its streams read again;
a lost or doubled one costs nothing, as the keep-alive reads the database too.

- On PostgreSQL the change's own statement sends ``NOTIFY`` (delivered on commit, never for a
  rolled-back change), and each server process keeps ONE listening connection, in one
  background thread with its own event loop, shared by all the process's streams; so a move
  entered through one process wakes the streams of every other.
- On SQLite (one process: ``make run``) the wake-up is sent in-process from
  ``transaction.on_commit``.

A session that ends (a logout) ends its streams at once, and a changed password makes its
account's streams check that their session still holds (``session_ended``, ``user_changed``).
Streams are limited per session, account, read-only link and process (``Slots``).

No broker, no extra service: the database already orders and commits the changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import resource
import threading
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction

logger = logging.getLogger(__name__)

#: the PostgreSQL channel; its payload is "<night id> <play id> <version>" for a change,
#: "user <id>" for a changed password, "session <digest>" for a session that ended
CHANNEL = "referee_play"


def is_postgresql() -> bool:
    return connection.vendor == "postgresql"


# What a notification says ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    """A play changed: its new version (0: read it again, e.g. a play created or deleted)."""

    play_id: int
    version: int


#: the account's password changed: its streams check that their session still holds
RECHECK = "recheck"
#: this session ended (a logout): its streams end
ENDED = "ended"
#: anything may have changed (the listener was away): read again and check the session
EVERYTHING = "everything"


@dataclass(slots=True)
class News:
    """What a stream was told since it last looked (``Watcher.take``)."""

    versions: dict[int, int]  # play id: the newest version told
    reread: bool = False  # something changed that the notes do not say: read the database
    recheck: bool = False  # check that the session still holds
    ended: bool = False  # the session ended


# The hub: the streams of this process, by what they watch ----------------------------------


class Watcher:
    """One stream waiting for changes, woken from any thread: a coroutine waiting on an
    ``asyncio.Event`` in its loop (ASGI), or a thread waiting on a ``threading.Event`` (the
    development server and the tests' live server, which speak WSGI). What it is told is kept
    until the stream takes it (``take``)."""

    def __init__(self, keys: tuple[str, ...] = (), *, threaded: bool = False) -> None:
        self.keys = keys
        self.loop = None if threaded else asyncio.get_running_loop()
        self.event = threading.Event() if threaded else asyncio.Event()
        self._lock = threading.Lock()
        self._news = News({})

    def tell(self, note: Change | str | None = None) -> None:
        self.note(note)
        self.wake()

    def note(self, note: Change | str | None) -> None:
        """Keep what ``note`` says, without waking the stream (``Hub.publish`` wakes many
        streams of one event loop at once)."""
        with self._lock:
            news = self._news
            if isinstance(note, Change):
                if note.version > 0:
                    told = news.versions.get(note.play_id, 0)
                    news.versions[note.play_id] = max(told, note.version)
                else:
                    news.reread = True
            elif note == RECHECK:
                news.recheck = True
            elif note == ENDED:
                news.ended = True
            else:
                news.reread = True
                if note == EVERYTHING:
                    news.recheck = True

    def take(self) -> News:
        """What was told since the last call, and nothing kept."""
        with self._lock:
            news, self._news = self._news, News({})
        return news

    def wake(self) -> None:
        if self.loop is None:
            self.event.set()
            return
        with contextlib.suppress(RuntimeError):  # its loop is closed: the stream is gone
            self.loop.call_soon_threadsafe(self.event.set)


class Hub:
    """Watchers by key ("play:<id>", "night:<id>", "user:<id>", "session:<digest>").
    Thread-safe: the SQLite wake-ups come from the request threads, the PostgreSQL ones from
    the listener's thread, and under ``runserver`` each stream runs its own event loop in its
    own thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watchers: dict[str, set[Watcher]] = defaultdict(set)

    def watch(self, *keys: str, threaded: bool = False) -> Watcher:
        watcher = Watcher(keys, threaded=threaded)
        with self._lock:
            for key in keys:
                self._watchers[key].add(watcher)
        return watcher

    def forget(self, watcher: Watcher) -> None:
        with self._lock:
            for key in watcher.keys:  # its own keys only: thousands of others stay untouched
                watchers = self._watchers.get(key)
                if watchers is None:
                    continue
                watchers.discard(watcher)
                if not watchers:
                    del self._watchers[key]

    def publish(self, *keys: str, note: Change | str | None = None) -> None:
        """Tell the watchers of ``keys`` (``note``: what happened; None: read again)."""
        with self._lock:
            told = set().union(*(self._watchers.get(key, ()) for key in keys))
        _tell_all(told, note)

    def wake_all(self) -> None:
        """After the listener reconnected: anything may have changed meanwhile (a session may
        have ended too)."""
        with self._lock:
            told = set().union(*self._watchers.values()) if self._watchers else set()
        _tell_all(told, EVERYTHING)

    def count(self) -> int:
        with self._lock:
            return len(set().union(*self._watchers.values())) if self._watchers else 0


def _tell_all(watchers: set[Watcher], note: Change | str | None) -> None:
    """Tell each watcher, then wake them: the streams of one event loop (a worker's) with one
    call into that loop, not one each (thousands of streams on one night are woken by each of
    its moves)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Event]] = defaultdict(list)
    for watcher in watchers:
        watcher.note(note)
        if watcher.loop is None:
            watcher.event.set()
        else:
            by_loop[watcher.loop].append(watcher.event)
    for loop, events in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: its streams are gone
            loop.call_soon_threadsafe(_set_events, events)


def _set_events(events: list[asyncio.Event]) -> None:
    for event in events:
        event.set()


hub = Hub()


def play_keys(night_id: int, play_id: int) -> tuple[str, str]:
    return (f"play:{play_id}", f"night:{night_id}")


def session_digest(session_key: str) -> str:
    """A session's name on the channel: not its key, which would open the session to anyone
    reading the channel."""
    return hashlib.sha256(f"referee-live:{session_key}".encode()).hexdigest()[:32]


# How many streams: per session, account, read-only link, and process ---------------------------


def process_ceiling() -> int:
    """The most streams one process holds (``LIVE_STREAMS_PER_PROCESS``; by default the
    file-descriptor limit less room for everything else): each open stream is a socket, and
    at the limit a worker could accept nothing at all (EMFILE)."""
    if settings.LIVE_STREAMS_PER_PROCESS is not None:
        return settings.LIVE_STREAMS_PER_PROCESS
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 100_000
    return max(16, soft - FD_RESERVE)


#: file descriptors kept for everything but streams: database connections, the listening
#: socket, ordinary requests, static files, logs
FD_RESERVE = 256

PROCESS = "process"


class Slot:
    """The streams one stream counts towards; given back once (``release``), however often it
    is called (the response's close and the stream's end both call it)."""

    def __init__(self, slots: Slots, claims: tuple[str, ...]) -> None:
        self._slots, self._claims = slots, claims

    def release(self) -> None:
        claims, self._claims = self._claims, ()
        if claims:
            self._slots.give_back(claims)


class Slots:
    """Open streams counted in this process, by what they count towards ("session:…",
    "user:…", "share:…"), and in all. Thread-safe, like the hub."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()

    def take(self, limits: dict[str, int]) -> Slot | str:
        """A slot counting towards every key of ``limits`` (key: its limit) and the process,
        or the key whose limit is reached (PROCESS for the process's ceiling)."""
        ceiling = process_ceiling()
        with self._lock:
            if self._counts[PROCESS] >= ceiling:
                return PROCESS
            for key, limit in limits.items():
                if self._counts[key] >= limit:
                    return key
            claims = (PROCESS, *limits)
            for key in claims:
                self._counts[key] += 1
        return Slot(self, claims)

    def give_back(self, claims: Sequence[str]) -> None:
        with self._lock:
            for key in claims:
                self._counts[key] -= 1
                if self._counts[key] <= 0:
                    del self._counts[key]

    def count(self, key: str = PROCESS) -> int:
        with self._lock:
            return self._counts[key]


slots = Slots()


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


def changed_on_commit(night_id: int, play_id: int, version: int = 0) -> None:
    """In-process wake-up once the change's transaction commits (SQLite, or any database in a
    single process), with the play's new version (0: the streams read it); PostgreSQL sends
    its NOTIFY from the change's own statement instead."""
    keys, note = play_keys(night_id, play_id), Change(play_id, version)
    transaction.on_commit(lambda: hub.publish(*keys, note=note))


def notify(night_id: int, play_id: int) -> None:
    """A change that does not advance a version (a new play, a deleted one): one statement on
    PostgreSQL, none on SQLite. Its streams read the database again."""
    if is_postgresql():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{night_id} {play_id} 0"])
    else:
        changed_on_commit(night_id, play_id)


def _tell(key: str, note: str, payload: str) -> None:
    """Tell ``key``'s streams in every process, once the current transaction commits."""
    if is_postgresql():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, payload])
    else:
        transaction.on_commit(lambda: hub.publish(key, note=note))


def session_ended(session_key: str) -> None:
    """A session ended (a logout): its streams end, in every process."""
    digest = session_digest(session_key)
    _tell(f"session:{digest}", ENDED, f"session {digest}")


def user_changed(user_id: int) -> None:
    """An account's password changed: its streams check that their session still holds (the
    other sessions' no longer do), in every process."""
    _tell(f"user:{user_id}", RECHECK, f"user {user_id}")


def member_removed(user_id: int) -> None:
    """A member left a club: their streams read again what they may still see (those of that
    club's plays and nights end) and check their session, in every process."""
    _tell(f"user:{user_id}", EVERYTHING, f"member {user_id}")


def heard(payload: str) -> None:
    """A notification from the channel, told to the streams it concerns (a payload of another
    shape is passed over)."""
    parts = payload.split()
    try:
        if len(parts) == 3:
            night_id, play_id, version = (int(part) for part in parts)
            hub.publish(*play_keys(night_id, play_id), note=Change(play_id, version))
        elif len(parts) == 2 and parts[0] == "user":
            hub.publish(f"user:{int(parts[1])}", note=RECHECK)
        elif len(parts) == 2 and parts[0] == "member":
            hub.publish(f"user:{int(parts[1])}", note=EVERYTHING)
        elif len(parts) == 2 and parts[0] == "session":
            hub.publish(f"session:{parts[1]}", note=ENDED)
    except ValueError:
        return


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
                        heard(note.payload)
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
