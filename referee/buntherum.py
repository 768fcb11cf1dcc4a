"""Buntherum (AMIGO, 64 cards, 2–5 players): docs/gamelog.md §6.

"Cards: 8 objects × 8 colours, one card each." A card is written ``"red-die"``. Six series
grow at the sides of the board; a turned card is called into a series, called "impossible",
or tied on. The log records each turned card and what happened to it; the order of the piles
is not recorded.

Rulings this engine applies where the sheet is silent (each is cited where it is applied):

* A card in nobody's series may be turned any number of times: a wrong call, a tie or a
  correct "impossible" puts it back under the neutral pile, and the order of the piles is not
  recorded, so "A card already in a series cannot be turned again" is the only identity check.
* A tie is legal on any card, including one that fits no series: docs/gamelog.md §6 says a tie is
  "several players called correctly at once", and the French sheet's *Égalité* says "Si
  plusieurs joueurs annoncent en même temps la bonne série (ou "Impossible!")". Every card has
  a correct call (a fitting series, or "impossible"), so the log cannot contradict a tie.
* A tie restricts exactly one card: "only the tied players may call that next card"; the sheet
  adds "La partie reprend ensuite normalement". A tie on that card restricts the one after it
  to the new, smaller group ("within the previous tie if the previous card was a tie").
* ``details.eliminated`` lists players in the order they were eliminated.
* Between moves the next card is already face up: a correct call "turns the next card from
  their own pile" as part of the call, so ``pile`` has already lost that card (and an emptied
  pile ends the game at once). ``details.neutral`` counts the face-down neutral pile: it starts
  at 64 − 12 − the players' piles − 1 (the first card is face up) and grows by one at each
  correct "impossible" (the card goes under it, the next comes from the caller's pile); a wrong
  call or a tie puts one card under it and turns one from it.
* ``"call": null`` or ``"tie": null`` is read as absent ("A move has exactly one of `call` and
  `tie`").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .base import Game, IllegalMove, Message, Plan, SetupError, define, expect_player, is_int, norm
from .messages import gettext_noop as _

OBJECTS = ("die", "butterfly", "ball", "icecream", "cup", "flower", "car", "telephone")
COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "pink", "black")
SIDES = ("1", "2", "3", "4", "5", "6")
IMPOSSIBLE = "impossible"

#: "Each player's pile holds 13, 9, 7 or 6 cards for 2, 3, 4 or 5 players"
PILE_SIZES = {2: 13, 3: 9, 4: 7, 5: 6}
CARDS_PER_SIDE = 2
DECK_SIZE = len(OBJECTS) * len(COLOURS)

#: card name → (colour bit, object bit); a series keeps one bit mask per attribute
_CARD_BITS: dict[str, tuple[int, int]] = {
    f"{colour}-{obj}": (1 << c, 1 << o)
    for c, colour in enumerate(COLOURS)
    for o, obj in enumerate(OBJECTS)
}
ALL_CARDS: tuple[str, ...] = tuple(_CARD_BITS)

CRASHES_TO_ELIMINATE = 3

define(
    {
        # the setup
        "buntherum.setup_shape": _(
            "the setup must give the six starting series, as "
            '{{"series": {{"1": ["red-die", "blue-car"], ..., "6": [...]}}}}'
        ),
        "buntherum.setup_not_side": _(
            'the series are at the sides "1" to "6"; {value} is not a side'
        ),
        "buntherum.setup_side_twice": _("side {side} is given twice in the setup"),
        "buntherum.setup_two_cards": _("side {side} must start with a list of exactly two cards"),
        "buntherum.setup_not_card": _(
            "side {side}: {value} is not a Buntherum card "
            '(a colour and an object, such as "red-die")'
        ),
        "buntherum.setup_card_twice": _(
            "{card} is in the setup twice (sides {side_first} and {side})"
        ),
        "buntherum.setup_colour_twice": _(
            "side {side} starts with two {colour} cards: a series never holds a colour twice"
        ),
        "buntherum.setup_object_twice": _(
            "side {side} starts with two cards showing a {object}: a series never holds an "
            "object twice"
        ),
        "buntherum.setup_side_missing": _(
            "the setup must give all six sides 1 to 6; side {sides} is missing"
        ),
        "buntherum.setup_sides_missing": _(
            "the setup must give all six sides 1 to 6; side {sides} are missing"
        ),
        # a turned card
        "buntherum.move_shape": _(
            'a move must be a JSON object such as {{"card": "red-die", "call": '
            '{{"player": "Ana", "series": 4}}}}, not {value}'
        ),
        "buntherum.call_and_tie": _('a move has either a "call" or a "tie", not both'),
        "buntherum.nothing_happened": _(
            'the move must say what happened to {card}: a "call" or a "tie"'
        ),
        "buntherum.no_card": _('the move must name the turned "card", such as "red-die"'),
        "buntherum.not_card": _(
            "the turned card {value} is not a Buntherum card (a colour and an object, such as "
            '"red-die")'
        ),
        "buntherum.card_in_series": _(
            "{card} is already in series {side}, so it cannot be turned again"
        ),
        "buntherum.eliminated_call": _(
            "{player} cannot call: {player} has been eliminated ({count} Crash tokens)"
        ),
        "buntherum.eliminated_tie": _(
            "{player} cannot tie: {player} has been eliminated ({count} Crash tokens)"
        ),
        "buntherum.not_tied_call": _(
            "{player} cannot call: only {names}, who tied on the last card, may call this one"
        ),
        "buntherum.not_tied_tie": _(
            "{player} cannot tie: only {names}, who tied on the last card, may call this one"
        ),
        "buntherum.call_shape": _(
            'a "call" must be a JSON object such as {{"player": "Ana", "series": 4}}, not {value}'
        ),
        "buntherum.what_caller": _("the caller"),
        "buntherum.not_series": _('the called series must be 1 to 6 or "impossible", not {value}'),
        "buntherum.tie_shape": _(
            'a "tie" must be the list of the players who called correctly at once, not {value}'
        ),
        "buntherum.what_tied_player": _("the tied player"),
        "buntherum.tied_twice": _("{player} is named twice in the tie"),
        "buntherum.tie_too_small": _(
            "a tie needs at least two players who called at once, not {number}"
        ),
    }
)


def parse_card(value: Any) -> str | None:
    """The card's canonical name (``"red-die"``), or None when ``value`` names no card.

    "Names of cards, colours, objects … are matched case-insensitively, ignoring surrounding
    spaces" (docs/gamelog.md §1).
    """
    name = norm(value)
    return name if name in _CARD_BITS else None


def card_parts(card: str) -> tuple[str, str]:
    """A card's (colour, object)."""
    colour, _, obj = card.partition("-")
    return colour, obj


@dataclass(slots=True)
class Call(Plan):
    """A legal move: the turned card was called, into a side or ``"impossible"``, rightly or
    not."""

    card: str
    caller: str
    side: str  # one of SIDES, or IMPOSSIBLE
    correct: bool

    def canonical(self) -> dict[str, Any]:
        series = IMPOSSIBLE if self.side == IMPOSSIBLE else int(self.side)
        return {"card": self.card, "call": {"player": self.caller, "series": series}}


@dataclass(slots=True)
class Tie(Plan):
    """A legal move: several players called the turned card correctly at once."""

    card: str
    tied: tuple[str, ...]

    def canonical(self) -> dict[str, Any]:
        return {"card": self.card, "tie": list(self.tied)}


class Buntherum(Game):
    """The state between two turned cards: the next card is already face up."""

    name = "buntherum"
    title = "Buntherum"
    min_players = 2
    max_players = 5
    cooperative = False
    has_points = False

    def __init__(self, players: Sequence[str], series: dict[str, list[str]]):
        super().__init__(players)
        self.pile_size = PILE_SIZES[len(self.players)]
        #: side → its cards in the order they were laid (setup cards first)
        self.series: dict[str, list[str]] = {side: [] for side in SIDES}
        self._colour_masks = {side: 0 for side in SIDES}
        self._object_masks = {side: 0 for side in SIDES}
        #: card in a series → its side
        self.placed: dict[str, str] = {}
        for side in SIDES:
            for card in series[side]:
                self._lay(card, side)
        self.pile: dict[str, int] = dict.fromkeys(self.players, self.pile_size)
        self.crashes: dict[str, int] = dict.fromkeys(self.players, 0)
        #: eliminated players, in the order they were eliminated
        self.eliminated: list[str] = []
        #: the players who tied on the last card, or None when the last card was no tie
        self.tied: tuple[str, ...] | None = None
        #: whose own pile the face-up card came from (None: the neutral pile)
        self.turned_from: str | None = None
        #: "The first card is turned from the neutral pile."
        self.neutral = DECK_SIZE - CARDS_PER_SIDE * len(SIDES) - self.pile_size * len(players) - 1
        self.winner: str | None = None

    # ----- setup -----

    @classmethod
    def from_setup(cls, players: Sequence[str], setup: Any) -> Buntherum:
        """Rule: "two cards at each of the six sides, distinct in colour and in object within a
        side" (docs/gamelog.md §6); "The setup has sides "1"–"6"."
        """
        if not isinstance(setup, dict) or not isinstance(setup.get("series"), dict):
            raise SetupError("buntherum.setup_shape")
        series: dict[str, list[str]] = {}
        seen: dict[str, str] = {}
        for key, cards in setup["series"].items():
            side = norm(key)
            if side not in SIDES:
                raise SetupError("buntherum.setup_not_side", value=key)
            if side in series:
                raise SetupError("buntherum.setup_side_twice", side=side)
            if not isinstance(cards, list) or len(cards) != CARDS_PER_SIDE:
                raise SetupError("buntherum.setup_two_cards", side=side)
            names = []
            for value in cards:
                card = parse_card(value)
                if card is None:
                    raise SetupError("buntherum.setup_not_card", side=side, value=value)
                if card in seen:
                    raise SetupError(
                        "buntherum.setup_card_twice", card=card, side_first=seen[card], side=side
                    )
                seen[card] = side
                names.append(card)
            (colour_a, object_a), (colour_b, object_b) = map(card_parts, names)
            if colour_a == colour_b:
                raise SetupError("buntherum.setup_colour_twice", side=side, colour=colour_a)
            if object_a == object_b:
                raise SetupError("buntherum.setup_object_twice", side=side, object=object_a)
            series[side] = names
        missing = [side for side in SIDES if side not in series]
        if missing:
            raise SetupError(
                "buntherum.setup_side_missing"
                if len(missing) == 1
                else "buntherum.setup_sides_missing",
                sides=missing,
            )
        return cls(players, series)

    def canonical_setup(self) -> dict[str, Any]:
        # Series only grow at their end: the setup cards are the first two of each.
        return {"series": {side: self.series[side][:CARDS_PER_SIDE] for side in SIDES}}

    # ----- queries a score sheet or a UI can use -----

    @property
    def finished(self) -> bool:
        """Rule: "The game ends when a player turns the last card of their own pile (that player
        wins) or when all players but one are eliminated (the survivor wins)."
        """
        return self.winner is not None

    def fits(self, card: str, side: str) -> bool:
        """Rule: "A card fits a series when neither its colour nor its object is already in it."

        ``card`` is a canonical card name (see ``parse_card``), ``side`` one of ``SIDES``.
        """
        colour_bit, object_bit = _CARD_BITS[card]
        return not (self._colour_masks[side] & colour_bit or self._object_masks[side] & object_bit)

    def fitting_series(self, card: str) -> list[str]:
        """The sides a card fits now, in order; empty when "impossible" is the right call."""
        return [side for side in SIDES if self.fits(card, side)]

    def active_players(self) -> list[str]:
        """Players not eliminated, in seat order ("eliminated players cannot call")."""
        return [p for p in self.players if p not in self.eliminated]

    def may_call(self) -> list[str]:
        """Who may call the face-up card, in seat order: every player not eliminated, or only
        the tied players after a tie ("only the tied players may call that next card"). Empty
        once the game has ended.
        """
        if self.finished:
            return []
        return [p for p in self.players if self._call_refusal(p) is None]

    def unplaced_cards(self) -> list[str]:
        """The cards in no series: the only cards that may still be turned ("A card already in a
        series cannot be turned again").
        """
        return [card for card in ALL_CARDS if card not in self.placed]

    def options(self) -> dict[str, Any]:
        """What may be recorded now (``Game.options``), ``{}`` once the game is over::

            {"cards": {"green-die": [3, 4, 5, 6], "red-ball": [], ...},
             "may_call": ["Ana", "Chloé", "Dev"],
             "calls": [1, 2, 3, 4, 5, 6, "impossible"]}

        - ``cards``: every card that may be turned — the cards in no series
          (``unplaced_cards``), colour by colour as the deck lists them — with the series it
          fits now, in order (``fitting_series``): the right calls. ``[]``: it fits none, and
          "impossible" is the right call.
        - ``may_call``: who may call the face-up card, in seat order (``may_call``): every
          player not eliminated, or after a tie only the tied players. A tie names two or more
          of them, each once.
        - ``calls``: the ``series`` a call may name, a move's ``{"player": P, "series": S}``
          for any P of ``may_call``. Every call is legal, right or wrong: a wrong call (a series
          the card does not fit, or "impossible" while one fits) is a legal move that earns the
          caller a Crash token. ``cards`` says which calls are right.

        Derived from the rules plan applies: the cards from ``placed``, which ``_turned_card``
        asks; the fits from ``fits``, which judges a call right or wrong; the callers from
        ``_call_refusal``, which ``_check_may_call`` says.
        """
        if self.finished:
            return {}
        return {
            "cards": {
                card: [int(side) for side in self.fitting_series(card)]
                for card in self.unplaced_cards()
            },
            "may_call": self.may_call(),
            "calls": [int(side) for side in SIDES] + [IMPOSSIBLE],
        }

    # ----- moves -----

    def plan(self, move: Any) -> Call | Tie:
        """Read one turned card and what happened to it (docs/gamelog.md §6), and whether a call
        was right."""
        if not isinstance(move, dict):
            raise IllegalMove("buntherum.move_shape", value=move)
        card = self._turned_card(move.get("card"))
        call, tie = move.get("call"), move.get("tie")
        if call is not None and tie is not None:
            raise IllegalMove("buntherum.call_and_tie")
        if tie is not None:
            return Tie(card=card, tied=self._tied_players(tie))
        if call is not None:
            caller, side = self._call(call)
            # "A wrong call (the card does not fit that series, or "impossible" while some
            # series fits)"
            correct = not self.fitting_series(card) if side == IMPOSSIBLE else self.fits(card, side)
            return Call(card=card, caller=caller, side=side, correct=correct)
        raise IllegalMove("buntherum.nothing_happened", card=card)

    def commit(self, turned: Call | Tie) -> None:
        if isinstance(turned, Tie):
            self._tie(turned.tied)
        else:
            self._resolve_call(turned.card, turned.caller, turned.side, turned.correct)

    def _turned_card(self, value: Any) -> str:
        """Rule: "A card already in a series cannot be turned again (the order of the piles is not
        recorded, so no other identity check)."
        """
        card = parse_card(value)
        if card is None:
            if value is None:
                raise IllegalMove("buntherum.no_card")
            raise IllegalMove("buntherum.not_card", value=value)
        if card in self.placed:
            raise IllegalMove("buntherum.card_in_series", card=card, side=self.placed[card])
        return card

    def _call_refusal(self, player: str) -> str | None:
        """Why ``player`` may not call the face-up card, nor be named in a tie on it
        (``"eliminated"`` or ``"not_tied"``), or None when they may. Rule: "eliminated players
        cannot call"; after a tie "only the tied players may call that next card"."""
        if player in self.eliminated:
            return "eliminated"
        if self.tied is not None and player not in self.tied:
            return "not_tied"
        return None

    def _check_may_call(self, player: str, *, tie: bool) -> None:
        """``_call_refusal``, said: the message names the rule the call or the tie breaks."""
        refusal = self._call_refusal(player)
        if refusal == "eliminated":
            raise IllegalMove(
                "buntherum.eliminated_tie" if tie else "buntherum.eliminated_call",
                player=player,
                count=CRASHES_TO_ELIMINATE,
            )
        if refusal == "not_tied":
            raise IllegalMove(
                "buntherum.not_tied_tie" if tie else "buntherum.not_tied_call",
                player=player,
                names=list(self.tied),
            )

    def _call(self, call: Any) -> tuple[str, str]:
        """The caller and the called side (or ``"impossible"``): "`series` is 1–6 (or the digit
        as a string) or "impossible"."
        """
        if not isinstance(call, dict):
            raise IllegalMove("buntherum.call_shape", value=call)
        caller = expect_player(call.get("player"), self.players, Message("buntherum.what_caller"))
        self._check_may_call(caller, tie=False)
        value = call.get("series")
        side = None
        if is_int(value):
            side = str(value) if 1 <= value <= len(SIDES) else None
        elif isinstance(value, str):
            side = norm(value)
            side = side if side in SIDES or side == IMPOSSIBLE else None
        if side is None:
            raise IllegalMove("buntherum.not_series", value=value)
        return caller, side

    def _tied_players(self, tie: Any) -> tuple[str, ...]:
        """Rule: "A `tie` names at least two distinct players who may call (not eliminated, and
        within the previous tie if the previous card was a tie)."
        """
        if not isinstance(tie, list):
            raise IllegalMove("buntherum.tie_shape", value=tie)
        tied: list[str] = []
        for value in tie:
            player = expect_player(value, self.players, Message("buntherum.what_tied_player"))
            if player in tied:
                raise IllegalMove("buntherum.tied_twice", player=player)
            self._check_may_call(player, tie=True)
            tied.append(player)
        if len(tied) < 2:
            raise IllegalMove("buntherum.tie_too_small", number=len(tied))
        return tuple(tied)

    def _resolve_call(self, card: str, caller: str, side: str, correct: bool) -> None:
        """A correct call or "impossible" lets the caller turn from their own pile; a wrong one
        earns a Crash token.

        "A correct call puts the card in the series and the caller turns the next card from
        their own pile. A wrong call (the card does not fit that series, or "impossible" while
        some series fits) gives the caller a Crash token; the card goes under the neutral pile
        and the caller turns the next card from the neutral pile. A correct "impossible" puts
        the card under the neutral pile and the caller turns the next card from their own pile."
        """
        self.tied = None
        if not correct:
            self._crash(caller)
            return
        if side == IMPOSSIBLE:
            self.neutral += 1
        else:
            self._lay(card, side)
        self._turn_own_card(caller)

    def _tie(self, tied: tuple[str, ...]) -> None:
        """Rule: "The card goes under the neutral pile, the next card is turned from the neutral
        pile, and only the tied players may call that next card."

        A tie is legal whether or not the card fits a series: the tied players may have called
        "impossible" together (French sheet, *Égalité*: "la bonne série (ou "Impossible!")").
        """
        self.tied = tied
        self.turned_from = None

    def _lay(self, card: str, side: str) -> None:
        """Lay a card at the end of a series."""
        colour_bit, object_bit = _CARD_BITS[card]
        self._colour_masks[side] |= colour_bit
        self._object_masks[side] |= object_bit
        self.series[side].append(card)
        self.placed[card] = side

    def _turn_own_card(self, caller: str) -> None:
        """Rule: "Turning a card from one's own pile happens as part of the correct call: when it
        empties the caller's pile, the caller has turned their last card and wins at once."
        """
        self.pile[caller] -= 1
        self.turned_from = caller
        if self.pile[caller] == 0:
            self.winner = caller

    def _crash(self, caller: str) -> None:
        """Rule: "A third Crash token eliminates a player"; "when all players but one are eliminated
        (the survivor wins)". The caller turns the next card from the neutral pile.
        """
        self.crashes[caller] += 1
        self.turned_from = None
        if self.crashes[caller] >= CRASHES_TO_ELIMINATE:
            self.eliminated.append(caller)
            survivors = self.active_players()
            if len(survivors) == 1:
                self.winner = survivors[0]

    # ----- results -----

    def scores(self) -> dict[str, int]:
        """Rule: "`scores` = cards each player has turned from their own pile"."""
        return {p: self.pile_size - self.pile[p] for p in self.players}

    def winners(self) -> list[str]:
        return [self.winner] if self.winner is not None else []

    def details(self) -> dict[str, Any]:
        """Rule: "`details`: `crashes`, `eliminated`, `pile` (cards left per player), `series`", and
        for a score sheet: ``may_call`` (who may call the face-up card), ``tied`` (the players
        of the last card's tie, or null), ``turned_from`` (whose own pile the face-up card came
        from; null for the neutral pile) and ``neutral`` (cards face down in the neutral pile).
        """
        return {
            "crashes": dict(self.crashes),
            "eliminated": list(self.eliminated),
            "pile": dict(self.pile),
            "series": {side: list(cards) for side, cards in self.series.items()},
            "may_call": self.may_call(),
            "tied": list(self.tied) if self.tied is not None else None,
            "turned_from": self.turned_from,
            "neutral": self.neutral,
        }


GAME = Buntherum
