"""games/checkpoints.py: SQLite's WAL goes to the database file from a thread of each process,
not in the commit of whichever move entry makes the log pass SQLite's threshold (issue 32)."""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time

import pytest
from django.conf import settings
from django.db import connection
from django.db.backends.sqlite3.base import DatabaseWrapper

from games import checkpoints
from games.ratings import bulk

pytestmark = pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's WAL")

TICK = 0.05


def until(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def wrapper(name: str) -> DatabaseWrapper:
    """A connection made as the site makes its own (its options, its init_command), to another
    database."""
    return DatabaseWrapper({**connection.settings_dict, "NAME": name}, alias=f"other {name}")


@pytest.fixture
def quick(monkeypatch):
    """Checkpointers tick every 50 ms; every one the test started is stopped after it."""
    monkeypatch.setattr(checkpoints, "INTERVAL", TICK)
    yield
    checkpoints.stop_checkpointers()


@pytest.fixture
def club_file(db, tmp_path, quick):
    """The club's database in a file, as `make run` has it, opened as a request opens it."""
    other = wrapper(str(tmp_path / "club.sqlite3"))
    yield other
    other.close()


def test_a_requests_connection_checkpoints_only_past_the_backstop(db):
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint")
        (pages,) = cursor.fetchone()
    assert pages == settings.SQLITE_WAL_BACKSTOP_PAGES > 1000  # SQLite's own is 1,000


def test_the_log_reaches_the_database_file_with_no_commit_past_the_threshold(club_file):
    club_file.ensure_connection()  # the first connection to the file starts its checkpointer
    raw = club_file.connection
    assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    raw.execute("CREATE TABLE moves (body BLOB)")
    for _ in range(100):  # some 100 pages: a tenth of SQLite's threshold
        raw.execute("INSERT INTO moves VALUES (randomblob(3000))")
    path = club_file.settings_dict["NAME"]
    checkpointer = checkpoints.checkpointer(path)

    def checkpointed() -> bool:
        """The pages are in the database file, and the log's frames all copied (SQLite's own
        counts: busy, frames in the log, frames checkpointed)."""
        busy, logged, copied = (checkpointer and checkpointer.last) or (1, 0, 0)
        return os.path.getsize(path) >= 100 * 3000 and busy == 0 and copied == logged > 0

    assert until(checkpointed), (os.path.getsize(path), checkpointer and checkpointer.last)


def test_an_in_memory_database_has_no_checkpointer(club_file):
    memory = wrapper(":memory:")
    memory.ensure_connection()
    connection.ensure_connection()  # the tests' own database, in memory too
    club_file.ensure_connection()  # beside them, a file's
    assert checkpoints.checkpointer(club_file.settings_dict["NAME"]).is_alive()
    assert checkpoints.checkpointer(":memory:") is None
    assert checkpoints.checkpointer(connection.settings_dict["NAME"]) is None
    named = [thread.name for thread in threading.enumerate()]
    assert [name for name in named if name.startswith("wal-checkpointer")] == [
        f"wal-checkpointer {club_file.settings_dict['NAME']}"
    ]
    memory.close()


def test_a_locked_database_or_one_gone_is_told_and_the_checkpointer_goes_on(
    tmp_path, quick, caplog
):
    caplog.set_level(logging.WARNING, logger="games.checkpoints")
    path = str(tmp_path / "club.sqlite3")
    setup = sqlite3.connect(path, isolation_level=None)
    setup.execute("PRAGMA journal_mode=WAL")
    setup.execute("CREATE TABLE moves (body BLOB)")
    setup.close()
    # A connection in exclusive locking mode keeps its lock after its write: no other may read.
    exclusive = sqlite3.connect(path, isolation_level=None, timeout=0)
    exclusive.execute("PRAGMA locking_mode=EXCLUSIVE")
    exclusive.execute("INSERT INTO moves VALUES (x'00')")
    checkpointer = checkpoints.Checkpointer(path)
    checkpointer.start()
    assert until(lambda: "database is locked" in caplog.text), caplog.text
    assert checkpointer.is_alive() and checkpointer.last is None
    exclusive.close()
    assert until(lambda: checkpointer.last is not None)
    assert "works again" in caplog.text

    for each in (path, f"{path}-wal", f"{path}-shm"):
        if os.path.exists(each):
            os.remove(each)
    assert until(lambda: "FileNotFoundError" in caplog.text), caplog.text
    assert checkpointer.is_alive()
    assert not os.path.exists(path)  # not made again, empty, by the checkpointer
    checkpointer.stop()
    assert not checkpointer.is_alive()


def test_a_checkpointer_that_cannot_start_fails_no_request(club_file, monkeypatch, caplog):
    def no_thread(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(checkpoints.Checkpointer, "start", no_thread)
    club_file.ensure_connection()
    with club_file.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert "No WAL checkpointer" in caplog.text
    assert checkpoints.checkpointer(club_file.settings_dict["NAME"]) is None


def test_a_rebuilds_commit_leaves_the_log_to_the_checkpointer(club_file, monkeypatch):
    """bulk.checkpoint_left_to_checkpointer (a full rebuild's transaction): its commit, however
    far past wal_autocheckpoint, copies nothing into the database file while the process's
    checkpointer runs, which copies it at its next tick; the connection's threshold is back
    after it. Without a running checkpointer, the commit checkpoints as before."""
    ticks = threading.Event()  # the checkpointer's ticks held until the test lets them run
    tick = checkpoints.Checkpointer.checkpoint
    monkeypatch.setattr(
        checkpoints.Checkpointer, "checkpoint", lambda self: ticks.wait() and tick(self)
    )
    monkeypatch.setattr(bulk, "connection", club_file)
    club_file.ensure_connection()
    raw = club_file.connection
    raw.execute("PRAGMA wal_autocheckpoint = 100")
    raw.execute("CREATE TABLE rows (body BLOB)")
    path = club_file.settings_dict["NAME"]
    checkpointer = checkpoints.checkpointer(path)
    assert checkpointer.is_alive()

    def write() -> int:
        """Some 300 pages in one transaction (three times the threshold); the file's growth."""
        size = os.path.getsize(path)
        raw.execute("BEGIN")
        for _ in range(300):
            raw.execute("INSERT INTO rows VALUES (randomblob(3000))")
        raw.execute("COMMIT")
        return os.path.getsize(path) - size

    with bulk.checkpoint_left_to_checkpointer():
        assert raw.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
        assert write() == 0  # all in the log
    assert raw.execute("PRAGMA wal_autocheckpoint").fetchone() == (100,)
    size = os.path.getsize(path)
    ticks.set()
    assert until(lambda: os.path.getsize(path) >= size + 300 * 3000)  # the thread copies them

    assert write() >= 300 * 3000  # outside it, the commit checkpoints
    checkpointer.stop()
    with bulk.checkpoint_left_to_checkpointer():
        assert raw.execute("PRAGMA wal_autocheckpoint").fetchone() == (100,)
        assert write() >= 300 * 3000  # no checkpointer: the commit checkpoints, as before
