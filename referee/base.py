"""The shared judging protocol every game implements: check, plan, commit.

A game is a state machine. ``Game.start(players, setup)`` checks the number of players and reads
the setup (raising ``SetupError``). ``game.play(move)`` applies one move in two steps: ``plan``
reads and validates the whole move against the state and returns a ``Plan`` (or raises
``IllegalMove`` with a reason the players understand: a message id and its parameters, see
``referee.messages``), then ``commit`` applies the plan and cannot fail. Nothing changes before
the whole move is known to be legal, so scores and details always describe the state just before
the first illegal move (docs/gamelog.md §2).

A plan also knows exactly what the referee understood: ``Plan.canonical()`` is the move in
canonical JSON, and ``Game.canonical_setup()`` the setup.

Nothing under ``referee/`` imports Django.
"""

from __future__ import annotations

import pickle
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .messages import Message, cell_text, define, describe
from .messages import gettext_noop as _
from .state import decode, encode

# Re-exported: the games' modules write their messages with these.
__all__ = ["Message", "cell_text", "define", "describe"]

define(
    {
        # "A move after the game has ended is illegal, in every game." (docs/gamelog.md §1)
        "game.over": _("the game has already ended"),
        "game.player_count": _("{game} is played by {count} to {count_max} players, not {number}"),
        "game.player_count_exact": _("{game} is played by exactly {count} players, not {number}"),
        "json.object": _("{what} must be a JSON object"),
        "json.list": _("{what} must be a list"),
        "json.cell": _("{what} must be a cell [column, row] of two integers"),
        "json.player": _("{what} {value} is not one of the players ({players})"),
        # phrases naming what a helper checks
        "what.setup": _("the setup"),
        "what.move": _("a move"),
    }
)


class Refusal(Exception):
    """A refusal of the referee: ``verdict`` is its message (an id and its parameters), and
    ``message`` (or ``str()``) the English of the log format."""

    def __init__(self, message_id: str, /, **params: Any):
        super().__init__(message_id)
        self.verdict = Message(message_id, **params)

    @property
    def message(self) -> str:
        return str(self.verdict)

    def __str__(self) -> str:
        return self.message


class IllegalMove(Refusal):
    """A move that breaks a rule; the message says why, without the "move N:" prefix."""


class SetupError(Refusal):
    """The setup (or the player list) cannot start a game."""


class Plan:
    """A legal move, read and validated in full against the state it was planned on: everything
    ``Game.commit`` will change, worked out first."""

    # Not an ABC: a plan is made for every move judged, and ABC instance checks are slow.
    __slots__ = ()

    def canonical(self) -> dict[str, Any]:
        """The move as the referee understood it, in canonical JSON: known keys only, names in
        their canonical spelling. Judging it in place of the move as written gives the same
        judgement."""
        raise NotImplementedError


class Game(ABC):
    """One game in progress. Subclasses keep their own state; only ``commit`` changes it."""

    # The game's declaration: every engine states each of these itself, once; everything else
    # in the project (menus, scopes, ratings, statistics) derives from it (referee.registry).
    #: the slug of logs and URLs: the module's name with "-" for "_"
    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: the table wins or loses together: no opponent to beat, so no rating, counted apart
    cooperative: ClassVar[bool]
    #: a score is a points total (not rounds won nor cards turned): best and average mean something
    has_points: ClassVar[bool]

    #: Partners who win or lose together, as the setup names them (Punto's team play), or None
    #: when every player plays for themselves. Partners share their scores and their win; the
    #: site never counts them as each other's opponents.
    teams: tuple[tuple[str, ...], ...] | None = None

    def __init__(self, players: Sequence[str]):
        self.players: tuple[str, ...] = tuple(players)

    # --- Starting a game -----------------------------------------------------------------------

    @classmethod
    def start(cls, players: Sequence[str], setup: Any) -> Game:
        """The starting state, or ``SetupError``: the number of players, then the setup.

        ``players`` are distinct non-empty strings; ``setup`` is any JSON value (``None`` when
        absent).
        """
        cls.check_player_count(players)
        return cls.from_setup(players, setup)

    @classmethod
    def check_player_count(cls, players: Sequence[str]) -> None:
        n = len(players)
        if not cls.min_players <= n <= cls.max_players:
            if cls.min_players == cls.max_players:
                raise SetupError(
                    "game.player_count_exact", game=cls.title, count=cls.min_players, number=n
                )
            raise SetupError(
                "game.player_count",
                game=cls.title,
                count=cls.min_players,
                count_max=cls.max_players,
                number=n,
            )

    @classmethod
    @abstractmethod
    def from_setup(cls, players: Sequence[str], setup: Any) -> Game:
        """Read ``setup`` and return the starting state (the number of players is checked)."""

    @abstractmethod
    def canonical_setup(self) -> dict[str, Any]:
        """The setup as the referee understood it, in canonical JSON (see ``Plan.canonical``)."""

    # --- Playing a move: check, plan, commit ---------------------------------------------------

    def play(self, move: Any) -> Plan:
        """Apply one move (any JSON value) and return its plan, or raise ``IllegalMove`` leaving
        the state untouched."""
        plan = self.check(move)
        self.commit(plan)
        return plan

    def check(self, move: Any) -> Plan:
        """The plan of ``move`` if it is legal now, or ``IllegalMove``; changes nothing."""
        if self.finished:
            raise IllegalMove("game.over")
        return self.plan(move)

    @abstractmethod
    def plan(self, move: Any) -> Plan:
        """Read and validate the whole move against the state of a game not yet over; raise
        ``IllegalMove`` or return what it will do. Changes nothing."""

    @abstractmethod
    def commit(self, plan: Any) -> None:
        """Apply a plan made by ``plan`` on this very state. Cannot fail."""

    @abstractmethod
    def options(self) -> dict[str, Any]:
        """What is legal now, for a page to build the next move without asking (issue 28): the
        choices of the next move that the referee would accept, as JSON (cards in the log's
        spelling, cells as ``[column, row]``), in the game's own shape (each engine documents
        its keys). Empty once the game is over. Pure: changes nothing, and agrees with
        ``check`` — every move it offers is judged legal, and every legal move is offered (for
        the choices it describes; tests/referee/test_options_<game>.py)."""

    # --- Keeping the state (issue 32) ----------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        """The whole state as plain JSON, for ``load`` to make again (referee.state): the same
        state always the same JSON, which is how two states are compared. Raises TypeError for
        a value that is not plain (numbers, strings, lists, tuples, dicts, sets): the site keeps
        the state's values after a play's last move (referee.judge.keep), which needs them
        plain."""
        return {name: encode(value) for name, value in vars(self).items()}

    @classmethod
    def load(cls, dumped: dict[str, Any]) -> Game:
        """The state ``dump`` wrote (by this very revision of the referee: referee.state), in
        new containers: changing it changes nothing else."""
        game = cls.__new__(cls)
        game.__dict__.update({name: decode(value) for name, value in dumped.items()})
        return game

    def copy(self) -> Game:
        """An independent copy, to play on while this state stays as it was. Its plain values
        copied by pickle, in C (a move entry copies the state it resumed: issue 32), where
        ``load(dump())`` walks them twice in Python."""
        game = type(self).__new__(type(self))
        game.__dict__.update(pickle.loads(pickle.dumps(vars(self), pickle.HIGHEST_PROTOCOL)))
        return game

    # --- Results -------------------------------------------------------------------------------

    @property
    @abstractmethod
    def finished(self) -> bool:
        """True once the game has reached its end; any further move is illegal."""

    @abstractmethod
    def scores(self) -> dict[str, int]:
        """Every player's score now, keyed by player name, in seat order."""

    @abstractmethod
    def winners(self) -> list[str]:
        """The winners in seat order; empty unless ``finished`` (and on a cooperative loss)."""

    @abstractmethod
    def details(self) -> dict[str, Any]:
        """Game-specific details (JSON-serialisable), as docs/gamelog.md asks for each game."""


def competition_ranks(scores: Mapping[str, int], winners: Sequence[str]) -> dict[str, int]:
    """Ranks in seat order: the winners rank first (a tie-break may put a winner level on points
    with others), then the others by score; players level share a rank and the next rank counts
    them all (1, 2, 2, 4). On a cooperative game every player is level: all rank 1."""
    won = set(winners)
    return {
        player: 1
        + sum(
            1
            for other, points in scores.items()
            if (other in won and player not in won)
            or ((other in won) == (player in won) and points > score)
        )
        for player, score in scores.items()
    }


# Small validation helpers shared by the games. Each raises ``IllegalMove`` by default;
# pass ``error=SetupError`` when validating a setup. ``what`` is a phrase naming the value
# ("the setup", "placement 2 of this turn"): a ``Message``.


def is_int(value: Any) -> bool:
    """A JSON integer (``true``/``false`` are not numbers)."""
    return isinstance(value, int) and not isinstance(value, bool)


def norm(value: Any) -> str | None:
    """A name as the referee matches it: case-insensitive, surrounding spaces ignored."""
    if not isinstance(value, str):
        return None
    return " ".join(value.split()).casefold()


def expect_dict(value: Any, what: Message, error: type[Refusal] = IllegalMove) -> dict:
    if not isinstance(value, dict):
        raise error("json.object", what=what)
    return value


def expect_list(value: Any, what: Message, error: type[Refusal] = IllegalMove) -> list:
    if not isinstance(value, list):
        raise error("json.list", what=what)
    return value


def expect_cell(value: Any, what: Message, error: type[Refusal] = IllegalMove) -> tuple[int, int]:
    """A cell ``[column, row]`` of two JSON integers."""
    if not (isinstance(value, list) and len(value) == 2 and all(is_int(v) for v in value)):
        raise error("json.cell", what=what)
    return (value[0], value[1])


def expect_player(
    value: Any, players: Sequence[str], what: Message, error: type[Refusal] = IllegalMove
) -> str:
    """Player names are matched exactly (docs/gamelog.md §1)."""
    if not isinstance(value, str) or value not in players:
        raise error("json.player", what=what, value=value, players=list(players))
    return value
