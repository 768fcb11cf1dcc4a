"""make loadtest: gunicorn + PostgreSQL on 127.0.0.1, 50 simulated members across 10 clubs
entering moves concurrently — some deliberately illegal, some racing on the same play — then a
check of the database: no move lost, none duplicated, every stored result equal to the referee's
judgement of its log; and a check of the load itself: every simulated member kept entering moves
for the whole period (one that stopped early, or crashed, fails the run).

Each member has a queue of plays (the two racing members share theirs) and goes on to the next
when a match ends. It posts what the page's move form carries, read by the fields' name
attributes (benchmarks/forms.py), and knows which move comes next by counting the move log.

Bounded: loopback only, at most DURATION seconds of load, and the whole run stops by itself
well within 2 minutes. Uses a throwaway database, dropped at the end. Environment:
LOADTEST_SECONDS (45), LOADTEST_WORKERS (gunicorn workers; the number of cores),
LOADTEST_PLAYS (plays queued per member; 6), LOADTEST_CLUBS (10).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HOST = "127.0.0.1"

from benchmarks import forms  # noqa: E402


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


PORT = int(os.environ.get("LOADTEST_PORT") or free_port())
PG = "postgres://postgres@127.0.0.1:5432/"
DB = f"{os.environ.get('LOADTEST_DB', 'referee_loadtest')}_{os.getpid()}"
CLUBS, MEMBERS_PER_CLUB = int(os.environ.get("LOADTEST_CLUBS", "10")), 5
DURATION = float(os.environ.get("LOADTEST_SECONDS", "45"))
#: On 2 cores, 2 workers served more than 4 or 8 (issue 19): as many as there are cores.
WORKERS = int(os.environ.get("LOADTEST_WORKERS") or os.cpu_count() or 2)
PLAYS_PER_MEMBER = int(os.environ.get("LOADTEST_PLAYS", "6"))
ILLEGAL_SHARE = 0.1
#: A member that has not finished a request within this long after the deadline stopped early.
GRACE = 10.0
ENV = {
    **os.environ,
    "DATABASE_URL": PG + DB,
    "DEBUG": "0",
    "SECRET_KEY": "loadtest-" + secrets.token_urlsafe(40),
    "ALLOWED_HOSTS": HOST,
    "SECURE_SSL_REDIRECT": "0",
    "DJANGO_SETTINGS_MODULE": "config.settings",
}
LOG = json.loads((ROOT / "benchmarks" / "logs" / "punto-bench.json").read_text())


def psql(sql: str) -> None:
    subprocess.run(["psql", PG + "postgres", "-qc", sql], check=True, capture_output=True)


def queue(night, players) -> list[int]:
    """PLAYS_PER_MEMBER new Punto plays, for one member (or the two racing members)."""
    from games import services

    return [
        services.start_play(night=night, game="punto", players=players, setup=LOG["setup"]).pk
        for _ in range(PLAYS_PER_MEMBER)
    ]


def seed() -> list[dict]:
    """Clubs, members with sessions, and plays; returns one task per simulated member."""
    os.environ.update(ENV)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from games import services
    from games.models import Membership

    call_command("migrate", verbosity=0)
    tasks = []
    for c in range(CLUBS):
        users = [
            get_user_model().objects.create_user(f"m{c}_{i}")  # sessions below: no password
            for i in range(MEMBERS_PER_CLUB)
        ]
        club = services.create_club(name=f"Club {c}", owner=users[0])
        for user in users[1:]:
            Membership.objects.create(club=club, user=user)
        ana = services.add_player(club=club, name="Ana")
        ben = services.add_player(club=club, name="Ben")
        night = services.create_game_night(club=club, date=datetime.date.today())
        # Members 0 and 1 race on the same plays; the others each have their own.
        shared = queue(night, [ana, ben])
        for i, user in enumerate(users):
            plays = shared if i < 2 else queue(night, [ana, ben])
            session = SessionStore()
            session["_auth_user_id"] = str(user.pk)
            session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
            session["_auth_user_hash"] = user.get_session_auth_hash()
            session.create()
            tasks.append({"plays": plays, "session": session.session_key, "user": user.pk})
    return tasks


class Member(threading.Thread):
    def __init__(self, task: dict, deadline: float, seed_value: int):
        super().__init__(daemon=True)
        self.task, self.deadline = task, deadline
        self.random = random.Random(seed_value)
        self.latencies: list[float] = []
        self.statuses: dict[int, int] = {}
        self.stored = self.illegal = self.stale = self.errors = self.matches = 0
        self.csrf = secrets.token_hex(16)
        self.last_done = 0.0  # when its last request ended
        self.failure: str | None = None  # why it stopped before the deadline

    def request(self, method: str, path: str, body: str = "") -> tuple[int, bytes]:
        conn = http.client.HTTPConnection(HOST, PORT, timeout=30)
        headers = {
            "Cookie": f"sessionid={self.task['session']}; csrftoken={self.csrf}",
            "X-CSRFToken": self.csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        start = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
            status = response.status
        except OSError:
            status, data = 599, b""
        finally:
            conn.close()
        self.last_done = time.perf_counter()
        self.latencies.append(self.last_done - start)
        self.statuses[status] = self.statuses.get(status, 0) + 1
        return status, data

    def run(self) -> None:
        try:
            self.play_until_the_deadline()
        except Exception as exc:  # reported, and fails the run
            self.failure = f"{type(exc).__name__}: {exc}"

    def look(self, play: int) -> tuple[dict[str, str] | None, int]:
        """The play as its page shows it: the move form's hidden fields (None once the match
        is over) and how many moves its log holds (not undone)."""
        status, page = self.request("GET", f"/plays/{play}/")
        if status >= 500:
            self.errors += 1
        found = forms.parse(page)
        return found.forms.get("move-form"), found.log_entries - found.undone_entries

    def play_until_the_deadline(self) -> None:
        from urllib.parse import urlencode

        plays = list(self.task["plays"])
        play = plays.pop(0)
        fields, logged = self.look(play)
        while time.perf_counter() < self.deadline:
            if fields is None:  # the match is over: the next play of the queue
                self.matches += 1
                if not plays:
                    self.failure = "ran out of plays before the deadline"
                    return
                play = plays.pop(0)
                fields, logged = self.look(play)
                continue
            move = LOG["moves"][logged]
            illegal = self.random.random() < ILLEGAL_SHARE
            if illegal:
                # Out of turn: always illegal (a far cell is not: a round's first card goes
                # anywhere).
                move = {**move, "player": "Ben" if move["player"] == "Ana" else "Ana"}
            data = {k: v for k, v in fields.items() if k != "csrfmiddlewaretoken"}
            body = urlencode({**data, "move_json": json.dumps(move)})
            status, page = self.request("POST", f"/plays/{play}/move/", body)
            if status >= 500:
                self.errors += 1
                fields, logged = self.look(play)
            elif b"move-error" in page:
                if b"Someone else changed this play" in page:
                    self.stale += 1
                    fields, logged = self.look(play)  # where the play stands now
                else:  # refused: the play is as it was, its form shown again
                    self.illegal += 1
                    fields = forms.hidden_fields(page, "move-form")
            else:
                self.stored += 1
                logged += 1
                fields = forms.hidden_fields(page, "move-form")


def check(tasks: list[dict]) -> list[str]:
    """Every play's stored log is a prefix of the known game, results equal the referee's."""
    from games import selectors
    from games.models import Play

    problems = []
    for play in Play.objects.prefetch_related("seats__player"):
        moves = selectors.log_moves(play)
        if [m.seq for m in moves] != list(range(len(moves))):
            problems.append(f"play {play.pk}: sequence numbers {[m.seq for m in moves]}")
        if [m.data for m in moves] != LOG["moves"][: len(moves)]:
            problems.append(f"play {play.pk}: the stored log is not the game's moves in order")
        judgement = selectors.judge_moves(play, selectors.seat_names(play), moves)
        stored = {s.player.name: (s.score, s.is_winner) for s in play.seats.all()}
        expected = {n: (judgement.scores[n], n in judgement.winners) for n in judgement.scores}
        if stored != expected or play.details != judgement.details:
            problems.append(f"play {play.pk}: stored results differ from the referee's")
    return problems


def main() -> None:
    psql(f"CREATE DATABASE {DB}")
    server = None
    try:
        tasks = seed()
        from django.db import connections

        connections.close_all()
        server = subprocess.Popen(
            [
                str(ROOT / ".venv" / "bin" / "gunicorn"),
                "config.asgi",  # as in production (README): ASGI, for the live pages' streams
                "-k",
                "uvicorn_worker.UvicornWorker",
                "--bind",
                f"{HOST}:{PORT}",
                "--workers",
                str(WORKERS),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=ENV,
            start_new_session=True,
        )
        for _ in range(150):
            if server.poll() is not None:
                sys.exit(f"gunicorn exited with status {server.returncode}")
            try:
                http.client.HTTPConnection(HOST, PORT, timeout=1).request("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        started = time.perf_counter()
        deadline = started + DURATION
        members = [Member(task, deadline, i) for i, task in enumerate(tasks)]
        for member in members:
            member.start()
        for member in members:
            member.join(timeout=max(0.0, deadline + GRACE + 30 - time.perf_counter()))
        elapsed = time.perf_counter() - started
        latencies = sorted(x for m in members for x in m.latencies)
        statuses: dict[int, int] = {}
        for m in members:
            for code, n in m.statuses.items():
                statuses[code] = statuses.get(code, 0) + n
        problems = check(tasks)
        # The load held for the whole period: every member still entering moves at the end.
        for index, m in enumerate(members):
            if m.is_alive():
                problems.append(f"member {index} still running {GRACE + 30:.0f} s after the end")
            elif m.failure:
                problems.append(f"member {index} stopped early: {m.failure}")
            elif m.last_done < deadline:
                problems.append(
                    f"member {index} stopped {deadline - m.last_done:.1f} s before the end"
                )
        stored_by_clients = sum(m.stored for m in members)
        from games.models import Move

        stored_in_db = Move.objects.count()
        if stored_by_clients != stored_in_db:
            problems.append(
                f"clients saw {stored_by_clients} moves stored, the database has {stored_in_db}"
            )

        def pct(q: float) -> float:
            return latencies[min(len(latencies) - 1, int(len(latencies) * q))] * 1000

        fivexx = sum(n for code, n in statuses.items() if code >= 500)
        print(
            f"## Load test: {len(members)} members across {CLUBS} clubs, gunicorn "
            f"({WORKERS} uvicorn workers, ASGI) + PostgreSQL, {DURATION:.0f} s of load "
            f"({elapsed:.0f} s until every member's last answer); load average "
            f"{os.getloadavg()[0]:.1f} at the end\n"
        )
        print(
            "| requests | req/s | p50 | p95 | p99 | stored | illegal (refused) | "
            "stale (raced) | matches ended | 5xx | statuses |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        print(
            f"| {len(latencies)} | {len(latencies) / elapsed:.0f} | "
            f"{statistics.median(latencies) * 1000:.0f} ms | {pct(0.95):.0f} ms | "
            f"{pct(0.99):.0f} ms | {stored_in_db} | {sum(m.illegal for m in members)} | "
            f"{sum(m.stale for m in members)} | {sum(m.matches for m in members)} | {fivexx} | "
            f"{dict(sorted(statuses.items()))} |"
        )
        print(
            "\nChecks: "
            + (
                "every member entered moves for the whole period; no move lost, none "
                "duplicated, every stored result equals the referee's judgement."
                if not problems
                else "; ".join(problems)
            )
        )
        if problems or fivexx:
            sys.exit(1)
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
        from django.db import connections

        connections.close_all()
        psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")


if __name__ == "__main__":
    main()
