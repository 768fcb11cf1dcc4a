"""Server time of one move entry (POST → referee → store → rendered htmx fragment) for every
game, mid-game and late, and at move 1 and move 1,000 of a long Punto match (issue 32), next to
its floor (benchmarks/floor.py: a logged-in view running one transaction with an INSERT and two
UPDATEs and rendering a small template), on SQLite and on PostgreSQL: median and p95, each as a
ratio to the floor's measured in the same run, alternating. Also per entry: its SQL statements
(and those of the move that finishes the play), and the shares of its time spent in the service
(``services.enter_move``: lock, judge, store) and in rendering the answer's template. Each
entry says which parts its page shows, as the phone does: the answer carries only what changed.

Run by `make bench` (benchmarks/run.py). Each database is a throwaway one. The entry posts what the
page's move form carries (its hidden fields, read by name); the play is put back after each
entry (the move deleted, ``services.rejudge``), outside the measured time. Statements are counted
as Django records them, less the transaction's BEGIN and COMMIT (the floor has them too).
``BENCH_RUNS`` entries per case (default 60), ``BENCH_GAMES`` (comma-separated) to narrow.
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG_URL = "postgres://postgres@127.0.0.1:5432/"
RUNS = int(os.environ.get("BENCH_RUNS", "60"))
WARM_UPS = 5
#: Transaction control, not counted as statements.
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
LOGS = ROOT / "benchmarks" / "logs"
GAMES = ("thricewise", "forget-venice", "punto", "buntherum", "three-high")


def cases() -> list[tuple[str, str, int]]:
    """(label, log file, moves logged before the entry): every game mid-game and late (the move
    before the last: the last finishes the play), then a long Punto match at moves 1 and 1,000."""
    wanted = os.environ.get("BENCH_GAMES")
    games = wanted.split(",") if wanted else GAMES
    found = []
    for game in games:
        moves = len(json.loads((LOGS / f"{game}-bench.json").read_text())["moves"])
        found.append((f"{game}, mid-game (move {moves // 2 + 1})", f"{game}-bench", moves // 2))
        found.append((f"{game}, late (move {moves - 1} of {moves})", f"{game}-bench", moves - 2))
    if "punto" in games:
        found.append(("punto long match, move 1", "punto-long", 0))
        found.append(("punto long match, move 1,000", "punto-long", 999))
    return found


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


def form_body(data: dict) -> tuple[str, str]:
    """A form's fields as the phone posts them (static/js/outbox.js: URLSearchParams, as
    htmx and a plain form do), rather than the test client's default multipart body."""
    return urlencode(data), "application/x-www-form-urlencoded"


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95)] * 1000


def statements(queries) -> int:
    return sum(1 for q in queries.captured_queries if not q["sql"].startswith(CONTROL))


class Stopwatch:
    """Time spent inside one function of a module, summed while it is patched in; and how many
    statements the connection had recorded when it last returned (while they are captured)."""

    def __init__(self, module, name: str):
        from django.db import connection

        self.spent = 0.0
        self.statements_at_return = 0
        inner = getattr(module, name)

        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self.spent += time.perf_counter() - start
                self.statements_at_return = len(connection.queries)

        setattr(module, name, timed)


def measure(label: str) -> list[str]:
    import datetime

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    import games.views.play_page as play_page
    from benchmarks.forms import hidden_fields
    from benchmarks.live import PART
    from games import services
    from games.models import Move

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-pass-123")
    club = services.create_club(name="Bench club", owner=user)
    night = services.create_game_night(club=club, date=datetime.date.today())
    client = Client()
    client.force_login(user)
    service = Stopwatch(services, "enter_move")
    template = Stopwatch(play_page.jinja, "render")  # the answer's drawing (games.jinja)
    floor_play = None
    rows = []
    medians: dict[str, float] = {}  # each entry's median, for the long match's depth ratio
    for what, name, logged in cases():
        log = json.loads((LOGS / f"{name}.json").read_text())
        next_move = log["moves"][logged]
        play = services.import_log(
            club=club, log={**log, "moves": log["moves"][:logged]}, night=night
        )
        if floor_play is None:
            floor_play = services.import_log(club=club, log={**log, "moves": []}, night=night)
        url = f"/plays/{play.pk}/move/"
        floor_url = f"/bench/floor/{floor_play.pk}/"

        def form(play=play, next_move=next_move) -> tuple[dict, str]:
            """The move form's fields, and the parts the page shows (X-Play-Parts)."""
            page = client.get(f"/plays/{play.pk}/").content
            fields = hidden_fields(page, "move-form")
            shown = " ".join(f"{n.decode()}:{h.decode()}" for h, n in PART.findall(page))
            return {**fields, "move_json": json.dumps(next_move)}, shown

        def put_back(play=play, seq=logged) -> None:
            Move.objects.filter(play=play, seq=seq).delete()
            # At its version now: the state rejudge keeps is kept for the play's version.
            play.refresh_from_db()
            services.rejudge(play)

        def enter(posted: tuple[dict, str], url=url) -> tuple[float, float, float]:
            """One entry as the phone sends it: the move, and the parts its page shows, so
            that the answer carries only what changed (issue 28)."""
            data, shown = posted
            service.spent = template.spent = 0.0
            start = time.perf_counter()
            response = client.post(
                url, *form_body(data), headers={"HX-Request": "true", "X-Play-Parts": shown}
            )
            elapsed = time.perf_counter() - start
            assert response.status_code == 200 and b"move-error" not in response.content, (
                response.content[-3000:]
            )
            assert response.headers.get("X-Play-Parts") == "1", "the whole fragment came back"
            return elapsed, service.spent, template.spent

        def floor(floor_url=floor_url) -> float:
            start = time.perf_counter()
            response = client.post(floor_url, *form_body({"club": club.pk, "version": 1}))
            elapsed = time.perf_counter() - start
            assert response.status_code == 200 and b'id="floor"' in response.content, response
            return elapsed

        def settle(floor_url=floor_url) -> None:
            """What the harness did before a measured request is not the request's: reading
            the form draws the whole page (at move 1,000, a thousand lines of log) and putting
            the play back judges the whole log, and their garbage made the next request pay a
            collection with cold caches (its session read alone twice as long). Collected, then
            one floor request not measured, so that the entry and the floor start alike."""
            gc.collect()
            client.post(floor_url, *form_body({"club": club.pk, "version": 1}))

        entries, floors, services_spent, templates_spent = [], [], [], []
        for index in range(WARM_UPS + RUNS):
            data = form()
            settle()
            entry, in_service, in_template = enter(data)
            put_back()
            settle()
            the_floor = floor()
            if index >= WARM_UPS:
                entries.append(entry)
                floors.append(the_floor)
                services_spent.append(in_service / entry)
                templates_spent.append(in_template / entry)
        data = form()
        with CaptureQueriesContext(connection) as queries:
            enter(data)
        put_back()
        answered = statements(
            SimpleNamespace(
                captured_queries=queries.captured_queries[service.statements_at_return :]
            )
        )
        entry_median, entry_p95 = percentiles(entries)
        floor_median, floor_p95 = percentiles(floors)
        medians[what] = entry_median
        rows.append(
            f"| {label} | {what} | {entry_median:.1f} / {entry_p95:.1f} ms | "
            f"{floor_median:.1f} / {floor_p95:.1f} ms | "
            f"**{entry_median / floor_median:.1f}×** / {entry_p95 / floor_p95:.1f}× | "
            f"{statistics.median(services_spent):.0%} | {statistics.median(templates_spent):.0%} | "
            f"{statements(queries)} ({answered} by the answer) | {os.getloadavg()[0]:.1f} |"
        )
    first = medians.get("punto long match, move 1")
    deep = medians.get("punto long match, move 1,000")
    if first and deep:  # issue 32: ≤ 1.5×
        rows.append(
            f"| {label} | punto long match, move 1,000 ÷ move 1 (entry medians) | "
            f"**{deep / first:.2f}×** | | | | | | |"
        )
    # The statements of the move that finishes each game's play (≤ 8 + 2 × players).
    with CaptureQueriesContext(connection) as floor_queries:
        floor()
    finishing = []
    for game in {name.split(",")[0] for name, _, _ in cases()} & set(GAMES):
        log = json.loads((LOGS / f"{game}-bench.json").read_text())
        last = len(log["moves"]) - 1
        play = services.import_log(
            club=club, log={**log, "moves": log["moves"][:last]}, night=night
        )
        fields = hidden_fields(client.get(f"/plays/{play.pk}/").content, "move-form")
        with CaptureQueriesContext(connection) as queries:
            response = client.post(
                f"/plays/{play.pk}/move/",
                {**fields, "move_json": json.dumps(log["moves"][last])},
                headers={"HX-Request": "true"},
            )
        assert response.status_code == 200 and b"move-error" not in response.content
        players = len(log["players"])
        answered = statements(
            SimpleNamespace(
                captured_queries=queries.captured_queries[service.statements_at_return :]
            )
        )
        finishing.append(
            f"{game} {statements(queries)} ({answered} by the answer; ≤ {8 + 2 * players})"
        )
    rows.append(
        f"| {label} | statements of the move that finishes a play (floor: "
        f"{statements(floor_queries)}) | {', '.join(sorted(finishing))} | | | | | | |"
    )
    return rows


def main() -> None:
    import subprocess

    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        setup_django(sys.argv[2])
        label = "SQLite" if sys.argv[2].startswith("sqlite") else "PostgreSQL"
        print("\n".join(measure(label)))
        return
    print("## Move entry: one POST per game and depth (htmx fragment), as a ratio to its floor\n")
    print(
        f"{RUNS} entries per case, each followed by the floor view; server time in-process "
        "(Django test client), no network. Service and template: the median share of an "
        "entry's time spent in `services.enter_move` and in rendering the answer.\n"
    )
    print(
        "| database | entry | entry median / p95 | floor median / p95 | "
        "entry ÷ floor (median / p95) | service | template | statements (the answer's) | "
        "load average |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
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
        "\nTarget: median and p95 within 2× the floor's at any depth (move 1,000 ≤ 1.5× move 1);"
        " at most 8 statements for an entry that does not finish the play."
    )


if __name__ == "__main__":
    main()
