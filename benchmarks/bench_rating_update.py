"""One rating update: games.ratings.plackett_luce (plain floats) against openskill's own rate().

Issue 18 asks for openskill's rate() everywhere unless a benchmark shows the rebuild target
cannot be met with it. A full rebuild rates every finished play twice (its game and all games);
this measures the cost of one update per play, on 20,000 random plays of 2–5 players (best of 3).
Run by benchmarks/run.py, or alone: `.venv/bin/python benchmarks/bench_rating_update.py`.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from openskill.models import PlackettLuce  # noqa: E402

from games.ratings import plackett_luce  # noqa: E402

PLAYS = 20_000


def random_plays(rng: random.Random) -> list[tuple[list[float], list[float], list[int]]]:
    plays = []
    for _ in range(PLAYS):
        n = rng.randint(2, 5)
        mus = [25 + rng.uniform(-5, 5) for _ in range(n)]
        sigmas = [8.3 * rng.uniform(0.3, 1) for _ in range(n)]
        plays.append((mus, sigmas, [rng.randint(1, n) for _ in range(n)]))
    return plays


def best_of_three(update, plays) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        for mus, sigmas, ranks in plays:
            update(mus, sigmas, ranks)
        times.append(time.perf_counter() - start)
    return min(times) / len(plays)


def main() -> None:
    model = PlackettLuce()

    def openskill_rate(mus, sigmas, ranks):
        teams = [[model.rating(mu=m, sigma=s)] for m, s in zip(mus, sigmas, strict=True)]
        model.rate(teams, ranks=ranks)

    plays = random_plays(random.Random(1))
    ours = best_of_three(plackett_luce, plays)
    theirs = best_of_three(openskill_rate, plays)
    print("| update | per play | 1M plays × 2 scopes |")
    print("|---|---|---|")
    for name, cost in (("plackett_luce (floats)", ours), ("openskill rate()", theirs)):
        print(f"| {name} | {cost * 1e6:.1f} µs | {cost * 2e6:.0f} s |")


if __name__ == "__main__":
    main()
