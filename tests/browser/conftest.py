"""Browser tests: Playwright drives Debian's Chromium against pytest-django's live_server.

Run with `make test-browser` (it installs Chromium with apt when it is missing). Playwright
cannot download its own browser here, so we launch /usr/bin/chromium (or $CHROMIUM). A failing
test leaves a screenshot in test-results/.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
RESULTS = Path(__file__).resolve().parents[2] / "test-results"
#: the ``owner`` of tests/conftest.py
OWNER, OWNER_PASSWORD = "olivia", "owner-pass-123"

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite, the browser tests' database is a file, not pytest-django's in-memory one.

    An in-memory database is one connection that the live server shares among its threads; a
    live stream's reads then interleave with a move's transaction on that same connection ("no
    such savepoint", a 500). With a file each thread has its own connection, as in production.
    """
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        name = tmp_path_factory.mktemp("browser-db") / "test.sqlite3"
        database.setdefault("TEST", {})["NAME"] = str(name)


@pytest.fixture(scope="session", autouse=True)
def checkpointers_stopped_before_the_database_goes(django_db_setup):
    """The live server's connections start a WAL checkpointer for the database file
    (games.checkpoints); stopped before pytest-django deletes the file, which it would
    otherwise tell of as an error, on a stream pytest has closed by then."""
    yield
    from games import checkpoints

    checkpoints.stop_checkpointers()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import expect

    # A move's answer takes milliseconds, but CI machines are shared: wait as long as for taps.
    expect.set_options(timeout=10_000)
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: `make test-browser` installs it")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the Django ORM calls the tests
    # make are still plain synchronous calls. Set only while browser tests run.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield browser
        browser.close()


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.failed_call = report.failed


#: What Chromium logs when the Content Security Policy refuses something ("Refused to load the
#: script …", "Applying inline style violates the following Content Security Policy directive …").
CSP_MESSAGE = re.compile(r"Content Security Policy|Refused to |violates the following")

#: Every page reports its securitypolicyviolation events (what the policy refused, and where) to
#: the test, before any of the page's own scripts runs: a violation on a page the test has left
#: since is counted too.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  const on = event.target instanceof Element ? event.target : null;
  window.__cspViolation(
    `${event.effectiveDirective} refused ${event.blockedURI || "inline"}` +
      ` at ${event.sourceFile || event.documentURI}:${event.lineNumber}` +
      (event.sample ? ` (${event.sample})` : "") +
      (on ? ` on <${on.tagName.toLowerCase()}${on.id ? "#" + on.id : ""}>` : ""),
  );
}, true);
"""


def _context(browser, request, options, live_server):
    context = browser.new_context(base_url=live_server.url, locale="en-GB", **options)
    context.set_default_timeout(10_000)
    violations: list[str] = []
    context.expose_binding("__cspViolation", lambda _source, text: violations.append(text))
    context.add_init_script(CSP_LISTENER)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def heard(message):
        if CSP_MESSAGE.search(message.text):
            violations.append(message.text)

    page.on("console", heard)
    page.js_errors = errors
    page.csp_violations = violations
    yield page
    if getattr(request.node, "failed_call", False):
        RESULTS.mkdir(exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)
        page.screenshot(path=str(RESULTS / f"{name}.png"), full_page=True)
    # A tap's request may still be in flight when the test's last check passes; the test
    # database is flushed right after, under that request (SQLite: "table is locked").
    # A page that never settles is the test's business, not the teardown's.
    with contextlib.suppress(Exception):
        page.wait_for_load_state("networkidle", timeout=5_000)
    context.close()
    # Every browser test fails on a page the Content Security Policy refused something on: in
    # production, what it refuses is simply not there (a style, a script).
    if violations and not getattr(request.node, "failed_call", False):
        pytest.fail("the Content Security Policy refused:\n" + "\n".join(violations), pytrace=False)


@pytest.fixture
def page(browser, request, live_server):
    """A phone-sized page (390×844, touch)."""
    yield from _context(browser, request, PHONE, live_server)


@pytest.fixture
def no_js_page(browser, request, live_server):
    """A phone-sized page with JavaScript off: every setup and move form must work without it."""
    yield from _context(browser, request, {**PHONE, "java_script_enabled": False}, live_server)


@pytest.fixture
def desktop_page(browser, request, live_server):
    yield from _context(browser, request, DESKTOP, live_server)


@pytest.fixture
def table(transactional_db, owner):
    """The owner's club with five players and a game night, ready to start plays."""
    import datetime

    from games import services
    from games.models import Membership

    club = services.create_club(name="Browser club", owner=owner)
    assert Membership.objects.filter(club=club, user=owner).exists()
    players = [
        services.add_player(club=club, name=name) for name in ["Ana", "Ben", "Chloé", "Dev", "Eli"]
    ]
    night = services.create_game_night(club=club, date=datetime.date(2026, 11, 21), place="Ana's")
    return {"user": owner, "club": club, "players": players, "night": night}


def log_in(page, username: str = OWNER, password: str = OWNER_PASSWORD) -> None:
    """Log in through the login form, as the owner (tests/conftest.py) unless told otherwise."""
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form button[type=submit]:not(.link)")
    page.wait_for_url(re.compile(r".*/$"))


def start_play(page, night, game: str, seat_names: list[str]) -> None:
    """Go through 'Start a play' step 1 (game and seats) and land on the setup page."""
    page.goto(f"/nights/{night.pk}/plays/new/")
    page.check(f"input[name=game][value={game}]")
    selects = page.locator("select[name=seat]")
    for index, name in enumerate(seat_names):
        selects.nth(index).select_option(label=name)
    page.click("button[name=next]")
    page.wait_for_url(re.compile(r".*/plays/new/setup/.*"))


def assert_no_horizontal_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.evaluate("window.innerWidth")
    assert width <= viewport, f"the page scrolls sideways: {width}px wide in {viewport}px"


FOCUS_OFF_BODY = "Boolean(document.activeElement) && document.activeElement !== document.body"


def eventually(page, expression: str, timeout: float = 5.0) -> bool:
    """Whether ``expression`` comes true on the page within ``timeout`` seconds. Polled from
    here: Playwright's wait_for_function evaluates a string with eval, which the CSP refuses."""
    import time

    end = time.monotonic() + timeout
    while True:
        if page.evaluate(expression):
            return True
        if time.monotonic() > end:
            return False
        page.wait_for_timeout(25)


def in_view(page, selector: str):
    """The element a person taps next, asserted fully on the screen while the page is not
    scrolled: on a phone, the board and the move's controls must be tappable without scrolling.
    Counts the tap on ``page.taps``."""
    locator = page.locator(selector).first
    page.taps = getattr(page, "taps", 0) + 1
    # After a tap on the play page, the focus is on the next thing to choose, never on <body>
    # (static/js/play-keys.js): checked before the next tap on the same page.
    if page.evaluate("window.__tapped === true && Boolean(document.getElementById('play-main'))"):
        assert eventually(page, FOCUS_OFF_BODY), f"the focus fell to <body> before {selector}"
    page.evaluate("window.__tapped = true")
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    if width > PHONE["viewport"]["width"] * 2:
        locator.wait_for(state="visible")
        return locator  # a desktop: the board and the score sheet side by side, the page scrolls
    # A live refresh may put an identical part in place between the wait and the measure (the
    # element found is then detached): measure the one on the page now, as a finger would.
    box = None
    for _ in range(3):
        locator.wait_for(state="visible")
        box = locator.bounding_box()
        if box is not None:
            break
    assert box is not None, f"{selector} is not on the page"
    inside = (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width + 0.5
        and box["y"] + box["height"] <= height + 0.5
    )
    assert inside, f"{selector} is off the {width}×{height} screen: {box}"
    assert page.evaluate("window.scrollY") == 0, f"the page had to scroll before {selector}"
    return locator
