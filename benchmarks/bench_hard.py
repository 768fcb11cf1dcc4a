"""What a hostile request costs the server (issue 29), on a throwaway SQLite database, through
Django's test client (the whole stack but the network):

1. A Thricewise move post whose half-built turn places a card far off the grid
   (``"at": [0, FAR]``): the worker's CPU time, the answer's size and status. The board used
   to be drawn from the grid to that cell.
2. A 1 MB game log upload of nested empty arrays under an unknown key, of each shape given:
   the worker's CPU time for the whole request (read, parse, check, judge, refuse or store).

Run by `make bench` (benchmarks/run.py), or alone: `python benchmarks/bench_hard.py [FAR]`.
Each figure is printed with the machine's load average.
"""

from __future__ import annotations

import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
FAR = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
RUNS = int(os.environ.get("BENCH_RUNS", "5"))

GRID = {"grid": [
    {"card": "The Huntress", "at": [0, 0]},
    {"card": "The Bard", "at": [1, 0]},
    {"card": "The Sea", "at": [0, 1]},
    {"card": "The End", "at": [1, 1]},
]}  # fmt: skip
REVEAL = {"Ana": "The Sailor", "Ben": "The Author"}
MB = 1024 * 1024


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def setup_django(database_url: str) -> None:
    from benchmarks.bench_move_entry import setup_django as setup_for_benchmarks

    setup_for_benchmarks(database_url)
    from django.conf import settings

    settings.UPLOADS_PER_HOUR = 10**6  # the throttle is not what is measured here
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the answers' template contexts, read for the next tap


def cpu(call) -> tuple[float, object]:
    start = time.process_time()
    result = call()
    return time.process_time() - start, result


def far_placement(client, night, players) -> str:
    from games import services

    play = services.start_play(night=night, game="thricewise", players=players, setup=GRID)
    url = f"/plays/{play.pk}/move/"
    first = client.post(url, {"version": 0, "reveal_0": REVEAL["Ana"], "reveal_1": REVEAL["Ben"]})
    turn = first.context["tw_draft"]
    draft = {
        "reveal": REVEAL,
        "place": [{"player": turn["placer"], "card": turn["ready"], "at": [0, FAR]}],
        "done": [],
    }
    body = {"version": 0, "draft": json.dumps(draft), "group_done": "1"}
    seconds, response = cpu(lambda: client.post(url, body))
    page_seconds, page = cpu(lambda: client.get(f"/plays/{play.pk}/"))
    return (
        f"- Thricewise draft placing a card at [0, {FAR}] (a {len(json.dumps(body))}-byte form): "
        f"{response.status_code}, {len(response.content) / 1024:.0f} KB, {1000 * seconds:.0f} ms "
        f"of CPU; the play page loaded after it: {page.status_code}, "
        f"{len(page.content) / 1024:.0f} KB, {1000 * page_seconds:.0f} ms (load average {load()})"
    )


def nested_log(shape: str) -> bytes:
    """A legal Punto log of two moves with about 1 MB of nested empty arrays under "junk"."""
    log = json.loads((ROOT / "benchmarks" / "logs" / "punto-bench.json").read_text())
    log["moves"] = log["moves"][:2]
    base = json.dumps(log)
    room = MB - len(base) - 20
    if shape == "wide":  # [[],[],[],…]: the most lists per byte
        junk = "[" + ",".join(["[]"] * (room // 3)) + "]"
    elif shape == "deep":  # 18 levels deep, again and again: the deepest the caps let through
        unit = "[" * 18 + "]" * 18
        junk = "[" + ",".join([unit] * (room // (len(unit) + 1))) + "]"
    elif shape == "numbers":  # [1,1,1,…]: the most values per byte in one list
        junk = "[" + ",".join(["1"] * (room // 2)) + "]"
    else:  # as many lists as are accepted, 18 deep, and numbers for the rest of the megabyte
        units = 49_000 // 18
        lists = ",".join(["[" * 18 + "]" * 18] * units)
        junk = "[" + lists + "," + ",".join(["1"] * ((room - len(lists)) // 2 - 2)) + "]"
    text = base[:-1] + ', "junk": ' + junk + "}"
    return text.encode()[: MB - 1] if len(text) > MB else text.encode()


def upload(client, night, shape: str) -> str:
    from games.models import Play

    data = nested_log(shape)
    times, statuses = [], set()
    for _ in range(RUNS):
        file = io.BytesIO(data)
        file.name = "log.json"
        seconds, response = cpu(
            lambda file=file: client.post(f"/nights/{night.pk}/upload/", {"log": file})
        )
        times.append(seconds)
        statuses.add(response.status_code)
    plays = Play.objects.filter(game="punto").count()
    return (
        f"- a {len(data) / MB:.2f} MB log upload, junk under an unknown key "
        f"({shape}): median {1000 * statistics.median(times):.0f} ms of CPU, max "
        f"{1000 * max(times):.0f} ms over {RUNS} uploads; answers {sorted(statuses)}, Punto plays "
        f"stored {plays} (load average {load()})"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        setup_django(f"sqlite:///{folder}/bench.sqlite3")
        import datetime

        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.test import Client

        from games import services

        call_command("migrate", verbosity=0)
        user = get_user_model().objects.create_user("bench", password="bench-pass-123")
        club = services.create_club(name="Bench club", owner=user)
        players = [services.add_player(club=club, name=n) for n in ("Ana", "Ben")]
        night = services.create_game_night(club=club, date=datetime.date.today())
        client = Client()
        client.force_login(user)
        print(
            f"## Hostile requests (issue 29, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores)"
        )
        print(far_placement(client, night, players), flush=True)
        for shape in ("wide", "deep", "numbers", "most lists accepted"):
            print(upload(client, night, shape), flush=True)


if __name__ == "__main__":
    main()
