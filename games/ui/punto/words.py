"""Punto's words: the colours, a card in a sentence, the cells as the board labels them, and
how a round ended."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from referee.messages import describe
from referee.punto import BOX, Punto

from .. import cell_label

COLOUR_LABELS = {
    "red": pgettext_lazy("Punto colour", "red"),
    "orange": pgettext_lazy("Punto colour", "orange"),
    "blue": pgettext_lazy("Punto colour", "blue"),
    "green": pgettext_lazy("Punto colour", "green"),
}

Cell = tuple[int, int]


def label_origin(first_cell: Cell) -> Cell:
    """The cell the board labels A1 this round: its names never change during a round.

    The cards of a round stay inside a 6 × 6 box around its first card, so none can lie more
    than 5 columns left of it or 5 rows above it: that column is A, that row 1 (rows are
    numbered downwards, as drawn). The first card is always F6."""
    return (first_cell[0] - (BOX - 1), first_cell[1] - (BOX - 1))


def cell_name(cell: Cell, state: Punto) -> str:
    """A cell of this round as the board names it: the first card of the round, or this cell
    when the table is empty, is F6."""
    origin = label_origin(state.first_cell or cell)
    return cell_label(cell, origin) or describe(list(cell))


def card_words(card: str | tuple[str, int]) -> str:
    """ "red-7" → "the red 7" in a sentence (French leaves the article to the sentence: "le 7
    rouge", "du 7 rouge")."""
    colour, value = card.split("-") if isinstance(card, str) else card
    return pgettext("a Punto card in a sentence", "the %(colour)s %(value)s") % {
        "colour": COLOUR_LABELS[colour],
        "value": value,
    }


_COLOUR_NAMES: dict[str, dict[str, str]] = {}


def colour_names(language: str | None = None) -> dict[str, str]:
    """The colours' names in the active language, translated once per language: every card on
    the table and in the hand is named after every move (``language``: the active one, when
    the caller has it)."""
    language = language or get_language()
    names = _COLOUR_NAMES.get(language)
    if names is None:
        names = _COLOUR_NAMES[language] = {c: str(label) for c, label in COLOUR_LABELS.items()}
    return names


def round_ended(ended: dict[str, Any], number: int) -> str:
    """Round ``number`` as it ended (``ended``: the referee's entry of it): who won it and how."""
    values = {"number": number, "player": ended["winner"]}
    if ended["winner"] is None:
        return _("Round %(number)s ends blocked: nobody wins it.") % values
    if ended["how"] == "line":
        return _("%(player)s wins round %(number)s with a line.") % values
    return _("%(player)s wins round %(number)s on series.") % values
