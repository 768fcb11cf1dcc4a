"""The rebuild's hot loop in C (games/ratings/_native.c, built by ``make``) gives the rows, the
players' states, the head-to-head counts and the partner rows of the pure-Python loop
(``rebuild._rate_play``, its reference and its fallback), to the last bit, on random histories
read in random batches; and a rebuild gives the same rows with it and without it.

The C loop is built by ``make test`` (bin/build-native); run without it, the comparisons are
skipped, except in CI (``CI`` set), where a missing build fails."""

import datetime
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
    insert = bulk.insert

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return insert(*args, **kwargs)

    assert gc.isenabled()
    with mock.patch.object(bulk, "insert", watched):
        rebuild.rebuild_club(ana.club_id)
    assert seen[0] is False  # the rating rows
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
