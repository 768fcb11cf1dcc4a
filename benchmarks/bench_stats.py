"""History and leaderboards at club scale: 200 players, 100,000 finished plays (issue 9).

Run by benchmarks/run.py (or alone: `.venv/bin/python benchmarks/bench_stats.py`). For each
database — a temporary SQLite file, and a throwaway PostgreSQL database on
postgres://postgres@127.0.0.1:5432 when it answers — a child process migrates, writes the club
straight to its tables (seconds; not measured), then measures: the leaderboard page and a player
page (server time through the Django test client, median and p95), a full rating rebuild (wall
time), and the rebuild's peak Python memory (tracemalloc, a second run). Prints Markdown.

Options: `--plays N` (default 100000), `--only sqlite|postgres`.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
PLAYERS = 200
#: game → (fewest, most) seats, and how often it is played
GAMES = {
    "thricewise": ((2, 5), 0.25),
    "forget-venice": ((3, 3), 0.2),
    "punto": ((2, 4), 0.2),
    "buntherum": ((3, 5), 0.15),
    "three-high": ((2, 4), 0.2),
}
TARGET_PAGE_MS, TARGET_REBUILD_S, TARGET_MEMORY_MB = 200, 20, 500


def child(database_url: str, label: str, plays: int) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", "benchmark-only-" + "x" * 50)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from games import ratings

    setup_test_environment()  # lets the test client in (ALLOWED_HOSTS)
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    club, user, busy = generate(plays)
    generated = time.perf_counter() - started

    start = time.perf_counter()
    rated = ratings.rebuild_club(club.pk)
    rebuild_s = time.perf_counter() - start
    tracemalloc.start()
    ratings.rebuild_club(club.pk)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    peak_mb = peak / 2**20

    client = Client()
    client.force_login(user)
    pages = [
        ("leaderboard, all games", reverse("leaderboard", args=[club.pk])),
        ("leaderboard, Punto, as at a past date, min 20 plays",
         reverse("leaderboard-game", args=[club.pk, "punto"]) + "?as_of=2025-06-30&min_plays=20"),
        ("player page (the busiest player)", reverse("player", args=[busy])),
    ]  # fmt: skip
    rows = []
    for what, url in pages:
        timings = []
        for index in range(33):
            start = time.perf_counter()
            response = client.get(url, secure=True)
            elapsed = (time.perf_counter() - start) * 1000
            assert response.status_code == 200, (url, response.status_code)
            if index >= 3:  # warm-up
                timings.append(elapsed)
        timings.sort()
        p95 = timings[int(len(timings) * 0.95) - 1]
        rows.append(
            f"| {label} | {what} | {statistics.median(timings):.0f} ms | {p95:.0f} ms "
            f"| < {TARGET_PAGE_MS} ms |"
        )
    rows.append(
        f"| {label} | full rating rebuild ({rated:,} rating rows) | {rebuild_s:.1f} s | "
        f"| < {TARGET_REBUILD_S} s |"
    )
    rows.append(
        f"| {label} | peak Python memory of the rebuild (tracemalloc) | {peak_mb:.0f} MB | "
        f"| < {TARGET_MEMORY_MB} MB |"
    )
    rows.append(f"| {label} | (generating {plays:,} plays, not measured) | {generated:.0f} s | | |")
    print("\n".join(rows), flush=True)


PER_NIGHT = 50


def nights_for(count: int) -> int:
    """How many game nights ``count`` plays take (PER_NIGHT a night)."""
    return (count + PER_NIGHT - 1) // PER_NIGHT


def generate(count: int, *, first_day: datetime.date = datetime.date(2024, 1, 1)):
    """A club with PLAYERS players and ``count`` finished plays, results as the referee derives
    them: winners rank 1, the others by score; 3-High wins or loses as one table.

    Plays and seats are written straight to their tables (COPY on PostgreSQL, executemany
    elsewhere) with the plays' ids chosen here: model instances and the ORM's INSERT compiler
    cost minutes at this size. The random draws are the same, in the same order, as when they
    were bulk-created, so the data are too."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.db.models import Max

    from games.models import Club, GameNight, Membership, Play, Player, Seat

    rng = random.Random(9)
    user = get_user_model().objects.create_user("bench", password="bench-pass-123")
    club = Club.objects.create(name="Bench club")
    Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
    players = Player.objects.bulk_create(
        Player(club=club, name=f"Player {index:03d}") for index in range(PLAYERS)
    )
    player_ids = [player.pk for player in players]
    # Some players come far more often than others.
    weights = [1 / (1 + index / 20) for index in range(PLAYERS)]
    cum_weights = list(itertools.accumulate(weights))  # what choices() computes on each call
    per_night = PER_NIGHT
    nights = GameNight.objects.bulk_create(
        GameNight(club=club, date=first_day + datetime.timedelta(days=index))
        for index in range(nights_for(count))
    )
    games = list(GAMES)
    game_cum_weights = list(itertools.accumulate(GAMES[game][1] for game in games))
    seat_range = range(PLAYERS)
    next_id = (Play.objects.aggregate(last=Max("id"))["last"] or 0) + 1
    batch = 5000  # the draws of a batch's plays, then of their seats, as before
    with transaction.atomic():
        for offset in range(0, count, batch):
            plays, tables = [], []
            for index in range(offset, min(count, offset + batch)):
                night = nights[index // per_night]
                game = rng.choices(games, cum_weights=game_cum_weights)[0]
                low, high = GAMES[game][0]
                table = set()
                while len(table) < rng.randint(low, high):
                    table.add(rng.choices(seat_range, cum_weights=cum_weights)[0])
                start = datetime.datetime.combine(
                    night.date, datetime.time(19, 0), tzinfo=datetime.UTC
                ) + datetime.timedelta(minutes=4 * (index % per_night))
                end = start + datetime.timedelta(minutes=rng.randint(10, 40))
                plays.append(
                    (next_id, club.pk, night.pk, game, "refereed", "", "", "{}", "finished",
                     start, end, "{}", 0, "")
                )  # fmt: skip
                tables.append(sorted(table))
                next_id += 1
            seats = []
            for play, table in zip(plays, tables, strict=True):
                seats.extend(seat_results(play[0], play[3], [player_ids[i] for i in table], rng))
            _write(connection, Play, PLAY_COLUMNS, plays)
            _write(connection, Seat, SEAT_COLUMNS, seats)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                table = Play._meta.db_table
                cursor.execute(
                    "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [table, next_id - 1]
                )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # as autovacuum would soon after such a load
    busy = players[0].pk
    return club, user, busy


#: Every column without a default in the database (Django's defaults are not the database's).
PLAY_COLUMNS = (
    "id", "club", "night", "game", "kind", "notes", "bgstats_uuid", "setup", "status",
    "started_at", "ended_at", "details", "version", "kept",
)  # fmt: skip
SEAT_COLUMNS = ("play", "position", "player", "score", "rank", "is_winner")


def _write(connection, model, fields, rows):
    opts = model._meta
    quote = connection.ops.quote_name
    table = quote(opts.db_table)
    columns = ", ".join(quote(opts.get_field(name).column) for name in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            adapt = connection.ops.adapt_datetimefield_value
            times = [
                index
                for index, name in enumerate(fields)
                if opts.get_field(name).get_internal_type() == "DateTimeField"
            ]
            if times:
                rows = [
                    tuple(adapt(v) if i in times else v for i, v in enumerate(row)) for row in rows
                ]
            marks = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)


def seat_results(play, game, players, rng):
    """The seats of a play as (play, position, player, score, rank, is_winner) rows."""
    if game == "three-high":
        won = rng.random() < 0.45
        score = rng.randint(0, 6)
        return [(play, i, p, score, 1, won) for i, p in enumerate(players)]
    high = {"thricewise": 30, "forget-venice": 40, "punto": 2, "buntherum": 9}[game]
    scores = [rng.randint(0, high) for _ in players]
    if game == "punto":
        scores[rng.randrange(len(scores))] = 3  # the match winner
    best = max(scores)
    winners = [score == best for score in scores]
    return [
        (
            play,
            i,
            p,
            score,
            1
            + sum(
                1
                for other, other_won in zip(scores, winners, strict=True)
                if (other_won and not won) or (other_won == won and other > score)
            ),
            won,
        )
        for i, (p, score, won) in enumerate(zip(players, scores, winners, strict=True))
    ]


def postgres_available() -> bool:
    try:
        import psycopg

        psycopg.connect(f"{PG_SERVER}/postgres", connect_timeout=3).close()
        return True
    except Exception:
        return False


def run_child(url: str, label: str, plays: int) -> None:
    result = subprocess.run(
        [sys.executable, __file__, "--child", url, "--label", label, "--plays", str(plays)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if result.returncode:
        print(f"| {label} | failed: {result.stderr.strip().splitlines()[-1:]} | | | |", flush=True)
    else:
        print(result.stdout.strip(), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plays", type=int, default=100_000)
    parser.add_argument("--only", choices=["sqlite", "postgres"])
    parser.add_argument("--child")
    parser.add_argument("--label")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.label, args.plays)
        return
    print(
        f"## History and leaderboards: {PLAYERS} players, {args.plays:,} finished plays "
        "(server time through the Django test client, 30 requests after 3 warm-ups)\n"
    )
    print("| database | what | median | p95 | target |\n|---|---|---|---|---|", flush=True)
    if args.only in (None, "sqlite"):
        with tempfile.TemporaryDirectory(prefix="bench-stats-") as workdir:
            run_child(f"sqlite:///{workdir}/bench.sqlite3", "SQLite", args.plays)
    if args.only in (None, "postgres"):
        if not postgres_available():
            print(f"| PostgreSQL | not measured: no server at {PG_SERVER} | | | |")
            return
        import psycopg

        name = f"referee_bench_stats_{os.getpid()}"
        with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        try:
            run_child(f"{PG_SERVER}/{name}", "PostgreSQL", args.plays)
        finally:
            with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
