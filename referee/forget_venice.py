"""Forget Venice (Andrew Watson; Decktet, extended deck; exactly 3 players): docs/gamelog.md §4.

"A move is one deal": the dealer lays 7 cards out in 3 piles; the First Chooser (left of the
dealer) takes one pile, the Second Chooser (the next player left) another, the dealer the last.
Twelve deals make two halves of six; each half is scored on its own, over the cards collected in
that half, with the three criteria of the player's score sheet for that half.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .base import Game, IllegalMove, Message, Plan, SetupError, define, expect_player, is_int, norm
from .decktet import EXTENDED_DECK, SUITS, Card, find_card
from .messages import gettext_noop as _

#: "The extended Decktet without the Excuse, the Island and the Borderland: 42 cards."
LEFT_OUT = ("The Excuse", "The Island", "The Borderland")
DECK: tuple[Card, ...] = tuple(card for card in EXTENDED_DECK if card.name not in LEFT_OUT)

#: "Ranks for runs: Ace = 1, 2–9, Pawn = 10, Court = 11, Crown = 12."
RUN_RANKS: dict[str, int] = {
    "Ace": 1,
    **{str(n): n for n in range(2, 10)},
    "Pawn": 10,
    "Court": 11,
    "Crown": 12,
}

PLAYERS = 3
CARDS_PER_DEAL = 7
PILES = 3
DEALS_PER_HALF = 6
DEALS = 2 * DEALS_PER_HALF
HALVES = ("1", "2")
CRITERIA = ("I", "II", "III")

define(
    {
        # the setup: the score sheets
        "forget-venice.setup_not_object": _("the setup must be a JSON object, not {value}"),
        "forget-venice.sheets_not_object": _(
            '"sheets" must be a JSON object keyed by player, not {value}'
        ),
        "forget-venice.sheets_not_player": _(
            "the sheets name {value}, who is not one of the players ({players})"
        ),
        "forget-venice.sheet_missing": _(
            "the sheets must give every player a sheet, and {player} has none"
        ),
        "forget-venice.sheet_not_object": _(
            '{player}\'s sheet must be a JSON object with halves "1" and "2"'
        ),
        "forget-venice.sheet_unknown_half": _(
            '{player}\'s sheet has an unknown half {value} (expected "1", "2")'
        ),
        "forget-venice.sheet_missing_half": _(
            '{player}\'s sheet has no half "{half}" (expected "1", "2")'
        ),
        "forget-venice.half_not_object": _(
            "{player}'s sheet, half {half}, must be a JSON object with criteria I, II and III"
        ),
        "forget-venice.half_unknown_criterion": _(
            "{player}'s sheet for half {half} has an unknown criterion {value} "
            '(expected "I", "II", "III")'
        ),
        "forget-venice.half_missing_criterion": _(
            '{player}\'s sheet for half {half} has no criterion "{criterion}" '
            '(expected "I", "II", "III")'
        ),
        "forget-venice.criterion_not_pair": _(
            "{player}'s sheet, half {half}, criterion {criterion} must be a list of two suits"
        ),
        "forget-venice.not_suit": _(
            "{player}'s sheet, half {half}, criterion {criterion}: {value} is not a suit ({suits})"
        ),
        "forget-venice.suit_twice": _(
            "{player}'s sheet, half {half}, uses {suit} twice: the three criteria must use all "
            "six suits once"
        ),
        # a deal
        "forget-venice.deal_shape": _(
            'a deal must be a JSON object with "dealer", "piles", "first" and "second", not {value}'
        ),
        "forget-venice.what_dealer": _("the dealer"),
        "forget-venice.dealer_first": _(
            "{player} cannot be the dealer of deal {deal}: Player 1, {player_first}, deals first"
        ),
        "forget-venice.dealer_half_time": _(
            "{player} cannot be the dealer of deal {deal}: the player with the most first-half "
            "points deals it ({either}, {points} points)"
        ),
        "forget-venice.dealer_left": _(
            "{player} cannot be the dealer of deal {deal}: the deal passes left, from "
            "{player_last} to {player_next}"
        ),
        "forget-venice.piles_not_list": _(
            '"piles" must be a list of 3 piles of cards, not {value}'
        ),
        "forget-venice.three_piles": _("the dealer makes exactly 3 piles, not {number}"),
        "forget-venice.pile_not_list": _("pile {pile} must be a list of cards, not {value}"),
        "forget-venice.pile_empty": _(
            "pile {pile} is empty: each of the 3 piles holds a card or more"
        ),
        "forget-venice.card_twice": _("{card} appears twice in this deal"),
        "forget-venice.already_dealt": _(
            "{card} was already dealt in deal {deal}: no card appears twice within a half"
        ),
        "forget-venice.seven_cards": _("a deal is exactly 7 cards, not {number}"),
        "forget-venice.first_not_pile": _(
            '"first" must be the index of a pile: 0, 1 or 2, not {value}'
        ),
        "forget-venice.second_not_pile": _(
            '"second" must be the index of a pile: 0, 1 or 2, not {value}'
        ),
        "forget-venice.same_pile": _(
            "the First and Second Chooser cannot both take pile {pile}: each takes a different pile"
        ),
        "forget-venice.not_card": _("{value} is not a Decktet card"),
        "forget-venice.not_in_deck": _(
            "{card} is not in the Forget Venice deck "
            "(the Excuse, the Island and the Borderland are left out)"
        ),
    }
)

Pair = tuple[str, str]
HalfSheet = tuple[Pair, Pair, Pair]
Sheet = dict[str, HalfSheet]  # half ("1", "2") → the pairs of criteria I, II, III

#: The default sheet of each seat (docs/gamelog.md §4 table), used when the setup gives no sheets.
DEFAULT_SHEETS: tuple[Sheet, ...] = (
    {  # Player 1
        "1": (("Moons", "Knots"), ("Suns", "Wyrms"), ("Waves", "Leaves")),
        "2": (("Leaves", "Wyrms"), ("Knots", "Suns"), ("Moons", "Waves")),
    },
    {  # Player 2
        "1": (("Waves", "Knots"), ("Moons", "Wyrms"), ("Leaves", "Suns")),
        "2": (("Moons", "Suns"), ("Waves", "Wyrms"), ("Leaves", "Knots")),
    },
    {  # Player 3
        "1": (("Moons", "Leaves"), ("Suns", "Waves"), ("Wyrms", "Knots")),
        "2": (("Waves", "Leaves"), ("Moons", "Knots"), ("Suns", "Wyrms")),
    },
)

_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_CARDS: dict[str, Card] = {card.name: card for card in DECK}
_SUIT_SPELLINGS = {norm(suit): suit for suit in SUITS}
#: card name → (its rank as one bit of a run mask, the indices of the suits it bears). Cards are
#: keyed by their canonical name: a str caches its hash, a frozen dataclass does not.
_CARD_BITS: dict[str, tuple[int, tuple[int, ...]]] = {
    card.name: (1 << RUN_RANKS[card.rank], tuple(_SUIT_INDEX[s] for s in card.suits))
    for card in DECK
}


def longest_run(rank_mask: int) -> int:
    """The longest run of consecutive ranks in a set of ranks given as a bit mask.

    "A run counts distinct ranks (two Pawns with that suit add one rank); one card is a run of
    1; no card is 0." Each step removes the last rank of every run, so the number of steps is
    the length of the longest one.
    """
    length = 0
    while rank_mask:
        rank_mask &= rank_mask << 1
        length += 1
    return length


def _score(counts: Sequence[int], masks: Sequence[int], pairs: Sequence[Sequence[int]]) -> dict:
    (a, b), (c, d), (e, f) = pairs
    one = min(counts[a], counts[b])
    two = abs(counts[c] - counts[d])
    three = max(longest_run(masks[e]), longest_run(masks[f]))
    return {"I": one, "II": two, "III": three, "total": one + two + three}


def half_criteria(cards: Iterable[Card], pairs: Sequence[Sequence[str]]) -> dict[str, int]:
    """Score one half for one player: the collected ``cards`` and the sheet's three suit pairs.

    "I = the smaller of the counts of the two suits; II = the absolute difference of the counts
    of the two suits; III = the longest run of consecutive ranks among the player's cards bearing
    one suit, the better of the two suits. A card counts for every suit it bears. Half score =
    I + II + III."
    """
    counts = [0] * len(SUITS)
    masks = [0] * len(SUITS)
    for card in cards:
        bit = 1 << RUN_RANKS[card.rank]
        for suit in card.suits:
            i = _SUIT_INDEX[suit]
            counts[i] += 1
            masks[i] |= bit
    return _score(counts, masks, [[_SUIT_INDEX[s] for s in pair] for pair in pairs])


@dataclass(frozen=True, slots=True)
class SuitTally:
    """One suit of a player's collection in a half, as a criterion reads it."""

    suit: str
    #: the player's cards bearing the suit, in the order taken ("a card counts for every suit
    #: it bears")
    cards: tuple[str, ...]
    #: the cards of its longest run of consecutive ranks, by rank (the lowest such run when two
    #: are as long); two Pawns of the suit are both there, and count one rank
    run: tuple[str, ...]
    #: the length of that run: its distinct ranks
    run_length: int

    @property
    def count(self) -> int:
        return len(self.cards)


@dataclass(frozen=True, slots=True)
class CriterionScore:
    """A criterion of a half for one player: its two suits, and the points they gave (why)."""

    criterion: str  # "I", "II" or "III"
    suits: tuple[SuitTally, SuitTally]
    points: int


def _tally(suit: str, cards: Sequence[Card]) -> SuitTally:
    bearing = [card for card in cards if suit in card.suits]
    ranks = sorted({RUN_RANKS[card.rank] for card in bearing})
    best: list[int] = []
    current: list[int] = []
    for rank in ranks:
        current = [*current, rank] if current and rank == current[-1] + 1 else [rank]
        if len(current) > len(best):
            best = current
    in_run = sorted(
        (card for card in bearing if RUN_RANKS[card.rank] in best),
        key=lambda card: RUN_RANKS[card.rank],
    )
    return SuitTally(
        suit=suit,
        cards=tuple(card.name for card in bearing),
        run=tuple(card.name for card in in_run),
        run_length=len(best),
    )


def half_breakdown(
    cards: Iterable[Card], pairs: Sequence[Sequence[str]]
) -> tuple[CriterionScore, CriterionScore, CriterionScore]:
    """``half_criteria`` told: for each criterion, its two suits with the cards that bear them
    (and their longest runs), and its points. Worked out on demand: judging never needs it."""
    cards = list(cards)
    (a, b), (c, d), (e, f) = ((_tally(x, cards), _tally(y, cards)) for x, y in pairs)
    return (
        CriterionScore("I", (a, b), min(a.count, b.count)),
        CriterionScore("II", (c, d), abs(c.count - d.count)),
        CriterionScore("III", (e, f), max(e.run_length, f.run_length)),
    )


@lru_cache(maxsize=1024)
def _told_half(
    names: tuple[str, ...], pairs: tuple[tuple[str, ...], ...]
) -> tuple[CriterionScore, CriterionScore, CriterionScore]:
    """``half_breakdown`` of the cards named, kept for them and the pairs: a move's score sheet
    tells every half of every player again, and a half over (or a collection unchanged since
    the last move) is told the same each time (issue 32). Immutable, so shared."""
    return half_breakdown([_CARDS[name] for name in names], pairs)


def _read_sheets(players: Sequence[str], setup: Any) -> list[Sheet]:
    """The sheet of each seat: the setup's ``sheets``, or the default sheets.

    "Explicit sheets must cover all three players, both halves, criteria I, II, III, each half
    using all six suits once; a missing setup, {} or "sheets": null means the default sheets."
    """
    if setup is None:
        return list(DEFAULT_SHEETS)
    if not isinstance(setup, dict):
        raise SetupError("forget-venice.setup_not_object", value=setup)
    sheets = setup.get("sheets")
    if sheets is None:
        return list(DEFAULT_SHEETS)
    if not isinstance(sheets, dict):
        raise SetupError("forget-venice.sheets_not_object", value=sheets)
    for key in sheets:
        if key not in players:
            raise SetupError("forget-venice.sheets_not_player", value=key, players=list(players))
    return [_read_sheet(player, sheets.get(player)) for player in players]


def _read_sheet(player: str, sheet: Any) -> Sheet:
    if sheet is None:
        raise SetupError("forget-venice.sheet_missing", player=player)
    if not isinstance(sheet, dict):
        raise SetupError("forget-venice.sheet_not_object", player=player)
    for key in sheet:
        if key not in HALVES:
            raise SetupError("forget-venice.sheet_unknown_half", player=player, value=key)
    for half in HALVES:
        if half not in sheet:
            raise SetupError("forget-venice.sheet_missing_half", player=player, half=half)
    return {half: _read_half(player, half, sheet[half]) for half in HALVES}


def _read_half(player: str, half: str, criteria: Any) -> HalfSheet:
    if not isinstance(criteria, dict):
        raise SetupError("forget-venice.half_not_object", player=player, half=half)
    for key in criteria:
        if key not in CRITERIA:
            raise SetupError(
                "forget-venice.half_unknown_criterion", player=player, half=half, value=key
            )
    for criterion in CRITERIA:
        if criterion not in criteria:
            raise SetupError(
                "forget-venice.half_missing_criterion",
                player=player,
                half=half,
                criterion=criterion,
            )
    pairs = []
    used: set[str] = set()
    for criterion in CRITERIA:
        pair = criteria[criterion]
        if not (isinstance(pair, list) and len(pair) == 2):
            raise SetupError(
                "forget-venice.criterion_not_pair", player=player, half=half, criterion=criterion
            )
        suits = []
        for name in pair:
            suit = _SUIT_SPELLINGS.get(norm(name))
            if suit is None:
                raise SetupError(
                    "forget-venice.not_suit",
                    player=player,
                    half=half,
                    criterion=criterion,
                    value=name,
                    suits=list(SUITS),
                )
            if suit in used:
                raise SetupError("forget-venice.suit_twice", player=player, half=half, suit=suit)
            used.add(suit)
            suits.append(suit)
        pairs.append((suits[0], suits[1]))
    return (pairs[0], pairs[1], pairs[2])


@dataclass(slots=True)
class Deal(Plan):
    """A legal deal: the dealer, the piles (canonical card names) and the choosers' piles."""

    dealer: str
    piles: tuple[tuple[str, ...], ...]
    first: int
    second: int

    def canonical(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "piles": [list(pile) for pile in self.piles],
            "first": self.first,
            "second": self.second,
        }


class ForgetVenice(Game):
    """A game of Forget Venice, deal by deal."""

    name = "forget-venice"
    title = "Forget Venice"
    min_players = PLAYERS
    max_players = PLAYERS
    cooperative = False
    has_points = True

    def __init__(self, players: Sequence[str], sheets: Sequence[Sheet]):
        super().__init__(players)
        self.sheets: dict[str, Sheet] = dict(zip(self.players, sheets, strict=True))
        self._pairs = {
            player: tuple(
                tuple(tuple(_SUIT_INDEX[s] for s in pair) for pair in sheet[half])
                for half in HALVES
            )
            for player, sheet in self.sheets.items()
        }
        # Per half (0, 1): each player's cards in the order taken, suit counts and rank masks.
        self._collections = tuple({p: [] for p in self.players} for _ in HALVES)
        self._counts = tuple({p: [0] * len(SUITS) for p in self.players} for _ in HALVES)
        self._masks = tuple({p: [0] * len(SUITS) for p in self.players} for _ in HALVES)
        self._dealt: tuple[dict[str, int], dict[str, int]] = ({}, {})  # card name → deal
        self.dealers: list[str] = []  # the dealer of each deal played, in order

    @classmethod
    def from_setup(cls, players: Sequence[str], setup: Any) -> ForgetVenice:
        """Seats: "players[0] is Player 1, players[1] Player 2, players[2] Player 3"."""
        return cls(players, _read_sheets(players, setup))

    def canonical_setup(self) -> dict[str, Any]:
        """``{}`` when every seat plays its default sheet, else every sheet in full."""
        sheets = [self.sheets[player] for player in self.players]
        if sheets == list(DEFAULT_SHEETS):
            return {}
        return {"sheets": self._sheets_json()}

    def _sheets_json(self) -> dict[str, Any]:
        return {
            p: {
                half: {c: list(pair) for c, pair in zip(CRITERIA, sheet[half], strict=True)}
                for half in HALVES
            }
            for p, sheet in self.sheets.items()
        }

    # --- Queries a score sheet needs ------------------------------------------------------

    @property
    def finished(self) -> bool:
        """ "finished after deal 12"."""
        return len(self.dealers) >= DEALS

    @property
    def deal(self) -> int | None:
        """The number (1–12) of the next deal, or None once the game is over."""
        return None if self.finished else len(self.dealers) + 1

    @property
    def half(self) -> int:
        """The half (1 or 2) of the next deal; 2 once the game is over.

        "Deals 1–6 are the first half, 7–12 the second."
        """
        return 1 if len(self.dealers) < DEALS_PER_HALF else 2

    def left_of(self, player: str) -> str:
        """ "Left" means the next seat in players, wrapping around."""
        return self.players[(self.players.index(player) + 1) % PLAYERS]

    def choosers(self, dealer: str) -> tuple[str, str]:
        """The First and Second Chooser when ``dealer`` deals.

        "first is the pile taken by the First Chooser, the player left of the dealer; second
        the pile taken by the Second Chooser, the next player left; the dealer takes the
        remaining pile."
        """
        first = self.left_of(dealer)
        return first, self.left_of(first)

    def first_half_leaders(self) -> list[str]:
        """The players with the most first-half points (so far), in seat order."""
        totals = {p: self.criteria(p, 1)["total"] for p in self.players}
        best = max(totals.values())
        return [p for p in self.players if totals[p] == best]

    def next_dealers(self) -> list[str]:
        """Who may deal the next deal (several only at half-time on a tie; none once over).

        "The dealer of deal 1 is Player 1; each next dealer is the player left of the previous one.
        The dealer of deal 7 is the player with the most first-half points (on a tie, any of the
        tied players); rotation continues leftward from whoever dealt deal 7."
        """
        played = len(self.dealers)
        if played >= DEALS:
            return []
        if played == 0:
            return [self.players[0]]
        if played == DEALS_PER_HALF:
            return self.first_half_leaders()
        return [self.left_of(self.dealers[-1])]

    def undealt(self) -> list[str]:
        """The cards not yet dealt in the current half (docs/gamelog.md: "Within a half no card
        appears twice (the deck is reshuffled at half-time and collections start empty)")."""
        dealt = self._dealt[self.half - 1]
        return [card.name for card in DECK if card.name not in dealt]

    def collection(self, player: str, half: int | None = None) -> list[str]:
        """The cards ``player`` took in ``half`` (default: the current half), in the order taken."""
        return list(self._collections[(half or self.half) - 1][player])

    def criteria(self, player: str, half: int | None = None) -> dict[str, int]:
        """``player``'s criteria I, II, III and total for ``half`` (default: the current half),
        over the cards collected so far: "a half in progress counts what has been collected"."""
        h = (half or self.half) - 1
        return _score(self._counts[h][player], self._masks[h][player], self._pairs[player][h])

    def why(self, player: str, half: int | None = None) -> tuple[CriterionScore, ...]:
        """``criteria`` told: which suits and cards gave each criterion its points."""
        h = half or self.half
        return _told_half(
            tuple(self._collections[h - 1][player]), tuple(map(tuple, self.sheets[player][str(h)]))
        )

    def options(self) -> dict[str, Any]:
        """What the next deal may be, for a page to build it tap by tap without asking; ``{}``
        once the game is over. Cards in the log's spelling::

            {"dealers": [{"dealer": "Ana", "first_chooser": "Ben", "second_chooser": "Chloé"}],
             "cards": ["Ace of Moons", ...],
             "piles": 3,
             "cards_per_deal": 7}

        - ``dealers``: who may deal (``next_dealers``: one player, or the players level on the
          most first-half points before deal 7), seat order, each with the First Chooser (to
          the dealer's left), who takes pile ``first``, and the Second Chooser (the next to
          the left), who takes pile ``second`` (``choosers``); the dealer keeps the last pile.
        - ``cards``: the cards that may be dealt (``undealt``: not yet dealt this half), in
          deck order.
        - ``piles`` and ``cards_per_deal``: the dealer lays out exactly ``cards_per_deal``
          cards of ``cards``, each at most once, in exactly ``piles`` piles, none of them empty
          (``_check_piles``); ``first`` and ``second`` are two different piles, numbered from
          0 (``_check_choices``).
        """
        if self.finished:
            return {}
        dealers = []
        for dealer in self.next_dealers():
            first, second = self.choosers(dealer)
            dealers.append({"dealer": dealer, "first_chooser": first, "second_chooser": second})
        return {
            "dealers": dealers,
            "cards": self.undealt(),
            "piles": PILES,
            "cards_per_deal": CARDS_PER_DEAL,
        }

    # --- Playing a deal --------------------------------------------------------------------

    def plan(self, move: Any) -> Deal:
        """Read one deal: the dealer, the piles, then the choosers' piles."""
        if not isinstance(move, dict):
            raise IllegalMove("forget-venice.deal_shape", value=move)
        dealer = self._check_dealer(move.get("dealer"))
        piles = self._check_piles(move.get("piles"))
        first, second = self._check_choices(move.get("first"), move.get("second"))
        return Deal(dealer=dealer, piles=piles, first=first, second=second)

    def commit(self, deal: Deal) -> None:
        """Hand each pile to its taker: the First Chooser's, the Second Chooser's, then the rest
        to the dealer."""
        number = len(self.dealers) + 1
        h = self.half - 1
        first_chooser, second_chooser = self.choosers(deal.dealer)
        rest = 3 - deal.first - deal.second  # the pile index neither chooser took
        dealt = self._dealt[h]
        for taker, pile in (
            (first_chooser, deal.piles[deal.first]),
            (second_chooser, deal.piles[deal.second]),
            (deal.dealer, deal.piles[rest]),
        ):
            self._collections[h][taker].extend(pile)
            counts = self._counts[h][taker]
            masks = self._masks[h][taker]
            for card in pile:
                dealt[card] = number
                bit, suits = _CARD_BITS[card]
                for i in suits:
                    counts[i] += 1
                    masks[i] |= bit
        self.dealers.append(deal.dealer)

    def _check_dealer(self, value: Any) -> str:
        """The dealer rotation (see ``next_dealers``)."""
        dealer = expect_player(value, self.players, Message("forget-venice.what_dealer"))
        allowed = self.next_dealers()
        if dealer in allowed:
            return dealer
        deal = len(self.dealers) + 1
        if deal == 1:
            raise IllegalMove(
                "forget-venice.dealer_first", player=dealer, deal=deal, player_first=allowed[0]
            )
        if deal == DEALS_PER_HALF + 1:
            raise IllegalMove(
                "forget-venice.dealer_half_time",
                player=dealer,
                deal=deal,
                either=allowed,
                points=self.criteria(allowed[0], 1)["total"],
            )
        raise IllegalMove(
            "forget-venice.dealer_left",
            player=dealer,
            deal=deal,
            player_last=self.dealers[-1],
            player_next=allowed[0],
        )

    def _check_piles(self, value: Any) -> tuple[tuple[str, ...], ...]:
        """ "Exactly 7 cards in 3 non-empty piles." "Within a half no card appears twice"."""
        if not isinstance(value, list):
            raise IllegalMove("forget-venice.piles_not_list", value=value)
        if len(value) != PILES:
            raise IllegalMove("forget-venice.three_piles", number=len(value))
        dealt = self._dealt[self.half - 1]
        seen: set[str] = set()
        piles: list[tuple[str, ...]] = []
        for index, pile in enumerate(value):
            if not isinstance(pile, list):
                raise IllegalMove("forget-venice.pile_not_list", pile=index, value=pile)
            if not pile:
                raise IllegalMove("forget-venice.pile_empty", pile=index)
            cards = []
            for written in pile:
                card = _read_card(written)
                if card in seen:
                    raise IllegalMove("forget-venice.card_twice", card=card)
                if card in dealt:
                    raise IllegalMove("forget-venice.already_dealt", card=card, deal=dealt[card])
                seen.add(card)
                cards.append(card)
            piles.append(tuple(cards))
        if len(seen) != CARDS_PER_DEAL:
            raise IllegalMove("forget-venice.seven_cards", number=len(seen))
        return tuple(piles)

    def _check_choices(self, first: Any, second: Any) -> tuple[int, int]:
        """ "first/second are distinct pile indices": the two choosers take different piles."""
        for message_id, value in (
            ("forget-venice.first_not_pile", first),
            ("forget-venice.second_not_pile", second),
        ):
            if not (is_int(value) and 0 <= value < PILES):
                raise IllegalMove(message_id, value=value)
        if first == second:
            raise IllegalMove("forget-venice.same_pile", pile=first)
        return first, second

    # --- Results ---------------------------------------------------------------------------

    def _halves(self) -> list[dict[str, dict[str, int]]]:
        shown = 2 if len(self.dealers) > DEALS_PER_HALF else 1
        return [{p: self.criteria(p, h) for p in self.players} for h in range(1, shown + 1)]

    def scores(self) -> dict[str, int]:
        """ "scores = sum of both halves (a half in progress counts what has been collected)"."""
        halves = self._halves()
        return {p: sum(half[p]["total"] for half in halves) for p in self.players}

    def _winners(self) -> tuple[list[str], str | None]:
        """ "Winners: highest total; tie → most second-half points; tie → longest second-half run
        (criterion III); still tied → shared." Returns the winners and the tie-break used."""
        if not self.finished:
            return [], None
        totals = self.scores()
        second = {p: self.criteria(p, 2) for p in self.players}
        tied = _best(self.players, totals)
        if len(tied) == 1:
            return tied, None
        tied = _best(tied, {p: second[p]["total"] for p in tied})
        if len(tied) == 1:
            return tied, "second_half"
        tied = _best(tied, {p: second[p]["III"] for p in tied})
        if len(tied) == 1:
            return tied, "second_half_run"
        return tied, "shared"

    def winners(self) -> list[str]:
        return self._winners()[0]

    def details(self) -> dict[str, Any]:
        """``halves`` as docs/gamelog.md §4 asks (the first half always, the second once deal 7 has
        been played), plus what a score sheet shows: each half's collections, the sheets, where
        the game stands and which tie-break decided it."""
        halves = self._halves()
        return {
            "halves": halves,
            "collections": [
                {p: self.collection(p, h) for p in self.players} for h in range(1, len(halves) + 1)
            ],
            "sheets": self._sheets_json(),
            "deals_played": len(self.dealers),
            "deal": self.deal,
            "half": self.half,
            "dealers": self.next_dealers(),
            "tie_break": self._winners()[1],
        }


def parse_card(value: Any) -> str | None:
    """The canonical name of a card of the 42-card deck, in any accepted spelling, or None.

    "The extended Decktet without the Excuse, the Island and the Borderland: 42 cards."
    """
    if isinstance(value, str) and value in _CARD_BITS:
        return value  # already canonical: the usual case, and the fast one
    card = find_card(value)
    return card.name if card is not None and card.name in _CARD_BITS else None


def _read_card(written: Any) -> str:
    """``parse_card``, or ``IllegalMove`` saying why the card is not in this game."""
    card = parse_card(written)
    if card is not None:
        return card
    decktet = find_card(written)
    if decktet is None:
        raise IllegalMove("forget-venice.not_card", value=written)
    raise IllegalMove("forget-venice.not_in_deck", card=decktet.name)


def _best(players: Iterable[str], values: dict[str, int]) -> list[str]:
    """The players with the highest value, in seat order."""
    players = list(players)
    top = max(values[p] for p in players)
    return [p for p in players if values[p] == top]


GAME = ForgetVenice
