"""Every page family, read on a phone (390 px) and on a desktop, in English and in French.

A club with a real history (long French names, a finished play of every game from the public
examples, a play in progress, an abandoned one, members, invites, an audit) is loaded page by
page; on each page the layout is measured in the browser:

- the page does not scroll sideways, and no table is wider than the screen or scrolls inside;
- no word is broken in the middle (the "H u g o", "Tota l" of a squeezed table column), and no
  table cell holding text is narrower than a few characters;
- no element scrolls sideways inside the page, except the play page's board (the play page's
  own layout is tested with the games).

Every <details> is opened first, so that folded forms and the audit's details are read too.

A screenshot of every page is saved under test-results/layout/ for a person to look at.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import re

import pytest

from referee import GAMES
from tests.examples import EXAMPLES
from tests.per_game import own

from .conftest import DESKTOP, OWNER, PHONE, RESULTS

#: The public examples' players, renamed as a French club would have them.
NAMES = {
    "Ana": "Gaëlle",
    "Ben": "Maximilienne",
    "Chloé": "Marie-Thérèse Delacroix",
    "Dev": "Hugo",
    "Eli": "Jean-Baptiste",
}
CLUB = "Les Joueurs du Jeudi de Saint-Germain-en-Laye"
PLACE = "Chez Marie-Thérèse, 12 rue des Acacias"
#: How many seats each game's setup page is shown with: the most it seats, unless its own browser
#: test says otherwise (``LAYOUT_SEATS``, tests/per_game.py).
SEATS = {
    game: own(game, "LAYOUT_SEATS", engine.max_players, folder="browser", prefix="test_")
    for game, engine in GAMES.items()
}

#: Run in the page: what a reader would find broken, as sentences.
MEASURE = r"""
() => {
  const problems = [];
  const root = document.documentElement;
  const width = root.clientWidth;
  const name = (el) => {
    let text = el.tagName.toLowerCase();
    if (el.id) text += '#' + el.id;
    else if (el.classList.length) text += '.' + [...el.classList].join('.');
    return text;
  };
  // Seen on the screen: not hidden, nor inside a box clipped to a pixel (read to screen
  // readers only, as a stacked table's head).
  const shown = (el) => {
    if (getComputedStyle(el).visibility === 'hidden') return false;
    for (let box = el; box; box = box.parentElement) {
      const rect = box.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1) return false;
    }
    return true;
  };
  const words = /[^\s\-‐–—\/·,;:|]{2,}/g;
  const range = document.createRange();
  // The width a word takes laid out (summed over the lines it may have been broken across).
  const widestWord = (el) => {
    let widest = 0;
    const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      for (const match of node.data.matchAll(words)) {
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const w = [...range.getClientRects()].reduce((sum, r) => sum + r.width, 0);
        widest = Math.max(widest, w);
      }
    }
    return widest;
  };
  if (root.scrollWidth > width) {
    problems.push(`the page scrolls sideways: ${root.scrollWidth}px wide in ${width}px`);
  }
  for (const table of document.querySelectorAll('table')) {
    if (!shown(table)) continue;
    const box = table.getBoundingClientRect();
    if (box.right > width + 0.5 || box.left < -0.5) {
      problems.push(`${name(table)} spans ${Math.round(box.left)}–${Math.round(box.right)}px`
        + ` of a ${width}px screen`);
    }
    if (table.scrollWidth > table.clientWidth + 0.5) {
      problems.push(`${name(table)} overflows itself (${table.scrollWidth}px in`
        + ` ${table.clientWidth}px)`);
    }
    // A cell must be as wide as its widest word, or a few characters: not one letter wide.
    for (const cell of table.querySelectorAll('th, td')) {
      const text = cell.innerText.trim();
      if (text.length < 3 || !shown(cell)) continue;
      const style = getComputedStyle(cell);
      const inner = cell.clientWidth - parseFloat(style.paddingLeft)
        - parseFloat(style.paddingRight);
      const few = 2 * parseFloat(style.fontSize);
      if (inner + 0.5 < Math.min(widestWord(cell), few)) {
        problems.push(`${name(table)}: the cell "${text.slice(0, 20)}" is ${Math.round(inner)}px`
          + ' wide');
      }
    }
  }
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('.board-frame') || !shown(el)) continue;
    const style = getComputedStyle(el);
    if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 0.5) {
      problems.push(`${name(el)} scrolls sideways inside (${el.scrollWidth}px in`
        + ` ${el.clientWidth}px)`);
    }
  }
  // Words broken in the middle: a word (between spaces, hyphens, slashes…) on two lines.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const broken = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('pre, code, script, style, textarea, option, .board-frame')) {
      continue;
    }
    if (!shown(parent)) continue;
    for (const match of node.data.matchAll(words)) {
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()]
        .filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.add(`"${match[0]}" in ${name(parent)}`);
    }
  }
  for (const word of broken) problems.push(`a word is broken across lines: ${word}`);
  return problems;
}
"""


def _renamed(path) -> dict:
    text = path.read_text()
    for old, new in NAMES.items():
        text = text.replace(f'"{old}"', json.dumps(new, ensure_ascii=False))
    return json.loads(text)


@pytest.fixture
def history(transactional_db, owner, make_user):
    """A club with a history, and the pages to read, in reading order."""
    from games import services
    from games.models import Membership, Player

    club = services.create_club(name=CLUB, owner=owner)
    member = make_user("marie-therese.delacroix")
    Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
    services.create_invite(club=club, by=owner, max_uses=5)
    # An invite to a club the owner is not in, for the page that asks whether to join.
    neighbour = make_user("jean-baptiste")
    elsewhere = services.create_club(name="Le Club des Échecs et des Dames", owner=neighbour)
    invite = services.create_invite(club=elsewhere, by=neighbour)
    earlier = services.create_game_night(club=club, date=datetime.date(2026, 11, 13))
    night = services.create_game_night(
        club=club,
        date=datetime.date(2026, 11, 20),
        place=PLACE,
        notes="Apporter les cartes de Forget Venice.",
    )
    finished = {}
    for game in GAMES:
        log = _renamed(EXAMPLES / f"{game}-1.json")
        services.import_log(club=club, log=log, night=earlier, by=owner)
        finished[game] = services.import_log(club=club, log=log, night=night, by=owner)
    players = {p.name: p for p in Player.objects.filter(club=club)}
    seated = [players[NAMES[n]] for n in ["Ana", "Ben", "Chloé", "Dev", "Eli"]]
    in_progress = services.start_play(
        night=night,
        game="thricewise",
        players=seated,
        setup=_renamed(EXAMPLES / "thricewise-1.json")["setup"],
        by=owner,
    )
    abandoned = services.start_play(
        night=night,
        game="three-high",
        players=seated[:2],
        setup=_renamed(EXAMPLES / "three-high-1.json")["setup"],
        by=member,
    )
    services.abandon_play(play=abandoned, by=member)
    newcomer = services.add_player(club=club, name="Clémentine-Eugénie")
    membership = Membership.objects.get(club=club, user=member)
    # Any game's result (issue 31): a catalogue game of each kind, long names, a result each.
    catalogue = {
        kind: services.add_catalogue_game(club=club, name=name, result=kind, teams=teams)
        for kind, name, teams in [
            ("highest", "Les Aventuriers du Rail : Europe", False),
            ("lowest", "Golf à neuf trous", False),
            ("ranks", "Codenames : Duo en équipes", True),
            ("cooperative", "Hanabi et feux d'artifice", False),
        ]
    }
    results = {
        kind: services.enter_result(
            night=night,
            game=game.key,
            seats=[
                services.SeatResult(
                    player,
                    None if kind in ("ranks", "cooperative") else 10 * index - 3,
                    index if kind == "ranks" else None,
                    index if kind == "ranks" else None,
                )
                for index, player in enumerate(seated[:4], 1)
            ],
            won=True if kind == "cooperative" else None,
            duration_minutes=75,
        )
        for kind, game in catalogue.items()
    }

    def seats(count: int) -> str:
        return "&".join(f"seat={p.pk}" for p in seated[:count])

    pages = [
        ("home", "/"),
        ("account", "/accounts/me/"),
        ("password-change", "/accounts/password_change/"),
        ("club-create", "/clubs/new/"),
        ("club", f"/clubs/{club.pk}/"),
        ("members", f"/clubs/{club.pk}/members/"),
        ("member-remove", f"/memberships/{membership.pk}/remove/"),
        ("join", f"/join/{invite.token}/"),
        ("audit", f"/clubs/{club.pk}/audit/"),
        ("leaderboard", f"/clubs/{club.pk}/leaderboard/"),
        *(
            (f"leaderboard-{game}", f"/clubs/{club.pk}/leaderboard/{game}/")
            for game in ["thricewise", "three-high"]
        ),
        ("player", f"/players/{players[NAMES['Chloé']].pk}/"),
        ("player-delete", f"/players/{newcomer.pk}/delete/"),
        ("player-delete-refused", f"/players/{players[NAMES['Ana']].pk}/delete/"),
        ("night", f"/nights/{night.pk}/"),
        ("night-summary", f"/nights/{night.pk}/summary/"),
        ("play-start", f"/nights/{night.pk}/plays/new/"),
        ("result-game", f"/nights/{night.pk}/results/new/"),
        *(
            (f"result-new-{kind}", f"/nights/{night.pk}/results/new/{game.key}/")
            for kind, game in catalogue.items()
        ),
        *((f"result-{kind}", f"/plays/{play.pk}/") for kind, play in results.items()),
        (
            "leaderboard-catalogue",
            f"/clubs/{club.pk}/leaderboard/{catalogue['highest'].key}/?year=2026&players=4",
        ),
        *(
            (f"setup-{game}", f"/nights/{night.pk}/plays/new/setup/?game={game}&{seats(count)}")
            for game, count in SEATS.items()
        ),
        *((f"play-{game}", f"/plays/{play.pk}/") for game, play in finished.items()),
        *((f"sheet-{game}", f"/plays/{play.pk}/sheet/") for game, play in finished.items()),
        ("play-in-progress", f"/plays/{in_progress.pk}/"),
        ("sheet-in-progress", f"/plays/{in_progress.pk}/sheet/"),
        ("play-abandoned", f"/plays/{abandoned.pk}/"),
        ("sheet-abandoned", f"/plays/{abandoned.pk}/sheet/"),
        ("play-delete", f"/plays/{finished['forget-venice'].pk}/delete/"),
        *((f"rules-{game}", f"/rules/{game}/") for game in GAMES),
        ("not-found", "/nights/999999/"),
    ]
    anonymous_pages = [
        ("welcome", "/"),
        ("login", "/accounts/login/"),
        ("signup", "/accounts/signup/"),
        ("password-reset", "/accounts/password_reset/"),
        ("password-reset-done", "/accounts/password_reset/done/"),
        ("password-reset-invalid", "/accounts/reset/MQ/set-password/"),
    ]
    return {"pages": pages, "anonymous_pages": anonymous_pages}


def _session_cookie(live_server) -> dict:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=OWNER))
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return {"name": settings.SESSION_COOKIE_NAME, "value": value, "url": live_server.url}


@contextlib.contextmanager
def opened(browser, live_server, options: dict, language: str, *, logged_in: bool = True):
    """A page in ``language`` on the device ``options`` describe, logged in as the owner unless
    told otherwise; the page's script errors are asserted none once it is closed."""
    from django.conf import settings

    context = browser.new_context(base_url=live_server.url, locale="en-GB", **options)
    context.set_default_timeout(15_000)
    cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    if logged_in:
        cookies.append(_session_cookie(live_server))
    context.add_cookies(cookies)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page
    finally:
        with contextlib.suppress(Exception):
            page.wait_for_load_state("networkidle", timeout=5_000)
        context.close()
    assert errors == []


def _read_pages(browser, live_server, pages, *, options, language, logged_in, label):
    """Load every page; return the problems found, page by page."""
    folder = RESULTS / "layout"
    folder.mkdir(parents=True, exist_ok=True)
    problems = {}
    with opened(browser, live_server, options, language, logged_in=logged_in) as page:
        for name, url in pages:
            response = page.goto(url)
            assert response is not None and response.status < 500, (name, url)
            assert page.url == live_server.url + url, f"{name}: {url} led to {page.url}"
            assert page.locator("html").get_attribute("lang") == language, (name, url)
            # What is folded away (a form, the audit's details) is read too.
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            page.screenshot(path=str(folder / f"{label}-{language}-{name}.png"), full_page=True)
            found = page.evaluate(MEASURE)
            if found:
                problems[f"{name} ({url})"] = found
    return problems


def _report(problems: dict) -> str:
    return "\n".join(f"{page}:\n  " + "\n  ".join(found) for page, found in problems.items())


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_page_reads_on_a_phone(browser, live_server, history, language):
    problems = _read_pages(
        browser,
        live_server,
        history["pages"],
        options=PHONE,
        language=language,
        logged_in=True,
        label="phone",
    )
    problems |= _read_pages(
        browser,
        live_server,
        history["anonymous_pages"],
        options=PHONE,
        language=language,
        logged_in=False,
        label="phone",
    )
    assert not problems, "\n" + _report(problems)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_page_reads_on_a_desktop(browser, live_server, history, language):
    options = {**DESKTOP, "viewport": {"width": 1280, "height": 800}}
    problems = _read_pages(
        browser,
        live_server,
        history["pages"] + history["anonymous_pages"][:2],
        options=options,
        language=language,
        logged_in=True,
        label="desktop",
    )
    assert not problems, "\n" + _report(problems)


def test_the_measure_sees_a_squeezed_table(browser, live_server, transactional_db):
    """The measure itself: a table squeezed into a narrow column, breaking a name mid-word,
    and a table wider than the screen, are both reported."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_content(
        "<body style='margin:0'><table style='width:100%'><tr>"
        "<td style='overflow-wrap:anywhere'>Hugo</td>"
        "<td style='width:100%'>x</td></tr></table>"
        "<table style='width:500px'><tr><td>wide</td></tr></table></body>"
    )
    found = page.evaluate(MEASURE)
    context.close()
    assert any(re.search(r'broken across lines: "Hugo"', p) for p in found), found
    assert any(re.search(r'the cell "Hugo" is \d+px wide', p) for p in found), found
    assert any("spans 0–500px" in p for p in found), found
    assert any("the page scrolls sideways" in p for p in found), found
