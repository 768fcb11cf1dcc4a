"""make bench-scale: what the pages and move entry cost as a club's history grows (issue 19).

For each size (default 10,000, 100,000 and 1,000,000 finished plays; 200 players, the data of
benchmarks/bench_stats.py, dated so that the history ends yesterday) and each database (a
temporary SQLite file; a throwaway PostgreSQL database on postgres://postgres@127.0.0.1:5432 when
it answers), three child processes in turn:

1. **generate** the club (written straight to its tables; not measured);
2. **rebuild** every rating from scratch in a fresh process: wall time, and the process's peak
   resident memory (``ru_maxrss``, the whole Django process, not only the Python heap);
   ``--rater openskill`` times a second rebuild with openskill's own ``rate()`` in place of the
   project's copy of it (issue 18);
3. **measure**, server time in-process through the Django test client (3 warm-ups, then
   ``--runs`` requests, median and p95): the move that finishes a Punto play (the club's two
   busiest players, at the table tonight; the play is put back in progress after each, outside
   the measured time), a mid-game Punto move (30 moves logged), the busiest player's page, a
   typical (the 100th busiest) player's page, the leaderboard (all games) and a game night's
   summary (50 plays).

Prints one Markdown table per database, sizes as columns. 1,000,000 plays take tens of minutes
(most of it generating the data). Options: ``--sizes 10000,100000``, ``--only sqlite|postgres``,
``--runs N``, ``--rater openskill``, ``--pg-prefix NAME`` (the throwaway database's name prefix),
``--keep DIR`` (generate each size's club once and keep it: a SQLite file in DIR, a PostgreSQL
database named after the prefix and the size; later runs with the same DIR skip generating, and
each run rebuilds and measures a copy of it), ``--no-measure`` (generate and rebuild only).

The rebuild's row also says where its wall time went: the process's CPU time, and its context
switches, voluntary (it waited: disk, the database server) and involuntary (the machine's other
processes took the core), and the time spent building the rating table's indexes and, on
SQLite, in the inserts (``executemany``, given rows already rated). When the seats were read
and rated by a thread of their own (games/ratings/bulk.py, made_beside): that thread's CPU time
and each side's waits for the other (``beside_*``); the inserts' CPU is then the process's,
both threads'. ``peak_before_indexes_mb``: the peak resident memory before the index builds.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_stats import PG_SERVER, postgres_available  # noqa: E402  (the same server, found the same way)

SIZES = (10_000, 100_000, 1_000_000)
WARM_UPS = 3


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ.setdefault("SECRET_KEY", "benchmark-only-" + "x" * 50)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings

    settings.SECURE_SSL_REDIRECT = False
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.ROOT_URLCONF = "benchmarks.floor"  # the site, and the floor view beside it


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# The children ---------------------------------------------------------------------------------


def step_generate(plays: int) -> dict:
    import datetime

    from bench_stats import generate, nights_for
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    first_day = datetime.date.today() - datetime.timedelta(days=nights_for(plays) + 1)
    generate(plays, first_day=first_day)
    return {"generate_s": time.perf_counter() - started}


def openskill_rate(teams, ranks):
    """The rating update by openskill's own ``rate()`` (as issue 18 asks), in the shape of
    ``games.ratings.rate_teams``: teams of (μ, σ), a rank per team → the teams' new (μ, σ)."""
    from games.ratings import MODEL

    rated = MODEL.rate(
        [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=list(ranks),
    )
    return [[(player.mu, player.sigma) for player in team] for team in rated]


def openskill_alone(mus, sigmas, ranks):
    """The same for a play without partners, in the shape of ``games.ratings.plackett_luce``."""
    teams = openskill_rate([[(mu, sigma)] for mu, sigma in zip(mus, sigmas, strict=True)], ranks)
    return [team[0][0] for team in teams], [team[0][1] for team in teams]


class Phases:
    """The rebuild's statements timed by kind (an execute wrapper): wall and CPU time of the
    index builds and of the inserts (each executemany, or INSERT … SELECT of rows copied into C,
    is given a batch of rows computed before it), and on SQLite the seats' reads into C."""

    def __init__(self) -> None:
        self.found: dict[str, list[float]] = {}

    def __call__(self, execute, sql, params, many, context):
        kind = "index" if sql.lstrip().upper().startswith("CREATE INDEX") else None
        # executemany, or one INSERT … SELECT a batch read from C (bulk._inserted_from_c)
        if sql.lstrip().upper().startswith("INSERT") and (many or "referee_rows" in sql):
            kind = "insert"
        if "referee_seats(" in sql:  # a batch of seats read into C (rebuild._rate_in_c)
            kind = "read"
        if kind is None:
            return execute(sql, params, many, context)
        if kind == "index" and "peak_before_indexes_mb" not in self.found:
            # the peak of the rows' phase (read, rate, insert), before the sorts' memory
            self.found["peak_before_indexes_mb"] = peak_rss_mb()
        started, cpu = time.perf_counter(), time.process_time()
        try:
            return execute(sql, params, many, context)
        finally:
            found = self.found.setdefault(kind, [0.0, 0.0])
            found[0] += time.perf_counter() - started
            found[1] += time.process_time() - cpu

    def out(self) -> dict:
        return {
            name if name.endswith("_mb") else f"{name}_s": value
            for name, value in self.found.items()
        }


def step_rebuild(rater: str) -> dict:
    from unittest import mock

    from django.db import connection

    from games import ratings
    from games.models import Club, RatingChange
    from games.ratings import bulk, rebuild, update

    club = Club.objects.get(name="Bench club")
    connection.ensure_connection()
    baseline = rss_mb()
    patches = []
    if rater == "openskill":  # every play rated by openskill's rate(), with or without partners
        patches = [
            mock.patch.object(update, "rate_teams", openskill_rate),
            mock.patch.object(update, "plackett_luce", openskill_alone),
            mock.patch.object(rebuild, "_native", None),  # not the C loop's own update
        ]
    with contextlib.ExitStack() as stack:
        for patch in patches:
            stack.enter_context(patch)
        phases = Phases()
        stack.enter_context(connection.execute_wrapper(phases))
        usage = resource.getrusage(resource.RUSAGE_SELF)
        started, cpu = time.perf_counter(), time.process_time()
        ratings.rebuild_club(club.pk)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        after = resource.getrusage(resource.RUSAGE_SELF)
        checkpointed = _checkpointed(connection, started)
    return {
        "rebuild_s": seconds,
        "rebuild_cpu_s": cpu,
        **checkpointed,
        "waits": after.ru_nvcsw - usage.ru_nvcsw,
        "preempted": after.ru_nivcsw - usage.ru_nivcsw,
        **phases.out(),
        # The seats read and rated by a thread of their own (bulk.made_beside), if they were.
        **{f"beside_{name}": value for name, value in bulk.beside_figures.items()},
        "rows": RatingChange.objects.filter(club=club).count(),
        "baseline_mb": baseline,
        "peak_mb": peak_rss_mb(),
    }


def _checkpointed(connection, started: float) -> dict:
    """On SQLite, when the rebuild left its WAL to the process's checkpointer thread
    (bulk.checkpoint_left_to_checkpointer): the wall time from the rebuild's start until a tick
    of the thread that began after it found the log all copied into the database file, and the
    CPU time the process spent meanwhile (the thread's copy, counted apart from the rebuild's)."""
    from games import checkpoints

    if connection.vendor != "sqlite":
        return {}
    thread = checkpoints.checkpointer(connection.settings_dict["NAME"])
    if thread is None or not thread.is_alive():
        return {}
    cpu = time.process_time()
    thread.last = None  # the ticks from now on only
    deadline = time.perf_counter() + 600
    while not (thread.last and thread.last[0] == 0 and thread.last[1] == thread.last[2]):
        if time.perf_counter() > deadline:
            return {"checkpointed_s": None}
        time.sleep(0.01)
    return {
        "checkpointed_s": time.perf_counter() - started,
        "checkpoint_after_cpu_s": time.process_time() - cpu,
    }


def _rename(value, names: dict[str, str]):
    """The log's players renamed (every string equal to a name, and every key)."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_rename(item, names) for item in value]
    if isinstance(value, dict):
        return {names.get(k, k): _rename(v, names) for k, v in value.items()}
    return value


def _timed(samples: list[float], runs: int, request) -> None:
    for index in range(WARM_UPS + runs):
        elapsed = request()
        if index >= WARM_UPS:
            samples.append(elapsed * 1000)


def step_measure(runs: int) -> dict:
    import datetime

    from django.contrib.auth import get_user_model
    from django.db.models import Count
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from benchmarks.forms import hidden_fields
    from games import services
    from games.models import Club, GameNight, Move, Player, Seat

    setup_test_environment()
    club = Club.objects.get(name="Bench club")
    client = Client()
    client.force_login(get_user_model().objects.get(username="bench"))
    busiest = list(
        Seat.objects.filter(player__club=club)
        .values("player_id")
        .annotate(plays=Count("id"))
        .order_by("-plays", "player_id")
        .values_list("player_id", flat=True)
    )
    first, second = Player.objects.filter(pk__in=busiest[:2]).order_by("name")
    log = json.loads((ROOT / "benchmarks" / "logs" / "punto-bench.json").read_text())
    log = _rename(log, dict(zip(log["players"], [first.name, second.name], strict=True)))
    tonight = GameNight.objects.create(club=club, date=datetime.date.today())

    def play_with(moves: int):
        return services.import_log(
            club=club, log={**log, "moves": log["moves"][:moves]}, night=tonight
        )

    results: dict[str, list[float]] = {}

    def move_timer(play, seq: int, finishes: bool):
        url = reverse("play-move", args=[play.pk])
        page = reverse("play", args=[play.pk])

        def enter() -> float:
            fields = hidden_fields(client.get(page).content, "move-form")
            assert fields is not None, "no move form"
            data = {**fields, "move_json": json.dumps(log["moves"][seq])}
            start = time.perf_counter()
            response = client.post(url, data, headers={"HX-Request": "true"})
            elapsed = time.perf_counter() - start
            assert response.status_code == 200 and b"move-error" not in response.content, (
                response.content[:2000]
            )
            play.refresh_from_db()
            assert (play.status == "finished") == finishes, play.status
            # Back as it was, outside the measured time (unrated again when it had finished).
            Move.objects.filter(play=play, seq=seq).delete()
            services.rejudge(play)
            return elapsed

        return enter

    finishing = play_with(len(log["moves"]) - 1)
    mid_game = play_with(30)
    _timed(
        results.setdefault("finish", []),
        runs,
        move_timer(finishing, len(log["moves"]) - 1, True),
    )
    _timed(results.setdefault("move", []), runs, move_timer(mid_game, 30, False))

    def page_timer(url: str):
        def get() -> float:
            start = time.perf_counter()
            response = client.get(url)
            elapsed = time.perf_counter() - start
            assert response.status_code == 200, (url, response.status_code)
            return elapsed

        return get

    night = GameNight.objects.filter(club=club).exclude(pk=tonight.pk).order_by("-date").first()
    # "As at" the middle of the club's history (issue 32): the busiest case for a lookup that
    # walked the rows from either end.
    first_night, last_night = (
        GameNight.objects.filter(club=club).exclude(pk=tonight.pk).order_by(order).first()
        for order in ("date", "-date")
    )
    middle = first_night.date + (last_night.date - first_night.date) / 2
    leaderboard = reverse("leaderboard", args=[club.pk])
    pages = {
        "player_busiest": reverse("player", args=[busiest[0]]),
        "player_typical": reverse("player", args=[busiest[min(99, len(busiest) - 1)]]),
        "leaderboard": leaderboard,
        "leaderboard_as_at": f"{leaderboard}?as_of={middle.isoformat()}",
        "night": reverse("night-summary", args=[night.pk]),
    }
    for key, url in pages.items():
        _timed(results.setdefault(key, []), runs, page_timer(url))
    # The floor (benchmarks/floor.py), in the same run: every figure is also a ratio to it.
    floor_play = play_with(0)

    def floor() -> float:
        start = time.perf_counter()
        response = client.post(f"/bench/floor/{floor_play.pk}/", {"club": club.pk, "version": 1})
        elapsed = time.perf_counter() - start
        assert response.status_code == 200, response.status_code
        return elapsed

    _timed(results.setdefault("floor", []), runs, floor)
    busiest_plays = Seat.objects.filter(player_id=busiest[0], play__status="finished").count()
    out = {"busiest_plays": busiest_plays}
    for key, samples in results.items():
        samples.sort()
        out[key] = (statistics.median(samples), samples[max(0, int(len(samples) * 0.95) - 1)])
    return out


def child(args) -> None:
    setup_django(args.url)
    load = os.getloadavg()[0]
    if args.step == "generate":
        out = step_generate(args.plays)
    elif args.step == "rebuild":
        out = step_rebuild(args.rater)
    else:
        out = step_measure(args.runs)
    out["load"] = load
    print(json.dumps(out))


# The parent -----------------------------------------------------------------------------------


def run_step(step: str, url: str, plays: int, args, rater: str = "project") -> dict:
    command = [
        sys.executable, __file__, "--child", step, "--url", url, "--plays", str(plays),
        "--runs", str(args.runs), "--rater", rater,
    ]  # fmt: skip
    started = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=4 * 3600)
    if result.returncode:
        raise RuntimeError(f"{step} failed:\n{result.stderr[-3000:]}")
    out = json.loads(result.stdout.strip().splitlines()[-1])
    print(
        f"  {step} ({rater}) in {time.perf_counter() - started:.0f} s: {out}",
        file=sys.stderr,
        flush=True,
    )
    return out


def kept_club(label: str, plays: int, args) -> tuple[str | None, dict]:
    """With ``--keep``: the size's kept club (generated first if it is not there yet), to copy
    from — a SQLite file's path, or a PostgreSQL database's name — and the generation's figures
    (none when it was there already)."""
    import psycopg

    if not args.keep:
        return None, {}
    directory = Path(args.keep)
    directory.mkdir(parents=True, exist_ok=True)
    done = directory / f"{label.lower()}-{plays}.json"
    if label == "SQLite":
        kept = str(directory / f"bench-{plays}.sqlite3")
        url = f"sqlite:///{kept}"
    else:
        kept = f"{args.pg_prefix}_kept_{plays}"
        url = f"{PG_SERVER}/{kept}"
    if done.exists():
        return kept, {"generate_s": json.loads(done.read_text())["generate_s"], "reused": True}
    # Not (completely) generated yet: from scratch.
    if label == "SQLite":
        for suffix in ("", "-wal", "-shm"):
            Path(kept + suffix).unlink(missing_ok=True)
    else:
        with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{kept}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{kept}"')
    out = run_step("generate", url, plays, args)
    done.write_text(json.dumps(out))
    return kept, out


def measure_database(label: str, plays: int, args) -> dict:
    import shutil
    import sqlite3

    import psycopg

    print(f"{label}, {plays:,} plays", file=sys.stderr, flush=True)
    kept, generated = kept_club(label, plays, args)
    with tempfile.TemporaryDirectory(prefix="bench-scale-", dir=args.keep) as workdir:
        if label == "SQLite":
            url, name = f"sqlite:///{workdir}/bench.sqlite3", None
            if kept:  # a copy, its write-ahead log folded in (the kept file stays as it was)
                shutil.copyfile(kept, f"{workdir}/bench.sqlite3")
                sqlite3.connect(f"{workdir}/bench.sqlite3").close()
        else:
            name = f"{args.pg_prefix}_{plays}_{os.getpid()}"
            url = f"{PG_SERVER}/{name}"
            template = f' TEMPLATE "{kept}"' if kept else ""
            with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{name}"{template}')
        try:
            out = generated if kept else run_step("generate", url, plays, args)
            out |= run_step("rebuild", url, plays, args)
            if args.rater == "openskill":
                openskill = run_step("rebuild", url, plays, args, rater="openskill")
                out["openskill_s"] = openskill["rebuild_s"]
                out["openskill_peak_mb"] = openskill["peak_mb"]
            if args.measure:
                out |= run_step("measure", url, plays, args)
            return out
        finally:
            if name is not None:
                with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
                    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


ROWS = [
    ("finish", "the move that finishes a play"),
    ("move", "a mid-game move (Punto, 30 moves logged)"),
    ("player_busiest", "player page, busiest player"),
    ("player_typical", "player page, 100th busiest player"),
    ("leaderboard", "leaderboard, all games"),
    ("leaderboard_as_at", "leaderboard, all games, as at the middle of the history"),
    ("night", "game night summary (50 plays)"),
    ("floor", "the floor view (benchmarks/floor.py), same run"),
]


def table(label: str, sizes: list[int], found: dict[int, dict]) -> str:
    lines = [
        f"### {label}\n",
        "| what (median / p95) | " + " | ".join(f"{size:,} plays" for size in sizes) + " |",
        "|---|" + "---|" * len(sizes),
    ]

    def cell(size: int, key: str) -> str:
        if size not in found or key not in found[size]:
            return "–"
        median, p95 = found[size][key]
        text = f"{median:.1f} / {p95:.1f} ms"
        if key != "floor" and "floor" in found[size]:
            text += f" ({median / found[size]['floor'][0]:.1f}× floor)"
        return text

    for key, what in ROWS:
        cells = [cell(s, key) for s in sizes]
        lines.append(f"| {what} | " + " | ".join(cells) + " |")

    def row(what: str, cell) -> None:
        lines.append(
            f"| {what} | " + " | ".join(cell(found[s]) if s in found else "–" for s in sizes) + " |"
        )

    row(
        "full rating rebuild: wall time (this process's CPU time)",
        lambda o: f"{o['rebuild_s']:.1f} s ({o.get('rebuild_cpu_s', 0):.1f} s)",
    )
    row(
        "of which: building the indexes, wall (CPU); inserting, wall (CPU)",
        lambda o: "; ".join(
            f"{o[key][0]:.1f} s ({o[key][1]:.1f} s)" if key in o else "–"
            for key in ("index_s", "insert_s")
        ),
    )
    row(
        "the rebuild's context switches: waits (voluntary); preempted (involuntary)",
        lambda o: f"{o.get('waits', 0):,}; {o.get('preempted', 0):,}",
    )
    row("rating rows written", lambda o: f"{o['rows']:,}")
    row(
        "peak resident memory of the rebuild (process at start)",
        lambda o: f"{o['peak_mb']:.0f} MB ({o['baseline_mb']:.0f} MB)",
    )
    if any("openskill_s" in o for o in found.values()):
        row(
            "full rebuild with openskill's own rate()",
            lambda o: (
                f"{o['openskill_s']:.1f} s, {o['openskill_peak_mb']:.0f} MB"
                if "openskill_s" in o
                else "–"
            ),
        )
    row(
        "busiest player's finished plays",
        lambda o: f"{o['busiest_plays']:,}" if "busiest_plays" in o else "–",
    )
    row(
        "generating the data (not measured)",
        lambda o: f"{o['generate_s']:.0f} s" + (" (kept, from an earlier run)" * ("reused" in o)),
    )
    row("load average when measuring", lambda o: f"{o['load']:.1f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    parser.add_argument("--only", choices=["sqlite", "postgres"])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--rater", choices=["project", "openskill"], default="project")
    parser.add_argument("--pg-prefix", default="referee_bench_scale")
    parser.add_argument("--keep", metavar="DIR", help="generate each club once, keep it there")
    parser.add_argument("--no-measure", dest="measure", action="store_false")
    parser.add_argument("--child", choices=["generate", "rebuild", "measure"])
    parser.add_argument("--url")
    parser.add_argument("--plays", type=int, default=0)
    args = parser.parse_args()
    if args.child:
        args.step = args.child
        child(args)
        return
    sizes = [int(size) for size in args.sizes.split(",")]
    labels = []
    if args.only in (None, "sqlite"):
        labels.append("SQLite")
    if args.only in (None, "postgres"):
        if postgres_available():
            labels.append("PostgreSQL")
        else:
            print(f"PostgreSQL not measured: no server at {PG_SERVER}", file=sys.stderr)
    print(
        f"## History at scale: 200 players, {', '.join(f'{s:,}' for s in sizes)} finished plays"
        f" ({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start)\n"
    )
    for label in labels:
        found = {}
        for size in sizes:
            try:
                found[size] = measure_database(label, size, args)
            except Exception as exc:  # one size failing still prints the others
                print(f"{label}, {size:,} plays: {exc}", file=sys.stderr, flush=True)
        print(table(label, sizes, found) + "\n", flush=True)


if __name__ == "__main__":
    main()
