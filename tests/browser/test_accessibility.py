"""Accessibility (issue 33): axe-core finds no WCAG 2.2 A or AA violation on any page family, nor
in any state of a move of the five games (the setup and a tap of it, each step of building a
move, a refusal, the play finished, the sheet), on a phone and on a desktop, in English and in
French; every control of a move is at least 44 × 44 CSS px on a phone; no colour carries
meaning alone.

axe-core comes from npm (package.json; tests/browser/axe.py)."""

from __future__ import annotations

import json
import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from referee import GAMES
from tests.examples import EXAMPLES

from .axe import Audit, assert_clean, violations
from .conftest import DESKTOP, OWNER, PHONE, RESULTS
from .test_layout import history  # noqa: F401 (a fixture)
from .test_layout import opened as layout_page
from .test_play_page import example_play

DEVICES = {"phone": PHONE, "desktop": DESKTOP}
#: the move of each public example whose steps are checked one by one (about the middle; for
#: Thricewise the turn where Dev places two older set-aside cards)
MID = {"punto": 10, "buntherum": 6, "three-high": 2, "thricewise": 4, "forget-venice": 6}


def opened(browser, live_server, device: str, language: str, *, logged_in: bool = True):
    """A page in ``language`` on a phone or a desktop, logged in as the owner unless told
    otherwise."""
    return layout_page(browser, live_server, DEVICES[device], language, logged_in=logged_in)


def settled(page) -> None:
    page.wait_for_selector(".htmx-request, .htmx-swapping, .htmx-settling", state="detached")


# -- every page family ------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_axe_finds_nothing_on_any_page(browser, live_server, history, device, language):  # noqa: F811
    """Every page of test_layout.py's club with a history, its folded parts opened, with the
    night's read-only link, and each game's table screen."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import GameNight

    pages = dict(history["pages"])
    night = GameNight.objects.get(pk=re.search(r"\d+", pages["night"]).group())
    share = services.share_night(night=night, by=get_user_model().objects.get(username=OWNER))
    shared_play = re.search(r"\d+", pages["play-punto"]).group()
    extra = [
        ("shared-night", f"/shared/{share.token}/"),
        ("shared-play", f"/shared/{share.token}/plays/{shared_play}/"),
        *((f"table-{game}", pages[f"play-{game}"] + "table/") for game in GAMES),
        ("table-in-progress", pages["play-in-progress"] + "table/"),
    ]
    audit = Audit(f"{device}, {language}")
    with opened(browser, live_server, device, language) as page:
        for name, url in [*history["pages"], *extra]:
            response = page.goto(url)
            assert response is not None and response.status < 500, (name, url)
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            audit.check(page, f"{name} {url}")
    with opened(browser, live_server, device, language, logged_in=False) as page:
        for name, url in history["anonymous_pages"]:
            page.goto(url)
            audit.check(page, f"{name} {url}")
    audit.assert_clean()


# -- every state of a move of each game -------------------------------------------------------


def _players(log) -> list[str]:
    return list(log["players"])


def _steps_punto(move, log):
    yield "the card", f"button[name=card][value={move['card']}]"
    if move.get("blocked"):
        yield "blocked", "#punto-blocked"
    else:
        x, y = move["at"]
        yield "the cell", f'button[name=at][value="{x},{y}"]'


def _steps_buntherum(move, log):
    yield "the card", f"button[name=card][value={move['card']}]"
    if "tie" in move:
        for name in move["tie"]:
            yield f"tied {name}", f"input[name=tied][value='{name}']"
        yield "the tie", "#record-tie"
    else:
        yield "the caller", f"input[name=caller][value='{move['call']['player']}']"
        yield "the call", f"#call-{move['call']['series']}"


def _steps_three_high(move, log):
    yield "the card", f"button[name=card][value='{move['card']}']"
    yield "the side", f"button[name=side][value={move['side']}]"
    yield "the piece", f"#th-board button[value='{move['piece']}']"
    yield "confirm", "#confirm-move"


def _steps_thricewise(move, log):
    for player in _players(log):
        if player in move["reveal"]:
            card = move["reveal"][player]
            yield f"{player} reveals", f'#tw-deck button[name=pick][value="{card}"]'
    for entry in move.get("place") or []:
        if entry["card"] != move["reveal"][entry["player"]]:
            yield "an older card", f"#tw-place [data-choose][data-value='{entry['card']}']"
        x, y = entry["at"]
        yield f"{entry['card']} placed", f"#tw-grid button[data-at='{x},{y}']"
    yield "enter the turn", "#enter-turn"


def _steps_forget_venice(move, log):
    yield "the dealer", f'#fv-dealer button[name=dealer][value="{move["dealer"]}"]'
    for index, pile in enumerate(move["piles"]):
        yield f"pile {index + 1}", f"#fv-pile-{index + 1}"
        for card in pile:
            yield card, f'#fv-deck button[name=card][value="{card}"]'
    yield "the First Chooser", f"#fv-first-{move['first'] + 1}"
    yield "the Second Chooser", f"#fv-second-{move['second'] + 1}"


STEPS = {
    "punto": _steps_punto,
    "buntherum": _steps_buntherum,
    "three-high": _steps_three_high,
    "thricewise": _steps_thricewise,
    "forget-venice": _steps_forget_venice,
}
#: one tap of each game's setup page, where the setup is tapped
SETUP_TAP = {
    "buntherum": "#bh-setup-taps [data-cell=red-die]",
    "three-high": "#th-setup-taps [data-cell=a1]",
    "thricewise": "#setup-deck button[data-cell]",
}


def logged(page):
    return page.locator("#move-log li:not(.undone) .move-text")


def shoot(page, label: str) -> None:
    """A screenshot for a person to look at: test-results/a11y/<label>.png."""
    folder = RESULTS / "a11y"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{label}.png"))


def build_move(page, check, game: str, move: dict, log: dict, done: int, label="") -> int:
    """Each step of ``move`` tapped, ``check(page, state)`` after each; the move sent. The
    steps tapped. With a ``label``, the screen after the first step is saved."""
    taps = 0
    for step, selector in STEPS[game](move, log):
        target = page.locator(selector).first
        if not target.is_visible() or target.get_attribute("aria-pressed") == "true":
            continue  # a step this position does not ask (one dealer; a pile already chosen)
        target.click()
        taps += 1
        settled(page)
        check(page, f"move {done + 1}: {step}")
        if taps == 1 and label:
            shoot(page, f"{label}-step")
    expect(logged(page)).to_have_count(done + 1)
    return taps


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
@pytest.mark.parametrize("game", list(GAMES))
def test_axe_finds_nothing_in_any_state_of_a_move(
    browser, live_server, table, game, device, language
):
    name = f"{game}-1"
    log = json.loads((EXAMPLES / f"{name}.json").read_text())
    by_name = {p.name: p for p in table["players"]}
    audit = Audit(f"{game}, {device}, {language}")
    with opened(browser, live_server, device, language) as page:
        seats = "&".join(f"seat={by_name[n].pk}" for n in log["players"])
        page.goto(f"/nights/{table['night'].pk}/plays/new/?game={game}")
        audit.check(page, "start a play")
        page.goto(f"/nights/{table['night'].pk}/plays/new/setup/?game={game}&{seats}")
        audit.check(page, "setup")
        if device == "phone":
            shoot(page, f"{game}-{device}-{language}-setup")
        if game in SETUP_TAP:
            page.locator(SETUP_TAP[game]).first.click()
            audit.check(page, "setup: a tap")

        play, _log = example_play(table, name, 0)
        page.goto(f"/plays/{play.pk}/")
        audit.check(page, "the first move: nothing chosen")
        build_move(page, audit.check, game, log["moves"][0], log, 0)

        done = MID[game]
        play, _log = example_play(table, name, done)
        page.goto(f"/plays/{play.pk}/")
        audit.check(page, f"move {done + 1}: nothing chosen")
        label, phone = f"{game}-{device}-{language}", device == "phone"
        if phone:
            shoot(page, f"{label}-mid")
        build_move(page, audit.check, game, log["moves"][done], log, done, label * phone)

        # a refusal: the move typed as JSON, one the referee refuses (the last one, again)
        page.click("#move-json-box summary")
        page.fill("#move-json", json.dumps(log["moves"][done]))
        page.click("#enter-json")
        page.wait_for_selector("#move-error")
        settled(page)
        audit.check(page, "a refusal")
        page.click("#undo")
        expect(logged(page)).to_have_count(done)
        settled(page)
        audit.check(page, "a move undone")
        page.goto(f"/plays/{play.pk}/sheet/")
        audit.check(page, "the sheet, mid-game")

        finished, _log = example_play(table, name)
        page.goto(f"/plays/{finished.pk}/")
        audit.check(page, "finished")
        if device == "phone":
            shoot(page, f"{label}-finished")
        page.goto(f"/plays/{finished.pk}/?at={done}")
        audit.check(page, "replayed")
        page.goto(f"/plays/{finished.pk}/sheet/")
        audit.check(page, "the sheet, finished")
    audit.assert_clean()


def test_the_axe_check_sees_a_violation(page):
    """The check itself: a control with no name, grey on white, is reported; without axe-core
    the check fails rather than skipping."""
    page.set_content(
        "<html lang=en><head><title>t</title></head><body><main>"
        "<p style='color:#aaa'>faint</p><button></button></main></body></html>"
    )
    found = {v["id"] for v in violations(page)}
    assert {"color-contrast", "button-name"} <= found, found
    with pytest.raises(AssertionError, match="button-name"):
        assert_clean(page, "a bad page")


# -- targets ----------------------------------------------------------------------------------

#: Run in the page: every control on the play page a finger may tap, with its box. A radio or a
#: checkbox inside its label is tapped on the label; the JSON box's insides are no move's tap.
TARGETS = r"""
() => {
  const name = (el) => {
    let text = el.tagName.toLowerCase();
    if (el.id) return text + '#' + el.id;
    if (el.name) text += `[name=${el.name}]`;
    if (el.value && el.tagName !== 'SELECT') text += `[value="${el.value}"]`;
    else if (el.classList.length) text += '.' + [...el.classList].join('.');
    return text;
  };
  const found = [];
  const controls = document.querySelectorAll(
    'button, input:not([type=hidden]), select, summary, a[href], [tabindex="0"]');
  for (const el of controls) {
    if (el.disabled || !el.getClientRects().length) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    if (el.closest('#move-json-box') && el.tagName !== 'SUMMARY') continue;
    const target = el.closest('label') || el;
    const box = target.getBoundingClientRect();
    // a link inside a sentence is exempt (WCAG 2.5.8 "inline")
    const inline = el.tagName === 'A' && getComputedStyle(el).display === 'inline'
      && !el.closest('nav, .crumbs, .site-header');
    found.push({name: name(el), move: !!el.closest('#play-table, .play-head'), inline,
                width: box.width, height: box.height, box});
  }
  // WCAG 2.5.8's spacing exception: a target under 24 × 24 passes when a 24px circle centred on
  // it meets no other target.
  for (const t of found) {
    const x = t.box.left + t.box.width / 2, y = t.box.top + t.box.height / 2;
    t.spaced = found.every((o) => o === t || o.box.width === 0
      || Math.hypot(Math.max(o.box.left - x, 0, x - o.box.right),
                    Math.max(o.box.top - y, 0, y - o.box.bottom)) >= 12);
  }
  for (const t of found) delete t.box;
  return found;
}
"""


class Targets:
    """The boxes of the controls, over the states of a move: the move's under 44 × 44 CSS px,
    and any under 24 × 24."""

    def __init__(self):
        self.small: dict[str, tuple[str, float, float]] = {}
        self.tiny: dict[str, tuple[str, float, float]] = {}
        self.states = 0

    def check(self, page, state: str) -> None:
        self.states += 1
        for control in page.evaluate(TARGETS):
            size = (state, round(control["width"], 1), round(control["height"], 1))
            if control["move"] and (control["width"] < 43.5 or control["height"] < 43.5):
                self.small.setdefault(control["name"], size)
            under = control["width"] < 24 or control["height"] < 24
            if under and not control["inline"] and not control["spaced"]:
                self.tiny.setdefault(control["name"], size)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", list(GAMES))
def test_every_control_of_a_move_is_44_px_on_a_phone(browser, live_server, table, game, language):
    """The first move, the middle one and the last, step by step, on a 390 × 844 phone: every
    control on the board and in the move panel at least 44 × 44 CSS px, and no control on the
    page under 24 × 24 (a link in a sentence, or one with room around it, aside: WCAG 2.5.8)."""
    name = f"{game}-1"
    log = json.loads((EXAMPLES / f"{name}.json").read_text())
    targets = Targets()
    with opened(browser, live_server, "phone", language) as page:
        for done in sorted({0, MID[game], len(log["moves"]) - 1}):
            play, _log = example_play(table, name, done)
            page.goto(f"/plays/{play.pk}/")
            targets.check(page, f"move {done + 1}: nothing chosen")
            build_move(page, targets.check, game, log["moves"][done], log, done)
    folder = RESULTS / "a11y"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"targets-{game}-{language}.json").write_text(
        json.dumps({"small": targets.small, "tiny": targets.tiny}, indent=1, ensure_ascii=False)
    )
    assert not targets.small and not targets.tiny, (
        f"{game} ({language}): {len(targets.small)} move controls under 44 × 44, "
        f"{len(targets.tiny)} controls under 24 × 24 (first state seen, width, height):\n"
        + "\n".join(f"  {n}: {s}" for n, s in {**targets.small, **targets.tiny}.items())
    )


@pytest.mark.parametrize("language", ["en", "fr"])
def test_forget_venice_sheets_are_tapped_clear_of_the_start_button(
    browser, live_server, table, language
):
    """Other sheets tapped on a phone: whichever player's sheet is open, each of its criteria is
    on the screen without scrolling and not under "Start the play", which stays at the bottom
    of the screen (the tap lands on the criterion, not on the button)."""
    log = json.loads((EXAMPLES / "forget-venice-1.json").read_text())
    by_name = {p.name: p for p in table["players"]}
    seats = "&".join(f"seat={by_name[n].pk}" for n in log["players"])
    with opened(browser, live_server, "phone", language) as page:
        page.goto(f"/nights/{table['night'].pk}/plays/new/setup/?game=forget-venice&{seats}")
        page.click("#fv-edit-summary")
        for index in range(len(log["players"])):
            if page.locator("details.fv-sheet").nth(index).get_attribute("open") is None:
                page.click(f"#fv-sheet-{index}")  # the first is open already
            assert page.evaluate("window.scrollY") == 0
            hidden = page.evaluate(
                """(index) => {
                  const sheet = document.querySelectorAll('details.fv-sheet')[index];
                  return [...sheet.querySelectorAll('input.fv-pick')].filter((radio) => {
                    const box = radio.getBoundingClientRect();
                    const x = box.left + box.width / 2, y = box.top + box.height / 2;
                    return box.top < 0 || box.bottom > innerHeight
                      || document.elementFromPoint(x, y) !== radio
                      || document.elementFromPoint(x, box.bottom - 2) !== radio;
                  }).map((radio) => radio.id);
                }""",
                index,
            )
            assert hidden == [], (language, index, hidden)
            start = page.locator("#start-play").bounding_box()
            assert start["y"] + start["height"] <= 844, start


# -- not colour alone -------------------------------------------------------------------------

#: emoji and other pictographs: a device without a colour-emoji font shows them as empty boxes
EMOJI = r"[\u2600-\u27bf\U0001f000-\U0001faff\ufe0f]"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_buntherum_draws_its_objects_and_names_its_colours(browser, live_server, table, language):
    """Buntherum's objects are the project's drawings (static/img/buntherum.svg), not emoji, on
    the board, the card grid and the setup; each card of the grid says its colour in words."""
    from games.ui.buntherum import COLOUR_NAMES

    log = json.loads((EXAMPLES / "buntherum-1.json").read_text())
    by_name = {p.name: p for p in table["players"]}
    seats = "&".join(f"seat={by_name[n].pk}" for n in log["players"])
    play, _log = example_play(table, "buntherum-1", 3)
    with opened(browser, live_server, "phone", language) as page:
        for url in [
            f"/plays/{play.pk}/",
            f"/nights/{table['night'].pk}/plays/new/setup/?game=buntherum&{seats}",
        ]:
            page.goto(url)
            shown = page.evaluate("document.querySelector('main').innerText")
            assert not re.search(EMOJI, shown), re.findall(EMOJI, shown)
            # every card drawn with its object's drawing, and the drawing loaded
            cards = page.locator(".bh-card, .bh-cell")
            assert cards.count() > 0
            drawn = page.evaluate(
                """() => [...document.querySelectorAll('.bh-card, .bh-cell')].filter((card) => {
                  const use = card.querySelector('svg.bh-sym use');
                  const box = use && use.getBoundingClientRect();
                  return !use || !/buntherum\\.svg#[a-z]+$/.test(use.getAttribute('href'))
                    || (card.getClientRects().length && !(box.width > 3 && box.height > 3));
                }).map((card) => card.outerHTML.slice(0, 120))"""
            )
            assert drawn == [], drawn
        # the grid of the setup: each card says its colour in words, in the page's language
        with translation.override(language):
            names = {c: str(n) for c, n in COLOUR_NAMES.items()}
        cells = page.locator("#bh-setup-taps [data-cell]")
        assert cells.count() == 64
        # the colour as the card's name says it (French: "balle violette", "papillon violet"),
        # so that the word shown is a word of the button's name (WCAG 2.5.3)
        for cell in cells.all():
            colour = cell.get_attribute("data-cell").split("-")[0]
            shown = cell.locator(".bh-cname").inner_text()
            assert shown.startswith(names[colour]), (shown, names[colour])
            assert shown in cell.get_attribute("data-label").split(), shown
        page.goto(f"/plays/{play.pk}/")
        for cell in page.locator("#bh-pick .bh-cell").all():
            colour = re.search(
                r"bh-(red|orange|yellow|green|blue|purple|pink|black)\b",
                cell.get_attribute("class"),
            )
            shown = cell.locator(".bh-cname").inner_text()
            assert colour is None or shown.startswith(names[colour.group(1)]), shown
            name = cell.get_attribute("aria-label") or cell.get_attribute("title")
            assert shown in name.replace(":", " ").split(), (shown, name)


def test_punto_cards_carry_a_shape_for_their_colour(page, table):
    """Punto's four colours each have a shape in the corner of every card (board, hand, chips):
    two colours never share one."""
    from .conftest import log_in

    play, _log = example_play(table, "punto-1", 10)
    log_in(page)
    page.goto(f"/plays/{play.pk}/")
    shapes = page.evaluate(
        """() => [...document.querySelectorAll('.punto-card, .punto-pick, .punto-chip')]
          .filter((el) => el.getClientRects().length)
          .map((el) => [el.className.match(/punto-(red|orange|blue|green)/)[1],
                        getComputedStyle(el, '::before').content])"""
    )
    by_colour: dict[str, set[str]] = {}
    for colour, shape in shapes:
        by_colour.setdefault(colour, set()).add(shape)
    assert set(by_colour) == {"red", "orange", "blue", "green"}
    assert all(len(s) == 1 and "none" not in s for s in by_colour.values()), by_colour
    assert len({next(iter(s)) for s in by_colour.values()}) == 4, by_colour


def test_three_high_pieces_carry_a_pattern_for_their_colour(page, table):
    """3-High's five colours each have a pattern on every piece of the board and every chip
    beside a colour's name (plain, dotted, striped across, striped upright, hatched): two
    colours never share one."""
    from .conftest import log_in

    play, _log = example_play(table, "three-high-1", 2)
    log_in(page)
    page.goto(f"/plays/{play.pk}/")
    found = page.evaluate(
        """() => [...document.querySelectorAll('.th-piece, .th-chip')]
          .filter((el) => el.getClientRects().length)
          .map((el) => [el.className.match(/th-(red|yellow|green|blue|black)/)[1],
                        el.classList.contains('th-chip'),
                        getComputedStyle(el).backgroundImage])"""
    )
    by_colour: dict[str, set[str]] = {}
    for colour, _chip, pattern in found:
        by_colour.setdefault(colour, set()).add(pattern)
    assert set(by_colour) == {"red", "yellow", "green", "blue", "black"}, by_colour
    assert all(len(p) == 1 for p in by_colour.values()), by_colour
    assert len({next(iter(p)) for p in by_colour.values()}) == 5, by_colour
    assert any(chip for _c, chip, _p in found)  # the key beside the names
