"""The live pages, measured (docs/benchmarks.md): `python benchmarks/live.py` (make loadtest-live).

Against a throwaway PostgreSQL database on 127.0.0.1 and app servers run as in production
(uvicorn, ASGI), all on loopback:

1. Move-to-screen latency: 10 tables × (1 entering + 5 watching), two app server processes
   (each table's watchers split across both, its moves posted to one of them), so the fan-out
   crosses processes. As a person sees it (issue 32): from the tap (the move's POST sent) on
   one phone to the other phone's screen showing the change — its event, then the fetch the
   page makes on it (``/plays/<id>/live/``, as htmx's ``sse:changed`` trigger does: one at a
   time, another after it if an event came meanwhile) answered with the new version. Also
   from the POST's answer to the event (the stream alone). Afterwards every watcher's last
   event must equal the play's version in the database. Every phone behaves as a real one:
   each request for the play says which parts its page shows (the X-Play-Parts header, kept
   from the answers it got: static/js/play-parts.js) and so gets only those that changed, and
   it takes compressed answers. Each watching phone has its page (the play's fragment) before
   the moves begin, and its stream asks for the parts that changed in the event itself
   (``parts=1``, static/js/live-catchup.js): it puts them in place when its page shows what
   they were made for, else fetches. ``LIVE_PUSH=0``: streams that only say the version, each
   event then a fetch (as before issue 32's push). ``LIVE_DEPTH=N``: the tables start N moves
   into a long Punto match (a move at depth).
2. Idle streams: the memory (RSS) and threads of one server process holding N idle streams.
3. Move entry with 0 and with 60 watchers on the plays being entered (one process).

Each figure is printed with the machine's load average when it was taken.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import re
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
PG = "postgres://postgres@127.0.0.1:5432/"
DB = f"referee_h10_bench_{os.getpid()}"
TABLES, WATCHERS_PER_TABLE, MOVES_PER_TABLE = 10, 5, 20
IDLE = int(os.environ.get("LIVE_IDLE", "1000"))
#: Seconds between two moves of a table: a real table's pace is far slower (a move every ten
#: seconds or so); 0.3 keeps the servers busy. LIVE_PACE to measure another.
PACE = float(os.environ.get("LIVE_PACE", "0.3"))
PUSH = os.environ.get("LIVE_PUSH", "1") == "1"
ENV = {
    **os.environ,
    "DATABASE_URL": PG + DB,
    "DEBUG": "0",
    "SECRET_KEY": "live-bench-" + secrets.token_urlsafe(40),
    "ALLOWED_HOSTS": HOST,
    "SECURE_SSL_REDIRECT": "0",
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "LIVE_KEEPALIVE_SECONDS": "60",  # only the NOTIFY brings an event within the runs
    # The watchers here share a few logins where a real table has one per phone: the limits
    # per session and per account (issue 29; their own test is make loadtest-streams) would
    # refuse them, so they are lifted; the per-process ceiling stays.
    "LIVE_STREAMS_PER_SESSION": "100000",
    "LIVE_STREAMS_PER_ACCOUNT": "100000",
    "LIVE_STREAMS_PER_SHARE": "100000",
}
#: ``LIVE_DEPTH``: how many moves each table's play has logged before the tables start (issue
#: 32: a move at any depth): that many of a long Punto match's moves, imported; 0 (the default)
#: plays from the start of a short one.
DEPTH = int(os.environ.get("LIVE_DEPTH", "0"))
LOGGED = "punto-long.json" if DEPTH else "punto-bench.json"
LOG = json.loads((ROOT / "benchmarks" / "logs" / LOGGED).read_text())
#: The version of every play when the tables start (set by seed()).
BASE = 0


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def psql(sql: str) -> None:
    subprocess.run(["psql", PG + "postgres", "-qc", sql], check=True, capture_output=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def seed(plays: int) -> tuple[str, list[int]]:
    """One club, one member with a session, ``plays`` Punto plays; the session and play ids."""
    os.environ.update(ENV)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from games import services

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("watcher")
    club = services.create_club(name="Live club", owner=user)
    ana = services.add_player(club=club, name="Ana")
    ben = services.add_player(club=club, name="Ben")
    night = services.create_game_night(club=club, date=datetime.date.today())
    global BASE
    if DEPTH:
        logged = {**LOG, "moves": LOG["moves"][:DEPTH]}
        found = [services.import_log(club=club, log=logged, night=night) for _ in range(plays)]
        ids, BASE = [play.pk for play in found], found[0].version
    else:
        ids = [
            services.start_play(
                night=night, game="punto", players=[ana, ben], setup=LOG["setup"]
            ).pk
            for _ in range(plays)
        ]
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    from django.db import connections

    connections.close_all()
    return session.session_key, ids


def start_server() -> tuple[subprocess.Popen, int]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", HOST,
         "--port", str(port), "--log-level", "warning", "--backlog", "4096"],
        cwd=ROOT, env=ENV, start_new_session=True,
    )  # fmt: skip
    for _ in range(300):
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return server, port
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_and_threads(pid: int) -> tuple[int, int]:
    status = Path(f"/proc/{pid}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines())
    return int(fields["VmRSS"].split()[0]) * 1024, int(fields["Threads"])


class Client:
    def __init__(self, session: str):
        self.session, self.csrf = session, secrets.token_hex(16)

    def headers(self, port: int) -> str:
        return (
            f"Host: {HOST}:{port}\r\nCookie: sessionid={self.session}; csrftoken={self.csrf}\r\n"
            f"X-CSRFToken: {self.csrf}\r\nHX-Request: true\r\n"
        )

    async def get(self, port: int, path: str, extra: str = "") -> tuple[int, dict[str, str], bytes]:
        """A GET as the page's htmx makes it (``extra``: more header lines); (status, headers,
        body), the body uncompressed."""
        reader, writer = await asyncio.open_connection(HOST, port, limit=2**20)
        writer.write(
            f"GET {path} HTTP/1.1\r\n{self.headers(port)}{extra}Connection: close\r\n\r\n".encode()
        )
        await writer.drain()
        answer = await reader.read()  # to the end
        writer.close()
        return read_answer(answer)

    async def post_move(
        self, port: int, play: int, step: int, page: Page | None = None
    ) -> tuple[float, int]:
        """Post the play's next move, its ``step``-th since the tables started; (seconds taken,
        status). ``page``: the phone's page, whose parts the move says it shows, and which its
        answer updates."""
        move, version = LOG["moves"][DEPTH + step], BASE + step
        body = urlencode({"move_json": json.dumps(move), "version": version})
        extra = page.headers() if page is not None else ""
        reader, writer = await asyncio.open_connection(HOST, port, limit=2**20)
        start = time.perf_counter()
        writer.write(
            (
                f"POST /plays/{play}/move/ HTTP/1.1\r\n{self.headers(port)}{extra}"
                "Content-Type: application/x-www-form-urlencoded\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}"
            ).encode()
        )
        await writer.drain()
        answer = await reader.read()  # to the end: the answer is complete
        elapsed = time.perf_counter() - start
        writer.close()
        status, headers, content = read_answer(answer)
        if page is not None and status == 200:
            page.took(headers, content)
        return elapsed, status


def read_answer(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    """(status, headers in lower case, body uncompressed) of a whole HTTP/1.1 answer."""
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding") == "chunked":
        chunks, rest = [], body
        while True:
            size, _, rest = rest.partition(b"\r\n")
            if not int(size, 16):
                break
            chunks.append(rest[: int(size, 16)])
            rest = rest[int(size, 16) + 2 :]
        body = b"".join(chunks)
    if headers.get("content-encoding") == "gzip":
        body = gzip.decompress(body)
    return status, headers, body


#: The parts a page shows, in what the server drew (games.parts): each part's opening tag
#: carries its fingerprint (data-h) and its id.
PART = re.compile(rb'data-h="([^"]+)"[^>]*?\sid="([^"]+)"')
#: Lines to append to a part that grows (the log), and its fingerprint then.
APPENDED = re.compile(rb'<template data-part="([^"]+)" data-append data-h="([^"]+)"')


class Page:
    """What a phone's play page shows, as far as its requests tell: the fingerprint of each part
    (static/js/play-parts.js sends them with every request for the play, the X-Play-Parts
    header, and gets only the parts that differ), and it takes compressed answers."""

    def __init__(self) -> None:
        self.parts: dict[str, str] = {}

    def headers(self) -> str:
        shown = " ".join(f"{name}:{fingerprint}" for name, fingerprint in self.parts.items())
        parts = f"X-Play-Parts: {shown}\r\n" if shown else ""
        return f"Accept-Encoding: gzip, deflate, br\r\n{parts}"

    def took(self, headers: dict[str, str], body: bytes) -> None:
        """An answer put in place: the parts it carries replace the page's (the whole fragment
        replaces them all), and the log it appends lines to has their fingerprint."""
        found = {name.decode(): h.decode() for h, name in PART.findall(body)}
        found |= {name.decode(): h.decode() for name, h in APPENDED.findall(body)}
        if headers.get("x-play-parts") == "1":
            self.parts.update(found)
        else:
            self.parts = found


SHOWN = re.compile(rb'id="play-main"[^>]*data-version="(\d+)"')


class Watcher:
    """One open stream: every event's (version, arrival time); with ``fetch``, the page's fetch
    on each event too, and when each version was on its screen."""

    def __init__(self, client: Client, port: int, play: int, version: int, fetch: bool = False):
        self.client, self.port, self.play, self.version = client, port, play, version
        self.arrivals: dict[int, float] = {}
        self.last = version
        self.connected = asyncio.Event()
        self.fetch = fetch
        #: the version the screen shows, and when each version was first shown
        self.shown = version
        self.on_screen: dict[int, float] = {}
        self._fetching: asyncio.Task | None = None
        self._again = False
        self.failed_fetches = 0
        self.page = Page()
        self.bytes = self.fetches = 0  # the fetches answered with a change, and their size
        self.pushes = self.pushed_bytes = 0  # the events whose parts were put in place
        self.wire = 0  # the stream's bytes as they came (compressed or not)
        self.event_id: int | None = None  # the event being read: its id and kind
        self.kind = b""

    async def load(self) -> None:
        """The phone's page: the play's fragment as it is now, its parts and version."""
        path = f"/plays/{self.play}/"
        status, headers, answer = await self.client.get(self.port, path, self.page.headers())
        found = SHOWN.search(answer)
        assert status == 200 and found, status
        self.page.took(headers, answer)
        self.shown = self.version = self.last = int(found.group(1))

    def pushed(self, version: int, data: bytes) -> None:
        """An event with the parts that changed: put in place if the page shows what they were
        made for (its version and the fingerprints they were decided on) and no fetch of its
        is on its way, as static/js/live-catchup.js does; else fetched."""
        if version <= self.shown:
            return  # shown already: its fetch would answer 204
        parts = json.loads(data)
        busy = self._fetching is not None and not self._fetching.done()
        fits = parts["since"] == self.shown and all(
            self.page.parts.get(name, "") == h for name, h in parts["expect"].items()
        )
        if busy or not fits:
            self.changed()
            return
        html = parts["html"].encode()
        self.page.took({"x-play-parts": "1"}, html)
        self.pushes += 1
        self.pushed_bytes += len(html)
        now = time.perf_counter()
        for shown in range(self.shown + 1, version + 1):
            self.on_screen.setdefault(shown, now)
        self.shown = max(self.shown, version)

    def changed(self) -> None:
        """An event: the page fetches its fragment (one fetch at a time, then one more if an
        event came while it was under way)."""
        if self._fetching is not None and not self._fetching.done():
            self._again = True
            return
        self._fetching = asyncio.create_task(self._refresh())

    async def _refresh(self) -> None:
        while True:
            self._again = False
            path = f"/plays/{self.play}/live/?version={self.shown}"
            status, headers, answer = await self.client.get(self.port, path, self.page.headers())
            now = time.perf_counter()
            if status == 200 and (found := SHOWN.search(answer)):
                self.page.took(headers, answer)
                self.bytes += len(answer)
                self.fetches += 1
                version = int(found.group(1))
                for shown in range(self.shown + 1, version + 1):
                    self.on_screen.setdefault(shown, now)
                self.shown = max(self.shown, version)
            elif status != 204:
                self.failed_fetches += 1
            if not self._again:
                return

    async def run(self) -> None:
        reader, writer = await asyncio.open_connection(HOST, self.port, limit=2**20)
        # the play page's stream asks for the parts and, as a browser, takes gzip
        asked = "&parts=1" if PUSH and self.fetch else ""
        takes = "Accept-Encoding: gzip, deflate, br\r\n" if asked else ""
        writer.write(
            (
                f"GET /plays/{self.play}/events/?v={self.version}{asked} HTTP/1.1\r\n"
                f"{self.client.headers(self.port)}{takes}\r\n"
            ).encode()
        )
        await writer.drain()
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
            chunked = "transfer-encoding: chunked" in head
            unzip = zlib.decompressobj(wbits=31) if "content-encoding: gzip" in head else None
            rest = b""
            while True:
                if chunked:
                    size = int((await reader.readline()).strip() or b"0", 16)
                    if not size:
                        return
                    body = (await reader.readexactly(size + 2))[:-2]
                else:
                    body = await reader.read(2**16)
                    if not body:
                        return
                self.wire += len(body)
                if unzip is not None:
                    body = unzip.decompress(body)
                *lines, rest = (rest + body).split(b"\n")
                for line in lines:
                    self.heard(line)
        finally:
            writer.close()

    def heard(self, line: bytes) -> None:
        """A line of the stream (server-sent events)."""
        if line.startswith(b"retry:"):
            self.connected.set()
        elif line.startswith(b"id: "):
            self.event_id = int(line[4:])
            self.arrivals.setdefault(self.event_id, time.perf_counter())
            self.last = max(self.last, self.event_id)
        elif line.startswith(b"event: "):
            self.kind = line[7:].strip()
        elif line.startswith(b"data: ") and self.event_id is not None and self.fetch:
            if self.kind == b"parts":
                self.pushed(self.event_id, line[6:])
            else:
                self.changed()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def latency(session: str, plays: list[int], ports: list[int]) -> list[str]:
    client = Client(session)
    watchers = [
        Watcher(client, ports[w % 2], play, 0, fetch=True)
        for play in plays
        for w in range(WATCHERS_PER_TABLE)
    ]
    for start in range(0, len(watchers), 10):  # the phones open their pages, a few at a time
        await asyncio.gather(*(w.load() for w in watchers[start : start + 10]))
    tasks = [asyncio.create_task(w.run()) for w in watchers]
    await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), 60)
    answered: dict[tuple[int, int], float] = {}
    sent: dict[tuple[int, int], float] = {}
    errors = 0

    async def table(index: int, play: int) -> None:
        nonlocal errors
        page = Page()  # the entering phone's page, which its moves' answers update
        for step in range(MOVES_PER_TABLE):
            sent[(play, BASE + step + 1)] = time.perf_counter()
            _, status = await client.post_move(ports[index % 2], play, step, page)
            answered[(play, BASE + step + 1)] = time.perf_counter()
            errors += status != 200
            await asyncio.sleep(PACE)

    await asyncio.gather(*(table(i, p) for i, p in enumerate(plays)))
    await asyncio.sleep(3)  # the last events
    samples, from_sent, early, missing = [], [], 0, 0
    # As a person sees it: from the tap to the other phone's screen, the fetch included.
    tap_to_screen, never_shown = [], 0
    for watcher in watchers:
        for version in range(BASE + 1, BASE + MOVES_PER_TABLE + 1):
            shown = watcher.on_screen.get(version)
            if shown is None:
                never_shown += 1
            else:
                tap_to_screen.append(shown - sent[(watcher.play, version)])
    failed_fetches = sum(watcher.failed_fetches for watcher in watchers)
    fetched = sum(watcher.fetches for watcher in watchers)
    fetched_bytes = sum(watcher.bytes for watcher in watchers)
    pushes = sum(watcher.pushes for watcher in watchers)
    pushed_bytes = sum(watcher.pushed_bytes for watcher in watchers)
    wire = sum(watcher.wire for watcher in watchers)
    for watcher in watchers:
        for version in range(BASE + 1, BASE + MOVES_PER_TABLE + 1):
            arrived = watcher.arrivals.get(version)
            if arrived is None:
                missing += 1  # coalesced into a later event (allowed) or lost (checked below)
            else:
                after_answer = arrived - answered[(watcher.play, version)]
                early += after_answer < 0
                samples.append(max(0.0, after_answer))
                from_sent.append(arrived - sent[(watcher.play, version)])
    for task in tasks:
        task.cancel()
    from games.models import Play

    final = dict(await asyncio.to_thread(lambda: list(Play.objects.values_list("pk", "version"))))
    behind = sum(1 for w in watchers if w.last != final[w.play])
    return [
        f"- **tap to the other phone's screen** (the POST sent → the event → the page's fetch "
        f"answered with the change), {TABLES} tables × (1 entering + {WATCHERS_PER_TABLE} "
        f"watching), a move every {PACE:g} s per table"
        f"{f', from move {DEPTH + 1} of a long match' if DEPTH else ''}, 2 uvicorn processes, "
        f"{len(tap_to_screen)} screens: "
        f"p50 {1000 * pct(tap_to_screen, 0.5):.0f} ms, "
        f"**p95 {1000 * pct(tap_to_screen, 0.95):.0f} ms** (target < 250 ms), "
        f"max {1000 * max(tap_to_screen):.0f} ms; versions never on a screen {never_shown}, "
        f"failed fetches {failed_fetches}; {fetched} fetches answered with the change, "
        f"{fetched_bytes / max(1, fetched) / 1024:.1f} KB each (uncompressed; the watchers send "
        f"the parts their page shows and take gzip, as phones do); {pushes} events whose parts "
        f"were put in place, {pushed_bytes / max(1, pushes) / 1024:.1f} KB each; the streams "
        f"{'asking for the parts, gzipped' if PUSH else 'saying the version only'}: "
        f"{wire / 1024 / len(watchers):.0f} KB each on the wire over the run "
        f"(load average {load()})",
        f"- move-to-event, {TABLES} tables × (1 entering + {WATCHERS_PER_TABLE} watching), "
        f"2 uvicorn processes, {len(samples)} events: p50 {1000 * pct(samples, 0.5):.0f} ms, "
        f"p95 {1000 * pct(samples, 0.95):.0f} ms, max {1000 * max(samples):.0f} ms "
        f"({early} arrived before the POST's answer: counted as 0); from the POST being sent: "
        f"p50 {1000 * pct(from_sent, 0.5):.0f} ms, p95 {1000 * pct(from_sent, 0.95):.0f} ms; "
        f"events not sent separately (coalesced) {missing}; watchers whose last event differs "
        f"from the database {behind} of {len(watchers)}; failed moves {errors} "
        f"(load average {load()})",
    ]


async def idle(session: str, plays: list[int], pid: int, port: int) -> list[str]:
    client = Client(session)
    base_rss, base_threads = rss_and_threads(pid)
    watchers = [Watcher(client, port, plays[i % len(plays)], 10**6) for i in range(IDLE)]
    tasks = []
    # in small batches: each connection's first request (session, access) holds a database
    # connection for a moment, and the database here is shared with other work
    for start in range(0, IDLE, 10):
        batch = watchers[start : start + 10]
        tasks += [asyncio.create_task(w.run()) for w in batch]
        await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in batch)), 120)
    await asyncio.sleep(2)
    rss, threads = rss_and_threads(pid)
    for task in tasks:
        task.cancel()
    extra = rss - base_rss
    return [
        f"- {IDLE} idle streams in one uvicorn process: +{extra / 2**20:.0f} MB RSS "
        f"({extra / IDLE / 1024:.0f} KB each), threads {base_threads} → {threads} "
        f"(load average {load()})"
    ]


async def entry(session: str, plays: list[int], port: int, watchers_count: int) -> str:
    client = Client(session)
    watchers = [Watcher(client, port, plays[i % len(plays)], 0) for i in range(watchers_count)]
    tasks = [asyncio.create_task(w.run()) for w in watchers]
    if watchers:
        await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), 60)
    times = []
    for step in range(MOVES_PER_TABLE):
        for play in plays:
            elapsed, status = await client.post_move(port, play, step)
            assert status == 200, status
            times.append(elapsed)
    for task in tasks:
        task.cancel()
    return (
        f"- move entry with {watchers_count} watchers on the {len(plays)} plays entered: "
        f"{len(times)} moves, p50 {1000 * statistics.median(times):.0f} ms, "
        f"p95 {1000 * pct(times, 0.95):.0f} ms (load average {load()})"
    )


def main() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    psql(f"CREATE DATABASE {DB}")
    servers: list[subprocess.Popen] = []
    lines = []
    try:
        session, plays = seed(TABLES + 6)
        first, port1 = start_server()
        second, port2 = start_server()
        servers += [first, second]
        busy = cpu_seconds(first.pid) + cpu_seconds(second.pid)
        measured = asyncio.run(latency(session, plays[:TABLES], [port1, port2]))
        busy = cpu_seconds(first.pid) + cpu_seconds(second.pid) - busy
        moves = TABLES * MOVES_PER_TABLE
        measured.append(
            f"- the two app servers' CPU over those {moves} moves (each answered, and watched "
            f"by {WATCHERS_PER_TABLE} phones): {busy:.1f} s, {1000 * busy / moves:.0f} ms a "
            f"move (the database's not counted)"
        )
        lines += measured
        print("\n".join(measured), flush=True)
        fresh = plays[TABLES : TABLES + 3], plays[TABLES + 3 :]
        lines.append(asyncio.run(entry(session, fresh[0], port2, 0)))
        print(lines[-1], flush=True)
        lines.append(asyncio.run(entry(session, fresh[1], port2, 60)))
        print(lines[-1], flush=True)
        lines += asyncio.run(idle(session, plays, first.pid, port1))
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)
        from django.db import connections

        connections.close_all()
        psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    print(f"## Live pages ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores)")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
