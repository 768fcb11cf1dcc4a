"""Many open streams in one app server process (issue 29): does a watcher still hear of a move
at once? `python benchmarks/streams.py [N]` (make loadtest-streams; N = 3000 by default).

A throwaway PostgreSQL database on 127.0.0.1 and one uvicorn process (ASGI, as in production),
with the streams' limits raised for the run (one session holds them all). N idle streams are
opened first, then 10 watchers on the play being entered, and 20 moves are posted to that play
one after the other (0.5 s apart); for each move, from its POST being answered to its event
reaching each of the 10 watchers. Two cases:

- "elsewhere": the N streams watch other plays of the night (one play each, in turn): a move
  should wake none of them;
- "same night": the N streams watch the night of the play being entered (its table screens, a
  read-only link's viewers): every move wakes every one of them.

Each figure is printed with the machine's load average.
"""

from __future__ import annotations

import asyncio
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import live  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
WATCHERS, MOVES = 10, 20
live.ENV.update(
    {
        "LIVE_STREAMS_PER_SESSION": "1000000",
        "LIVE_STREAMS_PER_ACCOUNT": "1000000",
        "LIVE_STREAMS_PER_PROCESS": "1000000",
    }
)


class Stream:
    """An open stream that only counts its events (an idle page)."""

    def __init__(self, client: live.Client, port: int, path: str):
        self.client, self.port, self.path = client, port, path
        self.connected = asyncio.Event()
        self.events = 0

    async def run(self) -> None:
        reader, writer = await asyncio.open_connection(live.HOST, self.port, limit=2**16)
        writer.write(f"GET {self.path} HTTP/1.1\r\n{self.client.headers(self.port)}\r\n".encode())
        await writer.drain()
        try:
            status = await reader.readline()
            assert b" 200 " in status, status
            while line := await reader.readline():
                if line.startswith(b"retry:"):
                    self.connected.set()
                elif line.startswith(b"event: changed"):
                    self.events += 1
        finally:
            writer.close()


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def case(name: str, session: str, plays: list[int], night: int, port: int, pid: int) -> str:
    client = live.Client(session)
    active, others = plays[0], plays[1:]
    if name == "elsewhere":
        paths = [f"/plays/{others[i % len(others)]}/events/?v=1000000" for i in range(N)]
    else:
        paths = [f"/nights/{night}/events/?v=1000000" for _ in range(N)]
    idle = [Stream(client, port, path) for path in paths]
    tasks = []
    started = time.monotonic()
    for start in range(0, N, 50):
        batch = idle[start : start + 50]
        tasks += [asyncio.create_task(s.run()) for s in batch]
        await asyncio.wait_for(asyncio.gather(*(s.connected.wait() for s in batch)), 120)
    opened = time.monotonic() - started
    watchers = [live.Watcher(client, port, active, 0) for _ in range(WATCHERS)]
    tasks += [asyncio.create_task(w.run()) for w in watchers]
    await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), 60)
    await asyncio.sleep(1)
    answered, sent = {}, {}
    cpu_before = cpu_seconds(pid)
    for version in range(MOVES):
        sent[version + 1] = time.perf_counter()
        _, status = await client.post_move(port, active, version)
        assert status == 200, status
        answered[version + 1] = time.perf_counter()
        await asyncio.sleep(0.5)
    await asyncio.sleep(3)
    cpu_per_move = (cpu_seconds(pid) - cpu_before) / MOVES
    samples, from_sent, missing = [], [], 0
    for watcher in watchers:
        for version in range(1, MOVES + 1):
            arrived = watcher.arrivals.get(version)
            if arrived is None:
                missing += 1
            else:
                samples.append(max(0.0, arrived - answered[version]))
                from_sent.append(arrived - sent[version])
    woken = sum(s.events for s in idle) - N  # each is told the version once as it connects
    for task in tasks:
        task.cancel()
    await asyncio.sleep(1)
    return (
        f"- {N} idle streams ({name}, opened in {opened:.0f} s), {WATCHERS} watchers of the play "
        f"entered, {MOVES} moves: from the POST being sent to each watcher's event p50 "
        f"{1000 * live.pct(from_sent, 0.5):.0f} ms, p95 {1000 * live.pct(from_sent, 0.95):.0f} "
        f"ms, max {1000 * max(from_sent):.0f} ms; after the POST's answer p95 "
        f"{1000 * live.pct(samples, 0.95):.0f} ms; events not heard separately {missing}; "
        f"events the idle streams received after connecting {woken}; the server's CPU per "
        f"move (the move, and telling every stream) {1000 * cpu_per_move:.0f} ms "
        f"(load average {live.load()})"
    )


def main() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 2 * N + 2048), hard))
    live.psql(f"CREATE DATABASE {live.DB}")
    server = None
    lines = []
    try:
        session, plays = live.seed(1 + 50)
        from games.models import Play

        night = Play.objects.get(pk=plays[0]).night_id
        for name in ("elsewhere", "same night"):
            server, port = live.start_server()
            lines.append(asyncio.run(case(name, session, plays, night, port, server.pid)))
            print(lines[-1], flush=True)
            server.terminate()
            server.wait(timeout=20)
            server = None
            Play.objects.filter(pk=plays[0]).update(version=0)
            from games.models import Move

            Move.objects.filter(play_id=plays[0]).delete()
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=20)
        from django.db import connections

        connections.close_all()
        live.psql(f"DROP DATABASE IF EXISTS {live.DB} WITH (FORCE)")
    print(f"## {N} streams in one process ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores)")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
