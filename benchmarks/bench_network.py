"""The play page on a phone network (issue 28): what each move costs on the wire and in waiting.

Run by `make bench` (benchmarks/run.py) and alone by `make bench-network`, or
`.venv/bin/python benchmarks/bench_network.py [--root CHECKOUT] [--games punto,buntherum]
[--details] [--json FILE]`.

The app is served as in production (DEBUG off, `collectstatic` into a scratch folder, whitenoise,
uvicorn, ASGI) on a free port of 127.0.0.1, with a scratch SQLite database holding one play per
game imported from the public example logs (tests/fixtures/examples/, none of their moves yet).
Chromium (Playwright, /usr/bin/chromium or $CHROMIUM) on a 390×844 phone, its network emulated
as "Fast 3G" through CDP (`Network.emulateNetworkConditions`: 150 ms latency, 1.6 Mbit/s down,
750 kbit/s up), logs in and enters the first moves of each example by tapping them as a player
does (the taps of tests/browser/test_<game>.py, written out here so that the bench also runs on a
checkout whose tests tap differently). For each move:

- **requests**: every request the page sends (CDP `Network.requestWillBeSent`), the live stream
  (`/events/`) and static files aside;
- **bytes on the wire**: what came back (`Network.loadingFinished`'s `encodedDataLength`: the
  headers and the body as sent, compressed or not) plus the bodies sent (request headers not
  counted); the **largest answer** is the biggest single one;
- **waiting**: for each tap, from the tap (the page's click event) to the last change of the page
  it caused (a `MutationObserver`; htmx's own ``htmx-*`` classes aside), measured on the page's
  clock once no counted request is in flight and the page has been still for a moment; a tap that
  sends nothing waits ~0. A move's waiting is the sum over its taps. After the last tap that is
  the answer swapped in: the new board, with what the next player may do. Beside it, what the
  emulated network alone imposes (each request's latency and its bytes at the emulated speeds, as
  if the server answered at once): the rest is the server, and the page's own work.

Then the **first load** of the play page, cold: a new tab with the same login, the browser's cache
off, Fast 3G, every request (static files and the live stream's first bytes included) until the
page is still, and when its `load` event came.

`--root` serves another checkout of the project (its own code, templates, static files and
example logs) with this script: the figures "before" in docs/benchmarks.md are this script run
against the commit before issue 28's work. KB are 1,000 bytes, as the browser's tools count them.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "has_touch": True}
#: Chromium's "Fast 3G" as issue 28 states it: 150 ms, 1.6 Mbit/s down, 750 kbit/s up.
FAST_3G = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1_600_000 / 8,
    "uploadThroughput": 750_000 / 8,
}
USER, PASSWORD = "bench", "bench-network-pass-123"
#: game → (example log, moves entered by tapping). Each play stops short of its end, so that the
#: first load measured afterwards is a page with a move form, late in the game.
GAMES = {
    "punto": ("punto-1", 10),
    "buntherum": ("buntherum-1", 8),
    "three-high": ("three-high-1", 4),
    "thricewise": ("thricewise-1", 5),
    "forget-venice": ("forget-venice-1", 4),
}
#: Targets of issue 28, in seconds of waiting per move.
WAIT_TARGET = {"thricewise": 1.0, "forget-venice": 1.5}
OTHER_WAIT_TARGET = 0.7
ANSWER_TARGET_KB, FIRST_LOAD_TARGET_KB = 8, 150
#: How long the page must stay still to be taken as ready: between the taps of a move, and after
#: its last tap (long enough for the live stream's word of the move, and what it sets off).
QUIET_TAP_MS, QUIET_MOVE_MS = 250, 1000

#: The page's clock: when the tap came, and when the page last changed.
INSTRUMENT = """
(() => {
  const bench = (window.__bench = { armed: false, tap: 0, mut: 0 });
  window.addEventListener("click", () => {
    if (bench.armed) { bench.armed = false; bench.tap = performance.now(); }
  }, true);
  const bare = (value) => (value || "").split(/\\s+/)
    .filter((name) => name && !name.startsWith("htmx-")).sort().join(" ");
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "attributes" && record.attributeName === "class"
          && bare(record.oldValue) === bare(record.target.getAttribute("class"))) continue;
      bench.mut = performance.now();
      return;
    }
  });
  observer.observe(document, {
    subtree: true, childList: true, characterData: true,
    attributes: true, attributeOldValue: true,
  });
})();
"""


# --- the taps of each game (tests/browser/test_<game>.py) ---
# Each yields the selector of the next tap; it runs on once that tap's answer is in, so it may
# look at the page as the player would.


def punto_taps(page, move, players):
    yield f"button[name=card][value={move['card']}]"
    if move.get("blocked"):
        yield "#punto-blocked"
    else:
        x, y = move["at"]
        yield f'button[name=at][value="{x},{y}"]'


def buntherum_taps(page, move, players):
    yield f"button[name=card][value={move['card']}]"
    if "tie" in move:
        for name in move["tie"]:
            yield f"input[name=tied][value='{name}']"
        yield "#record-tie"
    else:
        yield f"input[name=caller][value='{move['call']['player']}']"
        yield f"#call-{move['call']['series']}"


def three_high_taps(page, move, players):
    yield f"button[name=card][value='{move['card']}']"
    yield f"button[name=side][value={move['side']}]"
    yield f"#th-board button[value='{move['piece']}']"
    yield "#confirm-move"


def thricewise_taps(page, move, players):
    for player in players:  # a card per player, in seat order
        yield f'#tw-deck button[name=pick][value="{move["reveal"][player]}"]'
    builder = page.locator("#tw-grid button[data-at]").count() > 0  # built on the phone
    for entry in move.get("place") or []:
        x, y = entry["at"]
        if builder:
            # its card (tests/browser/test_thricewise.py's choice): the revealed one is ready
            if entry["card"] == move["reveal"][entry["player"]]:
                choice = f"#tw-place [data-choose][data-key='{entry['player']}'][data-required]"
            else:
                choice = f"#tw-place [data-choose][data-value='{entry['card']}']"
            if page.locator(choice).get_attribute("aria-pressed") != "true":  # an older one
                yield choice
            yield f"#tw-grid button[data-at='{x},{y}']"
            continue
        choice = f"#tw-place label[data-card='{entry['card']}']"
        if not page.locator(f"{choice} input").is_checked():  # an older set-aside card
            yield choice
        yield f"button[name=at][value='{x},{y}']"
    yield "#enter-turn"


def forget_venice_taps(page, move, players):
    if page.locator("button[name=dealer]:visible").count():  # when several may deal
        yield f'button[name=dealer][value="{move["dealer"]}"]'
    for index, pile in enumerate(move["piles"]):
        if page.locator(f"#fv-pile-{index + 1}[aria-pressed=true]").count() == 0:
            yield f"#fv-pile-{index + 1}"
        for card in pile:
            yield f'#fv-deck button[name=card][value="{card}"]'
    yield f"#fv-first-{move['first'] + 1}"
    yield f"#fv-second-{move['second'] + 1}"


TAPS = {
    "punto": punto_taps,
    "buntherum": buntherum_taps,
    "three-high": three_high_taps,
    "thricewise": thricewise_taps,
    "forget-venice": forget_venice_taps,
}


# --- the app, served from the checkout measured ---


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def app_env(scratch: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{scratch / 'db.sqlite3'}",
        "DEBUG": "0",
        "SECRET_KEY": "network-bench-" + secrets.token_urlsafe(40),
        "ALLOWED_HOSTS": HOST,
        "SECURE_SSL_REDIRECT": "0",
        "STATIC_ROOT": str(scratch / "static"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def seed(root: Path, games: list[str]) -> None:
    """(In a child process, in the checkout measured.) The login, a club, a night, and one play
    per game from its example log with none of its moves; prints {game: play id}."""
    sys.path.insert(0, str(root))
    import django

    django.setup()
    import datetime

    from django.contrib.auth import get_user_model

    from games import services

    user = get_user_model().objects.create_user(USER, password=PASSWORD)
    club = services.create_club(name="Network bench club", owner=user)
    night = services.create_game_night(club=club, date=datetime.date.today())
    plays = {}
    for game in games:
        log = example(root, game)
        log["moves"] = []
        plays[game] = services.import_log(club=club, log=log, night=night).pk
    print(json.dumps(plays))


def example(root: Path, game: str) -> dict:
    name, _ = GAMES[game]
    return json.loads((root / "tests" / "fixtures" / "examples" / f"{name}.json").read_text())


def start_app(root: Path, scratch: Path, games: list[str]) -> tuple[subprocess.Popen, int, dict]:
    env = app_env(scratch)
    python = sys.executable
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run(
            [python, "manage.py", *command], cwd=root, env=env, check=True, capture_output=True
        )
    found = subprocess.run(
        [python, __file__, "--seed", "--root", str(root), "--games", ",".join(games)],
        cwd=root, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    plays = json.loads(found.stdout.strip().splitlines()[-1])
    port = free_port()
    server = subprocess.Popen(
        [python, "-m", "uvicorn", "config.asgi:application", "--host", HOST, "--port", str(port),
         "--log-level", "warning"],
        cwd=root, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=(scratch / "server.log").open("w"),
    )  # fmt: skip
    for _ in range(300):
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return server, port, plays
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the app server did not start")


# --- the network, as CDP sees it ---


def counted(url: str, kind: str | None) -> bool:
    """A request of the page's own doing: not the live stream, not a static file."""
    return kind != "EventSource" and "/events/" not in url and "/static/" not in url


class Wire:
    """Every request of one page, from CDP's Network domain."""

    def __init__(self, page, *, cache: bool = True):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.requests: list[dict] = []
        self.by_id: dict[str, dict] = {}
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.dataReceived", self._data)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.loadingFailed", self._failed)
        self.cdp.send("Network.enable")
        if not cache:
            self.cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        self.cdp.send("Network.emulateNetworkConditions", FAST_3G)

    def _sent(self, event):
        previous = self.by_id.get(event["requestId"])
        if previous is not None and "redirectResponse" in event:  # the same id, a new hop
            previous["down"] = event["redirectResponse"].get("encodedDataLength", 0)
            previous["status"] = event["redirectResponse"].get("status")
            previous["done"] = True
        request = event["request"]
        body = 0
        for entry in request.get("postDataEntries") or []:
            body += len(base64.b64decode(entry.get("bytes", "")))
        if not body and request.get("postData"):
            body = len(request["postData"].encode())
        record = {
            "url": request["url"],
            "method": request["method"],
            "kind": event.get("type"),
            "up": body,
            "down": 0,
            "streamed": 0,
            "status": None,
            "encoding": "",
            "done": False,
        }
        record["counted"] = counted(record["url"], record["kind"])
        self.by_id[event["requestId"]] = record
        self.requests.append(record)

    def _response(self, event):
        record = self.by_id.get(event["requestId"])
        if record is not None:
            record["status"] = event["response"]["status"]
            headers = {k.lower(): v for k, v in event["response"].get("headers", {}).items()}
            record["encoding"] = headers.get("content-encoding", "")

    def _data(self, event):
        record = self.by_id.get(event["requestId"])
        if record is not None:
            record["streamed"] += event.get("encodedDataLength", 0)

    def _finished(self, event):
        record = self.by_id.get(event["requestId"])
        if record is not None:
            record["down"] = event["encodedDataLength"]
            record["done"] = True

    def _failed(self, event):
        record = self.by_id.get(event["requestId"])
        if record is not None:
            record["done"] = True
            record["failed"] = event.get("errorText", "failed")

    def busy(self, *, everything: bool = False) -> bool:
        return any(
            not r["done"] and (r["counted"] or (everything and r["kind"] != "EventSource"))
            for r in self.requests
        )


def network_alone(request: dict) -> float:
    """What the emulated network alone makes a request wait, in seconds, were the server
    instant: its latency, then its bytes at the emulated speeds (one request at a time)."""
    return (
        FAST_3G["latency"] / 1000
        + request["down"] / FAST_3G["downloadThroughput"]
        + request["up"] / FAST_3G["uploadThroughput"]
    )


def still(page, wire: Wire, quiet_ms: float, *, everything: bool = False, limit: float = 90):
    """Wait until no request is in flight and the page has not changed for ``quiet_ms``."""
    deadline = time.monotonic() + limit
    while True:
        page.wait_for_timeout(25)
        now, changed, tapped = page.evaluate(
            "() => [performance.now(), window.__bench.mut, window.__bench.tap]"
        )
        if not wire.busy(everything=everything) and now - max(changed, tapped) >= quiet_ms:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the page never became still: {page.url}")


# --- one game ---


def log_in(context, base: str) -> None:
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", USER)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link)")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.close()


def version(page) -> int:
    """The play's version the page shows: one more for each move stored."""
    return int(page.locator("#play-main").get_attribute("data-version"))


def tap(page, wire: Wire, selector: str, quiet_ms: float) -> dict:
    """One tap, as soon as its target is offered; what it sent and how long the page took."""
    target = page.locator(f"{selector} >> visible=true").first
    try:
        target.wait_for(state="visible", timeout=20_000)
    except Exception as exc:
        raise RuntimeError(
            f"{selector} is not offered (has the game's move form changed? compare with "
            f"tests/browser/test_<game>.py)"
        ) from exc
    first = len(wire.requests)
    page.evaluate("() => { window.__bench.armed = true; }")
    target.click()
    still(page, wire, quiet_ms)
    tapped, changed = page.evaluate("() => [window.__bench.tap, window.__bench.mut]")
    sent = [r for r in wire.requests[first:] if r["counted"]]
    return {
        "selector": selector,
        "wait_ms": max(0.0, changed - tapped),
        "requests": [
            {k: r[k] for k in ("method", "url", "status", "up", "down", "encoding")} for r in sent
        ],
    }


def first_load(browser, base: str, url: str, cookies: list) -> dict:
    """The play page in a new tab, the cache off, on Fast 3G: every request until it is still."""
    context = browser.new_context(base_url=base, locale="en-GB", **PHONE)
    context.add_cookies(cookies)
    context.add_init_script(INSTRUMENT)
    page = context.new_page()
    wire = Wire(page, cache=False)
    page.goto(url, wait_until="load", timeout=120_000)
    page.wait_for_function("() => window.__bench !== undefined")
    still(page, wire, 1000, everything=True)
    load_s = page.evaluate(
        "() => performance.getEntriesByType('navigation')[0].loadEventStart / 1000"
    )
    requests = wire.requests
    result = {
        "requests": len(requests),
        # a finished request's total; the live stream's first bytes, which never finish
        "bytes": sum((r["down"] if r["done"] else r["streamed"]) + r["up"] for r in requests),
        "page_bytes": sum(r["down"] for r in requests if r["kind"] == "Document"),
        "load_s": load_s,
        "detail": [
            {k: r[k] for k in ("url", "kind", "status", "down", "streamed", "done", "encoding")}
            for r in requests
        ],
    }
    context.close()
    return result


def measure_game(browser, base: str, root: Path, game: str, play: int) -> dict:
    log = example(root, game)
    _, count = GAMES[game]
    context = browser.new_context(base_url=base, locale="en-GB", **PHONE)
    context.set_default_timeout(30_000)
    context.add_init_script(INSTRUMENT)
    errors: list[str] = []
    log_in(context, base)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    wire = Wire(page)
    url = f"{base}/plays/{play}/"
    page.goto(url, timeout=120_000)
    still(page, wire, QUIET_MOVE_MS, everything=True)
    moves = []
    for number, move in enumerate(log["moves"][:count]):
        before = version(page)
        taps = []
        steps = TAPS[game](page, move, log["players"])
        for selector in steps:
            taps.append(tap(page, wire, selector, QUIET_TAP_MS))
        # the last tap's answer, and whatever the live stream's word of the move sets off
        first = len(wire.requests)
        still(page, wire, QUIET_MOVE_MS)
        late = [r for r in wire.requests[first:] if r["counted"]]
        if late:
            taps[-1]["requests"] += [
                {k: r[k] for k in ("method", "url", "status", "up", "down", "encoding")}
                for r in late
            ]
            tapped, changed = page.evaluate("() => [window.__bench.tap, window.__bench.mut]")
            taps[-1]["wait_ms"] = max(taps[-1]["wait_ms"], changed - tapped)
        if version(page) != before + 1:
            error = page.locator("#move-error")
            said = error.first.inner_text() if error.count() else ""
            shot = HERE / "test-results" / f"bench-network-{game}.png"
            shot.parent.mkdir(exist_ok=True)
            page.screenshot(path=str(shot), full_page=True)
            tapped = " ".join(t["selector"] for t in taps)
            raise RuntimeError(
                f"{game}: move {number + 1} was not logged after {tapped} ({shot}). {said}"
            )
        requests = [r for t in taps for r in t["requests"]]
        moves.append(
            {
                "taps": len(taps),
                "requests": len(requests),
                "bytes": sum(r["up"] + r["down"] for r in requests),
                "largest": max((r["down"] for r in requests), default=0),
                "wait_s": sum(t["wait_ms"] for t in taps) / 1000,
                "network_s": sum(network_alone(r) for r in requests),
                "detail": taps,
            }
        )
    cookies = context.cookies()
    context.close()
    return {
        "game": game,
        "log": GAMES[game][0],
        "moves": moves,
        "first_load": first_load(browser, base, url, cookies),
        "js_errors": errors,
    }


# --- the report ---


def kb(count: float) -> str:
    return f"{count / 1000:.1f}"


def summary(result: dict) -> dict:
    moves = result["moves"]
    return {
        "moves": len(moves),
        "taps": statistics.mean(m["taps"] for m in moves),
        "requests": statistics.mean(m["requests"] for m in moves),
        "kb": statistics.mean(m["bytes"] for m in moves) / 1000,
        "largest_kb": max(m["largest"] for m in moves) / 1000,
        "wait_median": statistics.median(m["wait_s"] for m in moves),
        "wait_max": max(m["wait_s"] for m in moves),
        "network": statistics.median(m["network_s"] for m in moves),
        "first_load_kb": result["first_load"]["bytes"] / 1000,
        "first_load_requests": result["first_load"]["requests"],
        "first_load_s": result["first_load"]["load_s"],
    }


def table(results: list[dict]) -> str:
    rows = [
        "| game (moves tapped) | taps/move | requests/move | KB/move on the wire | largest answer"
        " | waiting/move, median (max) | the network alone, median | first load, cold |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for result in results:
        s = summary(result)
        rows.append(
            f"| {result['game']} ({s['moves']}) | {s['taps']:.1f} | {s['requests']:.1f} | "
            f"{s['kb']:.1f} KB | {s['largest_kb']:.1f} KB | {s['wait_median']:.2f} s "
            f"({s['wait_max']:.2f} s) | {s['network']:.2f} s | {s['first_load_kb']:.0f} KB, "
            f"{s['first_load_requests']} requests, load {s['first_load_s']:.1f} s |"
        )
    return "\n".join(rows)


def details(result: dict) -> str:
    lines = [f"\n{result['game']}:"]
    for number, move in enumerate(result["moves"], start=1):
        lines.append(
            f"  move {number}: {move['taps']} taps, {move['requests']} requests, "
            f"{kb(move['bytes'])} KB, waiting {move['wait_s']:.2f} s"
        )
        for step in move["detail"]:
            sent = ", ".join(
                f"{r['method']} {r['url'].split(HOST, 1)[-1].split('/', 1)[-1]} {r['status']} "
                f"↑{r['up']} ↓{r['down']}{' ' + r['encoding'] if r['encoding'] else ''}"
                for r in step["requests"]
            )
            lines.append(f"    {step['wait_ms']:6.0f} ms  {step['selector']}  {sent}")
    load = result["first_load"]
    lines.append(f"  first load: {kb(load['bytes'])} KB, {load['requests']} requests")
    for r in load["detail"]:
        lines.append(
            f"    {r['kind']} {r['url'].split('/', 3)[-1]} {r['status']} "
            f"↓{r['down'] if r['done'] else r['streamed']}"
            f"{' ' + r['encoding'] if r['encoding'] else ''}"
        )
    if result["js_errors"]:
        lines.append(f"  JavaScript errors: {result['js_errors']}")
    return "\n".join(lines)


def commit_of(root: Path) -> str:
    found = subprocess.run(
        ["git", "log", "-1", "--format=%h %cs"], cwd=root, capture_output=True, text=True
    )
    return found.stdout.strip() or "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout to serve")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--details", action="store_true", help="every tap's requests")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    parser.add_argument("--seed", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    root = args.root.resolve()
    games = [game for game in args.games.split(",") if game]
    if args.seed:
        seed(root, games)
        return
    print("## The play page on Fast 3G (issue 28)\n")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("Not measured: Playwright is not installed (requirements-dev.txt).")
        return
    if not Path(CHROMIUM).exists():
        print(f"Not measured: no Chromium at {CHROMIUM} (`make test-browser` installs it).")
        return
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    scratch = Path(tempfile.mkdtemp(prefix="bench-network-"))
    server = None
    results = []
    try:
        server, port, plays = start_app(root, scratch, games)
        base = f"http://{HOST}:{port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=FLAGS, headless=True
            )
            for game in games:
                results.append(measure_game(browser, base, root, game, plays[game]))
            browser.close()
    except Exception:
        said = scratch / "server.log"
        if said.exists():
            print("The app server said:\n" + said.read_text()[-3000:], file=sys.stderr)
        raise
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(scratch, ignore_errors=True)
    print(
        f"{root.name} at {commit_of(root)}; Chromium on a 390×844 phone, Fast 3G emulated "
        f"(150 ms, 1.6 Mbit/s down, 750 kbit/s up); uvicorn + SQLite on {HOST}; load average "
        f"{load} at the start, {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end.\n"
    )
    print(table(results))
    print(
        f"\nTargets: an answer ≤ {ANSWER_TARGET_KB} KB; first load ≤ {FIRST_LOAD_TARGET_KB} KB; "
        f"waiting per move ≤ 1.5 s (Forget Venice), 1 s (Thricewise), "
        f"{OTHER_WAIT_TARGET} s (the others)."
    )
    if args.details:
        for result in results:
            print(details(result))
    if args.json:
        args.json.write_text(json.dumps({"load": load, "results": results}, indent=1))


if __name__ == "__main__":
    main()
