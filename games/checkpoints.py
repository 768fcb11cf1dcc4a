"""SQLite's WAL checkpoints, out of the requests: a thread per process copies the log's pages
into the database file every second.

In WAL mode a commit appends pages to the log (``db.sqlite3-wal``), and the pages go to the
database file at a checkpoint. Left to SQLite, the checkpoint is run by whichever COMMIT makes
the log pass ``wal_autocheckpoint`` pages (1,000 by default): that move entry paid 4.5–8 ms for
everyone's pages, and a few such entries in sixty made the p95 (issue 32: 10–11 ms entries
beside a 5.5 ms median). SQLite's docs suggest running checkpoints from a thread of their own
instead, so:

- each request's connection keeps an automatic checkpoint only as a backstop, far above what a
  second of this site's writes makes (config/settings.py: ``SQLITE_WAL_BACKSTOP_PAGES``), so that
  the log still cannot grow without bound when no checkpointer runs (a management command
  between two ticks, a process whose thread could not start);
- the first connection a process opens to a database file starts that file's checkpointer: a
  daemon thread with a plain sqlite3 connection of its own, which runs ``PRAGMA
  wal_checkpoint(PASSIVE)`` every ``INTERVAL`` seconds. PASSIVE copies what it can and never
  waits: a writer goes on appending meanwhile, and a checkpoint already being run (by another
  process's checkpointer) makes it skip that tick. FULL, RESTART and TRUNCATE would hold new
  writers off while they work, which would put the wait back into a request.

An in-memory database (the tests') has no log and gets no thread; neither does a file that is not
in WAL mode. The checkpointer never raises: an error (the file gone, the database locked by an
exclusive connection) is logged, once while it lasts, and the next tick tries again. Its
connection also keeps the log open while the process lives, so that the connection a request
closes is never the last one, which would checkpoint the whole log on closing.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import sqlite3
import threading

logger = logging.getLogger(__name__)

#: Seconds between two checkpoints. A tick with nothing to copy costs under a millisecond;
#: a second of this site's writes is a few pages a move (some 600 a second in the move entry
#: benchmark's tight loop), so each checkpoint is a small one, far from the backstop.
INTERVAL = 1.0


class Checkpointer(threading.Thread):
    """Checkpoints one database file's WAL every ``interval`` seconds until ``stop()``."""

    def __init__(self, path: str, interval: float | None = None):
        super().__init__(name=f"wal-checkpointer {path}", daemon=True)
        self.path = path
        self.interval = INTERVAL if interval is None else interval
        self.stopping = threading.Event()
        #: The last checkpoint's (busy, frames in the log, frames checkpointed).
        self.last: tuple[int, int, int] | None = None
        self._db: sqlite3.Connection | None = None
        self._inode: int | None = None
        self._failing: str | None = None  # the error being told, until a tick succeeds

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                try:
                    if not self.checkpoint():
                        return
                except Exception as error:  # noqa: BLE001 - nothing here may end the thread
                    self._close()
                    said = f"{type(error).__name__}: {error}"
                    if said != self._failing:
                        logger.warning("WAL checkpoint of %s failed: %s", self.path, said)
                        self._failing = said
                self.stopping.wait(self.interval)
        finally:
            self._close()

    def checkpoint(self) -> bool:
        """One tick; False when the file is not in WAL mode (nothing to do, ever)."""
        # The file itself, not the connection's: a file deleted under an open connection would
        # still be checkpointed, into nothing; a file made again is opened again.
        inode = os.stat(self.path).st_ino
        if self._db is None or inode != self._inode:
            self._close()
            # mode=rw: a file gone is an error, not a new empty database. timeout=0: a lock
            # held by another connection skips this tick rather than waiting in it.
            self._db = sqlite3.connect(
                f"file:{self.path}?mode=rw", uri=True, timeout=0, isolation_level=None
            )
            self._inode = inode
            if self._db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                logger.info("%s is not in WAL mode: no checkpointer", self.path)
                return False
        self.last = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        if self._failing:
            logger.warning("WAL checkpoint of %s works again", self.path)
            self._failing = None
        return True

    def stop(self, timeout: float = 5.0) -> None:
        self.stopping.set()
        if self.is_alive() and self is not threading.current_thread():
            self.join(timeout)

    def _close(self) -> None:
        if self._db is not None:
            db, self._db = self._db, None
            with contextlib.suppress(sqlite3.Error):
                db.close()


#: Each database file's checkpointer in this process (None: an in-memory database, none).
_checkpointers: dict[str, Checkpointer | None] = {}
_lock = threading.Lock()


def start_checkpointer(sender=None, connection=None, **kwargs) -> None:
    """``connection_created``: the first connection to a SQLite file starts its checkpointer.
    Run for every connection a request opens (CONN_MAX_AGE is 0), hence the early return; and
    it never fails the connection, whatever happens."""
    if connection is None or connection.vendor != "sqlite":
        return
    name = str(connection.settings_dict["NAME"])
    if name in _checkpointers:
        return
    try:
        with _lock:
            if name in _checkpointers:
                return
            if connection.is_in_memory_db():
                _checkpointers[name] = None
                return
            checkpointer = Checkpointer(os.path.abspath(name))
            checkpointer.start()
            _checkpointers[name] = checkpointer
    except Exception:  # noqa: BLE001 - the backstop still bounds the log
        logger.exception("No WAL checkpointer for %s", name)
        _checkpointers[name] = None


def checkpointer(name: str) -> Checkpointer | None:
    return _checkpointers.get(str(name))


@atexit.register
def stop_checkpointers() -> None:
    """Stops every checkpointer of this process, and forgets them."""
    with _lock:
        running = [each for each in _checkpointers.values() if each is not None]
        _checkpointers.clear()
    for each in running:
        each.stop()


def _forget_in_child() -> None:
    """A forked process (gunicorn --preload) has no threads but the one that forked: it starts
    its own checkpointers. The parent's connections are left alone, never closed here (SQLite:
    a connection is not to be used across fork)."""
    global _lock
    _inherited.extend(each for each in _checkpointers.values() if each is not None)
    _checkpointers.clear()
    _lock = threading.Lock()


_inherited: list[Checkpointer] = []
os.register_at_fork(after_in_child=_forget_in_child)
