"""The rebuild's hot loop in C (games/ratings/_native.c, built by ``make``) gives the rows, the
players' states, the head-to-head counts and the partner rows of the pure-Python loop
(``rebuild._rate_play``, its reference and its fallback), to the last bit, on random histories
read in random batches; and a rebuild gives the same rows with it and without it.

The C loop is built by ``make test`` (bin/build-native); run without it, the comparisons are
skipped, except in CI (``CI`` set), where a missing build fails."""

import datetime
import itertools
import os
import random
import struct
from unittest import mock

import pytest

from games.models import ALL_GAMES, Play, RatingChange
from games.ratings import rebuild, totals

native = rebuild._native

pytestmark = pytest.mark.skipif(
    native is None and not os.environ.get("CI"),
    reason="games/ratings/_native.c is not built (make native)",
)

COOPERATIVE = frozenset({"three-high", "game-7"})
GAMES = ("punto", "thricewise", "three-high", "buntherum", "game-7", "game-9")


def _random_seats(rng: random.Random, plays: int) -> list[tuple]:
    """Seat rows as the rebuild reads them, in play order: plays of 1 to 7 players of 9, ranks
    with ties (everyone tied, sometimes), now and then partners, a cooperative game, negative
    and large scores, the time as text (SQLite) or anything else (the rows carry it as is)."""
    seats = []
    for play_id in range(1, plays + 1):
        game = rng.choice(GAMES)
        count = rng.choice([1, 2, 2, 3, 4, 4, 5, 7])
        players = rng.sample(range(1, 10), count)
        scores = [rng.choice([rng.randint(-5, 12), rng.randint(0, 3), 10**9]) for _ in players]
        ranks = [1 + sum(other > score for other in scores) for score in scores]
        teams = [None] * count
        if count >= 4 and rng.random() < 0.1 and game not in COOPERATIVE:
            teams = [1 + index % 2 for index in range(count)]
            ranked = list(zip(ranks, teams, strict=True))
            best = {team: min(r for r, t in ranked if t == team) for team in (1, 2)}
            ranks = [best[team] for team in teams]
        won = [rank == 1 for rank in ranks]
        if game in COOPERATIVE:
            won = [play_id % 3 == 0] * count
            ranks = [rng.choice([None, 1])] * count
        played_at = f"2026-01-01 00:00:{play_id:06d}" if play_id % 5 else (play_id, "a time")
        for player, rank, win, score, team in zip(players, ranks, won, scores, teams, strict=True):
            seats.append((play_id, game, played_at, player, rank, int(win), score, team))
    return seats


def _batches(rng: random.Random, seats: list[tuple]) -> list[list[tuple]]:
    """The seats cut at random places, in the middle of a play too."""
    cuts = sorted(rng.sample(range(1, len(seats)), min(len(seats) - 1, rng.randint(0, 40))))
    return [seats[a:b] for a, b in zip([0, *cuts], [*cuts, len(seats)], strict=True)]


def _bits(value):
    """A value with its float's every bit (equal floats of different bits are not equal)."""
    return struct.pack("<d", value) if isinstance(value, float) else value


def _run(seats_in_batches, use_native, since=None):
    states = totals.States(RatingChange, since)
    tally = totals.Pairs()
    partners = totals.Partners(None, None)
    rows = [
        [_bits(value) for value in row]
        for play_rows in rebuild._rate(
            7,
            seats_in_batches,
            states,
            tally,
            partners,
            COOPERATIVE,
            native=native if use_native else None,
        )
        for row in play_rows
    ]
    return rows, dict(states), tally.beaten, tally.tied, tally.pairs, partners.rows


@pytest.mark.parametrize("seed", range(25))
def test_the_c_loop_rates_as_the_python_loop(seed):
    assert native is not None, "games/ratings/_native.c is not built (make native)"
    rng = random.Random(seed)
    seats = _random_seats(rng, rng.choice([1, 30, 400]))
    with mock.patch.object(rebuild, "_rate_play", wraps=rebuild._rate_play) as in_python:
        ours = _run(_batches(rng, seats), use_native=True)
    # Only the plays with partners were left to Python.
    assert in_python.call_count == len({seat[0] for seat in seats if seat[7] is not None})
    reference = _run([seats], use_native=False)
    assert ours[0] == reference[0]  # the rows, to the last bit
    states = {key: [_bits(value) for value in state] for key, state in ours[1].items()}
    assert states == {key: [_bits(value) for value in state] for key, state in reference[1].items()}
    assert ours[2:] == reference[2:]  # head-to-head counts, partner rows
    assert len(ours[0]) == len(seats)


def test_the_c_loop_hands_back_what_it_does_not_rate():
    """A play with partners, a rank that is not a number, a player seated twice, a batch that
    ends in the middle of a play: left to Python (the index of its first seat), nothing of it
    changed."""
    assert native is not None
    model = rebuild.update.MODEL
    seats = [
        (1, "punto", "t1", 1, 1, 1, 5, None),
        (1, "punto", "t1", 2, 2, 0, 3, None),
        (2, "punto", "t2", 1, 1, 1, 5, 1),  # partners
        (2, "punto", "t2", 3, 1, 1, 2, 1),
        (2, "punto", "t2", 2, 2, 0, 1, 2),
        (3, "punto", "t3", 1, 1.0, 1, 5, None),  # a float rank
        (3, "punto", "t3", 2, 2, 0, 3, None),
        (4, "punto", "t4", 1, 1, 1, 5, None),  # seated twice
        (4, "punto", "t4", 1, 2, 0, 3, None),
        (5, "punto", "t5", 1, 1, 1, 5, None),  # maybe more seats in the next batch
    ]
    states = totals.States(RatingChange, None)
    beaten, tied, rows = {}, {}, []

    def rate(start, final=False):
        return native.rate_plays(
            seats, start, final, states, frozenset(), beaten, tied, 7, ALL_GAMES,
            model.beta, model.kappa, model.tau, model.limit_sigma, rows,
        )  # fmt: skip

    assert rate(0) == 2 and len(rows) == 2 and beaten == {(1, 2): 1}
    before = {key: list(state) for key, state in states.items()}
    assert rate(5) == 5 and rate(7) == 7 and rate(9) == 9
    assert len(rows) == 2 and beaten == {(1, 2): 1}
    assert {key: list(state) for key, state in states.items() if key in before} == before
    assert rate(9, final=True) == 10 and len(rows) == 3


def test_a_rebuild_writes_the_same_rows_with_the_c_loop_and_without(record, four, monkeypatch):
    ana, ben, chloe, dev = four
    for day in range(1, 6):
        thricewise = [(ana, day, False), (ben, 7, day % 3 == 0), (chloe, 7, False)]
        record("thricewise", thricewise, day=day)
        record("punto", [(ana, 3, True), (ben, 3, True)], day=day)
        record("three-high", [(chloe, 4, day % 2 == 0), (dev, 4, day % 2 == 0)], day=day)
    record(
        "punto",
        [(ana, 2, True), (ben, 1, False), (chloe, 2, True), (dev, 1, False)],
        day=6,
        teams=[1, 2, 1, 2],
    )
    record("buntherum", [(dev, 1, False), (ana, 2, True)], day=7)

    def written():
        return list(RatingChange.objects.order_by("id").values_list(*rebuild.COLUMNS))

    rebuild.rebuild_club(ana.club_id)
    with_c = written()
    monkeypatch.setattr(rebuild, "_native", None)
    rebuild.rebuild_club(ana.club_id)
    assert written() == with_c
    assert len(with_c) == 5 * 7 + 4 + 2


def test_the_rows_are_made_with_the_cycle_collector_paused(record, four):
    """A full rebuild makes millions of tuples without cycles: Python's cycle collector is
    paused while they are made (bulk.gc_paused), and put back after."""
    import gc

    from games.ratings import bulk

    ana, ben, _, _ = four
    record("punto", [(ana, 3, True), (ben, 1, False)], day=1)
    seen = []

    def watch(insert):
        def watched(*args, **kwargs):
            seen.append(gc.isenabled())
            return insert(*args, **kwargs)

        return watched

    assert gc.isenabled()
    with (
        mock.patch.object(bulk, "insert", watch(bulk.insert)),
        mock.patch.object(bulk, "insert_from_c", watch(bulk.insert_from_c)),
    ):
        rebuild.rebuild_club(ana.club_id)
    assert seen[0] is False  # the rating rows (from C on SQLite, else bulk.insert)
    assert gc.isenabled()
    gc.disable()
    try:
        with bulk.gc_paused():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


def test_postgresql_reads_the_seats_times_with_psycopgs_own_loader(record, four):
    """On PostgreSQL the rebuild reads its seats' times with psycopg's loader, not Django's
    (a Python call and a ``replace`` a seat: bulk._plain_times); the rows hold the same
    instants."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's loaders")
    from django.db.backends.postgresql.psycopg_any import BaseTzLoader

    ana, ben, chloe, _ = four
    for day in (1, 2):
        record("punto", [(ana, 3, True), (ben, 1, False), (chloe, 2, False)], day=day)
    with mock.patch.object(
        BaseTzLoader, "load", autospec=True, side_effect=BaseTzLoader.load
    ) as load:
        rebuild.rebuild_club(ana.club_id)
    assert load.call_count == 0
    assert {(row.played_at, row.play.ended_at) for row in RatingChange.objects.all()} == {
        (play.ended_at, play.ended_at) for play in Play.objects.all()
    }


def _copy_rows():
    """Rows of every type the rebuild writes, with their edge values."""
    plus_five = datetime.timezone(datetime.timedelta(hours=5, minutes=30))
    minus = datetime.timezone(-datetime.timedelta(hours=9, seconds=1))
    times = [
        datetime.datetime(2026, 3, 29, 1, 59, 59, 999999, tzinfo=datetime.UTC),
        datetime.datetime(1999, 12, 31, 23, 0, tzinfo=plus_five),
        datetime.datetime(1970, 1, 1, tzinfo=minus),
        datetime.datetime(2400, 2, 29, 12, 0, 0, 1, tzinfo=datetime.UTC),
        datetime.datetime(1, 1, 1, tzinfo=datetime.UTC),
    ]
    values = [
        [1, 0, -1, 2**63 - 1, -(2**63)],
        [0, 7, -(2**31), 2**31 - 1, 12345],
        [0, 1, -(2**15), 2**15 - 1, 3],
        [0.0, -0.0, 25 / 3, float("inf"), 1e-310],
        [True, False, True, False, True],
        ["punto", "", "é—✓", "game-12", "a" * 300],
        times,
    ]
    rows = [tuple(column[i] for column in values) for i in range(5)]
    rows += [tuple(None if c == i else value for c, value in enumerate(rows[i])) for i in range(5)]
    rows.append((None,) * 7)
    return [(index, *row) for index, row in enumerate(rows)]


COPY_TYPES = ("int4", "int8", "int4", "int2", "float8", "bool", "text", "timestamptz")


def test_the_c_copy_encoding_is_what_psycopg_sends(db):
    """_native.copy_binary writes what psycopg's write_row writes: the server stores the same
    values from both (PostgreSQL)."""
    from django.db import connection

    from games.ratings import bulk

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's COPY")
    assert bulk._native is not None
    rows = _copy_rows()
    stored = []
    with connection.cursor() as cursor:
        for table in ("by_psycopg", "by_c"):
            cursor.execute(
                f"CREATE TEMPORARY TABLE {table} (n int4, a int8, b int4, c int2, d float8,"
                " e bool, f text, g timestamptz)"
            )
        with cursor.cursor.copy("COPY by_psycopg FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(COPY_TYPES)
            for row in rows:
                copy.write_row(row)
        with mock.patch.object(bulk, "ENCODE_SIZE", 3):  # in parts
            encoded = bulk._encoded(rows, bulk._copy_kinds(COPY_TYPES))
        assert encoded is not None and len(encoded) == 4
        with cursor.cursor.copy("COPY by_c FROM STDIN (FORMAT BINARY)") as copy:
            copy.write(bulk._COPY_SIGNATURE + b"".join(encoded) + bulk._COPY_TRAILER)
        for table in ("by_psycopg", "by_c"):
            cursor.execute(f"SELECT *, d::text FROM {table} ORDER BY n")
            stored.append(cursor.fetchall())
    assert len(stored[1]) == len(rows)
    assert stored[1] == stored[0]


@pytest.mark.parametrize(
    "value, kind",
    [
        (2**15, "h"),
        (-(2**31) - 1, "i"),
        (2**63, "q"),
        (1.5, "q"),
        (1, "d"),
        (1, "?"),
        (b"bytes", "s"),
        (datetime.datetime(2026, 1, 1), "t"),  # naive
        ("2026-01-01", "t"),
        (1, "x"),
    ],
)
def test_the_c_copy_encoding_refuses_what_it_does_not_take(value, kind):
    """A value the C encoding does not take: ValueError, and the rows are then written by
    psycopg (bulk._encoded gives None)."""
    from games.ratings import bulk

    with pytest.raises(ValueError):
        native.copy_binary([(value,)], kind)
    assert bulk._encoded([(value,)], kind) is None


SQLITE_ROWS = [
    (1, 2.5, "é—✓", None),
    (True, -0.0, "", 2**62),
    (-(2**63), float("inf"), "a" * 5000, False),
    (None, None, None, None),
    (7, float("nan"), "é—✓", 1.5),  # NaN: SQLite stores NULL, however it is given
]


def _sqlite_rows():
    if getattr(native, "SQLiteRows", None) is None:
        pytest.skip("built without SQLite's header (libsqlite3-dev)")
    return native.SQLiteRows


def _stored(database):
    return database.execute("SELECT *, typeof(a), typeof(d) FROM t ORDER BY rowid").fetchall()


def test_sqlite_reads_from_c_the_rows_executemany_stores():
    """Rows copied into C (SQLiteRows) and inserted by INSERT … SELECT from referee_rows: the
    values that the sqlite3 module's executemany stores, their types, their order; in the
    connection's transaction (rolled back with it)."""
    import sqlite3

    rows_type = _sqlite_rows()
    stored = []
    for through_c in (False, True):
        database = sqlite3.connect(":memory:")  # opened after the module: it has referee_rows
        database.execute("CREATE TABLE t (a integer, b real, c text, d)")
        for keep in (False, True):
            database.execute("BEGIN")
            if through_c:
                rows = rows_type(4)
                rows.extend(SQLITE_ROWS[:2])
                rows.extend(SQLITE_ROWS[2:])
                assert len(rows) == len(SQLITE_ROWS)
                cursor = database.execute(
                    "INSERT INTO t (a, b, c, d) SELECT c0, c1, c2, c3 FROM referee_rows(?)",
                    [rows.token],
                )
                assert cursor.rowcount == len(SQLITE_ROWS)
            else:
                database.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", SQLITE_ROWS)
            if keep:
                database.commit()
            else:
                database.rollback()
                assert _stored(database) == []
        stored.append(_stored(database))
    assert stored[1] == stored[0]
    assert len(stored[0]) == len(SQLITE_ROWS)


def test_sqlite_rows_take_all_of_a_list_or_none_of_it():
    """A value SQLiteRows does not take (it raises, as executemany would or bulk then lets
    executemany adapt it) leaves none of that list's rows in."""
    import sqlite3

    rows = _sqlite_rows()(2)
    rows.extend([(1, "kept")])
    for bad, error in [
        ([(2, "x"), (3,)], ValueError),  # a row of another length
        ([(2, "x"), (b"bytes", "y")], ValueError),
        ([(2, "x"), (2**64, "y")], OverflowError),
        ([(2, "x"), (3, "\ud800")], UnicodeEncodeError),
        ([(2, "x"), [3, "y"]], ValueError),  # a list, not a tuple
    ]:
        with pytest.raises(error):
            rows.extend(bad)
        assert len(rows) == 1
    rows.extend([(4, "kept")])
    with pytest.raises(TypeError):
        rows.extend((5, "a tuple of rows"))
    for columns in (0, native.SQLITE_ROWS_COLUMNS + 1):
        with pytest.raises(ValueError):
            native.SQLiteRows(columns)
    database = sqlite3.connect(":memory:")
    assert database.execute("SELECT c0, c1 FROM referee_rows(?)", [rows.token]).fetchall() == [
        (1, "kept"),
        (4, "kept"),
    ]


def test_referee_rows_reads_nothing_but_live_rows():
    """Only the token of rows still alive reads rows: another number, none, a freed one's, a
    text read nothing (no crash, no other rows)."""
    import sqlite3

    rows_type = _sqlite_rows()
    database = sqlite3.connect(":memory:")
    rows = rows_type(3)
    rows.extend([(1, 2.0, "three")])
    token = rows.token
    read = "SELECT c0, c1, c2, c3, c31, token FROM referee_rows(?)"
    assert database.execute(read, [token]).fetchall() == [(1, 2.0, "three", None, None, token)]
    assert rows_type(1).token > token  # never reused
    for other in (token + 1, -1, 0, str(token), None):
        assert database.execute(read, [other]).fetchall() == []
    assert database.execute("SELECT count(*) FROM referee_rows").fetchone() == (0,)
    # A reader holds the rows: they are not changed under it, and are freed when it closes,
    # not before.
    rows.extend([(2, 3.0, "four"), (3, 4.0, "five")])
    cursor = database.execute(read, [token])
    assert cursor.fetchone()[0] == 1
    with pytest.raises(RuntimeError, match="being read"):
        rows.extend([(4, 5.0, "six")])
    del rows
    assert [row[2] for row in cursor.fetchall()] == ["four", "five"]
    assert database.execute(read, [token]).fetchall() == []
    with pytest.raises(sqlite3.OperationalError):
        database.execute("CREATE VIRTUAL TABLE v USING referee_rows")


def test_a_full_rebuild_on_sqlite_inserts_its_rows_from_c_and_the_same_without(record, four):
    """A full rebuild's rows reach SQLite from C: one INSERT … SELECT from referee_rows a
    batch (bulk._inserted_from_c), a partial rebuild's by executemany (in Django's statement
    log, value by value); the rows are those executemany writes."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.ratings import bulk

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's inserts")
    _sqlite_rows()
    ana, ben, chloe, dev = four
    for day in (1, 2, 3):
        record("punto", [(ana, 3, True), (ben, 1, False), (chloe, 2, False)], day=day)
        record("three-high", [(chloe, 4, day == 2), (dev, 4, day == 2)], day=day)

    def written():
        return list(RatingChange.objects.order_by("id").values_list("id", *rebuild.COLUMNS))

    def selects(queries):
        return [q["sql"] for q in queries if "referee_rows(" in q["sql"] and "INSERT" in q["sql"]]

    with CaptureQueriesContext(connection) as queries:
        rebuild.rebuild_club(ana.club_id)
    assert len(selects(queries.captured_queries)) == 1  # every rating row, in one batch
    from_c = written()
    assert len(from_c) == 3 * 3 + 3 * 2
    with CaptureQueriesContext(connection) as queries:
        rebuild.rebuild_club(ana.club_id, since=Play.objects.order_by("ended_at")[1].ended_at)
    assert selects(queries.captured_queries) == []
    with mock.patch.object(bulk, "_rows_from_c", return_value=False):
        rebuild.rebuild_club(ana.club_id)
    assert written() == from_c


def test_a_full_rebuild_whose_rows_do_not_all_reach_sqlite_saves_nothing(record, four):
    """Rows lost between C and SQLite (referee_rows reading fewer than were given) fail the
    rebuild: its transaction rolls back, and the rows from before stay."""
    from django.db import DatabaseError, connection

    from games.ratings import bulk

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's inserts")
    rows_type = _sqlite_rows()
    ana, ben, chloe, _ = four
    for day in (1, 2):
        record("punto", [(ana, 3, True), (ben, 1, False), (chloe, 2, False)], day=day)
    before = list(RatingChange.objects.order_by("id").values_list("id", *rebuild.COLUMNS))

    class Lossy:
        """SQLiteRows whose token reads one row fewer than it was given."""

        def __init__(self, columns):
            self.rows = rows_type(columns)

        def extend(self, batch):
            self.rows.extend(batch[1:])

        @property
        def token(self):
            return self.rows.token

    class Module:
        SQLITE_ROWS_COLUMNS = native.SQLITE_ROWS_COLUMNS
        SQLiteRows = Lossy

        def __getattr__(self, name):
            return getattr(native, name)

    with (
        mock.patch.object(bulk, "_native", Module()),
        mock.patch.object(bulk, "seats_from_c", return_value=False),  # the rows' path alone
        pytest.raises(DatabaseError),
    ):
        rebuild.rebuild_club(ana.club_id)
    assert list(RatingChange.objects.order_by("id").values_list("id", *rebuild.COLUMNS)) == before

    # Likewise with the seats read into C (rebuild._rate_in_c): a batch of rows that SQLite
    # reads fewer of than it holds.
    class Longer:
        def __init__(self, rows):
            self.rows = rows

        @property
        def token(self):
            return self.rows.token

        def __len__(self):
            return len(self.rows) + 1

    rate_in_c = rebuild._rate_in_c

    def lossy_in_c(*args, **kwargs):
        for batch in rate_in_c(*args, **kwargs):
            yield Longer(batch)

    assert bulk.seats_from_c(len(rebuild.COLUMNS))
    with (
        mock.patch.object(rebuild, "_rate_in_c", lossy_in_c),
        pytest.raises(DatabaseError, match="rows inserted of"),
    ):
        rebuild.rebuild_club(ana.club_id)
    assert list(RatingChange.objects.order_by("id").values_list("id", *rebuild.COLUMNS)) == before


def test_sqlite_rows_from_c_only_where_referee_rows_is(record, four, monkeypatch):
    """bulk writes from C only with SQLiteRows built, rows that fit referee_rows's columns,
    and the function on the connection (registered on those opened after the C module);
    otherwise by executemany, the same rows."""
    from django.db import connection

    from games.ratings import bulk

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's inserts")
    _sqlite_rows()
    ana, ben, _, _ = four
    record("punto", [(ana, 3, True), (ben, 1, False)], day=1)
    assert bulk._rows_from_c(len(rebuild.COLUMNS))
    assert not bulk._rows_from_c(native.SQLITE_ROWS_COLUMNS + 1)
    with mock.patch.object(bulk, "_native", None):
        assert not bulk._rows_from_c(3)
    rebuild.rebuild_club(ana.club_id)
    from_c = list(RatingChange.objects.order_by("id").values_list("id", *rebuild.COLUMNS))
    monkeypatch.setattr(bulk, "ROWS_FUNCTION", "referee_rows_not_registered")
    assert not bulk._rows_from_c(3)
    rebuild.rebuild_club(ana.club_id)
    assert list(RatingChange.objects.order_by("id").values_list("id", *rebuild.COLUMNS)) == from_c


# The seats read into C (SQLiteSeats, referee_seats) and rated there (rebuild._rate_in_c) ------

SEATS_QUERY = (
    "SELECT play, game, at, player, rank, won, score, team FROM s WHERE play > ? ORDER BY rowid"
)


def _sqlite_seats():
    if getattr(native, "SQLiteSeats", None) is None:
        pytest.skip("built without SQLite's header (libsqlite3-dev)")
    return native.SQLiteSeats


def _seats_database(seats):
    """An SQLite database (opened after the C module: it has referee_seats) whose table s holds
    the seats in play order (by rowid); a time that SQLite does not store, as an integer."""
    import sqlite3

    database = sqlite3.connect(":memory:")
    database.execute("CREATE TABLE s (play, game, at, player, rank, won, score, team)")
    database.executemany(
        "INSERT INTO s VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(*seat[:2], at if isinstance(at := seat[2], str) else seat[0] * 1000, *seat[3:])
         for seat in seats],
    )  # fmt: skip
    return database


def _seat_reader(database, query=SEATS_QUERY, parameters=(0,)):
    """bulk.seat_reader's function, on a bare sqlite3 connection."""
    call = f"SELECT referee_seats(?, ?, ?{', ?' * len(parameters)})"

    def read(token, limit):
        (count,) = database.execute(call, [token, limit, query, *parameters]).fetchone()
        return count

    return read


def _stored_rows(database, table, batches):
    """The rows as SQLite stores them, written as bulk.insert_from_c writes them (SQLiteRows by
    INSERT … SELECT from referee_rows, lists by executemany), read back in order, each value's
    type and bits."""
    width = len(rebuild.COLUMNS)
    columns = ", ".join(f"c{index}" for index in range(width))
    database.execute(f"CREATE TABLE {table} ({columns})")
    for batch in batches:
        if isinstance(batch, list):
            database.executemany(f"INSERT INTO {table} VALUES ({', '.join(['?'] * width)})", batch)
        else:
            cursor = database.execute(
                f"INSERT INTO {table} SELECT {columns} FROM referee_rows(?)", [batch.token]
            )
            assert cursor.rowcount == len(batch)
    typed = ", ".join(f"typeof(c{index})" for index in range(width))
    return [
        [_bits(value) for value in row]
        for row in database.execute(f"SELECT {columns}, {typed} FROM {table} ORDER BY rowid")
    ]


def _run_in_c(database, batch_size, rows_size, reader=None):
    states = totals.States(RatingChange, None)
    tally = totals.Pairs()
    partners = totals.Partners(None, None)
    batches = list(
        rebuild._rate_in_c(
            7,
            reader or _seat_reader(database),
            states,
            tally,
            partners,
            COOPERATIVE,
            batch_size=batch_size,
            rows_size=rows_size,
        )
    )
    return batches, dict(states), tally.beaten, tally.tied, tally.pairs, partners.rows


def _fresh():
    return totals.States(RatingChange, None), totals.Pairs(), totals.Partners(None, None)


def _same_states(ours, reference):
    def bits(states):
        return {key: [_bits(value) for value in state] for key, state in states.items()}

    assert bits(ours) == bits(reference)


@pytest.mark.parametrize("seed", range(25))
def test_the_seats_read_in_c_rate_as_the_tuples(seed):
    """_rate_in_c, the seats read into C in batches (cut in the middle of plays) and rated there
    into SQLiteRows, gives the rows of _rate on the same seats as the sqlite3 module reads them
    (the C loop on tuples, and Python alone), stored alike to the last bit, in the same order;
    the same states, head-to-head counts and partner rows; only the plays with partners rated
    by _rate_play, from tuples."""
    _sqlite_seats()
    rng = random.Random(seed)
    seats = _random_seats(rng, rng.choice([1, 30, 400]))
    # Now and then a cooperative play's seats as one team (its rows carry it).
    seats = [
        (*seat[:7], 1) if seat[1] in COOPERATIVE and seat[0] % 4 == 0 else seat for seat in seats
    ]
    # Now and then a player seated twice (a play the C loop leaves to Python, which counts its
    # pairs in the same dicts).
    for index in range(1, len(seats)):
        seat, before = seats[index], seats[index - 1]
        if seat[0] == before[0] and seat[0] % 7 == 0 and seat[7] is None and before[7] is None:
            seats[index] = (*seat[:3], before[3], *seat[4:])
    database = _seats_database(seats)
    seats = database.execute(SEATS_QUERY, [0]).fetchall()
    batch_size = rng.choice([1, 2, 3, 5, 8, 50, 10_000])
    rows_size = rng.choice([1, 4, 60, 20_000])
    with mock.patch.object(rebuild, "_rate_play", wraps=rebuild._rate_play) as in_python:
        ours = _run_in_c(database, batch_size, rows_size)
    partnered = {seat[0] for seat in seats if seat[7] is not None and seat[1] not in COOPERATIVE}
    twice = {a[0] for a, b in itertools.pairwise(seats) if a[0] == b[0] and a[3] == b[3]}
    assert in_python.call_count == len(partnered | twice)
    assert all(not isinstance(batch, list) for batch in ours[0])  # every row through C
    rows = _stored_rows(database, "ours", ours[0])
    assert len(rows) == len(seats)
    for use_native in (True, False):
        states, tally, partners = _fresh()
        rated = rebuild._rate(
            7,
            _batches(rng, seats),
            states,
            tally,
            partners,
            COOPERATIVE,
            native=native if use_native else None,
        )
        assert rows == _stored_rows(database, f"reference{use_native:d}", list(rated))
        _same_states(ours[1], states)
        assert ours[2:] == (tally.beaten, tally.tied, tally.pairs, partners.rows)
        # The pairs in the order first met (the head-to-head records' order, and ids, follow).
        for counted, reference in zip(
            ours[2:5], (tally.beaten, tally.tied, tally.pairs), strict=True
        ):
            assert list(counted.items()) == list(reference.items())


@pytest.mark.parametrize("seed", range(5))
def test_referee_seats_reads_the_querys_rows_in_its_order(seed):
    """referee_seats steps the query it is given, in batches: the seats read (in C, then as
    tuples) are the rows the sqlite3 module fetches from the same query, in its order, every
    type as the sqlite3 module makes it, texts kept across batches; fewer than asked once
    done, then none."""
    import sqlite3

    seats_type = _sqlite_seats()
    rng = random.Random(seed)
    database = sqlite3.connect(":memory:")
    database.execute("CREATE TABLE s (k, play, game, at, player, rank, won, score, team)")
    values = [None, 0, -(2**63), 2**63 - 1, 1.5, -0.0, "", "é—✓", "a" * 300, b"", b"\x00b"]
    rows = []
    for k in range(rng.randint(0, 300)):
        game = rng.choice(["punto", "thricewise", "é—✓", ""])
        rows.append((rng.randint(0, 20), k // 3, game, *(rng.choice(values) for _ in range(6))))
    rng.shuffle(rows)
    database.executemany("INSERT INTO s VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    query = (
        "SELECT play, game, at, player, rank, won, score, team FROM s WHERE k >= ?"
        " ORDER BY k DESC, play, game, rowid"
    )
    expected = database.execute(query, [3]).fetchall()
    seats = seats_type()
    read = _seat_reader(database, query, (3,))
    limit = rng.choice([1, 2, 7, 100, 1000])
    counts = [read(seats.token, limit)]
    while counts[-1] == limit:
        counts.append(read(seats.token, limit))
    assert sum(counts) == len(expected) and counts[-1] < limit
    assert seats.seats() == expected  # not rated: all kept, in order
    assert len(seats) == len(expected)
    assert read(seats.token, limit) == 0
    seats.close()
    assert len(seats) == 0 and seats.seats() == []


def test_referee_seats_runs_one_read_of_eight_columns():
    """referee_seats runs nothing but one read-only statement of the seats' eight columns with
    all its parameters; an unknown token, or none, reads nothing; not from a view."""
    import sqlite3

    seats_type = _sqlite_seats()
    database = sqlite3.connect(":memory:")
    database.execute("CREATE TABLE s (play, game, at, player, rank, won, score, team)")
    database.execute("INSERT INTO s VALUES (1, 'punto', 't', 1, 1, 1, 3, NULL)")
    call = "SELECT referee_seats(?, ?, ?{})"
    for sql, parameters in [
        ("SELECT play, game FROM s", []),  # two columns
        ("DELETE FROM s", []),
        ("SELECT * FROM s WHERE play = ?", []),  # a parameter missing
        ("SELECT * FROM s", [1]),  # one too many
        ("SELECT * FROM s; DELETE FROM s", []),
        ("SELECT * FROM nowhere", []),
        ("SELECT 'x', * FROM s", []),  # nine columns
        ("SELECT 'x', game, at, player, rank, won, score, team FROM s", []),  # a text play id
    ]:
        seats = seats_type()
        with pytest.raises(sqlite3.OperationalError, match="referee_seats"):
            database.execute(
                call.format(", ?" * len(parameters)), [seats.token, 5, sql, *parameters]
            ).fetchone()
        assert len(seats) == 0
    seats = seats_type()
    for limit in (0, -1, "5", 2**25):
        with pytest.raises(sqlite3.OperationalError, match="limit"):
            database.execute(call.format(""), [seats.token, limit, "SELECT * FROM s"]).fetchone()
    for token in (None, seats.token + 1000, str(seats.token)):
        assert database.execute(call.format(""), [token, 5, "SELECT * FROM s"]).fetchone() == (
            None,
        )
    database.execute("CREATE VIEW v AS SELECT referee_seats(1, 1, 'SELECT * FROM s')")
    with pytest.raises(sqlite3.OperationalError, match="unsafe use"):
        database.execute("SELECT * FROM v").fetchall()
    assert database.execute("SELECT count(*) FROM s").fetchone() == (1,)


def test_rows_that_sqlite_rows_do_not_take_go_by_executemany():
    """A row of _rate_play's that SQLiteRows does not take (here a game stored as a blob, left
    to Python by the C loop): its batch is written by executemany, after the rows before it,
    and the rows are those of _rate."""
    _sqlite_seats()
    seats = [
        (1, "punto", "t1", 1, 1, 1, 5, None),
        (1, "punto", "t1", 2, 2, 0, 3, None),
        (2, b"punto", "t2", 1, 1, 1, 5, None),
        (2, b"punto", "t2", 2, 2, 0, 3, None),
        (3, "punto", "t3", 2, 1, 1, 5, None),
        (3, "punto", "t3", 1, 2, 0, 3, None),
    ]
    database = _seats_database(seats)
    ours = _run_in_c(database, 4, 20_000)
    assert [type(batch).__name__ for batch in ours[0]] == ["SQLiteRows", "list", "SQLiteRows"]
    reference = rebuild._rate(7, [seats], *_fresh(), COOPERATIVE)
    assert _stored_rows(database, "ours", ours[0]) == _stored_rows(
        database, "reference", list(reference)
    )


@pytest.mark.parametrize("seed", range(4))
def test_a_full_rebuild_on_sqlite_reads_its_seats_in_c_to_the_same_rows(club, night, seed):
    """A full rebuild on SQLite reads its seats into C (referee_seats) and rates them there:
    the rating rows (ids and order too), head-to-head records and partner rows of the seats
    read as tuples, on a random history whose plays were recorded out of order (ids not in time
    order, plays ending together, seats stored out of position), with partners, cooperative
    games, ties; read in batches that cut plays."""

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.models import HeadToHead, PartnerChange, Seat
    from games.ratings import bulk
    from tests.stats.conftest import random_history

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's seats read into C")
    _sqlite_seats()
    assert bulk.seats_from_c(len(rebuild.COLUMNS))
    rng = random.Random(seed)
    random_history(club, night, rng, plays=60, minutes=30)  # many end together

    def stored():
        return (
            list(RatingChange.objects.order_by("id").values_list("id", *rebuild.COLUMNS)),
            sorted(HeadToHead.objects.values_list("player_id", "opponent_id", "scope",
                                                  *totals.PAIR_TOTALS)),
            list(PartnerChange.objects.order_by("id").values_list(*totals.PARTNER_COLUMNS)),
        )  # fmt: skip

    with (
        mock.patch.object(bulk, "BATCH_SIZE", rng.choice([1, 2, 3, 5])),
        mock.patch.object(bulk, "COPY_BATCH_SIZE", rng.choice([1, 4, 7])),
        CaptureQueriesContext(connection) as queries,
    ):
        rebuild.rebuild_club(club.pk)
    reads = [q["sql"] for q in queries.captured_queries if "referee_seats(" in q["sql"]]
    assert len(reads) > 10  # in C, in batches
    in_c = stored()
    assert len(in_c[0]) == Seat.objects.count() and in_c[2]
    with mock.patch.object(bulk, "seats_from_c", return_value=False):
        rebuild.rebuild_club(club.pk)
    assert stored() == in_c


def test_sqlite_rows_made_with_room_for_some_rows_take_more():
    """SQLiteRows(columns, capacity): room made at once for ``capacity`` rows (a rebuild's
    batch, in one block), and more rows taken all the same."""
    import sqlite3

    rows_type = _sqlite_rows()
    for capacity in (-1, 2**24 + 1):
        with pytest.raises(ValueError):
            rows_type(2, capacity)
    rows = rows_type(2, 3)
    rows.extend([(index, f"row {index}") for index in range(5)])
    rows.extend([(5, None)])
    database = sqlite3.connect(":memory:")
    assert database.execute("SELECT c0, c1 FROM referee_rows(?)", [rows.token]).fetchall() == [
        *[(index, f"row {index}") for index in range(5)],
        (5, None),
    ]
