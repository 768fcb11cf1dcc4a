"""The five games' score sheets drawn in Python (issue 32): byte for byte what their templates
drew, parts and fingerprints included, at every position of the example logs and the benchmark
logs, in English and French, on the play page (parts) and on the printable sheet (none).

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
from games.ui import _drawing as drawing
from games.ui import ui_for
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
    """Each position of a log: its judgement, and its players."""
    log = json.loads(path.read_text())
    judgement = judge({**log, "moves": []})
    every = EVERY.get(path.stem, 1)
    for at, move in enumerate([*log["moves"], None]):
        if at % every == 0 or move is None:
            yield at, judgement, log["players"]
        if move is not None:
            judgement = judge_next(judgement, move)


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
        for at, judgement, players in positions(path):
            for status in statuses(judgement):
                base = {"play": Play(game=game, status=status), "names": players}
                with fresh(game):
                    expected = {**base, **ui.move_context(judgement, players, None)}
                got = {**base, **ui.move_context(judgement, players, None)}
                yield f"{path.stem}@{at} {status}", expected, got


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
    drawn = 0
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
    assert drawn > 20
