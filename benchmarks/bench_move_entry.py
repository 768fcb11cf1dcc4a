"""Server time of one move entry (POST → referee → store → rendered htmx fragment) on a play
with 30 moves already logged, next to a bare Django view, on SQLite and on PostgreSQL.

Run by `make bench` (benchmarks/run.py). Each database is a throwaway one.
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
RUNS = 300


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.conf import settings

    settings.SECURE_SSL_REDIRECT = False
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95)] * 1000


def measure(label: str) -> str:
    import datetime

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games import services
    from games.models import Move, Play

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-pass-123")
    club = services.create_club(name="Bench club", owner=user)
    log = json.loads((ROOT / "benchmarks" / "logs" / "punto-bench.json").read_text())
    next_move = log["moves"][30]
    log["moves"] = log["moves"][:30]
    night = services.create_game_night(club=club, date=datetime.date.today())
    play = services.import_log(club=club, log=log, night=night)
    client = Client()
    client.force_login(user)
    url = f"/plays/{play.pk}/move/"

    def form() -> dict:
        # The form carries the play's version, which every entry (and its clean-up) moves on.
        version = Play.objects.values_list("version", flat=True).get(pk=play.pk)
        return {"move_json": json.dumps(next_move), "version": version}

    def enter() -> float:
        data = form()
        start = time.perf_counter()
        response = client.post(url, data, headers={"HX-Request": "true"})
        elapsed = time.perf_counter() - start
        assert response.status_code == 200 and b"move-error" not in response.content, response
        # Put the play back as it was (benchmark clean-up, outside the measured time).
        Move.objects.filter(play=play, seq=30).delete()
        services.rejudge(play)
        return elapsed

    def bare() -> float:
        start = time.perf_counter()
        response = client.get("/healthz")
        elapsed = time.perf_counter() - start
        assert response.status_code == 200
        return elapsed

    for _ in range(20):  # warm up
        enter()
        bare()
    entries = [enter() for _ in range(RUNS)]
    bares = [bare() for _ in range(RUNS)]
    data = form()
    with CaptureQueriesContext(connection) as queries:
        client.post(url, data, headers={"HX-Request": "true"})
    Move.objects.filter(play=play, seq=30).delete()
    services.rejudge(play)
    entry_median, entry_p95 = percentiles(entries)
    bare_median, bare_p95 = percentiles(bares)
    return (
        f"| {label} | {entry_median:.1f} ms | {entry_p95:.1f} ms | {bare_median:.2f} ms | "
        f"{bare_p95:.2f} ms | {entry_p95 / bare_p95:.1f}× | {len(queries)} |"
    )


def main() -> None:
    import subprocess

    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        setup_django(sys.argv[2])
        label = "SQLite" if sys.argv[2].startswith("sqlite") else "PostgreSQL"
        print(measure(label))
        return
    print("## Move entry: one POST on a play with 30 moves logged (Punto, htmx fragment)\n")
    print(f"{RUNS} entries each; server time in-process (Django test client), no network.\n")
    print(
        "| database | entry median | entry p95 | bare view median | bare view p95 | "
        "p95 ratio | queries per entry |"
    )
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        urls = [f"sqlite:///{tmp}/bench.sqlite3"]
        dbname = f"referee_bench_{os.getpid()}"
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
    print("\nTarget: p95 under 25 ms and within 5× the bare view; a constant number of queries.")


if __name__ == "__main__":
    main()
