"""A full rebuild on a SQLite file reads and rates its seats in a thread of its own, on a second
connection, while Django's inserts the rows (bulk.made_beside, issue 32): the same rows, ids,
order, head-to-head and partner rows as one thread; an error of either thread rolls the whole
rebuild back and leaves no thread; the second connection's snapshot is taken under the
rebuild's write lock; in an outer transaction (or an in-memory database) one thread, as before.

The suite's database is in memory and each test in a transaction: these tests swap Django's
connection for one to a file holding a copy of it."""

from __future__ import annotations

import random
import sqlite3
import struct
import threading
import time
from unittest import mock

import pytest
from django.db import connection, connections, transaction

from games import checkpoints
from games.models import Play, Seat
from games.ratings import bulk, rebuild
from tests.stats.conftest import random_history

pytestmark = [
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's second connection"),
    pytest.mark.skipif(
        getattr(rebuild._native, "SQLiteSeats", None) is None,
        reason="games/ratings/_native.c not built with SQLite's header (make native)",
    ),
]

THREAD = "rebuild: seats read and rated"
TABLES = ("games_ratingchange", "games_headtohead", "games_partnerchange")


@pytest.fixture
def on_file(db, club, night, tmp_path):
    """Django's connection, for the test, to a file database copied from the test's (the club
    and its night in it), opened as the site opens one (its options, WAL)."""
    path = tmp_path / "club.sqlite3"
    connection.ensure_connection()
    copy = sqlite3.connect(path)
    # (Not backup(): it waits forever for the test's own transaction to end.)
    copy.executescript("\n".join(connection.connection.iterdump()))
    copy.close()
    memory = connections["default"]
    file = type(memory)({**memory.settings_dict, "NAME": str(path)}, alias="default")
    connections["default"] = file
    try:
        yield path
    finally:
        file.close()
        connections["default"] = memory
        checkpoints.stop_checkpointers()


def _history(club, night, seed: int, plays: int = 80) -> None:
    """A random history, committed: plays of 1 to 4 of 7 players, ties, partners (left to
    Python), a cooperative game, plays ending together, seats stored out of position."""
    random_history(club, night, random.Random(seed), plays=plays, minutes=40)


def _bits(value):
    return struct.pack("<d", value) if isinstance(value, float) else value


def _stored() -> dict[str, list]:
    """Each table as SQLite stores it, by id: every value, its type and its bits (head-to-head
    records without their ids, which go on from the records deleted, and sorted)."""
    found = {}
    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f"SELECT * FROM {table} ORDER BY id")
            found[table] = [
                [(type(value).__name__, _bits(value)) for value in row] for row in cursor.fetchall()
            ]
    found["games_headtohead"] = sorted(row[1:] for row in found["games_headtohead"])
    return found


def _small_batches(rng):
    """Batches of a few seats and rows: dozens of them through the queue, plays cut."""
    return (
        mock.patch.object(bulk, "BATCH_SIZE", rng.choice([1, 2, 3, 5])),
        mock.patch.object(bulk, "COPY_BATCH_SIZE", rng.choice([1, 4, 7])),
    )


def _no_thread_left() -> bool:
    return not any(thread.name == THREAD for thread in threading.enumerate())


@pytest.mark.parametrize("seed", range(4))
def test_a_full_rebuild_beside_writes_the_rows_of_one_thread(on_file, club, night, seed):
    """The same rows (ids, order, every value's type and bits), head-to-head records and partner
    rows as the rebuild in one thread, the batches many and cutting plays."""
    _history(club, night, seed)
    rng = random.Random(seed)
    batch, rows = _small_batches(rng)
    with (
        batch,
        rows,
        mock.patch.object(bulk, "made_beside", wraps=bulk.made_beside) as beside,
        mock.patch.object(rebuild, "_rate_play", wraps=rebuild._rate_play) as in_python,
    ):
        written = rebuild.rebuild_club(club.pk)
        assert beside.call_count == 1
        assert in_python.call_count > 0  # plays with partners, left to Python in the thread
        ours = _stored()
        assert written == len(ours["games_ratingchange"]) == Seat.objects.count()
        assert ours["games_partnerchange"] and ours["games_headtohead"]
        assert bulk.beside_figures["reader_cpu_s"] > 0
        with mock.patch.object(bulk, "reader_beside", return_value=None):
            assert rebuild.rebuild_club(club.pk) == written
        assert beside.call_count == 1
    assert _stored() == ours
    assert _no_thread_left()


def test_the_second_connection_reads_under_the_rebuilds_write_lock(on_file, club, night):
    """When the thread's connection takes its snapshot, the rebuild's transaction already holds
    the write lock: no other connection can commit a play that one would see and not the other."""
    _history(club, night, 0, plays=10)
    locked = []
    opened = bulk.reader_beside

    def reader_then_a_writer():
        reader = opened()
        other = sqlite3.connect(on_file, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            locked.append("locked" in str(error))
        else:
            other.execute("ROLLBACK")
            locked.append(False)
        finally:
            other.close()
        return reader

    with mock.patch.object(bulk, "reader_beside", reader_then_a_writer):
        rebuild.rebuild_club(club.pk)
    assert locked == [True]


@pytest.mark.parametrize("where", ["thread", "inserts"])
def test_an_error_in_either_thread_rolls_the_whole_rebuild_back(on_file, club, night, where):
    """An error while the thread rates (a play left to Python) is raised by the rebuild, and an
    error of the inserts stops the thread: either way nothing is written (the rows of the
    rebuild before are all there), the thread is gone and its connection closed."""
    _history(club, night, 1)
    rebuild.rebuild_club(club.pk)
    before = _stored()
    readers = []
    opened = bulk.reader_beside

    def reader():
        readers.append(opened())
        return readers[-1]

    calls = []

    def failing_play(*args):
        calls.append(threading.current_thread().name)
        if len(calls) == 3:
            raise ZeroDivisionError("a play that cannot be rated")
        return rated_play(*args)

    inserted = bulk.insert_from_c

    def failing_inserts(model, columns, batches):
        def some():
            for index, batch in enumerate(batches):
                if index == 5:
                    raise ZeroDivisionError("a disk full")
                yield batch

        return inserted(model, columns, some())

    reads = bulk.seat_reader

    def slow_reader(queryset, on=None):
        """Each batch read slowly: the thread is still reading when the inserts fail."""
        read = reads(queryset, on)

        def slowly(token, limit):
            time.sleep(0.02)
            return read(token, limit)

        return slowly

    rated_play = rebuild._rate_play
    batch, rows = _small_batches(random.Random(1))
    failing = (
        mock.patch.object(rebuild, "_rate_play", failing_play)
        if where == "thread"
        else mock.patch.object(bulk, "insert_from_c", failing_inserts)
    )
    with (
        batch,
        rows,
        failing,
        mock.patch.object(bulk, "seat_reader", slow_reader),
        mock.patch.object(bulk, "reader_beside", reader),
        pytest.raises(ZeroDivisionError),
    ):
        rebuild.rebuild_club(club.pk)
    if where == "thread":
        assert calls[-1] == THREAD
    assert _stored() == before
    assert _no_thread_left()
    assert len(readers) == 1 and readers[0].connection is None


def test_in_an_outer_transaction_the_rebuild_runs_in_one_thread(on_file, club, night):
    """Inside an outer atomic (a migration, an import that wrote the plays it rebuilds), what
    the caller wrote is not committed and a second connection would not see it: one thread."""
    _history(club, night, 2, plays=20)
    with (
        mock.patch.object(bulk, "made_beside", wraps=bulk.made_beside) as beside,
        transaction.atomic(),
    ):
        later = Play.objects.order_by("ended_at").last()
        Seat.objects.filter(play=later).update(score=99)
        rebuild.rebuild_club(club.pk)
        assert beside.call_count == 0
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT points FROM games_ratingchange WHERE play_id = %s ORDER BY id", [later.pk]
            )
            assert all(points >= 99 for (points,) in cursor.fetchall())


def test_an_in_memory_database_has_no_second_connection(db):
    assert bulk.reader_beside() is None


def test_a_rebuild_whose_begin_takes_no_write_lock_runs_in_one_thread(on_file, club, night):
    """With a plain (DEFERRED) BEGIN, another connection could commit between the rebuild's
    reads and the second connection's snapshot: one thread."""
    _history(club, night, 3, plays=10)
    connection.ensure_connection()
    connections["default"].transaction_mode = None  # BEGIN, as SQLite's default
    with mock.patch.object(bulk, "made_beside", wraps=bulk.made_beside) as beside:
        rebuild.rebuild_club(club.pk)
    assert beside.call_count == 0


def test_with_autocommit_turned_off_the_rebuild_runs_in_one_thread(on_file, club, night):
    """A caller that turned autocommit off has a transaction of its own, maybe with changes."""
    _history(club, night, 4, plays=10)
    transaction.set_autocommit(False)
    try:
        with mock.patch.object(bulk, "made_beside", wraps=bulk.made_beside) as beside:
            rebuild.rebuild_club(club.pk)
        assert beside.call_count == 0
    finally:
        transaction.rollback()
        transaction.set_autocommit(True)
