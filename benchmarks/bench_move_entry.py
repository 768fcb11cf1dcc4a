"""Server time of one move entry (POST → referee → store → rendered htmx fragment) on a play
with 30 moves already logged, next to its floor (benchmarks/floor.py: a logged-in view running
one transaction with an INSERT and two UPDATEs and rendering a small template), on SQLite and
on PostgreSQL (issue 19's target: median and p95 within 2× the floor's, measured in the same
run; at most 8 SQL statements per entry).

Run by `make bench` (benchmarks/run.py). Each database is a throwaway one. Entries and floor
requests alternate, so that both see the same machine. The entry posts what the page's move
form carries (its hidden fields, read by name); the play is put back after each entry, outside
the measured time. Statements are counted as Django records them, less the transaction's BEGIN
and COMMIT (the floor has them too).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG_URL = "postgres://postgres@127.0.0.1:5432/"
RUNS = int(os.environ.get("BENCH_RUNS", "300"))
#: Transaction control, not counted as statements.
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.conf import settings

    settings.SECURE_SSL_REDIRECT = False
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.ROOT_URLCONF = "benchmarks.floor"


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95)] * 1000


def statements(queries) -> int:
    return sum(1 for q in queries.captured_queries if not q["sql"].startswith(CONTROL))


def measure(label: str) -> str:
    import datetime

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from benchmarks.forms import hidden_fields
    from games import services
    from games.models import Move

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-pass-123")
    club = services.create_club(name="Bench club", owner=user)
    log = json.loads((ROOT / "benchmarks" / "logs" / "punto-bench.json").read_text())
    next_move = log["moves"][30]
    log["moves"] = log["moves"][:30]
    night = services.create_game_night(club=club, date=datetime.date.today())
    play = services.import_log(club=club, log=log, night=night)
    other = services.import_log(club=club, log=log, night=night)  # the floor's
    client = Client()
    client.force_login(user)
    url = f"/plays/{play.pk}/move/"
    floor_url = f"/bench/floor/{other.pk}/"

    def form() -> dict:
        fields = hidden_fields(client.get(f"/plays/{play.pk}/").content, "move-form")
        return {**fields, "move_json": json.dumps(next_move)}

    def put_back() -> None:
        Move.objects.filter(play=play, seq=30).delete()
        services.rejudge(play)

    def enter(data: dict) -> float:
        start = time.perf_counter()
        response = client.post(url, data, headers={"HX-Request": "true"})
        elapsed = time.perf_counter() - start
        assert response.status_code == 200 and b"move-error" not in response.content, response
        return elapsed

    def floor() -> float:
        start = time.perf_counter()
        response = client.post(floor_url, {"club": club.pk, "version": 1})
        elapsed = time.perf_counter() - start
        assert response.status_code == 200 and b'id="floor"' in response.content, response
        return elapsed

    entries, floors = [], []
    for index in range(20 + RUNS):
        data = form()
        entry = enter(data)
        put_back()
        if index >= 20:  # the first 20 warm up
            entries.append(entry)
            floors.append(floor())
        else:
            floor()
    data = form()
    with CaptureQueriesContext(connection) as queries:
        enter(data)
    put_back()
    with CaptureQueriesContext(connection) as floor_queries:
        floor()
    entry_median, entry_p95 = percentiles(entries)
    floor_median, floor_p95 = percentiles(floors)
    return (
        f"| {label} | {entry_median:.1f} ms | {entry_p95:.1f} ms | {floor_median:.1f} ms | "
        f"{floor_p95:.1f} ms | {entry_median / floor_median:.1f}× / {entry_p95 / floor_p95:.1f}× "
        f"| {statements(queries)} ({statements(floor_queries)}) | {os.getloadavg()[0]:.1f} |"
    )


def main() -> None:
    import subprocess

    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        setup_django(sys.argv[2])
        label = "SQLite" if sys.argv[2].startswith("sqlite") else "PostgreSQL"
        print(measure(label))
        return
    print("## Move entry: one POST on a play with 30 moves logged (Punto, htmx fragment)\n")
    print(
        f"{RUNS} entries each, alternating with the floor view; server time in-process "
        "(Django test client), no network.\n"
    )
    print(
        "| database | entry median | entry p95 | floor median | floor p95 | "
        "entry / floor (median / p95) | statements per entry (floor) | load average |"
    )
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        urls = [f"sqlite:///{tmp}/bench.sqlite3"]
        dbname = f"{os.environ.get('BENCH_PG_PREFIX', 'referee_bench')}_{os.getpid()}"
        pg = subprocess.run(
            ["psql", PG_URL + "postgres", "-qc", f"CREATE DATABASE {dbname}"], capture_output=True
        )
        if pg.returncode == 0:
            urls.append(PG_URL + dbname)
        try:
            for url in urls:
                result = subprocess.run(
                    [sys.executable, __file__, "--one", url],
                    capture_output=True,
                    text=True,
                    cwd=ROOT,
                )
                print(result.stdout.strip() or f"| {url} | failed: {result.stderr[-300:]} |")
        finally:
            if pg.returncode == 0:
                subprocess.run(
                    ["psql", PG_URL + "postgres", "-qc", f"DROP DATABASE {dbname}"],
                    capture_output=True,
                )
    print(
        "\nTarget: median and p95 within 2× the floor's; at most 8 statements, constant in "
        "the log's length and the club's size."
    )


if __name__ == "__main__":
    main()
