"""Punto (Bernhard Weber; 2–4 players), as docs/gamelog.md §5 rules it.

72 cards: four colours, values 1–9, each twice. Players take turns in seat order, each playing
the card they have just drawn next to a card on the table or on top of a card of strictly lower
value, inside a floating 6 × 6 box. A round is won by N cards of one of the player's own colours
in a row, column or diagonal (N = 5 for 2 players, 4 for 3 or 4), or, when a player records that
their card has no legal cell, by counting series. The first player to win 2 rounds wins the match.

Rulings this engine applies where docs/gamelog.md §5 leaves a detail open:

- *Segment / series.* A segment is a maximal run of consecutive cells along one of the four
  line directions (a row, a column, the diagonal where column and row grow together, the
  diagonal where the column grows as the row shrinks) whose visible top cards all have the same
  colour. "Maximal" is per direction: a segment cannot be extended at either end in that
  direction, so a run of 4 is one segment, never two overlapping runs of 3. The same card may
  belong to several segments, one per direction. An empty cell or a card of another colour
  ends a segment. In a blocked round a series is such a segment in one of the player's own
  colours (never the neutral one) of at least N − 1 cards; each direction's segment counts on
  its own.
- *A blocked move* is only possible once the table holds a card: the first card of a round
  goes anywhere, so it always has a legal cell. A blocked move names no cell; a move carrying
  both ``"blocked": true`` and a cell is illegal. ``"blocked": false`` means an ordinary move.
- *The drawn card of a blocked move* is not placed and does not count against the copies of
  the round (the round ends with it).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .base import (
    Game,
    IllegalMove,
    Plan,
    SetupError,
    cell_text,
    describe,
    expect_cell,
    expect_dict,
    expect_player,
    norm,
)

COLOURS = ("red", "orange", "blue", "green")
VALUES = range(1, 10)
COPIES = 2  # each colour and value is printed twice
BOX = 6  # the cards stay inside a 6 × 6 grid
ROUNDS_TO_WIN = 2

#: the four line directions: row, column, diagonal, anti-diagonal
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
NEIGHBOURS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)

Card = tuple[str, int]  # (colour, value)
Cell = tuple[int, int]  # (column, row)


def card_name(card: Card) -> str:
    """A card's canonical name: ``"red-7"``."""
    return f"{card[0]}-{card[1]}"


_CARDS: dict[str, Card] = {f"{c}-{v}": (c, v) for c in COLOURS for v in VALUES}


def parse_card(value: Any) -> Card | None:
    """A card written ``"red-7"`` (colour and value, matched case-insensitively, §1, §5) as its
    (colour, value), or None."""
    card = _CARDS.get(value) if isinstance(value, str) else None
    if card is not None:
        return card
    text = norm(value)
    if text is not None and text.count("-") == 1:
        colour, number = (part.strip() for part in text.split("-"))
        if colour in COLOURS and len(number) == 1 and number in "123456789":
            return colour, int(number)
    return None


def _read_card(value: Any) -> Card:
    """``parse_card``, or ``IllegalMove`` saying how a card is written."""
    card = parse_card(value)
    if card is None:
        raise IllegalMove(
            f"{describe(value)} is not a Punto card: write a colour (red, orange, blue, green) "
            'and a value from 1 to 9, like "red-7"'
        )
    return card


@dataclass(slots=True)
class CardPlay(Plan):
    """A legal move: the card its player has just drawn, and the cell it goes to, or None when
    it is blocked (no legal cell: the round ends)."""

    player: str
    card: Card
    cell: Cell | None

    def canonical(self) -> dict[str, Any]:
        move: dict[str, Any] = {"player": self.player, "card": card_name(self.card)}
        if self.cell is None:
            move["blocked"] = True
        else:
            move["at"] = [self.cell[0], self.cell[1]]
        return move


def _read_colours(players: Sequence[str], given: Any) -> dict[str, tuple[str, ...]]:
    """Each player's colours, in the order the setup lists them (see ``Punto.from_setup``)."""
    if not isinstance(given, dict):
        raise SetupError('the setup must give each player\'s colours in "colours"')
    for key in given:
        if key not in players:
            raise SetupError(
                f"colours are given for {describe(key)}, who is not one of the players "
                f"({', '.join(players)})"
            )
    each = 2 if len(players) == 2 else 1
    wanted = "two colours" if each == 2 else "one colour"
    colours: dict[str, tuple[str, ...]] = {}
    taken: dict[str, str] = {}
    for player in players:
        if player not in given:
            raise SetupError(f"the setup gives no colours for {player}")
        names = given[player]
        if not isinstance(names, list) or len(names) != each:
            if isinstance(names, list):
                has = f"{len(names)} colour{'' if len(names) == 1 else 's'}"
            else:
                has = describe(names)
            raise SetupError(
                f"with {len(players)} players each player holds {wanted} (a list of "
                f"colour names): {player} has {has}"
            )
        own = []
        for name in names:
            colour = norm(name)
            if colour not in COLOURS:
                raise SetupError(
                    f"{describe(name)} is not a Punto colour (red, orange, blue, green)"
                )
            if taken.get(colour) == player:
                raise SetupError(f"{player} is given {colour} twice")
            if colour in taken:
                raise SetupError(
                    f"{colour} is given twice ({taken[colour]} and {player}): "
                    "every colour belongs to one player at most"
                )
            taken[colour] = player
            own.append(colour)
        colours[player] = tuple(own)
    return colours


def _names(colours: Sequence[str]) -> str:
    return " and ".join(colours)


class Punto(Game):
    name = "punto"
    title = "Punto"
    min_players = 2
    max_players = 4
    cooperative = False
    has_points = False

    def __init__(self, players: Sequence[str], colours: dict[str, tuple[str, ...]]):
        super().__init__(players)
        #: each player's own colours, in the order the setup lists them
        self.colours: dict[str, tuple[str, ...]] = colours
        self.owner: dict[str, str] = {c: p for p, cs in colours.items() for c in cs}
        #: the neutral colour (3 players only): anyone may play it, it never wins
        self.neutral: str | None = next((c for c in COLOURS if c not in self.owner), None)
        #: cards in a row that win a round
        self.line = 5 if len(players) == 2 else 4
        #: round wins that end the match
        self.rounds_to_win = ROUNDS_TO_WIN
        self.wins: dict[str, int] = dict.fromkeys(self.players, 0)
        self.rounds: list[dict[str, Any]] = []
        #: copies removed from the game by round winners, in the order they were removed
        self.removed: list[Card] = []
        self._removed_count: dict[Card, int] = {}
        self.round = 1
        self._starter = 0  # seat index of the player who started the current round
        self._turn = 0  # seat index of the player to play
        self._over = False
        # The current round: visible top cards (covered cards never matter again), the copies
        # played this round, and the bounding box of the table.
        self.board: dict[Cell, Card] = {}
        self._played: dict[Card, int] = {}
        self._box: tuple[int, int, int, int] | None = None  # min x, max x, min y, max y
        #: the visible table at the end of the last completed round (for the score sheet)
        self.last_round_board: dict[Cell, Card] = {}

    # ------------------------------------------------------------------ setup

    @classmethod
    def from_setup(cls, players: Sequence[str], setup: Any) -> Punto:
        """``{"colours": {player: [colour, ...]}}``: "2 players hold two colours each; 3 or 4
        players one colour each, all distinct. With 3 players the fourth colour is neutral."
        """
        setup = expect_dict(setup, "the setup", SetupError)
        return cls(players, _read_colours(players, setup.get("colours")))

    def canonical_setup(self) -> dict[str, Any]:
        return {"colours": {player: list(self.colours[player]) for player in self.players}}

    # ------------------------------------------------------------------ queries

    @property
    def finished(self) -> bool:
        return self._over

    @property
    def to_play(self) -> str | None:
        """ "Players play in seat order": whose turn it is (None once the match has ended)."""
        return None if self._over else self.players[self._turn]

    def playable_colours(self, player: str) -> tuple[str, ...]:
        """ "The card's colour must be one of the player's colours (or neutral)"."""
        own = self.colours[player]
        return own + (self.neutral,) if self.neutral else own

    def cards_left(self, colour: str, value: int) -> int:
        """Copies of a card that may still be played this round: "A card (colour and value) is
        played at most twice per round, and once less for each copy removed by an earlier
        round's winner."
        """
        card = (colour, value)
        return COPIES - self._removed_count.get(card, 0) - self._played.get(card, 0)

    def legal_cells(self, card: str | Card) -> list[Cell] | None:
        """Every cell where ``card`` (a name like ``"red-7"`` or a (colour, value) pair) may be
        played now, sorted by row then column; ``None`` on an empty table, where "the first card
        of a round goes anywhere". Whose card it is, and copies, are not checked here.
        """
        value = _read_card(card)[1] if isinstance(card, str) else card[1]
        if not self.board:
            return None
        return sorted(self._legal_cells(value), key=lambda c: (c[1], c[0]))

    def grid(self) -> tuple[Cell | None, list[list[str | None]]]:
        """The visible table as rows (ascending row index) of card names or None, with the
        cell of the top-left corner of the grid (None and [] on an empty table).
        """
        if self._box is None:
            return None, []
        x0, x1, y0, y1 = self._box
        rows = [
            [
                card_name(self.board[(x, y)]) if (x, y) in self.board else None
                for x in range(x0, x1 + 1)
            ]
            for y in range(y0, y1 + 1)
        ]
        return (x0, y0), rows

    def scores(self) -> dict[str, int]:
        """ "``scores`` = rounds won"."""
        return dict(self.wins)

    def winners(self) -> list[str]:
        """ "The game ends when a player has won 2 rounds. Winners: that player"."""
        return [p for p in self.players if self.wins[p] >= self.rounds_to_win]

    def details(self) -> dict[str, Any]:
        """``rounds`` exactly as §5, plus the state a score sheet shows."""
        return {
            "rounds": [dict(r) for r in self.rounds],
            "round": self.round,
            "to_play": self.to_play,
            "colours": {p: list(cs) for p, cs in self.colours.items()},
            "neutral": self.neutral,
            "line": self.line,
            "board": _board_json(self.board),
            "last_round_board": _board_json(self.last_round_board),
            "removed": [card_name(c) for c in self.removed],
        }

    # ------------------------------------------------------------------ moves

    def plan(self, move: Any) -> CardPlay:
        """``{"player": P, "card": "red-7", "at": [x, y]}`` or
        ``{"player": P, "card": "green-9", "blocked": true}``: whose turn, the card, then the cell
        (or that no cell is legal)."""
        move = expect_dict(move, "a move")
        player = expect_player(move.get("player"), self.players, "the player")
        if player != self.players[self._turn]:
            raise IllegalMove(f"it is {self.players[self._turn]}'s turn, not {player}'s")
        if "card" not in move:
            raise IllegalMove('a move must name the card drawn, like "card": "red-7"')
        card = _read_card(move["card"])
        self._check_card(player, card)
        blocked = move.get("blocked", False)
        if not isinstance(blocked, bool):
            raise IllegalMove(f'"blocked" must be true or false, not {describe(blocked)}')
        if blocked:
            if move.get("at") is not None:
                raise IllegalMove(
                    "a blocked move records that the card has no legal cell: it cannot name one"
                )
            self._check_blocked(card)
            return CardPlay(player=player, card=card, cell=None)
        if "at" not in move:
            raise IllegalMove(
                'a move must say where the card goes ("at": [column, row]) or that it is blocked'
            )
        cell = expect_cell(move["at"], 'the cell "at"')
        self._check_cell(card, cell)
        return CardPlay(player=player, card=card, cell=cell)

    def commit(self, play: CardPlay) -> None:
        """Place the card (a round may be won by a line), or end the round by counting series
        when it is blocked."""
        if play.cell is None:
            self._end_blocked_round()
        else:
            self._place(play.player, play.card, play.cell)

    def _check_card(self, player: str, card: Card) -> None:
        """Own or neutral colour, and a copy left this round (§5)."""
        colour, value = card
        if colour not in self.colours[player] and colour != self.neutral:
            plays = _names(self.colours[player])
            if self.neutral:
                plays += f" (or the neutral {self.neutral})"
            raise IllegalMove(
                f"{player} plays {plays}, not {colour}: {card_name(card)} is not theirs"
            )
        removed = self._removed_count.get(card, 0)
        if removed >= COPIES:
            raise IllegalMove(
                f"both copies of {card_name(card)} were removed from the game by round winners"
            )
        played = self._played.get(card, 0)
        if played + removed >= COPIES:
            why = (
                "both copies are already played this round"
                if not removed
                else "its other copy was removed from the game by a round winner"
            )
            raise IllegalMove(f"{card_name(card)} cannot be played again this round: {why}")

    def _check_cell(self, card: Card, cell: Cell) -> None:
        """ "The first card of a round goes anywhere. Later cards go on an empty cell touching a
        card orthogonally or diagonally, or on top of a visible card of strictly lower value (any
        colour). The bounding box of the cards never exceeds 6 × 6."
        """
        if not self.board:
            return
        name = card_name(card)
        below = self.board.get(cell)
        if below is not None:
            if below[1] >= card[1]:
                raise IllegalMove(
                    f"{name} cannot cover {card_name(below)} at {cell_text(cell)}: a card covers "
                    "only a card of strictly lower value"
                )
            return  # covering never widens the box
        x, y = cell
        if not any((x + dx, y + dy) in self.board for dx, dy in NEIGHBOURS):
            raise IllegalMove(
                f"{name} cannot go at {cell_text(cell)}: it must touch a card on the table "
                "(orthogonally or diagonally) or cover one"
            )
        x0, x1, y0, y1 = self._box  # type: ignore[misc]
        width = max(x1, x) - min(x0, x) + 1
        height = max(y1, y) - min(y0, y) + 1
        if width > BOX:
            raise IllegalMove(
                f"{name} cannot go at {cell_text(cell)}: the cards would be {width} columns wide "
                f"(at most {BOX})"
            )
        if height > BOX:
            raise IllegalMove(
                f"{name} cannot go at {cell_text(cell)}: the cards would be {height} rows high "
                f"(at most {BOX})"
            )

    def _legal_cells(self, value: int) -> Iterator[Cell]:
        """The cells of a non-empty table where a card of ``value`` may go (§5)."""
        board = self.board
        x0, x1, y0, y1 = self._box  # type: ignore[misc]
        for cell, top in board.items():
            if top[1] < value:
                yield cell
        seen: set[Cell] = set()
        for x, y in board:
            for dx, dy in NEIGHBOURS:
                cell = (x + dx, y + dy)
                if cell in board or cell in seen:
                    continue
                seen.add(cell)
                nx, ny = cell
                if max(x1, nx) - min(x0, nx) < BOX and max(y1, ny) - min(y0, ny) < BOX:
                    yield cell

    def _check_blocked(self, card: Card) -> None:
        """ "Blocked ... it is illegal if a legal cell exists"."""
        name = card_name(card)
        if not self.board:
            raise IllegalMove(f"{name} is not blocked: the first card of a round goes anywhere")
        cell = next(self._legal_cells(card[1]), None)
        if cell is not None:
            raise IllegalMove(f"{name} is not blocked: it can go at {cell_text(cell)}")

    # ------------------------------------------------------------------ changes (cannot fail)

    def _place(self, player: str, card: Card, cell: Cell) -> None:
        """Put the card on the table, then look for a winning line: "after a play, its player has
        N cards of one of their own colours (visible, top cards) consecutive in a row, column or
        diagonal ... Two-player lines are single-coloured."
        """
        self.board[cell] = card
        self._played[card] = self._played.get(card, 0) + 1
        x, y = cell
        if self._box is None:
            self._box = (x, x, y, y)
        else:
            x0, x1, y0, y1 = self._box
            self._box = (min(x0, x), max(x1, x), min(y0, y), max(y1, y))
        colour = card[0]
        if self.owner.get(colour) != player:
            # a neutral card never wins, and no other line can appear: the only new visible
            # card is this one
            self._next_turn()
            return
        highest = 0
        for dx, dy in DIRECTIONS:
            run = self._segment(cell, dx, dy)
            if len(run) >= self.line:
                highest = max(highest, *(v for _, v in run))
        if highest:
            # "The winner removes ... the highest-valued card of the winning segment (if several
            # segments reach N, the highest card among them)"
            self._end_round(player, "line", (colour, highest))
        else:
            self._next_turn()

    def _segment(self, cell: Cell, dx: int, dy: int) -> list[Card]:
        """The cards of the maximal run of the colour at ``cell`` through it along (dx, dy)."""
        board = self.board
        colour = board[cell][0]
        run = [board[cell]]
        for sx, sy in ((dx, dy), (-dx, -dy)):
            x, y = cell[0] + sx, cell[1] + sy
            while (top := board.get((x, y))) is not None and top[0] == colour:
                run.append(top)
                x, y = x + sx, y + sy
        return run

    def series(self) -> dict[str, list[list[Card]]]:
        """Each player's series on the table now: "maximal single-coloured segments, in their own
        colours, of at least N−1 cards". Segments are maximal per direction (module docstring).
        """
        board = self.board
        found: dict[str, list[list[Card]]] = {p: [] for p in self.players}
        for (x, y), (colour, _) in board.items():
            owner = self.owner.get(colour)
            if owner is None:
                continue
            for dx, dy in DIRECTIONS:
                before = board.get((x - dx, y - dy))
                if before is not None and before[0] == colour:
                    continue  # not the start of the segment
                cards = []
                cx, cy = x, y
                while (top := board.get((cx, cy))) is not None and top[0] == colour:
                    cards.append(top)
                    cx, cy = cx + dx, cy + dy
                if len(cards) >= self.line - 1:
                    found[owner].append(cards)
        return found

    def _end_blocked_round(self) -> None:
        """ "Most series wins; tie → among the tied, the player whose lowest-valued series (sum of
        its cards) is lowest wins; still tied → the round has no winner; nobody with a series → no
        winner. The winner removes the highest card of their lowest-valued series (if several
        series share that lowest sum, the highest card among them; equal values in two colours:
        the colour listed first in the setup)."
        """
        found = self.series()
        most = max(len(s) for s in found.values())
        winner: str | None = None
        removed: Card | None = None
        if most:
            tied = [p for p in self.players if len(found[p]) == most]
            lowest = {p: min(sum(v for _, v in s) for s in found[p]) for p in tied}
            best = min(lowest.values())
            leaders = [p for p in tied if lowest[p] == best]
            if len(leaders) == 1:
                winner = leaders[0]
                cards = [c for s in found[winner] if sum(v for _, v in s) == best for c in s]
                top = max(v for _, v in cards)
                order = self.colours[winner]
                colour = min((c for c, v in cards if v == top), key=order.index)
                removed = (colour, top)
        self._end_round(winner, "blocked", removed)

    def _end_round(self, winner: str | None, how: str, removed: Card | None) -> None:
        """Record the round; "each later round starts with the player left of the previous
        round's winner (after a round with no winner, with the player left of the one who started
        it)". "The game ends when a player has won 2 rounds."
        """
        self.rounds.append(
            {"winner": winner, "how": how, "removed": card_name(removed) if removed else None}
        )
        if removed is not None:
            self.removed.append(removed)
            self._removed_count[removed] = self._removed_count.get(removed, 0) + 1
        self.last_round_board = self.board
        self.board = {}
        self._played = {}
        self._box = None
        n = len(self.players)
        if winner is not None:
            self.wins[winner] += 1
            if self.wins[winner] >= self.rounds_to_win:
                self._over = True
                return
            self._starter = (self.players.index(winner) + 1) % n
        else:
            self._starter = (self._starter + 1) % n
        self._turn = self._starter
        self.round += 1

    def _next_turn(self) -> None:
        self._turn = (self._turn + 1) % len(self.players)


def _board_json(board: dict[Cell, Card]) -> dict[str, str]:
    """Visible top cards keyed ``"x,y"``, by row then column."""
    return {
        f"{x},{y}": card_name(board[(x, y)]) for x, y in sorted(board, key=lambda c: (c[1], c[0]))
    }


GAME = Punto
