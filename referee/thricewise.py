"""Thricewise (P.D. Magnus; Decktet, basic deck; 2–5 players), as docs/gamelog.md §3 rules it.

Every turn each player reveals one card; cards of a rank revealed twice or more are set aside,
the others are placed in ascending rank order on a floating grid of at most 6 × 6, and every
completed window of three cards in a line scores for each kind it is (set, flush, straight).

State is kept in flat, precomputed tables (card index → rank, suit mask) so that judging a whole
game stays well under a millisecond. ``plan`` reads the whole turn and scores its placements on a
copy of the grid; ``commit`` then applies the ``Turn`` it returned.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .base import (
    Game,
    IllegalMove,
    Message,
    Plan,
    SetupError,
    define,
    expect_cell,
    expect_dict,
    expect_list,
    expect_player,
)
from .decktet import BASIC_DECK, SUITS, find_card
from .messages import gettext_noop as _

Cell = tuple[int, int]

#: "the bounding box of all placed cards never exceeds 6 columns or 6 rows"
MAX_SIDE = 6

define(
    {
        # the setup
        "thricewise.what_grid": _('the setup\'s "grid"'),
        "thricewise.setup_size_4": _(
            "with {count} players the setup grid holds 4 cards (a 2×2 square), not {number}"
        ),
        "thricewise.setup_size_6": _(
            "with {count} players the setup grid holds 6 cards (a 3×2 or 2×3 rectangle), "
            "not {number}"
        ),
        "thricewise.what_setup_card": _("setup card {number}"),
        "thricewise.setup_twice": _("{card} appears twice in the setup grid"),
        "thricewise.setup_same_cell": _(
            "{card} and {card_other} are both at {cell} in the setup grid"
        ),
        "thricewise.setup_gap_4": _("the setup cards must form a full 2×2 square, with no gap"),
        "thricewise.setup_gap_6": _(
            "the setup cards must form a full 3×2 or 2×3 rectangle, with no gap"
        ),
        # the reveal
        "thricewise.turn_not_object": _(
            'a turn must be an object with "reveal" and "place", not {value}'
        ),
        "thricewise.reveal_not_object": _(
            'a turn must have a "reveal" object giving every player\'s card, not {value}'
        ),
        "thricewise.reveal_not_player": _(
            "{value} in the reveal is not one of the players ({players})"
        ),
        "thricewise.reveal_missing": _(
            "the reveal must name every player's card: {player}'s is missing"
        ),
        "thricewise.reveal_not_card": _(
            "{player} revealed {value}, which is not a card of the basic Decktet"
        ),
        "thricewise.reveal_in_setup": _("{player} cannot reveal {card}: it is in the setup grid"),
        "thricewise.reveal_seen": _(
            "{player} cannot reveal {card}: it was revealed in turn {turn}"
        ),
        "thricewise.reveal_twice": _(
            "{player_first} and {player} both revealed {card}: no card appears twice in a game"
        ),
        # the placements
        "thricewise.place_not_list": _('"place" must be a list of placements, not {value}'),
        "thricewise.what_placement": _("placement {number} of this turn"),
        "thricewise.what_player_of": _("the player of {what}"),
        "thricewise.what_at": _('the "at" of {what}'),
        "thricewise.what_at_card": _('the "at" of {what} ({card})'),
        "thricewise.placement_not_object": _(
            '{what} must be an object {{"player", "card", "at"}}, not {value}'
        ),
        "thricewise.not_card": _("{what}: {value} is not a card of the basic Decktet"),
        "thricewise.tied_places": _(
            "{player}'s {card} was set aside this turn (a tied rank): {player} places nothing "
            "this turn"
        ),
        "thricewise.group_split": _(
            "{player}'s placements must come together, in one group, not split by another player's"
        ),
        "thricewise.group_order": _(
            "{player_first} places before {player}: groups go in ascending rank of the card "
            "revealed this turn ({card_first} ({rank_first}) before {card} ({rank}))"
        ),
        "thricewise.group_missing": _("{player} must place {card} this turn"),
        "thricewise.placed_twice": _("{player} places {card} twice"),
        "thricewise.not_own_card": _(
            "{player} cannot place {card}: it is neither {player}'s card of this turn "
            "({card_revealed}) nor one of {player}'s set-aside cards"
        ),
        "thricewise.group_without_revealed": _(
            "{player}'s group must contain {card}, the card {player} revealed this turn"
        ),
        "thricewise.cell_taken": _("{card} cannot go at {cell}: {card_other} is already there"),
        "thricewise.cell_alone": _(
            "{card} cannot go at {cell}: it touches no card (a card goes next to one, "
            "orthogonally or diagonally)"
        ),
        "thricewise.too_wide": _(
            "{card} cannot go at {cell}: the grid would be {count} cards wide (at most {count_max})"
        ),
        "thricewise.too_tall": _(
            "{card} cannot go at {cell}: the grid would be {count} cards tall (at most {count_max})"
        ),
    }
)
DECK_SIZE = len(BASIC_DECK)  # 36
HAND_SIZE = 3

# --- Card tables, indexed by the card's position in BASIC_DECK --------------------------------

CARD_NAMES: tuple[str, ...] = tuple(card.name for card in BASIC_DECK)
#: "Ranks: Ace = 1, 2–9, Crown = 10."
RANK: tuple[int, ...] = tuple(
    1 if c.rank == "Ace" else 10 if c.rank == "Crown" else int(c.rank) for c in BASIC_DECK
)
RANK_TEXT: tuple[str, ...] = tuple(card.rank for card in BASIC_DECK)
#: one bit per suit, so "sharing at least one suit" is a bitwise AND
SUIT_MASK: tuple[int, ...] = tuple(
    sum(1 << SUITS.index(suit) for suit in card.suits) for card in BASIC_DECK
)
# "Aces and Crowns are not number cards": they never set a window's worth, so give them a value
# above every number card and read it back as 0 when the whole window has no number card.
_NO_NUMBER = 99
_WORTH: tuple[int, ...] = tuple(r if 2 <= r <= 9 else _NO_NUMBER for r in RANK)

_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}

# --- Windows ------------------------------------------------------------------------------------

#: the four line directions: row, column, both diagonals
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))
NEIGHBOURS: tuple[Cell, ...] = tuple(
    (dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)
)


def parse_card(value: Any) -> int | None:
    """The basic-deck card a log names (any accepted spelling, docs/gamelog.md §1) as its index
    in ``BASIC_DECK``, or None."""
    # Logs nearly always spell cards canonically: answer those without normalising.
    if isinstance(value, str):
        index = _INDEX.get(value)
        if index is not None:
            return index
    card = find_card(value)
    if card is None:
        return None
    # find_card also knows the extended deck (Excuse, Pawns, Courts): not in this game.
    return _INDEX.get(card.name)


#: one player's group of a turn: that player, and the cards they place with their cells
Group = tuple[str, list[tuple[int, Cell]]]


def _groups(entries: Sequence[tuple[str, int, Cell]]) -> list[Group]:
    """Cut ``place`` into groups: runs of consecutive entries of one player."""
    groups: list[Group] = []
    for player, index, cell in entries:
        if groups and groups[-1][0] == player:
            groups[-1][1].append((index, cell))
        else:
            groups.append((player, [(index, cell)]))
    return groups


def window_points(a: int, b: int, c: int) -> int:
    """Points of a full window, cards given in line order.

    docs/gamelog.md §3: "Each window scores once for **each** kind it is: *set*: three cards of the
    same rank; *flush*: three cards sharing at least one suit (a flush counts **once** even if two
    suits are shared); *straight*: ranks consecutive and strictly increasing or strictly
    decreasing **along the line** (3-4-5 or 5-4-3, not 3-5-4; no wrap-around). A window is worth
    the lowest rank among its **number cards** (ranks 2–9) [...] three Crowns are worth 0."
    """
    ra, rb, rc = RANK[a], RANK[b], RANK[c]
    kinds = 0
    if ra == rb == rc:
        kinds += 1
    if SUIT_MASK[a] & SUIT_MASK[b] & SUIT_MASK[c]:
        kinds += 1
    step = rb - ra
    # Crown = 10 simply follows 9, and Ace = 1 never follows a Crown: no wrap-around.
    if (step == 1 or step == -1) and rc - rb == step:
        kinds += 1
    if not kinds:
        return 0
    worth = min(_WORTH[a], _WORTH[b], _WORTH[c])
    return 0 if worth == _NO_NUMBER else kinds * worth


#: the kinds a window may be, in the order the rules list them
KINDS = ("set", "flush", "straight")


@dataclass(frozen=True, slots=True)
class Window:
    """A full window a placed card completed, and how the referee scored it: why it scored.

    The same reading of the rules as ``window_points`` (which stays lean for judging): the tests
    check that the two always agree."""

    #: the three cards in line order, and their cells
    cards: tuple[str, str, str]
    cells: tuple[Cell, Cell, Cell]
    #: the kinds it is, in the order of ``KINDS``; empty when it is none
    kinds: tuple[str, ...]
    #: the suits the three cards share (a flush counts once, however many)
    suits: tuple[str, ...]
    #: the lowest rank among its number cards (2–9); 0 when it has none
    worth: int

    @property
    def points(self) -> int:
        return len(self.kinds) * self.worth


def explain_window(cells: tuple[Cell, Cell, Cell], indices: tuple[int, int, int]) -> Window:
    """The ``Window`` of three cards (indices in ``BASIC_DECK``) at ``cells``, in line order."""
    a, b, c = indices
    ra, rb, rc = RANK[a], RANK[b], RANK[c]
    shared = SUIT_MASK[a] & SUIT_MASK[b] & SUIT_MASK[c]
    step = rb - ra
    kinds = tuple(
        kind
        for kind, is_kind in (
            ("set", ra == rb == rc),
            ("flush", bool(shared)),
            ("straight", step in (1, -1) and rc - rb == step),
        )
        if is_kind
    )
    worth = min(_WORTH[a], _WORTH[b], _WORTH[c])
    return Window(
        cards=(CARD_NAMES[a], CARD_NAMES[b], CARD_NAMES[c]),
        cells=cells,
        kinds=kinds,
        suits=tuple(suit for i, suit in enumerate(SUITS) if shared >> i & 1),
        worth=0 if worth == _NO_NUMBER else worth,
    )


def windows_at(board: Mapping[Cell, int], cell: Cell) -> list[Window]:
    """Every full window through ``cell`` (just placed on ``board``), in the order
    ``Thricewise._cell_points`` reads them: each direction, then the windows before, around and
    after the cell. Windows of no kind are left out: they score nothing and say nothing."""
    x, y = cell
    found = []
    for dx, dy in DIRECTIONS:
        line = [(x + k * dx, y + k * dy) for k in (-2, -1, 0, 1, 2)]
        for start in range(3):
            cells = (line[start], line[start + 1], line[start + 2])
            if all(c in board for c in cells):
                window = explain_window(cells, (board[cells[0]], board[cells[1]], board[cells[2]]))
                if window.kinds:
                    found.append(window)
    return found


@dataclass(frozen=True, slots=True)
class Scored:
    """One placed card, its points, and the windows that made them (``Thricewise.why``)."""

    turn: int  # from 0, as ``details["placements"]``
    player: str
    card: str
    cell: Cell
    points: int
    windows: tuple[Window, ...]


def turns_for(players: int, setup_cards: int) -> int:
    """docs/gamelog.md §3: "Draw pile = 36 − setup cards − 3 × players. So a game has exactly
    `3 + floor(pile / players)` turns: 16, 10, 8, 6 turns for 2, 3, 4, 5 players."
    """
    pile = DECK_SIZE - setup_cards - HAND_SIZE * players
    return HAND_SIZE + pile // players


def setup_size(players: int) -> int:
    """docs/gamelog.md §3: "4 cards forming a full 2×2 rectangle (2 or 4 players) or 6 cards forming
    a full 3×2 or 2×3 rectangle (3 or 5 players)"."""
    return 4 if players % 2 == 0 else 6


def grow_box(box: tuple[int, int, int, int], cell: Cell) -> tuple[int, int, int, int]:
    """The bounding box ``(min column, max column, min row, max row)`` with ``cell`` added."""
    min_x, max_x, min_y, max_y = box
    x, y = cell
    return (min(min_x, x), max(max_x, x), min(min_y, y), max(max_y, y))


def cell_fault(
    board: Container[Cell], box: tuple[int, int, int, int], cell: Cell
) -> tuple[str | None, tuple[int, int, int, int]]:
    """Where a card may go: the rule a card at ``cell`` would break, and the bounding box with
    ``cell`` added. ``board`` holds the occupied cells and ``box`` their bounding box.

    docs/gamelog.md §3: "A card is placed on an empty cell that touches an occupied cell
    orthogonally or diagonally, and the bounding box of all placed cards never exceeds 6
    columns or 6 rows." The fault is None when the cell is legal, else ``"taken"`` (not
    empty), ``"alone"`` (touches no card), ``"wide"`` or ``"tall"`` (beyond 6 × 6). Judging
    (``Thricewise._check_cell``) and the legal cells a page offers (``Thricewise.legal_cells``,
    ``Thricewise.options``) both ask this one rule.
    """
    grown = grow_box(box, cell)
    if cell in board:
        return "taken", grown
    x, y = cell
    for dx, dy in NEIGHBOURS:
        if (x + dx, y + dy) in board:
            break
    else:
        return "alone", grown
    if grown[1] - grown[0] + 1 > MAX_SIDE:
        return "wide", grown
    if grown[3] - grown[2] + 1 > MAX_SIDE:
        return "tall", grown
    return None, grown


#: a placement worked out by ``plan``: (player, card index, cell, points it scores)
Placement = tuple[str, int, Cell, int]


@dataclass(slots=True)
class Turn(Plan):
    """A legal turn, worked out: the reveal, who sets aside, and every placement scored."""

    #: player → the card revealed this turn, in seat order
    revealed: dict[str, int]
    #: the players whose revealed card is set aside this turn (a tied rank), in seat order
    set_aside: tuple[str, ...]
    #: the placements in the order of ``place``, each with the points it scores
    placements: tuple[Placement, ...]
    #: the bounding box of the grid once every card is placed
    box: tuple[int, int, int, int]

    def canonical(self) -> dict[str, Any]:
        return {
            "reveal": {player: CARD_NAMES[index] for player, index in self.revealed.items()},
            "place": [
                {"player": player, "card": CARD_NAMES[index], "at": [cell[0], cell[1]]}
                for player, index, cell, _ in self.placements
            ],
        }


class Thricewise(Game):
    """One game of Thricewise: the grid, the set-aside cards, the scores, the turn."""

    name = "thricewise"
    title = "Thricewise"
    min_players = 2
    max_players = 5
    cooperative = False
    has_points = True

    def __init__(self, players: Sequence[str]):
        super().__init__(players)
        #: cell → card index, setup cards included
        self.board: dict[Cell, int] = {}
        #: the bounding box of the grid: (min column, max column, min row, max row)
        self.box: tuple[int, int, int, int] = (0, 0, 0, 0)
        #: card index → turn it was seen in (-1 for the setup grid)
        self.seen: dict[int, int] = {}
        #: player → card indices still set aside, in the order they were set aside
        self.set_aside: dict[str, list[int]] = {p: [] for p in self.players}
        self.points: dict[str, int] = dict.fromkeys(self.players, 0)
        #: (turn, player, card index, cell, points), in the order the cards were placed
        self.placements: list[tuple[int, str, int, Cell, int]] = []
        #: points scored per turn, {player: points}, one entry per turn played
        self.turn_points: list[dict[str, int]] = []
        self.setup_cells: tuple[Cell, ...] = ()
        self.turn = 0
        self.turns_total = turns_for(len(self.players), setup_size(len(self.players)))

    # --- Setup ----------------------------------------------------------------------------------

    @classmethod
    def from_setup(cls, players: Sequence[str], setup: Any) -> Thricewise:
        """gamelog.md §3: "Setup `{"grid": [{"card": "The Author", "at": [0, 0]}, ...]}`: 4 cards
        forming a full 2×2 rectangle (2 or 4 players) or 6 cards forming a full 3×2 or 2×3
        rectangle (3 or 5 players). A cell is `[column, row]`, any integers."
        """
        game = cls(players)
        setup = expect_dict(setup, Message("what.setup"), SetupError)
        grid = expect_list(setup.get("grid"), Message("thricewise.what_grid"), SetupError)
        wanted = setup_size(len(players))
        if len(grid) != wanted:
            raise SetupError(
                "thricewise.setup_size_4" if wanted == 4 else "thricewise.setup_size_6",
                count=len(players),
                number=len(grid),
            )
        for number, entry in enumerate(grid, 1):
            what = Message("thricewise.what_setup_card", number=number)
            entry = expect_dict(entry, what, SetupError)
            index = parse_card(entry.get("card"))
            if index is None:
                raise SetupError("thricewise.not_card", what=what, value=entry.get("card"))
            if index in game.seen:
                raise SetupError("thricewise.setup_twice", card=CARD_NAMES[index])
            cell = expect_cell(
                entry.get("at"), Message("thricewise.what_at", what=what), SetupError
            )
            if cell in game.board:
                raise SetupError(
                    "thricewise.setup_same_cell",
                    card=CARD_NAMES[index],
                    card_other=CARD_NAMES[game.board[cell]],
                    cell=cell,
                )
            game.board[cell] = index
            game.seen[index] = -1
        xs = [x for x, _ in game.board]
        ys = [y for _, y in game.board]
        width, height = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        # Distinct cells filling their bounding box exactly form a full rectangle.
        allowed = {(2, 2)} if wanted == 4 else {(3, 2), (2, 3)}
        if (width, height) not in allowed or width * height != wanted:
            raise SetupError("thricewise.setup_gap_4" if wanted == 4 else "thricewise.setup_gap_6")
        game.box = (min(xs), max(xs), min(ys), max(ys))
        game.setup_cells = tuple(game.board)
        return game

    def canonical_setup(self) -> dict[str, Any]:
        # A card never moves once placed, so the setup cells still hold the setup cards.
        return {
            "grid": [
                {"card": CARD_NAMES[self.board[cell]], "at": [cell[0], cell[1]]}
                for cell in self.setup_cells
            ]
        }

    # --- A turn ---------------------------------------------------------------------------------

    def read_reveal(self, reveal: Any) -> dict[str, int]:
        """Check a turn's ``reveal`` and return {player: card index} in seat order.

        docs/gamelog.md §3: "`reveal` names every player's card for the turn (every player reveals
        every turn; hands stay equal)." "No card may appear twice in a game (setup, reveals)."
        "Hands are not recorded, so any card not yet seen may be revealed by any player."
        """
        if not isinstance(reveal, dict):
            raise IllegalMove("thricewise.reveal_not_object", value=reveal)
        for key in reveal:
            if key not in self.set_aside:  # a cheap "is a player" test, exact match
                raise IllegalMove(
                    "thricewise.reveal_not_player", value=key, players=list(self.players)
                )
        revealed: dict[str, int] = {}
        by_card: dict[int, str] = {}
        for player in self.players:
            if player not in reveal:
                raise IllegalMove("thricewise.reveal_missing", player=player)
            value = reveal[player]
            index = parse_card(value)
            if index is None:
                raise IllegalMove("thricewise.reveal_not_card", player=player, value=value)
            if index in self.seen:
                when = self.seen[index]
                if when < 0:
                    raise IllegalMove(
                        "thricewise.reveal_in_setup", player=player, card=CARD_NAMES[index]
                    )
                raise IllegalMove(
                    "thricewise.reveal_seen", player=player, card=CARD_NAMES[index], turn=when
                )
            if index in by_card:
                raise IllegalMove(
                    "thricewise.reveal_twice",
                    player_first=by_card[index],
                    player=player,
                    card=CARD_NAMES[index],
                )
            by_card[index] = player
            revealed[player] = index
        return revealed

    @staticmethod
    def split_reveal(revealed: Mapping[str, int]) -> tuple[list[str], list[str]]:
        """(players who place, in placing order; players whose card is set aside), seat order.

        docs/gamelog.md §3: "Revealed cards whose rank equals another revealed card's rank this turn
        are **set aside** (deferred) in front of their owners. The other players place in
        ascending rank order of their revealed card."
        """
        count: dict[int, int] = {}
        for index in revealed.values():
            rank = RANK[index]
            count[rank] = count.get(rank, 0) + 1
        placing = [p for p, i in revealed.items() if count[RANK[i]] == 1]
        tied = [p for p, i in revealed.items() if count[RANK[i]] > 1]
        # Ranks of the placing players are all distinct, so this order is total.
        placing.sort(key=lambda p: RANK[revealed[p]])
        return placing, tied

    def plan(self, move: Any) -> Turn:
        """Read one turn, the reveal then every placement, and score it on a copy of the grid.

        gamelog.md §3: "A player's **group** is the run of consecutive entries of `place` for that
        player. It must contain the card revealed this turn, and may also contain any of that
        player's set-aside cards, in any order. A player whose card is set aside this turn places
        nothing this turn (not even older set-aside cards). Groups appear in `place` in ascending
        order of the rank revealed this turn." "A turn's `place` may be omitted when nobody
        places."
        """
        if not isinstance(move, dict):
            raise IllegalMove("thricewise.turn_not_object", value=move)
        revealed = self.read_reveal(move.get("reveal"))
        placing, tied = self.split_reveal(revealed)
        groups = _groups(self._read_place(move.get("place")))
        self._check_groups(revealed, placing, tied, groups)
        placements, box = self._score_placements(groups)
        return Turn(revealed=revealed, set_aside=tuple(tied), placements=placements, box=box)

    def _check_groups(
        self,
        revealed: Mapping[str, int],
        placing: Sequence[str],
        tied: Sequence[str],
        groups: Sequence[Group],
    ) -> None:
        """Who places, in which order, and which cards: see ``plan`` and ``_check_group``."""
        tied_set = set(tied)
        done: set[str] = set()
        for position, (player, group) in enumerate(groups):
            if player in tied_set:
                raise IllegalMove(
                    "thricewise.tied_places", player=player, card=CARD_NAMES[revealed[player]]
                )
            if player in done:
                raise IllegalMove("thricewise.group_split", player=player)
            expected = placing[position]
            if player != expected:
                first, later = revealed[expected], revealed[player]
                raise IllegalMove(
                    "thricewise.group_order",
                    player_first=expected,
                    player=player,
                    card_first=CARD_NAMES[first],
                    rank_first=RANK_TEXT[first],
                    card=CARD_NAMES[later],
                    rank=RANK_TEXT[later],
                )
            done.add(player)
            self._check_group(player, revealed[player], group)
        if len(groups) < len(placing):
            missing = placing[len(groups)]
            raise IllegalMove(
                "thricewise.group_missing", player=missing, card=CARD_NAMES[revealed[missing]]
            )

    def _score_placements(
        self, groups: Sequence[Group]
    ) -> tuple[tuple[Placement, ...], tuple[int, int, int, int]]:
        """Place every card on a copy of the grid, checking each cell and scoring as it goes;
        return the placements with their points and the new bounding box."""
        board = dict(self.board)
        box = self.box
        placements: list[Placement] = []
        for player, group in groups:
            for index, cell in group:
                box = self._check_cell(board, box, index, cell)
                board[cell] = index
                placements.append((player, index, cell, self._cell_points(board, cell)))
        return tuple(placements), box

    def commit(self, turn: Turn) -> None:
        """Reveal, place and score, set aside the tied cards, and move on to the next turn."""
        number = self.turn
        for index in turn.revealed.values():
            self.seen[index] = number
        placed_by: dict[str, list[int]] = {}
        gained = dict.fromkeys(self.players, 0)
        for player, index, cell, points in turn.placements:
            self.board[cell] = index
            placed_by.setdefault(player, []).append(index)
            gained[player] += points
            self.points[player] += points
            self.placements.append((number, player, index, cell, points))
        for player, cards in placed_by.items():
            if len(cards) > 1:  # some of the player's set-aside cards were placed
                self.set_aside[player] = [i for i in self.set_aside[player] if i not in cards]
        for player in turn.set_aside:
            self.set_aside[player].append(turn.revealed[player])
        self.box = turn.box
        self.turn_points.append(gained)
        self.turn = number + 1

    def _read_place(self, place: Any) -> list[tuple[str, int, Cell]]:
        """The entries of ``place`` as (player, card index, cell); shapes and names only."""
        # "may be omitted when nobody places"; whether somebody had to is checked by the caller.
        if place is None:
            return []
        if not isinstance(place, list):
            raise IllegalMove("thricewise.place_not_list", value=place)
        entries = []
        for number, entry in enumerate(place, 1):
            what = Message("thricewise.what_placement", number=number)
            if not isinstance(entry, dict):
                raise IllegalMove("thricewise.placement_not_object", what=what, value=entry)
            player = expect_player(
                entry.get("player"), self.players, Message("thricewise.what_player_of", what=what)
            )
            value = entry.get("card")
            index = parse_card(value)
            if index is None:
                raise IllegalMove("thricewise.not_card", what=what, value=value)
            cell = expect_cell(
                entry.get("at"),
                Message("thricewise.what_at_card", what=what, card=CARD_NAMES[index]),
            )
            entries.append((player, index, cell))
        return entries

    def _check_group(self, player: str, revealed: int, group: list[tuple[int, Cell]]) -> None:
        """gamelog.md §3: "A group holds the card revealed this turn exactly once and each of the
        player's own set-aside cards at most once; any other card is illegal."
        """
        own = self.set_aside[player]
        used: set[int] = set()
        for index, _cell in group:
            if index in used:
                raise IllegalMove("thricewise.placed_twice", player=player, card=CARD_NAMES[index])
            if index != revealed and index not in own:
                raise IllegalMove(
                    "thricewise.not_own_card",
                    player=player,
                    card=CARD_NAMES[index],
                    card_revealed=CARD_NAMES[revealed],
                )
            used.add(index)
        if revealed not in used:
            raise IllegalMove(
                "thricewise.group_without_revealed", player=player, card=CARD_NAMES[revealed]
            )

    @staticmethod
    def _check_cell(
        board: Mapping[Cell, int], box: tuple[int, int, int, int], index: int, cell: Cell
    ) -> tuple[int, int, int, int]:
        """Check one cell (``cell_fault``) and return the new bounding box."""
        fault, grown = cell_fault(board, box, cell)
        if fault is None:
            return grown
        card = CARD_NAMES[index]
        if fault == "taken":
            raise IllegalMove(
                "thricewise.cell_taken", card=card, cell=cell, card_other=CARD_NAMES[board[cell]]
            )
        if fault == "alone":
            raise IllegalMove("thricewise.cell_alone", card=card, cell=cell)
        min_x, max_x, min_y, max_y = grown
        if fault == "wide":
            raise IllegalMove(
                "thricewise.too_wide",
                card=card,
                cell=cell,
                count=max_x - min_x + 1,
                count_max=MAX_SIDE,
            )
        raise IllegalMove(
            "thricewise.too_tall",
            card=card,
            cell=cell,
            count=max_y - min_y + 1,
            count_max=MAX_SIDE,
        )

    @staticmethod
    def _cell_points(board: Mapping[Cell, int], cell: Cell) -> int:
        """docs/gamelog.md §3: "When a card is placed, look at every window of three consecutive
        cells, in the four line directions (row, column, both diagonals), that contains the
        placed cell and whose three cells are occupied." "A card in the middle of a longer line
        can complete several windows: each scores."
        """
        x, y = cell
        get = board.get
        here = board[cell]
        total = 0
        # Read the two cells on each side once per line, then score the (up to) three windows.
        for dx, dy in DIRECTIONS:
            before = get((x - dx, y - dy))
            after = get((x + dx, y + dy))
            if before is not None:
                farther = get((x - 2 * dx, y - 2 * dy))
                if farther is not None:
                    total += window_points(farther, before, here)
                if after is not None:
                    total += window_points(before, here, after)
            if after is not None:
                farther = get((x + 2 * dx, y + 2 * dy))
                if farther is not None:
                    total += window_points(here, after, farther)
        return total

    # --- Results --------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """gamelog.md §3: "The game is `finished` after the last turn; more turns are illegal."""
        return self.turn >= self.turns_total

    def scores(self) -> dict[str, int]:
        """docs/gamelog.md §3: "The placer scores, also for set-aside cards." Seat order."""
        return dict(self.points)

    def winners(self) -> list[str]:
        """docs/gamelog.md §3: "**Winners**: the highest score (ties share the win)." """
        if not self.finished:
            return []
        best = max(self.points.values())
        return [p for p in self.players if self.points[p] == best]

    def details(self) -> dict[str, Any]:
        """docs/gamelog.md §3: "`details` holds at least `placements`: `[{"turn": T, "player": P,
        "card": C, "at": [x, y], "points": N}]` (T 0-based: the turn in which the card is placed)
        and `set_aside`: `{player: [cards still set aside, in the order they were set aside]}`
        with every player present."

        Also: ``turn`` (turns played), ``turns`` (turns in the whole game) and ``turn_points``
        (points per turn per player, for a score sheet).
        """
        return {
            "placements": [
                {"turn": t, "player": p, "card": CARD_NAMES[i], "at": [c[0], c[1]], "points": n}
                for t, p, i, c, n in self.placements
            ],
            "set_aside": self.set_aside_cards(),
            "turn": self.turn,
            "turns": self.turns_total,
            "turn_points": [dict(points) for points in self.turn_points],
        }

    # --- Queries for a score sheet --------------------------------------------------------------

    def why(self) -> list[Scored]:
        """Every card placed so far, in order, with the windows that made its points: the board
        is laid again from the setup, card by card, so each card's windows are the ones it
        completed when it was placed. Worked out on demand: judging never needs it.

        A card's windows are those of the board as it was placed, which the cards after it do
        not change: what was worked out for the placements before the last turn's is kept
        (``_TOLD``), and only the last turn's are worked out (issue 32: every move's score
        sheet worked every turn out again)."""
        setup = tuple((cell, self.board[cell]) for cell in self.setup_cells)
        placements = tuple(self.placements)
        found = _TOLD.get((setup, placements))
        if found is not None:
            return list(found)
        last_turn = placements[-1][0] if placements else None
        done = len(placements)
        while done and placements[done - 1][0] == last_turn:
            done -= 1
        scored = list(_TOLD.get((setup, placements[:done]), ()))
        if len(scored) != done:  # the turns before were not worked out here: all of them
            done, scored = 0, []
        board = dict(setup)
        for _turn, _player, index, cell, _points in placements[:done]:
            board[cell] = index
        for turn, player, index, cell, points in placements[done:]:
            board[cell] = index
            scored.append(
                Scored(
                    turn, player, CARD_NAMES[index], cell, points, tuple(windows_at(board, cell))
                )
            )
        if len(_TOLD) >= _TOLD_AT_MOST:
            _TOLD.clear()
        _TOLD[setup, placements] = tuple(scored)
        return scored

    def why_turn(self, turn: Turn) -> list[Scored]:
        """``why`` for the placements of a turn planned on this state (before its commit)."""
        board = dict(self.board)
        scored = []
        for player, index, cell, points in turn.placements:
            board[cell] = index
            scored.append(
                Scored(
                    self.turn,
                    player,
                    CARD_NAMES[index],
                    cell,
                    points,
                    tuple(windows_at(board, cell)),
                )
            )
        return scored

    def set_aside_cards(self, player: str | None = None) -> Any:
        """The cards still set aside, in the order they were set aside: a list for one player,
        or {player: [...]} for every player (seat order) when ``player`` is None."""
        if player is not None:
            return [CARD_NAMES[i] for i in self.set_aside[player]]
        return {p: [CARD_NAMES[i] for i in cards] for p, cards in self.set_aside.items()}

    def unseen_cards(self) -> list[str]:
        """Cards neither in the setup grid nor revealed yet, in deck order: "Hands are not
        recorded, so any card not yet seen may be revealed by any player." """
        return [name for i, name in enumerate(CARD_NAMES) if i not in self.seen]

    def legal_cells(self, placed: Sequence[Cell] = ()) -> list[Cell]:
        """Every cell where a card may go now, sorted by row then column: the cells
        ``cell_fault`` finds nothing wrong with. ``placed``: cells taken by cards of this turn
        not yet entered (a form composing the turn asks after each tap)."""
        board = {*self.board, *placed}
        box = self.box
        for cell in placed:
            box = grow_box(box, cell)
        # A legal cell touches a card, so it lies within one cell of the bounding box.
        min_x, max_x, min_y, max_y = box
        return [
            (x, y)
            for y in range(min_y - 1, max_y + 2)
            for x in range(min_x - 1, max_x + 2)
            if cell_fault(board, box, (x, y))[0] is None
        ]

    def options(self) -> dict[str, Any]:
        """What the next turn may be, for a page to build it tap by tap without asking; ``{}``
        once the game is over. Cards in the log's spelling, cells ``[column, row]``::

            {"reveal": ["The Author", ...],
             "ranks": {"The Author": 2, ...},
             "set_aside": {"Ana": ["The Sailor"], "Ben": []},
             "grid": [{"card": "The Huntress", "at": [0, 0]}, ...],
             "max_side": 6,
             "legal_cells": [[-1, -1], [0, -1], ...]}

        - ``reveal``: the cards any player may reveal (``unseen_cards``: neither in the setup
          grid nor revealed in an earlier turn), in deck order. Every player reveals one, and no
          two players the same card.
        - ``ranks``: the rank of each card of ``reveal`` as a number (Ace 1, 2–9, Crown 10).
          Who places follows from it (``split_reveal``): a card whose rank another player also
          revealed this turn is set aside, and its player places nothing this turn; the others
          place, one group each, in ascending rank of the card they revealed.
        - ``set_aside``: every player's cards set aside on earlier turns, seat order. A group is
          the player's revealed card, exactly once, plus any of these, each at most once, in
          any order.
        - ``grid``: every card on the grid (setup included), with its cell.
        - ``max_side``: the grid never spans more columns, nor more rows, than this.
        - ``legal_cells``: the cells where the turn's first card may go (``legal_cells()``), by
          row then column.

        The step rule (``cell_fault``, the one rule judging applies), which the page applies
        for every card after the first: with O the cells of ``grid`` and of the cards placed
        earlier this turn, a card may go on a cell C when C is not in O, one of C's eight
        neighbours (orthogonal or diagonal) is in O, and O plus C span at most ``max_side``
        columns and at most ``max_side`` rows. ``legal_cells`` is that rule with no card placed
        yet (``legal_cells(placed)`` answers it for any cells placed).
        """
        if self.finished:
            return {}
        reveal = self.unseen_cards()
        return {
            "reveal": reveal,
            "ranks": {name: RANK[_INDEX[name]] for name in reveal},
            "set_aside": self.set_aside_cards(),
            "grid": [
                {"card": CARD_NAMES[index], "at": [x, y]} for (x, y), index in self.board.items()
            ],
            "max_side": MAX_SIDE,
            "legal_cells": [[x, y] for x, y in self.legal_cells()],
        }

    def placing_order(self, reveal: Any) -> list[str]:
        """For a reveal {player: card}, the players who place, in the order they place; the
        others' cards are set aside. Raises IllegalMove if the reveal itself is illegal."""
        return self.split_reveal(self.read_reveal(reveal))[0]


#: ``Thricewise.why``'s, by the setup's cards and the placements (a card's windows depend on
#: nothing else), emptied when full.
_TOLD: dict[tuple, tuple[Scored, ...]] = {}
_TOLD_AT_MOST = 256

GAME = Thricewise

__all__ = [
    "GAME",
    "KINDS",
    "Scored",
    "Thricewise",
    "Turn",
    "Window",
    "explain_window",
    "parse_card",
    "turns_for",
    "window_points",
    "windows_at",
]
