"""games/ui/_decktet.py: the Decktet's words, translated once per language and kept (issue 32),
follow the language of each page."""

from __future__ import annotations

import json

from django.utils import translation

from games.ui import _decktet
from games.ui._decktet import rank_label, suit_label
from games.ui.forget_venice.board import board_context
from referee import judge
from tests.examples import EXAMPLES


def test_the_suits_and_ranks_are_said_in_the_language_of_the_page_whichever_came_first():
    said = []
    for language in ("en", "fr", "en", "fr"):
        with translation.override(language):
            said.append((suit_label("Moons"), rank_label("Crown"), rank_label("9")))
    assert said == [("Moons", "Crown", "9"), ("Lunes", "Couronne", "9")] * 2


def _venice_midgame():
    log = json.loads((EXAMPLES / "forget-venice-1.json").read_text())
    return judge({**log, "moves": log["moves"][:7]}), log["players"]


def _said(context) -> tuple[set[str], set[str]]:
    """The suits a Forget Venice board names, and the first line of each reason of its sheet."""
    suits = {
        row["label"]
        for p in context["fv_board"]["players"]
        for c in p["criteria"]
        for row in c["suits"]
    }
    reasons = {
        cell["why"].lines[0].split(":")[0].strip()
        for half in context["fv_sheet"]["halves"]
        for criterion in half["criteria"]
        for cell in criterion["cells"]
        if cell["why"]
    }
    return suits, reasons


def test_a_forget_venice_board_looks_the_language_up_once(monkeypatch):
    """Issue 32: a board names some 300 suits, ranks and reasons; the language is looked up
    once for all of them, and each board is said in its own language, whichever came first."""
    judgement, players = _venice_midgame()
    asked = []
    language = _decktet.get_language
    monkeypatch.setattr(_decktet, "get_language", lambda: asked.append(1) or language())
    boards = {}
    for code in ("fr", "en", "fr"):
        asked.clear()
        with translation.override(code):
            context = board_context(judgement, players, None)
        assert len(asked) == 1
        boards.setdefault(code, []).append(_said(context))
    assert boards["fr"][0] == boards["fr"][1]
    (fr_suits, fr_reasons), (en_suits, en_reasons) = boards["fr"][0], boards["en"][0]
    assert fr_suits == {"Lunes", "Soleils", "Vagues", "Feuilles", "Wyrms", "Nœuds"}
    assert en_suits == {"Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"}
    assert fr_reasons and fr_reasons <= fr_suits and en_reasons and en_reasons <= en_suits
