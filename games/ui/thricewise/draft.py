"""A Thricewise turn being entered, tap by tap: the reveal picked card by card, then each
placement in the order the referee expects; nothing is stored until the turn is complete."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from referee.base import IllegalMove
from referee.thricewise import CARD_NAMES, Thricewise, parse_card

from .. import FormError, damaged_form
from .words import Cell


class TurnDraft:
    """A turn being entered: the reveal, the placements so far, the players who are done."""

    def __init__(self, state: Thricewise, players: list[str], data: dict[str, Any]):
        self.state = state
        reveal = data.get("reveal")
        place = data.get("place", [])
        done = data.get("done", [])
        if not isinstance(reveal, dict) or not isinstance(place, list):
            raise damaged_form()
        if not isinstance(done, list) or any(p not in players for p in done):
            raise damaged_form()
        try:
            self.order: list[str] = state.placing_order(reveal)
        except IllegalMove:
            raise damaged_form()
        self.reveal: dict[str, str] = {p: CARD_NAMES[parse_card(reveal[p])] for p in players}
        self.place: list[dict[str, Any]] = []
        if len(place) > len(CARD_NAMES):
            raise damaged_form()
        for entry in place:
            if not isinstance(entry, dict) or entry.get("player") not in self.order:
                raise damaged_form()
            at = entry.get("at")
            if (
                not (isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at))
                or parse_card(entry.get("card")) is None
            ):
                raise damaged_form()
            card = CARD_NAMES[parse_card(entry["card"])]
            # Each placement is checked against the position, as a tap on the board would be:
            # the board is drawn around these cells, so a cell far off the grid ("at": [0,
            # 50000]) drew every row and column in between (issue 29, finding 1).
            if card not in self.cards_left(entry["player"]):
                raise damaged_form()
            if (at[0], at[1]) not in self.legal_cells():
                raise FormError(_("A card cannot go there: tap one of the highlighted cells."))
            self.place.append({"player": entry["player"], "card": card, "at": at})
        self.done: list[str] = [p for p in self.order if p in done]

    # --- Where the turn stands --------------------------------------------------------------

    @property
    def placer(self) -> str | None:
        """Whose group is being placed now (None once everybody has placed)."""
        return next((p for p in self.order if p not in self.done), None)

    @property
    def next_placer(self) -> str | None:
        """Who places after the current placer (None when the current placer is the last)."""
        waiting = [p for p in self.order if p not in self.done]
        return waiting[1] if len(waiting) > 1 else None

    def has_placed_revealed(self, player: str) -> bool:
        return self.reveal[player] in self.placed_by(player)

    @property
    def set_aside_now(self) -> list[str]:
        """Players whose revealed card goes aside this turn (a tied rank)."""
        return [p for p in self.reveal if p not in self.order]

    def placed_by(self, player: str) -> list[str]:
        return [e["card"] for e in self.place if e["player"] == player]

    def cards_left(self, player: str) -> list[str]:
        """The cards the player may still place this turn: the revealed one, then set-aside."""
        placed = set(self.placed_by(player))
        cards = [self.reveal[player], *self.state.set_aside_cards(player)]
        return [c for c in cards if c not in placed]

    def occupied(self) -> dict[Cell, str]:
        return {(e["at"][0], e["at"][1]): e["card"] for e in self.place}

    def legal_cells(self) -> list[Cell]:
        """The engine's legal cells on the grid with this turn's placements added."""
        return self.state.legal_cells(list(self.occupied()))

    # --- Taps -------------------------------------------------------------------------------

    def put(self, card: str, cell: Cell) -> None:
        player = self.placer
        if player is None:
            raise FormError(_("Everybody has placed: the turn is complete."))
        following = self.next_placer
        if (
            card not in self.cards_left(player)
            and following is not None
            and card == self.reveal[following]
            and self.has_placed_revealed(player)
        ):
            # The next placer's card: the current placer keeps their other set-aside cards.
            self.done.append(player)
            player = following
        if card not in self.cards_left(player):
            raise FormError(
                _("%(player)s cannot place that card now: choose one of the cards offered.")
                % {"player": player}
            )
        if cell not in self.legal_cells():
            raise FormError(_("A card cannot go there: tap one of the highlighted cells."))
        self.place.append({"player": player, "card": card, "at": [cell[0], cell[1]]})
        if not self.cards_left(player):
            self.done.append(player)

    def finish_group(self) -> None:
        player = self.placer
        if player is None:
            return
        if self.reveal[player] not in self.placed_by(player):
            raise FormError(
                _("%(player)s must first place %(card)s, the card revealed this turn.")
                % {"player": player, "card": self.reveal[player]}
            )
        self.done.append(player)

    def finish(self) -> None:
        """The turn entered as it stands: the last placer keeps any set-aside card left."""
        self.finish_group()
        player = self.placer
        if player is not None:
            raise FormError(
                _("%(player)s has not placed %(card)s yet: tap a highlighted cell.")
                % {"player": player, "card": self.reveal[player]}
            )

    def ready_card(self) -> str | None:
        """The card a tap on a cell places unless another is chosen: the placer's revealed card,
        then the next placer's (most players keep their set-aside cards), and for the last
        placer their first set-aside card left."""
        player = self.placer
        if player is None:
            return None
        if not self.has_placed_revealed(player):
            return self.reveal[player]
        if self.next_placer is not None:
            return self.reveal[self.next_placer]
        left = self.cards_left(player)
        return left[0] if left else None

    @property
    def complete(self) -> bool:
        return self.placer is None

    def move(self) -> dict[str, Any]:
        return {"reveal": self.reveal, "place": self.place}

    def as_data(self) -> dict[str, Any]:
        return {"reveal": self.reveal, "place": self.place, "done": self.done}


def picked_cards(
    data: dict[str, Any], state: Thricewise, players: list[str]
) -> dict[str, str] | None:
    """The cards given so far in the picker, {seat number: card}; None when the draft's picks
    are damaged (not seats, not unseen cards, a card twice)."""
    picked = data.get("picked") or {}
    if not isinstance(picked, dict):
        return None
    unseen = set(state.unseen_cards())
    seats = {str(n) for n in range(len(players))}
    if any(n not in seats or c not in unseen for n, c in picked.items()):
        return None
    if len(set(picked.values())) != len(picked):
        return None
    return dict(picked)
