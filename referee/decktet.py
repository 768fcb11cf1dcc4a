"""The Decktet (docs/gamelog.md §1): six suits, ranks Ace, 2–9, Pawn, Court, Crown, and the Excuse.

Card names are matched case-insensitively, ignoring surrounding spaces; a leading "The" may be
left out, and "Lightkeeper" is accepted for "The Light Keeper".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import norm

SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
RANKS = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "Pawn", "Court", "Crown")


# Each card exists once (ALL_CARDS), so identity is equality: a cheap hash for dict keys.
@dataclass(frozen=True, slots=True, eq=False)
class Card:
    name: str
    rank: str  # one of RANKS, or "" for the Excuse
    suits: tuple[str, ...]

    def __str__(self) -> str:
        return self.name


def _c(name: str, rank: str, *suits: str) -> Card:
    return Card(name, rank, suits)


ALL_CARDS: tuple[Card, ...] = (
    *(_c(f"Ace of {s}", "Ace", s) for s in SUITS),
    _c("The Author", "2", "Moons", "Knots"),
    _c("The Desert", "2", "Suns", "Wyrms"),
    _c("The Origin", "2", "Waves", "Leaves"),
    _c("The Journey", "3", "Moons", "Waves"),
    _c("The Painter", "3", "Suns", "Knots"),
    _c("The Savage", "3", "Leaves", "Wyrms"),
    _c("The Mountain", "4", "Moons", "Suns"),
    _c("The Sailor", "4", "Waves", "Leaves"),
    _c("The Battle", "4", "Wyrms", "Knots"),
    _c("The Forest", "5", "Moons", "Leaves"),
    _c("The Discovery", "5", "Suns", "Waves"),
    _c("The Soldier", "5", "Wyrms", "Knots"),
    _c("The Lunatic", "6", "Moons", "Waves"),
    _c("The Penitent", "6", "Suns", "Wyrms"),
    _c("The Market", "6", "Leaves", "Knots"),
    _c("The Chance Meeting", "7", "Moons", "Leaves"),
    _c("The Castle", "7", "Suns", "Knots"),
    _c("The Cave", "7", "Waves", "Wyrms"),
    _c("The Diplomat", "8", "Moons", "Suns"),
    _c("The Mill", "8", "Waves", "Leaves"),
    _c("The Betrayal", "8", "Wyrms", "Knots"),
    _c("The Pact", "9", "Moons", "Suns"),
    _c("The Darkness", "9", "Waves", "Wyrms"),
    _c("The Merchant", "9", "Leaves", "Knots"),
    _c("The Huntress", "Crown", "Moons"),
    _c("The Bard", "Crown", "Suns"),
    _c("The Sea", "Crown", "Waves"),
    _c("The End", "Crown", "Leaves"),
    _c("The Calamity", "Crown", "Wyrms"),
    _c("The Windfall", "Crown", "Knots"),
    _c("The Excuse", ""),
    _c("The Watchman", "Pawn", "Moons", "Wyrms", "Knots"),
    _c("The Light Keeper", "Pawn", "Suns", "Waves", "Knots"),
    _c("The Harvest", "Pawn", "Moons", "Suns", "Leaves"),
    _c("The Borderland", "Pawn", "Waves", "Leaves", "Wyrms"),
    _c("The Consul", "Court", "Moons", "Waves", "Knots"),
    _c("The Rite", "Court", "Moons", "Leaves", "Wyrms"),
    _c("The Window", "Court", "Suns", "Leaves", "Knots"),
    _c("The Island", "Court", "Suns", "Waves", "Wyrms"),
)

BY_NAME: dict[str, Card] = {card.name: card for card in ALL_CARDS}

#: The basic deck: Aces, 2–9 and Crowns (36 cards).
BASIC_DECK: tuple[Card, ...] = tuple(c for c in ALL_CARDS if c.rank not in ("", "Pawn", "Court"))
#: The extended deck: the basic deck plus the Excuse, the Pawns and the Courts (45 cards).
EXTENDED_DECK: tuple[Card, ...] = ALL_CARDS

_SPELLINGS: dict[str, Card] = {}
for _card in ALL_CARDS:
    _key = norm(_card.name)
    _SPELLINGS[_key] = _card
    if _key.startswith("the "):
        _SPELLINGS[_key[4:]] = _card
_SPELLINGS["lightkeeper"] = _SPELLINGS["the lightkeeper"] = BY_NAME["The Light Keeper"]


def find_card(value: Any) -> Card | None:
    """The card a player wrote, in any accepted spelling, or None."""
    key = norm(value)
    if key is None:
        return None
    card = _SPELLINGS.get(key)
    if card is None and key.startswith("the "):
        card = _SPELLINGS.get(key[4:])
    return card
