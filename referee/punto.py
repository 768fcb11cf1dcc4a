"""Punto (Bernhard Weber; 2–4 players), as docs/gamelog.md §5 rules it.

72 cards: four colours, values 1–9, each twice. Players take turns in seat order, each playing
the card they have just drawn next to a card on the table or on top of a card of strictly lower
value, inside a floating 6 × 6 box. A round is won by N cards of one of the player's own colours
in a row, column or diagonal (N = 5 for 2 players, 4 for 3 or 4), or, when a player records that
their card has no legal cell, by counting series. The first player to win 2 rounds wins the match.

The sheet's two variants are optional setup fields: ``rounds_to_win`` (another number of rounds,
1 to 5) and ``teams`` (four players as two teams of two partners seated opposite, each team
holding two colours and needing 5 in a row). The engine plays both through *sides*: a side is a
player on their own, or a team; colours, lines, series and round wins belong to a side, and a
round's ``winner`` is still the player who played the deciding card.

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
- *A variant named is a variant played.* ``"rounds_to_win"`` or ``"teams"`` present in the setup
  must be valid, ``null`` included: a setup that does not play a variant leaves its field out.
- *Team colours.* Each partner's own list keeps its order in ``details.colours``; only the order
  of the partner named first in ``teams`` decides a blocked round's removal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
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
    expect_player,
    is_int,
    norm,
)
from .messages import gettext_noop as _

COLOURS = ("red", "orange", "blue", "green")
VALUES = range(1, 10)
COPIES = 2  # each colour and value is printed twice
BOX = 6  # the cards stay inside a 6 × 6 grid
ROUNDS_TO_WIN = 2  # "the first player to win 2 rounds", unless the setup agrees on another number
MAX_ROUNDS_TO_WIN = 5
TEAM_LINE = 5  # a team needs 5 in a row, whatever the number of players

#: the four line directions: row, column, diagonal, anti-diagonal
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
NEIGHBOURS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)

define(
    {
        # the setup: the variants
        "punto.rounds_to_win": _(
            '"rounds_to_win" must be a whole number from 1 to {count_max}, not {value}'
        ),
        "punto.teams_for_four": _("team play is for 4 players, not {number}"),
        "punto.teams_shape": _('"teams" must be two teams of two players, like {json}'),
        "punto.what_team_member": _("the team member"),
        "punto.teams_each_once": _("each player must be in exactly one team"),
        "punto.teams_opposite": _(
            "{player} and {player_other} cannot be partners: partners sit opposite each other "
            "({player_seat1} with {player_seat3}, {player_seat2} with {player_seat4})"
        ),
        # the setup: each player's colours
        "punto.setup_no_colours": _('the setup must give each player\'s colours in "colours"'),
        "punto.setup_not_player": _(
            "colours are given for {value}, who is not one of the players ({players})"
        ),
        "punto.setup_colours_missing": _("the setup gives no colours for {player}"),
        "punto.setup_two_colours_1": _(
            "with {count} players each player holds two colours (a list of colour names): "
            "{player} has 1 colour"
        ),
        "punto.setup_two_colours_n": _(
            "with {count} players each player holds two colours (a list of colour names): "
            "{player} has {number} colours"
        ),
        "punto.setup_two_colours_value": _(
            "with {count} players each player holds two colours (a list of colour names): "
            "{player} has {value}"
        ),
        "punto.setup_one_colour_n": _(
            "with {count} players each player holds one colour (a list of colour names): "
            "{player} has {number} colours"
        ),
        "punto.setup_one_colour_value": _(
            "with {count} players each player holds one colour (a list of colour names): "
            "{player} has {value}"
        ),
        "punto.setup_team_colours_1": _(
            "in team play each player lists their team's two colours (a list of colour names): "
            "{player} has 1 colour"
        ),
        "punto.setup_team_colours_n": _(
            "in team play each player lists their team's two colours (a list of colour names): "
            "{player} has {number} colours"
        ),
        "punto.setup_team_colours_value": _(
            "in team play each player lists their team's two colours (a list of colour names): "
            "{player} has {value}"
        ),
        "punto.setup_not_colour": _("{value} is not a Punto colour (red, orange, blue, green)"),
        "punto.setup_own_colour_twice": _("{player} is given {colour} twice"),
        "punto.setup_partners_colours": _(
            "{player_mate} and {player} are partners: both list their team's two colours "
            "({player_mate}: {colours_mate}; {player}: {colours})"
        ),
        "punto.setup_colour_twice": _(
            "{colour} is given twice ({player_first} and {player}): every colour belongs to "
            "one player at most"
        ),
        "punto.setup_colour_twice_team": _(
            "{colour} is given twice ({player_first} and {player}): every colour belongs to "
            "one team at most"
        ),
        # a card played
        "punto.not_card": _(
            "{value} is not a Punto card: write a colour (red, orange, blue, green) "
            'and a value from 1 to 9, like "red-7"'
        ),
        "punto.what_player": _("the player"),
        "punto.not_your_turn": _("it is {player_turn}'s turn, not {player}'s"),
        "punto.no_card": _('a move must name the card drawn, like "card": "red-7"'),
        "punto.blocked_value": _('"blocked" must be true or false, not {value}'),
        "punto.blocked_with_cell": _(
            "a blocked move records that the card has no legal cell: it cannot name one"
        ),
        "punto.no_cell": _(
            'a move must say where the card goes ("at": [column, row]) or that it is blocked'
        ),
        "punto.what_at": _('the cell "at"'),
        "punto.not_own_colour": _("{player} plays {colours}, not {colour}: {card} is not theirs"),
        "punto.not_own_colour_neutral": _(
            "{player} plays {colours} (or the neutral {colour_neutral}), not {colour}: "
            "{card} is not theirs"
        ),
        "punto.not_own_colour_team": _(
            "{player} plays {colours} (their team's colours), not {colour}: {card} is not theirs"
        ),
        "punto.copies_removed": _(
            "both copies of {card} were removed from the game by round winners"
        ),
        "punto.copies_played": _(
            "{card} cannot be played again this round: both copies are already played this round"
        ),
        "punto.copy_removed": _(
            "{card} cannot be played again this round: its other copy was removed from the game "
            "by a round winner"
        ),
        "punto.cannot_cover": _(
            "{card} cannot cover {card_below} at {cell}: a card covers only a card of strictly "
            "lower value"
        ),
        "punto.not_touching": _(
            "{card} cannot go at {cell}: it must touch a card on the table "
            "(orthogonally or diagonally) or cover one"
        ),
        "punto.too_wide": _(
            "{card} cannot go at {cell}: the cards would be {count} columns wide "
            "(at most {count_max})"
        ),
        "punto.too_high": _(
            "{card} cannot go at {cell}: the cards would be {count} rows high (at most {count_max})"
        ),
        "punto.not_blocked_first": _(
            "{card} is not blocked: the first card of a round goes anywhere"
        ),
        "punto.not_blocked": _("{card} is not blocked: it can go at {cell}"),
    }
)

Card = tuple[str, int]  # (colour, value)
Cell = tuple[int, int]  # (column, row)
Teams = tuple[tuple[str, str], tuple[str, str]]  # the teams as the setup names them


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
        raise IllegalMove("punto.not_card", value=value)
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


def _read_rounds_to_win(setup: dict[str, Any]) -> int | None:
    """``"rounds_to_win"``: a JSON integer from 1 to 5, or None when the setup does not say."""
    if "rounds_to_win" not in setup:
        return None
    value = setup["rounds_to_win"]
    if not is_int(value) or not 1 <= value <= MAX_ROUNDS_TO_WIN:
        raise SetupError("punto.rounds_to_win", count_max=MAX_ROUNDS_TO_WIN, value=value)
    return value


def _read_teams(players: Sequence[str], setup: dict[str, Any]) -> Teams | None:
    """``"teams"``: "4 players only ... two teams of two, partners seated opposite
    (``players[0]`` and ``players[2]`` form one team, ``players[1]`` and ``players[3]`` the
    other); the order of the two teams, and of the partners within a team, is free." None when
    the setup does not say."""
    if "teams" not in setup:
        return None
    if len(players) != 4:
        raise SetupError("punto.teams_for_four", number=len(players))
    given = setup["teams"]
    if not (
        isinstance(given, list)
        and len(given) == 2
        and all(isinstance(team, list) and len(team) == 2 for team in given)
    ):
        pairs = [[players[0], players[2]], [players[1], players[3]]]
        raise SetupError("punto.teams_shape", json=pairs)
    for team in given:
        for name in team:
            expect_player(name, players, Message("punto.what_team_member"), SetupError)
    if len({name for team in given for name in team}) != 4:
        raise SetupError("punto.teams_each_once")
    opposite = ({players[0], players[2]}, {players[1], players[3]})
    for first, second in given:
        if {first, second} not in opposite:
            raise SetupError(
                "punto.teams_opposite",
                player=first,
                player_other=second,
                player_seat1=players[0],
                player_seat3=players[2],
                player_seat2=players[1],
                player_seat4=players[3],
            )
    return ((given[0][0], given[0][1]), (given[1][0], given[1][1]))


def _read_colours(
    players: Sequence[str], given: Any, teams: Teams | None = None
) -> dict[str, tuple[str, ...]]:
    """Each player's colours, in the order the setup lists them (see ``Punto.from_setup``)."""
    if not isinstance(given, dict):
        raise SetupError("punto.setup_no_colours")
    for key in given:
        if key not in players:
            raise SetupError("punto.setup_not_player", value=key, players=list(players))
    each = 2 if len(players) == 2 or teams else 1
    partner = {a: b for a, b in teams or ()} | {b: a for a, b in teams or ()}
    colours: dict[str, tuple[str, ...]] = {}
    taken: dict[str, str] = {}
    for player in players:
        if player not in given:
            raise SetupError("punto.setup_colours_missing", player=player)
        names = given[player]
        if not isinstance(names, list) or len(names) != each:
            _wrong_colour_count(len(players), bool(teams), player, names)
        own: list[str] = []
        for name in names:
            colour = norm(name)
            if colour not in COLOURS:
                raise SetupError("punto.setup_not_colour", value=name)
            if colour in own:
                raise SetupError("punto.setup_own_colour_twice", player=player, colour=colour)
            own.append(colour)
        mate = partner.get(player)
        if mate in colours and set(colours[mate]) != set(own):
            raise SetupError(
                "punto.setup_partners_colours",
                player_mate=mate,
                player=player,
                colours_mate=list(colours[mate]),
                colours=own,
            )
        for colour in own:
            holder = taken.setdefault(colour, player)
            if holder != player and holder != mate:
                raise SetupError(
                    "punto.setup_colour_twice_team" if teams else "punto.setup_colour_twice",
                    colour=colour,
                    player_first=holder,
                    player=player,
                )
        colours[player] = tuple(own)
    return colours


def _wrong_colour_count(count: int, teams: bool, player: str, names: Any) -> None:
    """Refuse a player's colours that are not a list of as many colours as they hold."""
    if not isinstance(names, list):
        if teams:
            raise SetupError("punto.setup_team_colours_value", player=player, value=names)
        if count == 2:
            raise SetupError(
                "punto.setup_two_colours_value", count=count, player=player, value=names
            )
        raise SetupError("punto.setup_one_colour_value", count=count, player=player, value=names)
    if len(names) == 1:  # two colours wanted (when one is, one is right)
        if teams:
            raise SetupError("punto.setup_team_colours_1", player=player)
        raise SetupError("punto.setup_two_colours_1", count=count, player=player)
    if teams:
        raise SetupError("punto.setup_team_colours_n", player=player, number=len(names))
    if count == 2:
        raise SetupError("punto.setup_two_colours_n", count=count, player=player, number=len(names))
    raise SetupError("punto.setup_one_colour_n", count=count, player=player, number=len(names))


class Punto(Game):
    name = "punto"
    title = "Punto"
    min_players = 2
    max_players = 4
    cooperative = False
    has_points = False

    def __init__(
        self,
        players: Sequence[str],
        colours: dict[str, tuple[str, ...]],
        teams: Teams | None = None,
        rounds_to_win: int | None = None,
    ):
        super().__init__(players)
        #: each player's own colours, in the order the setup lists them (partners list the same
        #: two, in any order)
        self.colours: dict[str, tuple[str, ...]] = colours
        #: the teams as the setup names them, or None: every player for themselves
        self.teams: Teams | None = teams
        #: who wins rounds together: the teams, or each player alone, in seat order
        self.sides: tuple[tuple[str, ...], ...] = teams or tuple((p,) for p in self.players)
        self.side_of: dict[str, int] = {p: i for i, side in enumerate(self.sides) for p in side}
        #: each side's colours in order: "the order of the partner named first in teams is the
        #: team's colour order", used when a blocked round's removal has to choose a colour
        self.side_colours: tuple[tuple[str, ...], ...] = tuple(
            colours[side[0]] for side in self.sides
        )
        #: the side each colour belongs to
        self.owner: dict[str, int] = {c: i for i, cs in enumerate(self.side_colours) for c in cs}
        #: the neutral colour (3 players only): anyone may play it, it never wins
        self.neutral: str | None = next((c for c in COLOURS if c not in self.owner), None)
        #: cards in a row that win a round
        self.line = TEAM_LINE if teams else 5 if len(players) == 2 else 4
        #: round wins that end the match, and whether the setup said so
        self.rounds_to_win = rounds_to_win or ROUNDS_TO_WIN
        self._rounds_to_win_given = rounds_to_win is not None
        #: rounds won by each player's side (partners have equal scores)
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
        #: the cell of the round's first card (None on an empty table): every cell of the
        #: round lies within 5 columns and 5 rows of it, so a board can name cells from it
        self.first_cell: Cell | None = None
        # Each side's member who played last in the current round (a blocked draw counts).
        self._played_last: dict[int, str] = {}
        #: the visible table at the end of the last completed round (for the score sheet)
        self.last_round_board: dict[Cell, Card] = {}

    # ------------------------------------------------------------------ setup

    @classmethod
    def from_setup(cls, players: Sequence[str], setup: Any) -> Punto:
        """``{"colours": {player: [colour, ...]}}``: "2 players hold two colours each; 3 or 4
        players one colour each, all distinct. With 3 players the fourth colour is neutral."
        Optionally ``"rounds_to_win": N`` and, for 4 players, ``"teams": [[A, C], [B, D]]``:
        "in colours both partners list the same two colours ... and the teams' colours are
        distinct".
        """
        setup = expect_dict(setup, Message("what.setup"), SetupError)
        rounds_to_win = _read_rounds_to_win(setup)
        teams = _read_teams(players, setup)
        colours = _read_colours(players, setup.get("colours"), teams)
        return cls(players, colours, teams, rounds_to_win)

    def canonical_setup(self) -> dict[str, Any]:
        # The variants only when the setup gave them: a log without them stays as it was.
        setup: dict[str, Any] = {
            "colours": {player: list(self.colours[player]) for player in self.players}
        }
        if self.teams:
            setup["teams"] = [list(team) for team in self.teams]
        if self._rounds_to_win_given:
            setup["rounds_to_win"] = self.rounds_to_win
        return setup

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

    def cards_played(self) -> int:
        """The cards played so far this round (a blocked card ends the round unplayed)."""
        return sum(self._played.values())

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

    def options(self) -> dict[str, Any]:
        """What the player to play may do now (``Game.options``), ``{}`` once the match is over::

            {"player": "Ana",
             "cards": {"red-1": [[0, 1], [2, 1]], "red-2": [...], ..., "blue-9": [...]},
             "left": {"red-1": 2, "red-2": 1, ..., "blue-9": 2},
             "blocked": []}

        - ``player``: whose turn it is, the move's ``"player"``; nobody else may play.
        - ``cards``: every card they may have drawn — one of their colours (a partner: the team's
          two) or the neutral one, with a copy left this round — in the order of their colours,
          then by value; with each, the cells ``[column, row]`` where it may go, by row then
          column (``legal_cells``): next to a card or on top of a lower one, inside the 6 × 6 box.
          ``null`` on an empty table: the first card of a round goes anywhere. A card not listed
          (another colour, or no copy left) is refused whatever the cell.
        - ``left``: the copies of each of those cards still playable this round (1 or 2).
        - ``blocked``: the cards that may be recorded ``"blocked": true``, in the order of
          ``cards``: exactly those with no legal cell (their list is empty). Never on an empty
          table.

        Derived from the rules plan applies: ``playable_colours`` and ``cards_left`` are what
        ``_check_card`` asks, and every cell comes from ``_cell_fault``, which judges a move's
        cell and a blocked card.
        """
        if self._over:
            return {}
        player = self.players[self._turn]
        # Every cell a card of some value may go to, in the order offered (by row, then column),
        # sorted once: the empty cells around the cards, the same whatever the card's value, and
        # the visible cards, which a card covers when _cell_fault allows it (a move entry's
        # answer carries the options: at a match's move 1,000 they were sorted nine times).
        open_cells = set(self._open_cells()) if self.board else set()
        candidates = sorted([*self.board, *open_cells], key=lambda c: (c[1], c[0]))
        # A value's cells are worked out once: the cards of that value (one per colour) all
        # have the same list, the very same object (options are read, and written as JSON).
        by_value: dict[int, list[list[int]] | None] = {}
        cards: dict[str, list[list[int]] | None] = {}
        left: dict[str, int] = {}
        blocked: list[str] = []
        for colour in self.playable_colours(player):
            for value in VALUES:
                copies = self.cards_left(colour, value)
                if copies <= 0:
                    continue
                if value not in by_value:
                    by_value[value] = self._offered_cells(value, candidates, open_cells)
                cells = by_value[value]
                name = card_name((colour, value))
                cards[name] = cells
                left[name] = copies
                if cells == []:
                    blocked.append(name)
        return {"player": player, "cards": cards, "left": left, "blocked": blocked}

    def _offered_cells(
        self, value: int, candidates: list[Cell], open_cells: set[Cell]
    ) -> list[list[int]] | None:
        """``legal_cells`` of a card of ``value`` as ``options`` gives them (``[x, y]`` lists),
        from the table's cells and those around it in their order (``candidates``), of which
        ``open_cells`` are the empty ones any card may go to (``_open_cells``)."""
        if not self.board:
            return None
        return [
            [x, y]
            for x, y in candidates
            if (x, y) in open_cells or self._cell_fault(value, (x, y)) is None
        ]

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
        """ "``scores`` = rounds won"; in team play "each player's team's rounds won (partners
        have equal scores)"."""
        return dict(self.wins)

    def winners(self) -> list[str]:
        """ "The game ends when a player has won 2 rounds (or N). Winners: that player", or
        "both partners of the team that reached N round wins"."""
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
        } | self._variant_details()

    def _variant_details(self) -> dict[str, Any]:
        """ "``details.teams`` echoes the teams", and the number of rounds to win when the setup
        agreed on one: only what the setup gave, so the details of a log without them stay as
        they were."""
        details: dict[str, Any] = {}
        if self.teams:
            details["teams"] = [list(team) for team in self.teams]
        if self._rounds_to_win_given:
            details["rounds_to_win"] = self.rounds_to_win
        return details

    # ------------------------------------------------------------------ moves

    def plan(self, move: Any) -> CardPlay:
        """``{"player": P, "card": "red-7", "at": [x, y]}`` or
        ``{"player": P, "card": "green-9", "blocked": true}``: whose turn, the card, then the cell
        (or that no cell is legal)."""
        move = expect_dict(move, Message("what.move"))
        player = expect_player(move.get("player"), self.players, Message("punto.what_player"))
        if player != self.players[self._turn]:
            raise IllegalMove(
                "punto.not_your_turn", player_turn=self.players[self._turn], player=player
            )
        if "card" not in move:
            raise IllegalMove("punto.no_card")
        card = _read_card(move["card"])
        self._check_card(player, card)
        blocked = move.get("blocked", False)
        if not isinstance(blocked, bool):
            raise IllegalMove("punto.blocked_value", value=blocked)
        if blocked:
            if move.get("at") is not None:
                raise IllegalMove("punto.blocked_with_cell")
            self._check_blocked(card)
            return CardPlay(player=player, card=card, cell=None)
        if "at" not in move:
            raise IllegalMove("punto.no_cell")
        cell = expect_cell(move["at"], Message("punto.what_at"))
        self._check_cell(card, cell)
        return CardPlay(player=player, card=card, cell=cell)

    def commit(self, play: CardPlay) -> None:
        """Place the card (a round may be won by a line), or end the round by counting series
        when it is blocked."""
        self._played_last[self.side_of[play.player]] = play.player
        if play.cell is None:
            self._end_blocked_round()
        else:
            self._place(play.player, play.card, play.cell)

    def _check_card(self, player: str, card: Card) -> None:
        """Own or neutral colour, and a copy left this round (§5): ``playable_colours`` and
        ``cards_left``, which ``options`` asks too."""
        colour, value = card
        if colour not in self.playable_colours(player):
            own = list(self.colours[player])
            # A neutral colour (3 players) and teams (4) never go together.
            if self.neutral:
                raise IllegalMove(
                    "punto.not_own_colour_neutral",
                    player=player,
                    colours=own,
                    colour_neutral=self.neutral,
                    colour=colour,
                    card=card_name(card),
                )
            raise IllegalMove(
                "punto.not_own_colour_team" if self.teams else "punto.not_own_colour",
                player=player,
                colours=own,
                colour=colour,
                card=card_name(card),
            )
        if self.cards_left(colour, value) <= 0:
            removed = self._removed_count.get(card, 0)
            if removed >= COPIES:
                raise IllegalMove("punto.copies_removed", card=card_name(card))
            raise IllegalMove(
                "punto.copy_removed" if removed else "punto.copies_played", card=card_name(card)
            )

    def _check_cell(self, card: Card, cell: Cell) -> None:
        """The cell of a move: ``_cell_fault``, said with the cards and the box it breaks."""
        if not self.board:
            return  # "the first card of a round goes anywhere"
        fault = self._cell_fault(card[1], cell)
        if fault is None:
            return
        name = card_name(card)
        if fault == "punto.cannot_cover":
            below = card_name(self.board[cell])
            raise IllegalMove(fault, card=name, card_below=below, cell=cell)
        if fault == "punto.not_touching":
            raise IllegalMove(fault, card=name, cell=cell)
        x0, x1, y0, y1 = self._box  # type: ignore[misc]
        x, y = cell
        if fault == "punto.too_wide":
            width = max(x1, x) - min(x0, x) + 1
            raise IllegalMove(fault, card=name, cell=cell, count=width, count_max=BOX)
        height = max(y1, y) - min(y0, y) + 1
        raise IllegalMove(fault, card=name, cell=cell, count=height, count_max=BOX)

    def _cell_fault(self, value: int, cell: Cell) -> str | None:
        """Why a card of ``value`` may not go at ``cell`` of a non-empty table (the id of the
        message that says so), or None when it may: "Later cards go on an empty cell touching a
        card orthogonally or diagonally, or on top of a visible card of strictly lower value (any
        colour). The bounding box of the cards never exceeds 6 × 6."

        The one statement of where a card goes: a move's cell (``_check_cell``), a blocked card
        (``_check_blocked``) and the cells offered (``legal_cells``, ``options``) all ask it.
        """
        below = self.board.get(cell)
        if below is not None:
            # covering never widens the box
            return None if below[1] < value else "punto.cannot_cover"
        return self._empty_cell_fault(cell)

    def _empty_cell_fault(self, cell: Cell) -> str | None:
        """``_cell_fault`` for an empty ``cell``, which does not depend on the card's value."""
        board = self.board
        x, y = cell
        if not any((x + dx, y + dy) in board for dx, dy in NEIGHBOURS):
            return "punto.not_touching"
        x0, x1, y0, y1 = self._box  # type: ignore[misc]
        if max(x1, x) - min(x0, x) >= BOX:
            return "punto.too_wide"
        if max(y1, y) - min(y0, y) >= BOX:
            return "punto.too_high"
        return None

    def _legal_cells(self, value: int) -> Iterator[Cell]:
        """The cells of a non-empty table where a card of ``value`` may go (§5): the visible
        cards it may cover, then the empty cells around the cards that ``_cell_fault`` allows.
        No other cell can be legal: it would be empty and touch no card."""
        board = self.board
        for cell in board:
            if self._cell_fault(value, cell) is None:
                yield cell
        yield from self._open_cells()

    def _open_cells(self) -> Iterator[Cell]:
        """The empty cells around the cards of a non-empty table that ``_cell_fault`` allows: the
        same for a card of any value (``options`` asks for them once, for every value)."""
        board = self.board
        seen: set[Cell] = set()
        for x, y in board:
            for dx, dy in NEIGHBOURS:
                cell = (x + dx, y + dy)
                if cell in board or cell in seen:
                    continue
                seen.add(cell)
                if self._empty_cell_fault(cell) is None:
                    yield cell

    def _check_blocked(self, card: Card) -> None:
        """ "Blocked ... it is illegal if a legal cell exists"."""
        name = card_name(card)
        if not self.board:
            raise IllegalMove("punto.not_blocked_first", card=name)
        cell = next(self._legal_cells(card[1]), None)
        if cell is not None:
            raise IllegalMove("punto.not_blocked", card=name, cell=cell)

    # ------------------------------------------------------------------ changes (cannot fail)

    def _place(self, player: str, card: Card, cell: Cell) -> None:
        """Put the card on the table, then look for a winning line: "after a play, its player has
        N cards of one of their own colours (visible, top cards) consecutive in a row, column or
        diagonal ... Two-player lines are single-coloured." In team play: "5 visible cards of one
        of the team's colours ... cards played by either partner count. The round's winner is
        the player who played that card."
        """
        self.board[cell] = card
        self._played[card] = self._played.get(card, 0) + 1
        x, y = cell
        if self._box is None:
            self._box = (x, x, y, y)
            self.first_cell = cell
        else:
            x0, x1, y0, y1 = self._box
            self._box = (min(x0, x), max(x1, x), min(y0, y), max(y1, y))
        colour = card[0]
        if self.owner.get(colour) != self.side_of[player]:
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
        colours, of at least N−1 cards" (in team play, the team's: partners share them).
        Segments are maximal per direction (module docstring).
        """
        found = self._series_by_side()
        return {p: found[self.side_of[p]] for p in self.players}

    def _series_by_side(self) -> list[list[list[Card]]]:
        """Each side's series, in the order of ``sides``."""
        board = self.board
        found: list[list[list[Card]]] = [[] for _ in self.sides]
        for (x, y), (colour, _value) in board.items():
            side = self.owner.get(colour)
            if side is None:
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
                    found[side].append(cards)
        return found

    def _end_blocked_round(self) -> None:
        """ "Most series wins; tie → among the tied, the player whose lowest-valued series (sum of
        its cards) is lowest wins; still tied → the round has no winner; nobody with a series → no
        winner. The winner removes the highest card of their lowest-valued series (if several
        series share that lowest sum, the highest card among them; equal values in two colours:
        the colour listed first in the setup)."

        In team play "series are counted per team ... with the same tie-breaks; the round's
        winner is the winning team's member who played last in that round (the blocked draw
        counts as a play)".
        """
        found = self._series_by_side()
        most = max(len(s) for s in found)
        winner: str | None = None
        removed: Card | None = None
        if most:
            tied = [side for side, series in enumerate(found) if len(series) == most]
            lowest = {side: min(sum(v for _, v in s) for s in found[side]) for side in tied}
            best = min(lowest.values())
            leaders = [side for side in tied if lowest[side] == best]
            if len(leaders) == 1:
                side = leaders[0]
                winner = self._played_last[side]
                cards = [c for s in found[side] if sum(v for _, v in s) == best for c in s]
                top = max(v for _, v in cards)
                order = self.side_colours[side]
                colour = min((c for c, v in cards if v == top), key=order.index)
                removed = (colour, top)
        self._end_round(winner, "blocked", removed)

    def _end_round(self, winner: str | None, how: str, removed: Card | None) -> None:
        """Record the round; "each later round starts with the player left of the previous
        round's winner (after a round with no winner, with the player left of the one who started
        it)". "The game ends when a player (or a team) has won N rounds": the round counts for
        the winner's whole side.
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
        self.first_cell = None
        self._played_last = {}
        n = len(self.players)
        if winner is not None:
            for member in self.sides[self.side_of[winner]]:
                self.wins[member] += 1
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
