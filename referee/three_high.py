"""3-High (Jason Troutman; Treehouse pieces on a chessboard; 1–4 players, cooperative).

docs/gamelog.md §7. The team moves the 15 Treehouse pieces with playing cards until five one-colour
trees stand (won), or a piece leaves the board, a player cannot play, or the last card of the pile
is drawn (lost).

Squares are ``a1``–``h8``: files a–h run west to east, ranks 1–8 south to north. A piece is
``"green-2"`` (sizes 1 small, 2 medium, 3 large); a card is ``"5D"`` (A–8 of S, H, D, C).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .base import Game, IllegalMove, Plan, SetupError, define, describe, norm
from .messages import gettext_noop as _

COLOURS = ("red", "yellow", "green", "blue", "black")
#: piece name → (colour, size), in a stable order (colours as listed, large first)
PIECES: dict[str, tuple[str, int]] = {
    f"{colour}-{size}": (colour, size) for size in (3, 2, 1) for colour in COLOURS
}

FILES = "abcdefgh"
#: (file, rank), both 0–7 → "a1"…"h8"
SQUARE_NAMES: dict[tuple[int, int], str] = {
    (f, r): f"{FILES[f]}{r + 1}" for f in range(8) for r in range(8)
}
SQUARES: dict[str, tuple[int, int]] = {name: cell for cell, name in SQUARE_NAMES.items()}

VALUES = {"a": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8}
SUITS = "shdc"
RED_SUITS = "hd"
BLACK_SUITS = "sc"
#: normalised card code → (canonical code, value, suit letter)
CARDS: dict[str, tuple[str, int, str]] = {
    f"{v}{s}": (f"{v}{s}".upper(), value, s) for v, value in VALUES.items() for s in SUITS
}
DECK_SIZE = len(CARDS)  # 32

#: side → (file step, rank step) of a move *toward* that side
SIDES: dict[str, tuple[int, int]] = {
    "north": (0, 1),
    "south": (0, -1),
    "east": (1, 0),
    "west": (-1, 0),
}

#: players → cards in each hand: "1 joueur = 6 cartes ; 2 joueurs = 5 … ; 3 … 4 ; 4 … 3"
HAND_SIZES = {1: 6, 2: 5, 3: 4, 4: 3}

define(
    {
        # the setup
        "three-high.setup_shape": _(
            "the setup must list the 15 pieces and their squares: "
            '{{"pieces": [{{"piece": "red-3", "square": "c5"}}, ...]}}'
        ),
        "three-high.setup_count": _("the setup must place all 15 pieces, not {number}"),
        "three-high.setup_entry": _(
            "setup entry {entry} must be an object with a piece and a square"
        ),
        "three-high.setup_not_piece": _(
            "setup entry {entry}: {value} is not a piece (a colour red, yellow, green, blue or "
            'black and a size 1–3, e.g. "green-2")'
        ),
        "three-high.setup_twice": _("setup entry {entry}: {piece} is placed twice"),
        "three-high.setup_order": _(
            "setup entry {entry}: {piece} comes after a smaller piece; the pieces are placed "
            "large ones first, then medium, then small"
        ),
        "three-high.setup_not_square": _(
            "setup entry {entry}: {value} is not a square of the board (a1 to h8) for {piece}"
        ),
        # a move
        "three-high.move_shape": _(
            'a move must be a JSON object like {{"player": "Ana", "card": "5D", '
            '"side": "north", "piece": "green-2"}}'
        ),
        "three-high.not_player": _(
            "the move's player {value} is not one of the players ({players})"
        ),
        "three-high.not_your_turn": _(
            "it is {player_turn}'s turn, not {player}'s: players play in seat order"
        ),
        "three-high.cannot_play_and_card": _(
            "{player} records cannot_play and also plays a card: a move does one or the other"
        ),
        "three-high.cannot_play_value": _("cannot_play must be true, not {value}"),
        "three-high.empty_hand": _("{player} has no card left: they must record cannot_play"),
        "three-high.played_twice": _("{card} has already been played: no card is played twice"),
        "three-high.under": _(
            "{piece} is under {piece_above} at {square}: only the top piece of a stack moves"
        ),
        "three-high.cannot_stop": _(
            "{piece} cannot stop on {piece_below} at {square}: a piece stops only on an empty "
            "square or on the piece of its own colour exactly one size larger"
        ),
        "three-high.not_card": _(
            "{value} is not a card of the 32-card deck "
            '(A, 2–8 of spades S, hearts H, diamonds D or clubs C, e.g. "5D")'
        ),
        "three-high.not_side": _("{value} is not a side of the board (north, south, east or west)"),
        "three-high.not_piece": _(
            "{value} is not a piece (a colour red, yellow, green, blue or black "
            'and a size 1–3, e.g. "green-2")'
        ),
        "three-high.off_board": _("{piece} is no longer on the board"),
    }
)

WON_REASON = "all five trees stand"
LAST_DRAW_REASON = "the last card of the pile was drawn"


def parse_card(value: Any) -> tuple[str, int, str] | None:
    """A card code (``"5D"``, ``" as "``) → (canonical code, value, suit letter), or None."""
    key = norm(value)
    return CARDS.get(key) if key is not None else None


def square_from_cards(red_card: str, black_card: str) -> str:
    """OUR CONVENTION, not the printed grid: the square named by a drawn red and black card.

    The sheet says: "pour chaque pièce … tirez une carte rouge et une noire, et posez la pièce sur
    la case correspondante de l'échiquier", but its card-to-square grid is not available to us
    (docs/gamelog.md §7). So we use: the red card's value (hearts or diamonds) is the rank, row 1–8
    from south to north; the black card's value (spades or clubs) is the file, a–h from west to
    east; Ace = 1. ``square_from_cards("5H", "3S") == "c5"``.

    Raises ``ValueError`` with a plain sentence when a card is not an A–8 card of the right colour.
    """
    red = parse_card(red_card)
    if red is None:
        raise ValueError(f"{describe(red_card)} is not a card of the 32-card deck (A–8, e.g. 5H)")
    if red[2] not in RED_SUITS:
        raise ValueError(f"{red[0]} is not a red card: the rank comes from a heart or a diamond")
    black = parse_card(black_card)
    if black is None:
        raise ValueError(f"{describe(black_card)} is not a card of the 32-card deck (A–8, e.g. 3S)")
    if black[2] not in BLACK_SUITS:
        raise ValueError(f"{black[0]} is not a black card: the file comes from a spade or a club")
    return SQUARE_NAMES[(black[1] - 1, red[1] - 1)]


def _cell_name(cell: tuple[int, int] | None) -> str | None:
    return SQUARE_NAMES[cell] if cell is not None else None


@dataclass(slots=True)
class Turn(Plan):
    """A legal move, worked out: everything ``commit`` will change.

    ``card`` is None when the player records ``cannot_play``; ``target`` is None with a piece
    when it leaves the board.
    """

    seat: int
    player: str
    card: str | None = None
    side: str | None = None
    piece: str | None = None
    origin: tuple[int, int] | None = None
    target: tuple[int, int] | None = None
    completes_tree: bool = False

    def canonical(self) -> dict[str, Any]:
        if self.card is None:
            return {"player": self.player, "cannot_play": True}
        return {"player": self.player, "card": self.card, "side": self.side, "piece": self.piece}


class ThreeHigh(Game):
    """3-High: a cooperative game of moving Treehouse pieces with cards to build five trees."""

    name = "three-high"
    title = "3-High"
    min_players = 1
    max_players = 4
    cooperative = True
    has_points = False

    def __init__(self, players: Sequence[str]):
        super().__init__(players)
        #: square → pieces, bottom first
        self.stacks: dict[tuple[int, int], list[str]] = {}
        #: piece → its square (a piece moved off the board is no longer here)
        self.where: dict[str, tuple[int, int]] = {}
        #: colours whose tree stands
        self.tree_colours: set[str] = set()
        hand = HAND_SIZES.get(len(players), 0)
        self.hands: list[int] = [hand] * len(players)
        self.pile: int = DECK_SIZE - hand * len(players)
        #: the setup as read: (piece, square) in the order the pieces were placed
        self.setup_pieces: tuple[tuple[str, tuple[int, int]], ...] = ()
        self.played: list[str] = []
        self._played: set[str] = set()
        self.turn: int = 0  # index of the player whose turn it is
        self.outcome: str | None = None  # "won" | "lost" | None
        self.reason: str | None = None

    # --- setup -------------------------------------------------------------------------------

    @classmethod
    def from_setup(cls, players: Sequence[str], setup: Any) -> ThreeHigh:
        """Place the 15 pieces in the order the setup lists them.

        "Pour chaque pièce, en commençant par les grandes pour terminer par les petites, tirez
        une carte rouge et une noire, et posez la pièce sur la case correspondante … Si une pièce
        doit partager une case avec une autre, posez-la dessus." gamelog.md §7: "The setup lists
        15 entries, each piece once, sizes non-increasing; any stacking is allowed there. …
        Five trees already standing in the setup win before any move."
        """
        game = cls(players)
        if not isinstance(setup, dict) or not isinstance(setup.get("pieces"), list):
            raise SetupError("three-high.setup_shape")
        entries = setup["pieces"]
        if len(entries) != len(PIECES):
            raise SetupError("three-high.setup_count", number=len(entries))
        previous_size = 3
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise SetupError("three-high.setup_entry", entry=index)
            piece = norm(entry.get("piece"))
            if piece not in PIECES:
                raise SetupError(
                    "three-high.setup_not_piece", entry=index, value=entry.get("piece")
                )
            if piece in game.where:
                raise SetupError("three-high.setup_twice", entry=index, piece=piece)
            size = PIECES[piece][1]
            if size > previous_size:
                raise SetupError("three-high.setup_order", entry=index, piece=piece)
            previous_size = size
            cell = SQUARES.get(norm(entry.get("square")) or "")
            if cell is None:
                raise SetupError(
                    "three-high.setup_not_square",
                    entry=index,
                    value=entry.get("square"),
                    piece=piece,
                )
            game.stacks.setdefault(cell, []).append(piece)
            game.where[piece] = cell
        game.setup_pieces = tuple((piece, cell) for piece, cell in game.where.items())
        game.tree_colours = game._scan_trees()
        if len(game.tree_colours) == len(COLOURS):
            game.outcome, game.reason = "won", WON_REASON
        return game

    def canonical_setup(self) -> dict[str, Any]:
        return {
            "pieces": [
                {"piece": piece, "square": SQUARE_NAMES[cell]} for piece, cell in self.setup_pieces
            ]
        }

    # --- queries a UI needs (cheap, never mutate) --------------------------------------------

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def to_play(self) -> str | None:
        """The player whose turn it is ("players play in seat order starting with players[0]")."""
        return None if self.finished else self.players[self.turn]

    def trees(self) -> list[str]:
        """The colours whose tree stands: "a small on a medium on a large of one colour, stacked
        directly", anywhere in a stack."""
        return [colour for colour in COLOURS if colour in self.tree_colours]

    def top_pieces(self) -> dict[str, str]:
        """Square → the piece on top of its stack: "only the top piece of a stack may move"."""
        return {SQUARE_NAMES[cell]: stack[-1] for cell, stack in sorted(self.stacks.items())}

    def destination(self, card: Any, side: Any, piece: Any) -> str | None:
        """The square the piece would reach with this card laid by this side (None: off the
        board), without checking whose turn it is or whether it may stop there.

        "n = card value − piece size squares toward the side, or |n| squares away from it when n
        is negative; a diamond moves exactly its value toward the side, whatever the size."
        Raises ``IllegalMove`` when the card, side or piece cannot be read or is not on the board.
        """
        parsed = self._read_card(card)
        step = SIDES[self._read_side(side)]
        name = self._read_piece(piece)
        return _cell_name(self._target(parsed, step, name))

    def options(self) -> dict[str, Any]:
        """What the player to play may do now (``Game.options``), ``{}`` once the game is over::

            {"player": "Ana",
             "cannot_play": true,
             "cards": {"AS": {"north": {"red-3": "b3", "green-1": null, ...}, "south": {...}, ...},
                       "5D": {...}, ...}}

        - ``player``: whose turn it is, the move's ``"player"``; nobody else may play.
        - ``cannot_play``: ``true`` — the player may always record that they cannot play (the
          team loses); with no card left in their hand it is all they may record, and ``cards``
          is empty.
        - ``cards``: every card not played yet (as the deck lists them, ace to 8 of spades,
          hearts, diamonds, clubs), then each side it may be laid by (north, south, east,
          west), then each piece on top of a stack (large to small, colour by colour) that may
          move so, with the square it would stop on: its own square for a move of 0, or
          ``null`` when it would leave the board — a legal move, that loses the game. A move
          that would stop on any other piece than its own colour one size larger is illegal
          and is not listed; a side (a card) with no such move is left out.

        Derived from the rules plan applies: where the piece goes is ``_target`` and whether it
        may stop there ``_blocker``, both of which judge a move.
        """
        if self.finished:
            return {}
        seat = self.turn
        cards: dict[str, dict[str, dict[str, str | None]]] = {}
        if self.hands[seat]:  # "a player with no card left at their turn must record it"
            tops = {stack[-1] for stack in self.stacks.values()}
            # each piece on top (large to small, colour by colour), read once for every card
            # and side: where it stands, its size, and the one piece it may stop on (_blocker:
            # its own colour one size larger)
            movable = [
                (piece, self.where[piece], size, f"{colour}-{size + 1}")
                for piece, (colour, size) in PIECES.items()
                if piece in tops
            ]
            # A card moves a piece by its value, and a diamond whatever the piece's size (_target):
            # the cards of one value and of the same kind (a diamond or not) move the same.
            moved: dict[tuple[int, bool], dict[str, dict[str, str | None]]] = {}
            for card in CARDS.values():
                if card[0] not in self._played:  # "no card is played twice"
                    kind = (card[1], card[2] == "d")
                    if kind not in moved:
                        moved[kind] = self._moves_of(card, movable)
                    if moved[kind]:
                        cards[card[0]] = {side: dict(moves) for side, moves in moved[kind].items()}
        return {"player": self.players[seat], "cannot_play": True, "cards": cards}

    def _moves_of(
        self, card: tuple[str, int, str], pieces: list[tuple[str, tuple[int, int], int, str]]
    ) -> dict[str, dict[str, str | None]]:
        """For ``options``: each side and each of ``pieces`` (the piece, its square, its size,
        the piece it may stop on) that may move by it with ``card``, and the square it would
        stop on (None: off the board).

        The rules of ``_target`` and ``_blocker``, worked out here for some 750 cards × sides ×
        pieces a position without a call for each (issue 32); test_options_three_high checks
        them against every move ``check`` accepts."""
        _, value, suit = card
        diamond = suit == "d"
        stacks = self.stacks
        sides: dict[str, dict[str, str | None]] = {}
        for side, (file_step, rank_step) in SIDES.items():
            moves: dict[str, str | None] = {}
            for piece, origin, size, larger in pieces:
                # _target: "n = card value − piece size …; a diamond moves exactly its value"
                n = value if diamond else value - size
                target = (origin[0] + file_step * n, origin[1] + rank_step * n)
                name = SQUARE_NAMES.get(target)  # None: off the board, a legal move
                if name is not None and target != origin:
                    # _blocker: "an empty square or the piece of its own colour one size larger"
                    below = stacks.get(target)
                    if below and below[-1] != larger:
                        continue
                moves[piece] = name
            if moves:
                sides[side] = moves
        return sides

    # --- playing -----------------------------------------------------------------------------

    def plan(self, move: Any) -> Turn:
        """Validate a move completely and work out what it does, changing nothing: whose turn,
        then ``cannot_play`` or the card, the side and the piece."""
        if not isinstance(move, dict):
            raise IllegalMove("three-high.move_shape")
        player = move.get("player")
        if not isinstance(player, str) or player not in self.players:
            raise IllegalMove("three-high.not_player", value=player, players=list(self.players))
        seat = self.players.index(player)
        if seat != self.turn:
            raise IllegalMove(
                "three-high.not_your_turn", player_turn=self.players[self.turn], player=player
            )
        cannot_play = move.get("cannot_play")
        if cannot_play is True:
            # "from the player whose turn it is … accepted whatever their hand size"
            if any(move.get(key) is not None for key in ("card", "side", "piece")):
                raise IllegalMove("three-high.cannot_play_and_card", player=player)
            return Turn(seat=seat, player=player)
        if cannot_play is not None and cannot_play is not False:
            raise IllegalMove("three-high.cannot_play_value", value=cannot_play)
        return self._plan_card(seat, player, move)

    def _plan_card(self, seat: int, player: str, move: dict[str, Any]) -> Turn:
        """A card laid by a side moves a piece: where it stops, and whether it completes a tree."""
        # "A player whose hand is empty at their turn must record cannot_play."
        if self.hands[seat] == 0:
            raise IllegalMove("three-high.empty_hand", player=player)
        card = self._read_card(move.get("card"))
        # Hands are not recorded and the setup cards are shuffled back before the deal, so any
        # card not played yet may be in this player's hand: "no card is played twice" is the
        # only identity check (docs/gamelog.md §7).
        if card[0] in self._played:
            raise IllegalMove("three-high.played_twice", card=card[0])
        side = self._read_side(move.get("side"))
        piece = self._read_piece(move.get("piece"))
        origin = self.where[piece]
        stack = self.stacks[origin]
        if stack[-1] != piece:
            above = stack[stack.index(piece) + 1]
            raise IllegalMove(
                "three-high.under", piece=piece, piece_above=above, square=SQUARE_NAMES[origin]
            )
        target = self._target(card, SIDES[side], piece)
        blocker = self._blocker(piece, target)
        if blocker is not None:
            raise IllegalMove(
                "three-high.cannot_stop",
                piece=piece,
                piece_below=blocker,
                square=_cell_name(target),
            )
        completes = False
        if target is not None and target != origin and (below := self.stacks.get(target)):
            # "the moved small lands on its medium standing on its large" (it may stop on its
            # medium: _blocker)
            colour, size = PIECES[piece]
            completes = size == 1 and len(below) >= 2 and below[-2] == f"{colour}-3"
        return Turn(seat, player, card[0], side, piece, origin, target, completes)

    def _blocker(self, piece: str, target: tuple[int, int] | None) -> str | None:
        """The piece that ``piece`` may not stop on at ``target``, or None when it may stop
        there: "it must stop on an empty square or on top of the piece of its own colour exactly
        one size larger". Leaving the board (``target`` None) or staying put stops on nothing.

        The one statement of where a piece may stop: ``plan`` and ``options`` both ask it."""
        if target is None or target == self.where[piece]:
            return None
        below = self.stacks.get(target)
        if not below:
            return None
        colour, size = PIECES[piece]
        return None if PIECES[below[-1]] == (colour, size + 1) else below[-1]

    def commit(self, plan: Turn) -> None:
        """Carry out a validated move: move the piece, then draw or not, then end or pass."""
        if plan.card is None:
            # "… records that they cannot play a card: the game is lost"
            self._end("lost", f"{plan.player} could not play a card")
            return
        self.hands[plan.seat] -= 1
        self.played.append(plan.card)
        self._played.add(plan.card)
        piece = plan.piece
        assert piece is not None and plan.origin is not None
        if plan.target != plan.origin:
            self._lift(piece, plan.origin)
            if plan.target is None:
                # "A piece that would leave the board is moved off: the game is lost at once."
                # "A piece moved off the board leaves details.board; no card is drawn."
                self._end("lost", f"{piece} was moved off the board")
                return
            self.stacks.setdefault(plan.target, []).append(piece)
            self.where[piece] = plan.target
        if plan.completes_tree:
            # "If the move completes a tree, the player does not draw (their hand is one card
            # smaller for the rest of the game)." "Won as soon as all five trees stand."
            self.tree_colours.add(PIECES[piece][0])
            if len(self.tree_colours) == len(COLOURS):
                self._end("won", WON_REASON)
                return
        else:
            # "otherwise they draw one card. Drawing the last card of the pile loses the game."
            self.hands[plan.seat] += 1
            self.pile -= 1
            if self.pile == 0:
                self._end("lost", LAST_DRAW_REASON)
                return
        self.turn = (self.turn + 1) % len(self.players)

    def _lift(self, piece: str, cell: tuple[int, int]) -> None:
        """Take the top piece off its stack; a small leaving its medium on its large breaks
        that tree."""
        stack = self.stacks[cell]
        stack.pop()
        colour, size = PIECES[piece]
        if size == 1 and stack[-2:] == [f"{colour}-3", f"{colour}-2"]:
            self.tree_colours.discard(colour)
        if not stack:
            del self.stacks[cell]
        del self.where[piece]

    def _end(self, outcome: str, reason: str) -> None:
        self.outcome, self.reason = outcome, reason

    # --- reading a move ----------------------------------------------------------------------

    @staticmethod
    def _read_card(value: Any) -> tuple[str, int, str]:
        card = parse_card(value)
        if card is None:
            raise IllegalMove("three-high.not_card", value=value)
        return card

    @staticmethod
    def _read_side(value: Any) -> str:
        """The side's name (a key of ``SIDES``)."""
        side = norm(value) or ""
        if side not in SIDES:
            raise IllegalMove("three-high.not_side", value=value)
        return side

    def _read_piece(self, value: Any) -> str:
        piece = norm(value)
        if piece not in PIECES:
            raise IllegalMove("three-high.not_piece", value=value)
        if piece not in self.where:
            raise IllegalMove("three-high.off_board", piece=piece)
        return piece

    def _target(
        self, card: tuple[str, int, str], step: tuple[int, int], piece: str
    ) -> tuple[int, int] | None:
        """Where the piece stops, or None when it would leave the board.

        "n = card value − piece size squares toward the side, or |n| squares away from it when n
        is negative; a diamond moves exactly its value toward the side, whatever the size.
        n = 0 is legal (the piece stays)."
        """
        _, value, suit = card
        n = value if suit == "d" else value - PIECES[piece][1]
        file, rank = self.where[piece]
        file += step[0] * n
        rank += step[1] * n
        if 0 <= file < 8 and 0 <= rank < 8:
            return (file, rank)
        return None

    def _scan_trees(self) -> set[str]:
        """Every colour with its large, medium and small stacked directly, anywhere in a stack."""
        found = set()
        for stack in self.stacks.values():
            for i in range(len(stack) - 2):
                colour = PIECES[stack[i]][0]
                if stack[i : i + 3] == [f"{colour}-3", f"{colour}-2", f"{colour}-1"]:
                    found.add(colour)
        return found

    # --- results -----------------------------------------------------------------------------

    def scores(self) -> dict[str, int]:
        """ "scores = trees standing, the same for every player" """
        standing = len(self.tree_colours)
        return {player: standing for player in self.players}

    def winners(self) -> list[str]:
        """ "Winners: all players on a win, none on a loss." """
        return list(self.players) if self.outcome == "won" else []

    def details(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "reason": self.reason,
            "board": {
                SQUARE_NAMES[cell]: list(stack) for cell, stack in sorted(self.stacks.items())
            },
            "pile": self.pile,
            "hands": dict(zip(self.players, self.hands, strict=True)),
            "trees": self.trees(),
            "played": list(self.played),
            "to_play": self.to_play,
        }


GAME = ThreeHigh
