"""A board's words said once per language (issue 32): a move's board names the same pieces,
cards and sides move after move; they are translated the first time, then kept, and each board
is said in its own language, whichever came first."""

from __future__ import annotations

import json

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from games.ui import ui_for
from referee import judge
from tests.examples import EXAMPLES


def _midgame(game: str):
    log = json.loads((EXAMPLES / f"{game}-1.json").read_text())
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
