"""BG Stats both ways on a 5,000-play file (issue 31): the time to read it, to bring it into an
empty club (players, games, nights and plays written, ratings rebuilt), to read it again into
the same club (nothing added), and to write the club back out as a BG Stats file; on SQLite and
on PostgreSQL, each a throwaway database.

    .venv/bin/python benchmarks/bench_bgstats.py [PLAYS]

The file is made here, the same every run (a seeded generator): 40 players, 60 games (a few
co-operative, some lowest-wins, some without points, some in teams), plays of 2 to 6 players
over four years, scores as numbers, sums ("6+10-3"), decimals or none, an ignored play in 50.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG_URL = "postgres://postgres@127.0.0.1:5432/"


def make_export(count: int) -> dict:
    rng = random.Random(31)
    players = [
        {"id": i * 3 + 1, "uuid": str(uuid.UUID(int=rng.getrandbits(128))).upper(),
         "name": f"Player {i:02d}", "isAnonymous": False}
        for i in range(40)
    ]  # fmt: skip
    games = []
    for i in range(60):
        kind = i % 10
        games.append(
            {
                "id": i * 2 + 5,
                "uuid": str(uuid.UUID(int=rng.getrandbits(128))),
                "name": f"Game {i:02d}",
                "bggId": 1000 + i,
                "cooperative": kind == 0,
                "highestWins": kind != 1,
                "noPoints": kind == 2,
                "usesTeams": kind == 3,
            }
        )
    plays = []
    for n in range(count):
        game = rng.choice(games)
        seated = rng.sample(players, rng.randint(2, 6 if not game["usesTeams"] else 4) & ~1
                            if game["usesTeams"] else rng.randint(2, 6))  # fmt: skip
        scores = []
        values = [rng.randint(-5, 120) for _ in seated]
        best = (max if game["highestWins"] else min)(values)
        for index, (player, value) in enumerate(zip(seated, values, strict=True)):
            if game["noPoints"]:
                text = ""
            elif n % 7 == 0:
                text = f"{value - 3}+5-2"
            elif n % 11 == 0:
                text = f"{value}.5"
            else:
                text = str(value)
            scores.append(
                {
                    "playerRefId": player["id"],
                    "score": text,
                    "winner": (n % 3 == 0) if game["cooperative"] else value == best,
                    "rank": 0,
                    "team": ("Red" if index % 2 else "Blue") if game["usesTeams"] else "",
                    "startPlayer": index == 0,
                    "seatOrder": index,
                }
            )
        if game["usesTeams"]:
            red_won = n % 2 == 0
            for score in scores:
                score["winner"] = (score["team"] == "Red") == red_won
                score["score"] = ""
        day = 1 + n * 1460 // count
        plays.append(
            {
                "uuid": str(uuid.UUID(int=rng.getrandbits(128))),
                "playDate": f"{2021 + (day - 1) // 365}-{1 + ((day - 1) % 365) // 31 % 12:02d}-"
                f"{1 + (day - 1) % 28:02d} {18 + n % 5}:{n % 60:02d}:00",
                "durationMin": rng.choice([0, 15, 30, 45, 60, 90]),
                "ignored": n % 50 == 0,
                "gameRefId": game["id"],
                "locationRefId": 1 + n % 3,
                "usesTeams": game["usesTeams"],
                "comments": "",
                "playerScores": scores,
            }
        )
    return {
        "players": players,
        "games": games,
        "locations": [{"id": i, "name": f"Place {i}"} for i in (1, 2, 3)],
        "plays": plays,
    }


def measure(label: str, path: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games import services
    from games.bgstats.reader import read_bytes
    from games.bgstats.writer import export_club
    from games.models import Play, RatingChange
    from games.services.bgstats import import_bgstats

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-pass-123")
    club = services.create_club(name="Bench club", owner=user)
    data = Path(path).read_bytes()
    start = time.perf_counter()
    export = read_bytes(data)
    read = time.perf_counter() - start
    start = time.perf_counter()
    summary = import_bgstats(club=club, export=export)
    imported = time.perf_counter() - start
    start = time.perf_counter()
    again = import_bgstats(club=club, export=read_bytes(data))
    reimported = time.perf_counter() - start
    start = time.perf_counter()
    text = json.dumps(export_club(club), ensure_ascii=False)
    exported = time.perf_counter() - start
    print(
        f"{label}: file {len(data) / 1e6:.1f} MB, {len(export.plays)} plays | read {read:.2f} s"
        f" | import {imported:.2f} s ({summary.added} added, "
        f"{RatingChange.objects.filter(club=club).count()} rating rows)"
        f" | again {reimported:.2f} s ({again.added} added, {again.already} already)"
        f" | export {exported:.2f} s ({len(text) / 1e6:.1f} MB,"
        f" {Play.objects.filter(club=club).count()} plays)"
    )


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--measure":
        measure(sys.argv[2], sys.argv[3])
        return
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "BGStatsExport.json"
        path.write_text(json.dumps(make_export(count)))
        runs = [("SQLite", f"sqlite:///{tmp}/bench.sqlite3")]
        dbname = "bench_bgstats_night"
        made = subprocess.run(
            ["psql", PG_URL + "postgres", "-qc", f"CREATE DATABASE {dbname}"], capture_output=True
        )
        if made.returncode == 0:
            runs.append(("PostgreSQL", PG_URL + dbname))
        try:
            for label, url in runs:
                subprocess.run(
                    [sys.executable, __file__, "--measure", label, str(path)],
                    check=True,
                    env={**os.environ, "DATABASE_URL": url, "DEBUG": "0"},
                    cwd=ROOT,
                )
        finally:
            if made.returncode == 0:
                subprocess.run(
                    ["psql", PG_URL + "postgres", "-qc", f"DROP DATABASE {dbname}"],
                    capture_output=True,
                )


if __name__ == "__main__":
    main()
