"""The Decktet's words, for every game played with it: its six suits and the ranks that are
words (Ace, Pawn, Court, Crown), in the reader's language, said once for all its games.

A module of ``games.ui`` whose name starts with "_" is shared, not a game's UI.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import get_language, pgettext_lazy, trans_real

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


@functools.lru_cache(maxsize=16)  # a few languages
def _words(language: str | None) -> tuple[dict[str, str], dict[str, str]]:
    """The suits' and the word ranks' names in ``language`` (the one active), translated once
    per process and language, as Django keeps its catalogues: a board names the suits and
    ranks of every card it draws, some 400 translations a Forget Venice move (issue 32)."""
    return (
        {suit: str(label) for suit, label in SUIT_LABELS.items()},
        {rank: str(label) for rank, label in RANK_LABELS.items()},
    )


def suit_label(suit: str) -> str:
    """A suit in the reader's language: "Moons", "Lunes"."""
    return _words(get_language())[0][suit]


def rank_label(rank: str) -> str:
    """A card's rank in the reader's language: "9", "Couronne"."""
    return _words(get_language())[1].get(rank, rank)


def ranked_card(name: str) -> str:
    """ "The Merchant (9)", "The Windfall (Crown)": a card with its rank, as a run or a window
    reads it."""
    return f"{name} ({rank_label(BY_NAME[name].rank)})"


@dataclass(frozen=True, slots=True)
class Words:
    """The Decktet's words in the reader's language, and its catalogue (``gettext``), looked up
    once by a drawing that says many of them: a Forget Venice board names some 400 suits,
    ranks and reasons a move, each a look-up of the active language otherwise (issue 32)."""

    language: str | None
    suits: dict[str, str]
    ranks: dict[str, str]
    #: the active catalogue's, for the messages of one drawing (as games.jinja does)
    gettext: Callable[[str], str]

    def rank(self, rank: str) -> str:
        """``rank_label``."""
        return self.ranks.get(rank, rank)

    def ranked_card(self, name: str) -> str:
        """``ranked_card``."""
        return f"{name} ({self.rank(BY_NAME[name].rank)})"


def words() -> Words:
    """The Decktet's words and the catalogue of the language active now."""
    language = get_language()
    suits, ranks = _words(language)
    return Words(language, suits, ranks, _catalogue(language))


@functools.lru_cache(maxsize=16)  # a few languages
def _catalogue(language: str | None) -> Callable[[str], str]:
    """``gettext`` in ``language`` (the one active), each message looked up once per process
    and language: a board says the same few reasons again and again (as _words)."""
    translate, said = trans_real.catalog().gettext, {}

    def gettext(message: str) -> str:
        found = said.get(message)
        if found is None:
            found = said[message] = translate(message)
        return found

    return gettext
