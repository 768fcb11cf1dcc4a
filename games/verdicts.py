"""The referee's verdicts in the reader's language, in the players' words.

The referee refuses a move or a setup with a message id and its parameters (referee.messages).
Its English template, in the words of the log format, is the gettext msgid; the French catalog
says the same sentence as a French player would. Here every parameter is said the way the
players say it: turns, deals and entries counted from 1, a cell as the board labels it, a piece
as "the small blue piece", a card as on the card. Each game says its own things
(``GameUI.word``); what every game shares is said here.

``explain(judgement)`` is the refusal of a judged log, with where it happened ("Turn 3: ...");
``say(message, ...)`` one sentence.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from referee import GAMES, Game, Judgement
from referee.messages import Message, describe, kind

from .ui import GameUI, and_list, or_list, sentence, ui_for

#: parameters counted from 0 in the log, from 1 by the players
COUNTED_FROM_ZERO = {"turn", "entry", "pile"}


#: list kinds: how their items are joined, and the kind of each item (None: said as it is)
LISTS: dict[str, tuple[Callable[[Iterable[str]], str], str | None]] = {
    "players": (", ".join, None),
    "games": (", ".join, None),
    "suits": (", ".join, "suit"),
    "names": (and_list, None),
    "sides": (and_list, "side"),
    "colours": (and_list, "colour"),
    "either": (or_list, None),
}


class Words:
    """Says each parameter of a game's messages (a callable for ``Message.render``)."""

    def __init__(self, ui: GameUI | None, state: Game | None):
        self.ui = ui
        self.state = state

    def __call__(self, name: str, value: Any) -> str:
        if isinstance(value, Message):
            return self.phrase(value)
        return self.word(kind(name), value)

    def word(self, what: str, value: Any) -> str:
        if self.ui is not None:
            said = self.ui.word(what, value, self.state)
            if said is not None:
                return said
        if what in LISTS and isinstance(value, list | tuple):
            join, item = LISTS[what]
            return join(self.word(item, v) if item else str(v) for v in value)
        if what == "value":
            return describe(value)
        if what == "json":
            return json.dumps(value, ensure_ascii=False)
        if what == "cell" and isinstance(value, list | tuple):
            return describe(list(value))  # a game without board labels: as written in the log
        if what in COUNTED_FROM_ZERO and isinstance(value, int):
            return str(value + 1)
        return str(value)

    def phrase(self, message: Message) -> str:
        """A message in the reader's language, as it stands inside a sentence."""
        return message.render(self, _(message.template))


def words_for(game: str | None, state: Game | None) -> Words:
    return Words(ui_for(game) if game in GAMES else None, state)


def say(message: Message, game: str | None, state: Game | None = None) -> str:
    """One of the referee's messages as a sentence in the reader's language. ``state`` is the
    game as it stood (the board a cell is named on); None for a setup."""
    return sentence(words_for(game, state).phrase(message))


def explain(judgement: Judgement, *, where: bool = True) -> str:
    """Why the referee refused a log, in the reader's language: where (the turn, the deal, the
    setup) unless ``where`` is false, then what was wrong. Empty when nothing was."""
    verdict = judgement.verdict
    if verdict is None:
        return ""
    words = words_for(judgement.game, judgement.state)
    problem = verdict.params.get("problem")
    if verdict.id == "log.move" and isinstance(problem, Message):
        if not where or words.ui is None:
            return sentence(words.phrase(problem))
        place = words.ui.move_name(judgement.state, verdict.params["number"])
        return sentence(
            pgettext("where: what went wrong", "%(where)s: %(problem)s")
            % {"where": place, "problem": words.phrase(problem)}
        )
    if verdict.id == "log.bad_setup" and isinstance(problem, Message):
        if not where:
            return sentence(words.phrase(problem))
        return sentence(_("The setup: %(problem)s") % {"problem": words.phrase(problem)})
    return sentence(words.phrase(verdict))
