"""A board's words said once per language (issue 32): a move's board names the same pieces,
cards and sides move after move; they are translated the first time, then kept, and each board
is said in its own language, whichever came first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from games.ui import _decktet, ui_for
from games.ui.punto import board as punto_board
from games.ui.punto import words as punto_words
from referee import judge
from tests.examples import EXAMPLES

LOGS = Path(__file__).resolve().parents[2] / "benchmarks" / "logs"


def _midgame(game: str, path: Path | None = None):
    log = json.loads((path or EXAMPLES / f"{game}-1.json").read_text())
    return judge({**log, "moves": log["moves"][: len(log["moves"]) // 2]}), log["players"]


@pytest.fixture
def looked_up(monkeypatch):
    """Every look-up of a message in a catalogue."""
    found = []
    gettext = trans_real.DjangoTranslation.gettext

    def counted(self, message):
        found.append(message)
        return gettext(self, message)

    monkeypatch.setattr(trans_real.DjangoTranslation, "gettext", counted)
    return found


def test_a_three_high_board_translates_its_words_once(looked_up):
    judgement, players = _midgame("three-high")
    ui = ui_for("three-high")
    drawn = {}
    for code in ("fr", "en", "fr", "en"):
        looked_up.clear()
        with translation.override(code):
            context = ui.move_context(judgement, players, None)
        names = [piece["name"] for piece in context["th_tops"]]
        suits = [column["suit"] for column in context["th_card_columns"]]
        if code in drawn:
            assert not looked_up  # all of it said already in this language
            assert (names, suits) == drawn[code]
        drawn[code] = names, suits
    assert drawn["fr"][1] == ["pique", "cœur", "carreau", "trèfle"]
    assert drawn["en"][1] == ["spades", "hearts", "diamonds", "clubs"]
    assert all(name.startswith(("la ", "le ")) for name in drawn["fr"][0]) and drawn["fr"][0]
    assert all(name.startswith("the ") for name in drawn["en"][0])


def test_a_thricewise_board_looks_the_language_up_once(monkeypatch, looked_up):
    """Its cards, suits and ranks, and the reasons of its sheet: the language looked up once,
    each message of the sheet looked up once per language."""
    judgement, players = _midgame("thricewise", LOGS / "thricewise-bench.json")
    ui = ui_for("thricewise")
    asked = []
    language = _decktet.get_language
    monkeypatch.setattr(_decktet, "get_language", lambda: asked.append(1) or language())
    drawn = {}
    for code in ("fr", "en", "fr", "en"):
        asked.clear()
        looked_up.clear()
        with translation.override(code):
            context = ui.move_context(judgement, players, None)
        assert len(asked) == 1
        cards = [
            cell["card"] for row in context["tw_rows"] for cell in row["cells"] if "card" in cell
        ]
        said = (
            [(card["rank"], card["label"]) for card in cards],
            [
                str(why.text)
                for row in context["tw_sheet"]["rows"]
                for cell in row["cells"]
                for why in cell["why"]
            ],
        )
        if code in drawn:
            assert said == drawn[code]
            assert not [message for message in looked_up if "%(card" in message]  # the reasons
        drawn[code] = said
    assert drawn["fr"] != drawn["en"] and drawn["fr"][1] and drawn["fr"][0]
    assert all(" en " in text for text in drawn["fr"][1])
    assert all(" at " in text for text in drawn["en"][1])
    assert "Couronne" in str(drawn["fr"][0]) or "Lunes" in str(drawn["fr"][0])


def test_a_punto_board_looks_the_language_up_once(monkeypatch):
    """The colours of some 50 cards and the hand's 18 labels (a plural each): the language
    looked up once, each label said once per language."""
    judgement, players = _midgame("punto", LOGS / "punto-bench.json")
    ui = ui_for("punto")
    asked = []
    for module in (punto_board, punto_words):
        language = module.__dict__.get("get_language", translation.get_language)
        counted = lambda language=language: asked.append(1) or language()  # noqa: E731
        monkeypatch.setattr(module, "get_language", counted, raising=False)
    plurals = []
    ngettext = punto_board.ngettext
    monkeypatch.setattr(punto_board, "ngettext", lambda *a: plurals.append(a) or ngettext(*a))
    drawn = {}
    for code in ("fr", "en", "fr", "en"):
        asked.clear()
        plurals.clear()
        with translation.override(code):
            context = ui.move_context(judgement, players, None)
        assert len(asked) == 1
        hand = [card["label"] for colour in context["punto"]["hand"] for card in colour["cards"]]
        if code in drawn:
            assert hand == drawn[code] and not plurals
        drawn[code] = hand
    assert drawn["en"] and all("left" in label for label in drawn["en"])
    assert drawn["fr"] and not any("left" in label for label in drawn["fr"])
