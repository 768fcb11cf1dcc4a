"""make bench: every benchmark as a Markdown table (copy the figures to docs/benchmarks.md).

Speed is measured here, not in timed tests. Each benchmark reports the median (and p95 where it
matters) of many repetitions on this machine.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee import judge  # noqa: E402

LOGS = ROOT / "benchmarks" / "logs"

#: (game, what the log is, target in ms)
JUDGE_CASES = [
    ("thricewise", "finished 2-player game, 16 turns, 32 placements", 1.0),
    ("forget-venice", "finished game, 12 deals", 1.0),
    ("punto", "finished 3-round match", 2.0),
    ("buntherum", "finished 5-player game", 2.0),
    ("three-high", "finished game", 1.0),
]


def load(game: str) -> dict | None:
    path = LOGS / f"{game}-bench.json"
    return json.loads(path.read_text()) if path.exists() else None


def median_ms(func, *, number: int, repeat: int) -> tuple[float, float]:
    """Median and p95 of ``repeat`` runs of ``number`` calls, in ms per call."""
    runs = sorted(t / number * 1000 for t in timeit.repeat(func, number=number, repeat=repeat))
    return statistics.median(runs), runs[min(len(runs) - 1, int(len(runs) * 0.95))]


def bench_judge() -> list[str]:
    rows = ["| game | log | status | median | p95 | target |", "|---|---|---|---|---|---|"]
    for game, what, target in JUDGE_CASES:
        log = load(game)
        if log is None:
            rows.append(f"| {game} | {what} | (no benchmark log) | | | < {target} ms |")
            continue
        status = judge(log).status
        median, p95 = median_ms(lambda log=log: judge(log), number=50, repeat=60)
        rows.append(
            f"| {game} | {what} | {status} | {median:.3f} ms | {p95:.3f} ms | < {target} ms |"
        )
    return rows


def bench_referee_command(count: int = 1000) -> list[str]:
    """`manage.py referee` on ``count`` log files, Django start-up included."""
    logs = [log for game, _, _ in JUDGE_CASES if (log := load(game)) is not None]
    if not logs:
        return ["(no benchmark logs)"]
    workdir = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        files = []
        for index in range(count):
            path = workdir / f"log-{index:04d}.json"
            path.write_text(json.dumps(logs[index % len(logs)]))
            files.append(str(path))
        timings = []
        for _ in range(5):
            start = time.perf_counter()
            result = subprocess.run(
                [sys.executable, str(ROOT / "manage.py"), "referee", *files],
                capture_output=True,
                cwd=ROOT,
                env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
            )
            timings.append(time.perf_counter() - start)
            lines = result.stdout.count(b"\n")
            if lines != count:
                return [
                    f"referee printed {lines} lines for {count} files: {result.stderr[-500:]!r}"
                ]
        best, median = min(timings), statistics.median(timings)
        return [
            "| logs | median wall time | logs per second (median run) | best run | target |",
            "|---|---|---|---|---|",
            f"| {count} (the {len(logs)} benchmark logs in turn) | {median:.2f} s | "
            f"{count / median:.0f} | {count / best:.0f} | > 500 per second |",
        ]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> None:
    print(
        f"# Benchmarks — {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores, "
        f"load average {machine_load()} at the start\n"
    )
    print(
        "The machine may be shared: each benchmark says its load, and the requests of a page are"
        " given as a ratio to the floor view (benchmarks/floor.py) measured in the same run.\n"
    )
    print("## Judging one finished game (`judge(log)`, pure Python)\n")
    print("\n".join(bench_judge()))
    print("\n## `python manage.py referee` on 1,000 logs (one process, Django started once)\n")
    print("\n".join(bench_referee_command()))
    for extra in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        print(f"\n(load average {machine_load()} at the start of {extra.name})", flush=True)
        subprocess.run([sys.executable, str(extra)], cwd=ROOT, check=False)


def machine_load() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
