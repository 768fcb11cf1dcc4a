"""3-High's words: the pieces, trees, sides and cards in the reader's language, and why a game
ended."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from referee.three_high import (
    CARDS,
    LAST_DRAW_REASON,
    PIECES,
    RED_SUITS,
    SUITS,
    WON_REASON,
    ThreeHigh,
)

RANK_LABELS = "A2345678"
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SIDE_ORDER = ("north", "west", "east", "south")


# Each name is looked up in the reader's language when it is said (lazily): a page or a move log
# says many pieces, and only the ones it names are translated.
COLOUR_NAMES = {
    "red": pgettext_lazy("piece colour", "red"),
    "yellow": pgettext_lazy("piece colour", "yellow"),
    "green": pgettext_lazy("piece colour", "green"),
    "blue": pgettext_lazy("piece colour", "blue"),
    "black": pgettext_lazy("piece colour", "black"),
}
#: "the blue tree": a tree's colour agrees with "tree", not with "piece"
TREE_NAMES = {
    "red": pgettext_lazy("a tree", "the red tree"),
    "yellow": pgettext_lazy("a tree", "the yellow tree"),
    "green": pgettext_lazy("a tree", "the green tree"),
    "blue": pgettext_lazy("a tree", "the blue tree"),
    "black": pgettext_lazy("a tree", "the black tree"),
}
SIZE_NAMES = {
    3: pgettext_lazy("piece size", "large"),
    2: pgettext_lazy("piece size", "medium"),
    1: pgettext_lazy("piece size", "small"),
}
#: a piece in a sentence, by size: "the small blue piece" ("la petite pièce bleue")
PIECE_NAMES = {
    3: pgettext_lazy("a piece in a sentence", "the large %(colour)s piece"),
    2: pgettext_lazy("a piece in a sentence", "the medium %(colour)s piece"),
    1: pgettext_lazy("a piece in a sentence", "the small %(colour)s piece"),
}
SIDE_NAMES = {
    "north": gettext_lazy("north"),
    "south": gettext_lazy("south"),
    "east": gettext_lazy("east"),
    "west": gettext_lazy("west"),
}
SUIT_NAMES = {
    "s": pgettext_lazy("card suit", "spades"),
    "h": pgettext_lazy("card suit", "hearts"),
    "d": pgettext_lazy("card suit", "diamonds"),
    "c": pgettext_lazy("card suit", "clubs"),
}


def colour_name(colour: str) -> str:
    return str(COLOUR_NAMES.get(colour, colour))


def tree_name(colour: str) -> str:
    """ "the blue tree"."""
    return str(TREE_NAMES.get(colour, colour))


def size_name(size: int) -> str:
    return str(SIZE_NAMES.get(size, size))


def piece_label(piece: str) -> str:
    """ "green-2" → "medium green" (in the reader's language): a piece in a list of pieces."""
    colour, size = PIECES[piece]
    return _("%(size)s %(colour)s") % {"size": size_name(size), "colour": colour_name(colour)}


def piece_name(piece: str) -> str:
    """ "blue-1" → "the small blue piece" ("la petite pièce bleue"): a piece in a sentence."""
    colour, size = PIECES[piece]
    return str(PIECE_NAMES[size]) % {"colour": colour_name(colour)}


def side_name(side: str) -> str:
    return str(SIDE_NAMES.get(side, side))


def suit_name(suit: str) -> str:
    return str(SUIT_NAMES[suit])


def card_info(code: str) -> dict[str, Any]:
    """A card code ("5D") → what a template shows: "5♦", red or black, its spoken name."""
    return dict(words().card_info(code))


def _card_info(code: str) -> dict[str, Any]:
    canonical, value, suit = CARDS[code.lower()]
    rank = RANK_LABELS[value - 1]
    return {
        "code": canonical,
        "text": f"{rank}{SUIT_SYMBOLS[suit]}",
        "red": suit in RED_SUITS,
        "name": _("%(rank)s of %(suit)s") % {"rank": rank, "suit": suit_name(suit)},
    }


def cards_of(suits: str) -> list[dict[str, Any]]:
    return [card_info(f"{v}{s}") for s in suits for v in "a2345678"]


def piece_info(piece: str) -> dict[str, Any]:
    """A piece → what a template shows: its colour and size, its label and its name."""
    return dict(words().piece_info(piece))


def _piece_info(piece: str) -> dict[str, Any]:
    colour, size = PIECES[piece]
    return {
        "piece": piece,
        "colour": colour,
        "size": size,
        "label": piece_label(piece),
        "name": piece_name(piece),
    }


class Words:
    """3-High's words in one language, each said once per process and language and kept: a
    board names some 100 pieces and cards a move, each some translations looked up otherwise
    (issue 32). What it gives is the same for every drawing in the language: read, never
    changed (``card_info`` and ``piece_info`` give a copy to change)."""

    __slots__ = ("_said",)

    def __init__(self) -> None:
        self._said: dict[tuple[str, Any], Any] = {}

    def _once(self, key: tuple[str, Any], make: Callable[[], Any]) -> Any:
        found = self._said.get(key)
        if found is None:
            found = self._said[key] = make()
        return found

    def card_info(self, code: str) -> dict[str, Any]:
        return self._once(("card", code.lower()), lambda: _card_info(code))

    def piece_info(self, piece: str) -> dict[str, Any]:
        return self._once(("piece", piece), lambda: _piece_info(piece))

    def piece_label(self, piece: str) -> str:
        return self.piece_info(piece)["label"]

    def colour_name(self, colour: str) -> str:
        return self._once(("colour", colour), lambda: colour_name(colour))

    def side_name(self, side: str) -> str:
        return self._once(("side", side), lambda: side_name(side))

    def suit_name(self, suit: str) -> str:
        return self._once(("suit", suit), lambda: suit_name(suit))

    def deck(self) -> tuple[tuple[str, bool, tuple[dict[str, Any], ...]], ...]:
        """The 32 cards suit by suit, ace to 8, as the card picker shows them: each suit's
        name, whether it is red, and its cards (``card_info``)."""
        return self._once(
            ("deck", None),
            lambda: tuple(
                (
                    self.suit_name(suit),
                    suit in RED_SUITS,
                    tuple(self.card_info(f"{value}{suit}") for value in "a2345678"),
                )
                for suit in SUITS
            ),
        )


def words() -> Words:
    """3-High's words in the language active now."""
    return _words(get_language())


@functools.lru_cache(maxsize=16)  # a few languages
def _words(language: str | None) -> Words:
    return Words()


def reason_text(state: ThreeHigh | None, details: dict[str, Any]) -> str:
    """The engine's end-of-game reason, said in the reader's language."""
    reason = (state.reason if state is not None else details.get("reason")) or ""
    if reason == WON_REASON:
        return _("All five trees stand.")
    if reason == LAST_DRAW_REASON:
        return _("The last card of the pile was drawn.")
    if reason.endswith(" could not play a card"):
        return _("%(player)s could not play a card.") % {
            "player": reason.removesuffix(" could not play a card")
        }
    if reason.endswith(" was moved off the board"):
        piece = reason.removesuffix(" was moved off the board")
        name = piece_name(piece) if piece in PIECES else piece
        return capfirst(_("%(piece)s was moved off the board.") % {"piece": name})
    return reason
