"""What a hostile request costs the server (issue 29), on a throwaway SQLite database, through
Django's test client (the whole stack but the network):

1. A Thricewise move post whose half-built turn places a card far off the grid
   (``"at": [0, FAR]``): the worker's CPU time, the answer's size and status. The board used
   to be drawn from the grid to that cell. Then each game's far proposal (what its board, hand
   or sheet would be sized from: a Punto card at ``[0, FAR]``, a Forget Venice pile of 600
   cards, a Buntherum tie of 900 names, a 3-High draft of 2,000 sides), refused: the CPU of
   the refusal, whole page (422) and htmx fragment, against the issue's 50 ms.
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


def bench_log(game: str) -> dict:
    return json.loads((ROOT / "benchmarks" / "logs" / f"{game}-bench.json").read_text())


def far_proposals(client, night) -> list[str]:
    """Each game's proposal off its board, refused before anything is drawn (issue 29: each in
    < 50 ms): the median and the largest CPU of RUNS refusals, as a whole page and as htmx."""
    from games import services
    from games.models import Player

    def start(game: str):
        log = bench_log(game)
        players = [Player.objects.get_or_create(club=night.club, name=n)[0] for n in log["players"]]
        return services.start_play(night=night, game=game, players=players, setup=log["setup"])

    punto = start("punto")
    client.post(f"/plays/{punto.pk}/move/", {"version": 0, "at": "0,0",
                "draft": json.dumps({"player": "Ana", "card": "red-7"})})  # fmt: skip
    buntherum = start("buntherum")
    grid = client.get(f"/plays/{buntherum.pk}/").context["bh"]["grid"]
    offered = next(c["card"].id for row in grid for c in row["cells"] if c["offered"])
    names = [f"N{n}" for n in range(900)] + ["Ana", "Ben"]
    cases = [
        ("Thricewise", None, None),  # its play and draft are made below, after a first tap
        (f"Punto, a card at [0, {FAR}]", punto,
         {"at": f"0,{FAR}", "draft": json.dumps({"player": "Ben", "card": "orange-3"})}),
        ("Forget Venice, a pile of 600 cards", start("forget-venice"),
         {"pile": "1", "draft": json.dumps(
             {"dealer": "Ana", "piles": [["The Sailor"] * 600, [], []], "active": 0})}),
        ("Buntherum, a tie of 900 names", buntherum,
         {"move_json": json.dumps({"card": offered, "tie": names})}),
        ("3-High, a draft of 2,000 sides", start("three-high"),
         {"side": "north", "draft": json.dumps({"side": ["north"] * 2000})}),
    ]  # fmt: skip
    thricewise = services.start_play(
        night=night, game="thricewise", players=list(night.club.players.all()[:2]), setup=GRID
    )
    seats = list(thricewise.seats.order_by("position").values_list("player__name", flat=True))
    reveal = dict(zip(seats, REVEAL.values(), strict=True))
    first = client.post(f"/plays/{thricewise.pk}/move/", {"version": 0,
                        "reveal_0": reveal[seats[0]], "reveal_1": reveal[seats[1]]})  # fmt: skip
    turn = first.context["tw_draft"]
    place = [{"player": turn["placer"], "card": turn["ready"], "at": [0, FAR]}]
    cases[0] = (
        f"Thricewise, a card at [0, {FAR}]",
        thricewise,
        {"group_done": "1", "draft": json.dumps({"reveal": reveal, "place": place, "done": []})},
    )
    lines = []
    for name, play, data in cases:
        play.refresh_from_db()
        body = {"version": play.version, **data}
        url = f"/plays/{play.pk}/move/"
        for how, headers in (("page", {}), ("htmx", {"HX-Request": "true"})):
            times, answers = [], set()
            for _ in range(RUNS):
                seconds, response = cpu(
                    lambda url=url, body=body, headers=headers: client.post(
                        url, body, headers=headers
                    )
                )
                times.append(seconds)
                answers.add((response.status_code, len(response.content) // 1024))
            lines.append(
                f"- {name} ({how}): median {1000 * statistics.median(times):.0f} ms of CPU, "
                f"max {1000 * max(times):.0f} ms over {RUNS}; answers (status, KB) "
                f"{sorted(answers)} (load average {load()})"
            )
        # what the game's page costs anyway: the refusal draws nothing more than it
        page = [cpu(lambda play=play: client.get(f"/plays/{play.pk}/"))[0] for _ in range(RUNS)]
        lines.append(f"  - its play page, for comparison: {1000 * statistics.median(page):.0f} ms")
    return lines


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
        for line in far_proposals(client, night):
            print(line, flush=True)
        for shape in ("wide", "deep", "numbers", "most lists accepted"):
            print(upload(client, night, shape), flush=True)


if __name__ == "__main__":
    main()
