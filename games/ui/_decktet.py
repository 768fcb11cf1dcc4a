"""The Decktet's words, for every game played with it: its six suits and the ranks that are
words (Ace, Pawn, Court, Crown), in the reader's language, said once for all its games.

A module of ``games.ui`` whose name starts with "_" is shared, not a game's UI.
"""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

from referee.decktet import BY_NAME

SUIT_LABELS = {
    "Moons": pgettext_lazy("Decktet suit", "Moons"),
    "Suns": pgettext_lazy("Decktet suit", "Suns"),
    "Waves": pgettext_lazy("Decktet suit", "Waves"),
    "Leaves": pgettext_lazy("Decktet suit", "Leaves"),
    "Wyrms": pgettext_lazy("Decktet suit", "Wyrms"),
    "Knots": pgettext_lazy("Decktet suit", "Knots"),
}
SUIT_SYMBOLS = {"Moons": "☾", "Suns": "☀", "Waves": "≈", "Leaves": "❦", "Wyrms": "∿", "Knots": "⌘"}
#: the ranks that are words; the others are numbers, said as they are
RANK_LABELS = {
    "Ace": pgettext_lazy("Decktet rank", "Ace"),
    "Pawn": pgettext_lazy("Decktet rank", "Pawn"),
    "Court": pgettext_lazy("Decktet rank", "Court"),
    "Crown": pgettext_lazy("Decktet rank", "Crown"),
}


def rank_label(rank: str) -> str:
    """A card's rank in the reader's language: "9", "Couronne"."""
    return str(RANK_LABELS.get(rank, rank))


def ranked_card(name: str) -> str:
    """ "The Merchant (9)", "The Windfall (Crown)": a card with its rank, as a run or a window
    reads it."""
    return f"{name} ({rank_label(BY_NAME[name].rank)})"
