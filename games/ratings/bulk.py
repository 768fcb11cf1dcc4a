"""Whole tables read and written fast, for the rebuild: rows streamed from the database as its
driver returns them, written in batches (a binary COPY on PostgreSQL), a table emptied and its
indexes made again around a bulk load, SQLite's page cache widened while rows are rewritten one by
one, its WAL's checkpoint left to the checkpointer thread, PostgreSQL's statistics refreshed after.
A full rebuild reads and writes millions of rows: model instances and the ORM would cost more than
the ratings themselves. With the C module (games/ratings/_native.c, built by make) the rows' binary
COPY is encoded in C, and a bulk load's rows reach SQLite from C (SQLiteRows, read by its
table-valued function referee_rows); without it, psycopg's write_row and the sqlite3 module's
executemany write the same rows. On a SQLite file, a full rebuild's seats are read and rated by a
thread of their own, on a second connection, while Django's inserts the rows (made_beside).
"""

from __future__ import annotations

import gc
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from typing import Any

from django.db import DatabaseError, connection

try:  # the rows' binary COPY encoded in C, built by `make` (games/ratings/_native.c)
    from . import _native
except ImportError:  # pragma: no cover - a clone not built by make
    _native = None

BATCH_SIZE = 10_000
COPY_BATCH_SIZE = 20_000
#: SQLite's page cache during a rebuild, in KiB (see sqlite_page_cache).
SQLITE_CACHE_KIB = 32 * 1024


@contextmanager
def load(model: Any) -> Iterator[None]:
    """The table emptied and its secondary indexes dropped, then, once the rows are in, the
    indexes made again, in the caller's transaction. A full rebuild writes millions of rows in
    play order, and keeping three indexes in other orders up to date row by row cost most of
    its time (docs/benchmarks.md); an index built once from the finished table is a sort.
    Only for a table that holds nothing else (PostgreSQL locks it until the commit)."""
    quote = connection.ops.quote_name
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT index.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i "
                "JOIN pg_class index ON index.oid = i.indexrelid "
                "WHERE i.indrelid = %s::regclass AND NOT i.indisunique",
                [table],
            )
            indexes = cursor.fetchall()
            cursor.execute(f"TRUNCATE {quote(table)}")
            # Sorting millions of keys in memory rather than in temporary files; the server's
            # memory for this transaction only, not the app's.
            cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        else:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master "
                "WHERE type = 'index' AND tbl_name = %s AND sql IS NOT NULL",
                [table],
            )
            indexes = cursor.fetchall()
            cursor.execute(f"DELETE FROM {quote(table)}")  # no WHERE: SQLite empties it at once
        for name, _ in indexes:
            cursor.execute(f"DROP INDEX {quote(name)}")
    yield
    with connection.cursor() as cursor:
        for _, definition in indexes:
            cursor.execute(definition)


def analyze(*tables: Any) -> None:
    """After a full rebuild, PostgreSQL's statistics of the rewritten tables are stale until
    autovacuum comes by, and its planner then takes a million rows for a few thousand (a night's
    summary scanned every rating row instead of looking up its 50 plays': 234 ms instead of
    0.3 ms at 100,000 plays). ANALYZE samples a fixed number of rows: well under a second."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in tables:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def raw_batches(queryset: Any) -> Iterator[list[tuple]]:
    """The queryset's rows as the database driver returns them, in lists of up to BATCH_SIZE,
    skipping Django's per-value converters (a full rebuild reads millions of seats, and their
    times go back into the rating rows as they came), read in batches from a server-side cursor
    on PostgreSQL."""
    sql, params = queryset.query.sql_with_params()
    with connection.chunked_cursor() as cursor:
        if connection.vendor == "postgresql":
            _plain_times(cursor.cursor)
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(BATCH_SIZE):
            yield rows


def _plain_times(cursor: Any) -> None:
    """psycopg's own (C) loader of timestamptz on this cursor, not Django's (a Python call
    a value, then a ``replace`` of its time zone: 1.9 s of a rebuild's 3.1M seats at 1M plays).
    Its times are aware all the same (in the session's time zone), and they only go back into
    the rating rows, which COPY stores as the same instants."""
    import psycopg

    timestamptz = psycopg.adapters.types["timestamptz"].oid
    for format in (psycopg.pq.Format.TEXT, psycopg.pq.Format.BINARY):
        loader = psycopg.adapters.get_loader(timestamptz, format)
        if loader is not None:
            cursor.adapters.register_loader(timestamptz, loader)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cycle collector off while millions of rows are made: it would walk the
    young tuples again and again (allocations trigger it) though they hold no cycle, 4–8 % of
    a full rebuild's CPU time at 1M plays (docs/benchmarks.md). Put back as it was after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def sqlite_page_cache() -> Iterator[None]:
    """On SQLite, a page cache of SQLITE_CACHE_KIB while rewriting rows one by one. SQLite's
    default (2 MiB) is smaller than the leaves of the rating table's indexes that a long rebuild
    keeps touching (an insertion point per player and scope in each), so most of its time went
    to spilling pages and reading them back. A bulk load (no index to keep) needs no more than
    the default, and a larger cache would only cost resident memory: SQLite's sorts take as
    much again. The cache grows only as pages are used, and the connection's setting is put
    back afterwards."""
    if connection.vendor != "sqlite":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA cache_size")
        (previous,) = cursor.fetchone()
        cursor.execute(f"PRAGMA cache_size = -{SQLITE_CACHE_KIB:d}")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA cache_size = {int(previous):d}")


@contextmanager
def checkpoint_left_to_checkpointer() -> Iterator[None]:
    """On SQLite, the commit of the transaction run inside leaves the WAL's pages to this
    process's checkpointer thread (games/checkpoints.py) instead of copying them into the
    database file itself: a full rebuild's commit passes the backstop of
    ``wal_autocheckpoint`` by the whole rewritten table, and that checkpoint, 1.3–1.4 s of CPU
    at 1M plays, was in the rebuild's time (docs/benchmarks.md). The thread copies the same
    pages within a second (PASSIVE, as the commit's own is), on another core if there is one;
    until then readers find them in the log, as they do any commit's. The log grows no more:
    it already holds the transaction's pages, however they go on.

    Only around an outermost transaction (an enclosing one commits later, after this has put
    the setting back), and only while the checkpointer runs: without it (a process whose thread
    could not start, an in-memory database) the commit checkpoints as before."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        yield
        return
    from games import checkpoints

    connection.ensure_connection()  # its first connection starts the file's checkpointer
    running = checkpoints.checkpointer(connection.settings_dict["NAME"])
    if running is None or not running.is_alive():
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint")
        (previous,) = cursor.fetchone()
        cursor.execute("PRAGMA wal_autocheckpoint = 0")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA wal_autocheckpoint = {int(previous):d}")


def insert(
    model: Any,
    columns: Sequence[str],
    types: Sequence[str],
    rows: Iterable[list[tuple]],
    *,
    load: bool = False,
) -> int:
    """Write the rows (given in lists) in batches, straight to the table: a full rebuild writes
    millions of rows, and model instances and the ORM's INSERT compiler would cost more than
    the ratings themselves. PostgreSQL gets a binary COPY (``types`` are the columns' types);
    other databases executemany. (Batches, not one COPY: the rows are computed from a
    server-side cursor on the same connection.) ``load``: a bulk load (see load()), whose
    rows SQLite reads from C when it can (_rows_from_c): one statement a batch in Django's log,
    its values not in it, so only there, where they are millions."""
    opts = model._meta
    table = connection.ops.quote_name(opts.db_table)
    names = [opts.get_field(c.removesuffix("_id")).column for c in columns]
    quoted = ", ".join(connection.ops.quote_name(name) for name in names)
    copy_sql = f"COPY {table} ({quoted}) FROM STDIN (FORMAT BINARY)"
    insert_sql = f"INSERT INTO {table} ({quoted}) VALUES ({', '.join(['%s'] * len(columns))})"
    postgres = connection.vendor == "postgresql"

    kinds = _copy_kinds(types) if postgres and _native is not None else None
    from_c = load and not postgres and _rows_from_c(len(columns))
    select_sql = (
        f"INSERT INTO {table} ({quoted}) SELECT"
        f" {', '.join(f'c{index:d}' for index in range(len(columns)))} FROM {ROWS_FUNCTION}(%s)"
    )

    def flush(batch: list[tuple]) -> None:
        with connection.cursor() as cursor:
            if postgres:
                encoded = _encoded(batch, kinds)
                with cursor.cursor.copy(copy_sql) as copy:
                    if encoded is not None:
                        copy.write(_COPY_SIGNATURE)
                        for part in encoded:
                            copy.write(part)
                        copy.write(_COPY_TRAILER)
                        return
                    copy.set_types(types)
                    for row in batch:
                        copy.write_row(row)
            elif from_c and _inserted_from_c(cursor, select_sql, columns, batch):
                return
            else:  # on SQLite the times come as the text it stores (rebuild.py)
                cursor.executemany(insert_sql, batch)

    count = 0
    batch: list[tuple] = []
    for play_rows in rows:
        batch += play_rows
        if len(batch) >= COPY_BATCH_SIZE:
            flush(batch)
            count += len(batch)
            batch = []
    if batch:
        flush(batch)
    return count + len(batch)


#: The table-valued function that reads rows from C (_native.SQLiteRows).
ROWS_FUNCTION = "referee_rows"


def _rows_from_c(width: int) -> bool:
    """Whether SQLite can read this connection's rows of ``width`` values from C: the C module
    built with SQLite's header (_native.SQLiteRows), and its table-valued function registered
    on this connection, which it is on every connection opened after the module was imported
    (games.apps imports it first), when the sqlite3 module uses the same SQLite library."""
    if getattr(_native, "SQLiteRows", None) is None or width > _native.SQLITE_ROWS_COLUMNS:
        return False
    return _answers(f"SELECT count(*) FROM {ROWS_FUNCTION}(0)", (0,))


def _answers(sql: str, expected: tuple) -> bool:
    """Whether ``sql`` runs on this connection and its first row is ``expected``: a function of
    the C module's is registered on it ("no such table" or "no such function" otherwise)."""
    with connection.cursor() as cursor:
        try:
            cursor.execute(sql)
        except DatabaseError:
            return False
        return cursor.fetchone() == expected


def _inserted_from_c(cursor: Any, sql: str, columns: Sequence[str], batch: list[tuple]) -> bool:
    """The batch copied into C and inserted by one INSERT … SELECT from referee_rows (``sql``);
    False, with nothing inserted, for a value it does not take (executemany then adapts it or
    refuses it, as without the C module)."""
    rows = _native.SQLiteRows(len(columns))
    try:
        rows.extend(batch)
    except (ValueError, OverflowError):
        return False
    cursor.execute(sql, [rows.token])
    if cursor.rowcount != len(batch):  # never; if it were, the rebuild rolls back, losing nothing
        raise DatabaseError(f"{cursor.rowcount} rows inserted of {len(batch)}")
    return True


#: The SQL function that reads a query's seats into C (_native.SQLiteSeats).
SEATS_FUNCTION = "referee_seats"


def seats_from_c(width: int) -> bool:
    """Whether SQLite can read a full rebuild's seats into C and take its rows from there on
    this connection: the rows from C (_rows_from_c), SQLiteSeats built, and referee_seats
    registered (with referee_rows, by the same auto-extension). Never on another database
    (PostgreSQL would abort its transaction on the unknown function)."""
    if connection.vendor != "sqlite" or getattr(_native, "SQLiteSeats", None) is None:
        return False
    return _rows_from_c(width) and _answers(f"SELECT {SEATS_FUNCTION}(NULL, 1, '')", (None,))


def seat_reader(queryset: Any, on: Any = None) -> Callable[[int, int], int]:
    """A function reading the queryset's rows into the SQLiteSeats of a token, up to a number
    of rows more a call (returns how many it read: fewer once they are all read), by
    referee_seats on Django's own connection (or ``on``, another connection to the same
    database: reader_beside): the queryset's SQL and parameters as Django would run them, one
    statement stepped in C from its first row to its last."""
    from django.db.backends.sqlite3.base import FORMAT_QMARK_REGEX

    sql, params = queryset.query.sql_with_params()
    sql = FORMAT_QMARK_REGEX.sub("?", sql).replace("%%", "%")  # as Django's SQLite cursor runs it
    call = f"SELECT {SEATS_FUNCTION}(%s, %s, %s{', %s' * len(params)})"
    on = connection if on is None else on

    def read(token: int, limit: int) -> int:
        with on.cursor() as cursor:
            cursor.execute(call, [token, limit, sql, *params])
            (count,) = cursor.fetchone()
        if count is None:  # never: the token is the caller's live SQLiteSeats
            raise DatabaseError("no seats for that token")
        return count

    return read


#: Batches of rows made ahead by made_beside's thread and waiting for their insert: one, with
#: one being inserted, one made and waiting for the queue, and the next being made: four at
#: most at once, where one thread has one. So the rebuild makes them half as large as one
#: thread does (rebuild.rebuild_club): an SQLiteRows block of some 15,000 rows of 27 values,
#: 6.5 MB: the rebuild's peak resident memory at 1M plays 99–108 MB, where batches of the full
#: size took it to 127–159 MB (119 MB in one thread). Handing each batch over only once the one
#: before was taken (two alive) cost about 1 s of 11 s, quiet (docs/benchmarks.md).
AHEAD = 1

#: What the last made_beside measured: the thread's CPU time (``reader_cpu_s``), the caller's
#: wait for its batches (``starved_s``: the thread was behind) and the thread's for room in the
#: queue (``blocked_s``: the inserts were behind), in seconds (benchmarks/bench_scale.py).
beside_figures: dict[str, float] = {}


def reader_beside() -> Any | None:
    """A second connection to the database of Django's connection (its settings, so the same
    file opened as a request opens it), already in a read transaction that sees the database
    as it is now; None where none can be had: not SQLite, an in-memory database (another
    connection would see another database, or share its cache and locks), a file it cannot
    open, referee_seats not registered on it.

    For made_beside: call it only when the database cannot change under the caller's
    transaction but by the caller itself, and the caller has changed nothing the reader reads
    yet (rebuild.rebuild_club says when). Its snapshot is taken here, in the caller's thread,
    so that it never predates the caller's BEGIN."""
    if connection.vendor != "sqlite" or connection.is_in_memory_db():
        return None
    if getattr(connection, "transaction_mode", None) not in ("IMMEDIATE", "EXCLUSIVE"):
        return None  # the caller's BEGIN did not take the write lock (config/settings.py)
    import sqlite3

    from django.db.backends.sqlite3.base import DatabaseWrapper

    reader = DatabaseWrapper({**connection.settings_dict}, alias=connection.alias)
    try:
        reader.ensure_connection()
        raw = reader.connection
        raw.execute("BEGIN")  # deferred: it reads, and never asks for the write lock
        raw.execute("SELECT count(*) FROM sqlite_master").fetchone()  # its snapshot: now
        found = raw.execute(f"SELECT {SEATS_FUNCTION}(NULL, 1, '')").fetchone() == (None,)
    except (DatabaseError, sqlite3.Error):
        found = False
    if not found:
        _close_reader(reader)
        return None
    reader.inc_thread_sharing()  # its thread uses it, then this one closes it
    return reader


def _close_reader(reader: Any) -> None:
    """Its read transaction ended and the connection closed."""
    import sqlite3

    if reader.connection is not None:
        with suppress(sqlite3.Error):  # no transaction left (an error ended it): nothing to end
            reader.connection.execute("ROLLBACK")
    reader.close()


@contextmanager
def made_beside(reader: Any, make: Callable[[], Iterator[Any]]) -> Iterator[Iterator[Any]]:
    """The batches that ``make()`` yields (rows rated from seats read on ``reader``, a
    connection from reader_beside), made by a thread of their own while the caller inserts the
    ones before on its connection: reading and rating beside inserting, on two cores where a
    single thread did one after the other (issue 32). The sqlite3 module lets go of the GIL
    while SQLite steps a statement, so the thread's reads and the caller's INSERTs run at
    once; SQLiteSeats.rate holds it, but for a small part of the caller's time.

    They come in ``make()``'s order, through a queue of AHEAD batches (memory: see AHEAD). An
    error of the thread is raised in the caller's, at the batch it would have given, and rolls
    the caller's transaction back. On leaving (at the end, on an error of either thread, or the
    caller's), the thread is told to stop, ``make()``'s generator is closed in it, the thread
    is joined and ``reader`` closed: only then may the caller use what ``make()`` changed."""
    ahead: queue.Queue = queue.Queue(maxsize=AHEAD)
    stop = threading.Event()
    figures = {"starved_s": 0.0, "blocked_s": 0.0, "reader_cpu_s": 0.0}

    def offer(item: tuple[bool, Any]) -> bool:
        started = time.perf_counter()
        try:
            while not stop.is_set():
                try:
                    ahead.put(item, timeout=0.05)
                    return True
                except queue.Full:
                    continue
            return False
        finally:
            figures["blocked_s"] += time.perf_counter() - started

    def produce() -> None:
        cpu = time.thread_time()
        try:
            with closing(make()) as batches:
                for batch in batches:
                    if not offer((True, batch)):
                        return
                    del batch  # the queue's, or the caller's: not kept here too
            offer((False, None))
        except BaseException as error:  # noqa: BLE001 - the caller's thread raises it
            offer((False, error))
        finally:
            figures["reader_cpu_s"] = time.thread_time() - cpu

    def batches() -> Iterator[Any]:
        while True:
            started = time.perf_counter()
            more, item = ahead.get()
            figures["starved_s"] += time.perf_counter() - started
            if not more:
                if item is not None:
                    raise item
                return
            yield item
            del item

    thread = threading.Thread(target=produce, name="rebuild: seats read and rated", daemon=True)
    try:
        thread.start()
        yield batches()
    finally:
        stop.set()
        if thread.ident is not None:
            thread.join()
        reader.dec_thread_sharing()
        _close_reader(reader)
        _give_back_freed_memory()
        beside_figures.clear()
        beside_figures.update(figures)


def _give_back_freed_memory() -> None:
    """The blocks of the batches made by made_beside's thread, freed, given back to the system
    (glibc's malloc_trim; nothing where there is none). glibc's malloc gives each thread an
    arena of its own and keeps what is freed there for the thread's next blocks: they stayed
    in the process's resident memory through the index builds that follow, whose sorts then
    took the rebuild's peak at 1M plays, beside two busy loops, to 115 MB instead of 99–108 MB
    (docs/benchmarks.md)."""
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return
    trim(0)


def insert_from_c(model: Any, columns: Sequence[str], batches: Iterable[Any]) -> int:
    """Write rows given in batches that are SQLiteRows (each inserted by one INSERT … SELECT
    from referee_rows) or lists of tuples (rows SQLiteRows did not take: by executemany),
    straight to the table; SQLite only. Returns the number of rows written."""
    opts = model._meta
    table = connection.ops.quote_name(opts.db_table)
    names = [opts.get_field(c.removesuffix("_id")).column for c in columns]
    quoted = ", ".join(connection.ops.quote_name(name) for name in names)
    select_sql = (
        f"INSERT INTO {table} ({quoted}) SELECT"
        f" {', '.join(f'c{index:d}' for index in range(len(columns)))} FROM {ROWS_FUNCTION}(%s)"
    )
    insert_sql = f"INSERT INTO {table} ({quoted}) VALUES ({', '.join(['%s'] * len(columns))})"
    count = 0
    for batch in batches:
        with connection.cursor() as cursor:
            if isinstance(batch, list):
                cursor.executemany(insert_sql, batch)
            else:
                cursor.execute(select_sql, [batch.token])
                if cursor.rowcount != len(batch):  # never; if it were, the rebuild rolls back
                    raise DatabaseError(f"{cursor.rowcount} rows inserted of {len(batch)}")
        count += len(batch)
        del batch  # freed before the next is made
    return count


#: The binary COPY's signature (with no flags and no header extension) and its end.
_COPY_SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
_COPY_TRAILER = b"\xff\xff"
#: The column types _native.copy_binary encodes, and their letters.
_COPY_KINDS = {
    "int8": "q", "int4": "i", "int2": "h", "float8": "d", "bool": "?", "text": "s",
    "timestamptz": "t",
}  # fmt: skip


def _copy_kinds(types: Sequence[str]) -> str | None:
    if not all(kind in _COPY_KINDS for kind in types):
        return None
    return "".join(_COPY_KINDS[kind] for kind in types)


#: Rows encoded at a time (a batch's in a few parts: less memory at once than in one).
ENCODE_SIZE = 2_000


def _encoded(batch: list[tuple], kinds: str | None) -> list[bytes] | None:
    """The batch's rows in the binary COPY format (between its signature and its trailer), in
    parts, encoded by the C module (psycopg's ``write_row`` costs a Python call or two a row:
    5.4 s of a rebuild's 3.1M rows at 1M plays); None without it, or for a value it does not
    take (psycopg then writes the rows)."""
    if kinds is None:
        return None
    try:
        return [
            _native.copy_binary(batch[start : start + ENCODE_SIZE], kinds)
            for start in range(0, len(batch), ENCODE_SIZE)
        ]
    except ValueError:
        return None


def insert_few(model: Any, columns: Sequence[str], rows: list[tuple]) -> None:
    """Write a few rows (one play's) in one INSERT: a COPY is a round trip more, and an
    executemany one statement per row on PostgreSQL."""
    if not rows:
        return
    opts = model._meta
    quote = connection.ops.quote_name
    names = ", ".join(quote(opts.get_field(c.removesuffix("_id")).column) for c in columns)
    row = f"({', '.join(['%s'] * len(columns))})"
    sql = f"INSERT INTO {quote(opts.db_table)} ({names}) VALUES {', '.join([row] * len(rows))}"
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for values in rows for value in values])
