"""The five games' score sheets drawn in Python (issue 32): byte for byte what their templates
drew, parts and fingerprints included, at every position of the example logs and the benchmark
logs, in English and French, with a move half entered or none, on the play page (parts) and on
the printable sheet (none).

The templates as they were are kept in tests/fixtures/sheets (``.jinja``: makemessages does not
read them, so the Python drawing has to say its words itself). Each is drawn fresh, with no part
kept; the new path is drawn as the site draws it, each row kept once drawn and looked up after
(``CHECK`` off), over the positions in order: a row kept for the wrong values differs."""

from __future__ import annotations

import contextlib
import importlib
import json
from pathlib import Path

import pytest
from django.template import engines
from django.utils import translation
from django.utils.translation import get_language, trans_real

from games import jinja, parts
from games.models import Play
from games.ui import Draft, ui_for
from games.ui import _drawing as drawing
from referee import judge
from referee.judge import judge_next
from tests.examples import example_paths

SHEETS = Path(__file__).resolve().parent.parent / "fixtures" / "sheets"
LOGS = Path(__file__).resolve().parent.parent.parent / "benchmarks" / "logs"
GAMES = ["thricewise", "forget-venice", "punto", "buntherum", "three-high"]
#: the long Punto match, one position in so many (every position of the others)
EVERY = {"punto-long": 37}

#: the page around the sheet, as plays/_main.html draws it
PAGE = (
    '{% call part(drawing, True) %}<div id="play-main">{% call part(drawing) %}'
    '<section class="score-sheet" id="score-sheet">\n      <h2>Score sheet</h2>\n      '
    "{% include sheet %}\n    </section>{% endcall %}</div>{% endcall %}"
)


def logs(game: str) -> list[Path]:
    return [*example_paths(game), *sorted(LOGS.glob(f"{game}-*.json"))]


def positions(path: Path):
    """Each position of a log: its judgement, its players, and the next move (or None)."""
    log = json.loads(path.read_text())
    judgement = judge({**log, "moves": []})
    every = EVERY.get(path.stem, 1)
    for at, move in enumerate([*log["moves"], None]):
        if at % every == 0 or move is None:
            yield at, judgement, log["players"], move
        if move is not None:
            judgement = judge_next(judgement, move)


#: A draft of the next move, half entered, as each game's page keeps it (games.ui.Draft).
DRAFTS = {
    "thricewise": lambda move: {
        "reveal": move["reveal"],
        "place": move["place"][:1],
        "done": [],
    },
    "forget-venice": lambda move: {"dealer": move["dealer"], "piles": move["piles"]},
    "punto": lambda move: {"card": move["card"]},
    "buntherum": lambda move: {"card": move["card"]},
    "three-high": lambda move: {key: move[key] for key in ("card", "side", "piece")},
}


def drafts(game: str, move: dict | None) -> list[Draft | None]:
    """No draft, and the next move's half entered (if it has a next move that is one)."""
    try:
        return [None, Draft(DRAFTS[game](move))]
    except (KeyError, TypeError, IndexError):
        return [None]


def draw(sheet, context: dict, with_parts: bool) -> tuple[str, dict | None]:
    """The page's fragment around ``sheet`` (a template, or its name), as games.jinja.render
    draws it, and each part's fingerprint and HTML."""
    env = engines["jinja2"].env
    page = env.from_string(PAGE)
    gettext = jinja.translated(trans_real.catalog())
    before = getattr(jinja.DRAWING, "now", None)
    jinja.DRAWING.now = (get_language(), gettext)
    made = parts.Drawing() if with_parts else None
    try:
        html = page.render({**context, "sheet": sheet, "drawing": made, "gettext": gettext})
    finally:
        jinja.DRAWING.now = before
    html = jinja.as_django_writes(html)
    if made is None:
        return html, None
    return html, {name: (p.fingerprint, p.html, p.children) for name, p in made.parts.items()}


def contexts(game: str):
    """Each position's context twice: worked out afresh (``fresh``: nothing kept from the
    positions before), and as the site works it out (from what it kept)."""
    ui = ui_for(game)
    for path in logs(game):
        for at, judgement, players, move in positions(path):
            for status in statuses(judgement):
                for draft in drafts(game, move):
                    base = {"play": Play(game=game, status=status), "names": players}
                    with fresh(game):
                        expected = {**base, **ui.move_context(judgement, players, draft)}
                    got = {**base, **ui.move_context(judgement, players, draft)}
                    yield f"{path.stem}@{at} {status} {draft}", expected, got


#: What each game keeps of one sheet for the next (emptied for a context worked out afresh).
KEPT = {
    "forget-venice": [("games.ui.forget_venice.sheet", "_TOLD")],
    "thricewise": [
        ("games.ui.thricewise.sheet", "_PLAYED"),
        ("games.ui.thricewise.sheet", "_FUTURE"),
    ],
}


@contextlib.contextmanager
def fresh(game: str):
    kept = [(importlib.import_module(module), name) for module, name in KEPT.get(game, ())]
    was = [getattr(module, name) for module, name in kept]
    for module, name in kept:
        setattr(module, name, {})
    try:
        yield
    finally:
        for (module, name), value in zip(kept, was, strict=True):
            setattr(module, name, value)


def statuses(judgement) -> list[str]:
    if judgement.status == "finished":
        return ["finished"]
    return ["in_progress", "abandoned"]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
def test_the_sheet_drawn_in_python_is_the_templates_byte_for_byte(game, language, monkeypatch):
    old = engines["jinja2"].env.from_string((SHEETS / f"{game}.jinja").read_text())
    new = f"plays/games/{game}/sheet.html"
    drawn = drafted = 0
    with translation.override(language):
        for where, expected_context, context in contexts(game):
            for with_parts in (True, False):
                # the template's as it was, every part drawn anew
                monkeypatch.setattr(jinja, "CHECK_KEPT", True)
                monkeypatch.setattr(drawing, "CHECK", True)
                expected = draw(old, expected_context, with_parts)
                # the site's: kept parts and pieces looked up
                monkeypatch.setattr(jinja, "CHECK_KEPT", False)
                monkeypatch.setattr(drawing, "CHECK", False)
                got = draw(new, context, with_parts)
                assert got[0] == expected[0], where
                assert got[1] == expected[1], where
                drawn += 1
                drafted += "Draft(" in where
    assert drawn > 20 and drafted > 10


# What each sheet works out and draws again at a move (issue 32) ------------------------------


def bench(game: str, at: int):
    """The judgement of a benchmark log after ``at`` moves, and its players."""
    for where, judgement, players, _move in positions(LOGS / f"{game}-bench.json"):
        if where == at:
            return judgement, players
    raise LookupError(at)


def test_a_thricewise_move_tells_only_its_own_turns_cards(monkeypatch):
    """The rows of the turns before are the sheet's of the move before: only the cards of the
    turn just played are told (card_reason), and only its row drawn."""
    from games.ui.thricewise import sheet

    monkeypatch.setattr(sheet, "_PLAYED", {})  # nothing kept from the tests before
    ui = ui_for("thricewise")
    before, players = bench("thricewise", 13)
    after, _ = bench("thricewise", 14)
    told = []
    card_reason = sheet.card_reason
    monkeypatch.setattr(
        sheet, "card_reason", lambda placed, *a: told.append(placed) or card_reason(placed, *a)
    )
    with translation.override("en"):
        draw("plays/games/thricewise/sheet.html", ui.move_context(before, players, None), True)
        told.clear()
        context = ui.move_context(after, players, None)
        assert told and {placed.turn for placed in told} == {13}
        rows = context["tw_sheet"]["rows"]
        drawn = [row for row in rows if row.drawn is not None]
        draw("plays/games/thricewise/sheet.html", context, True)
    assert [row["number"] for row in rows if row.drawn is not None and row not in drawn] == [14]


def test_a_forget_venice_half_is_told_once(monkeypatch):
    """Why a half scored is told once for the engine's telling: a deal of the second half tells
    the second half again, not the first."""
    from games.ui.forget_venice import sheet

    monkeypatch.setattr(sheet, "_TOLD", {})  # nothing kept from the tests before
    ui = ui_for("forget-venice")
    before, players = bench("forget-venice", 8)
    after, _ = bench("forget-venice", 9)
    told = []
    reason = sheet.criterion_reason
    monkeypatch.setattr(sheet, "criterion_reason", lambda *a: told.append(a) or reason(*a))
    with translation.override("en"):
        ui.move_context(before, players, None)
        told.clear()
        ui.move_context(before, players, None)
        assert told == []
        ui.move_context(after, players, None)
    assert len(told) == 3 * 3  # the second half's three criteria of three players


def test_a_part_drawn_in_python_is_kept_for_its_html_and_checked(monkeypatch):
    html = '<tr id="row-1"><td>1</td></tr>'
    monkeypatch.setattr(jinja, "DRAWN_PARTS", {})
    monkeypatch.setattr(jinja, "CHECK_KEPT", False)
    first, again = parts.Drawing(), parts.Drawing()
    assert jinja.drawn_part(first, html) == first.parts["row-1"].html
    assert jinja.drawn_part(again, html) == first.parts["row-1"].html
    assert again.parts["row-1"] is first.parts["row-1"]  # looked up, not made again
    assert jinja.drawn_part(None, html) == html  # a page drawn without parts
    # the suite makes it again all the same, and a kept part that differs is found out
    monkeypatch.setattr(jinja, "CHECK_KEPT", True)
    jinja.DRAWN_PARTS[html] = parts.Part("row-1", "0" * 12, html, "<tr>")
    with pytest.raises(AssertionError, match="row-1"):
        jinja.drawn_part(parts.Drawing(), html)
