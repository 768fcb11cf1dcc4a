"""Judge a ``gamelog/1`` document (gamelog.md §1–2): the one referee every part of the app uses."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .base import Game, IllegalMove, Plan, SetupError, competition_ranks
from .messages import Message, define
from .messages import gettext_noop as _
from .registry import GAMES

FORMAT = "gamelog/1"

define(
    {
        "log.not_object": _("the game log must be a JSON object"),
        "log.format": _('the log\'s "format" must be "{format}", not {value}'),
        "log.unknown_game": _("unknown game {value}: expected one of {games}"),
        "log.players": _('"players" must be a non-empty list of names'),
        "log.player_name": _("every player must be a non-empty name, not {value}"),
        "log.players_distinct": _("the players' names must be distinct"),
        "log.moves": _('"moves" must be a list'),
        # The site says where an error is in its own words (the turn, the deal...): these two
        # frame a refusal for the log only, so they are not marked for translation.
        "log.bad_setup": "bad setup: {problem}",
        "log.move": "move {number}: {problem}",
        "log.setup_crash": _("the setup could not be read ({error})"),
        "log.move_crash": _("this move could not be read ({error})"),
    }
)


@dataclass
class Judgement:
    """The referee's judgement of one log. ``as_dict()`` is the output line of docs/gamelog.md §2;
    the other fields are what the app needs besides."""

    game: str | None
    status: str  # "finished" | "in_progress" | "illegal"
    error: dict[str, Any] | None = None
    #: the refusal as a message (``error["message"]`` is its English): for a move, "log.move"
    #: with the move's ``number`` (from 0) and the ``problem``; for a setup, "log.bad_setup"
    verdict: Message | None = field(default=None, compare=False)
    scores: dict[str, int] = field(default_factory=dict)
    winners: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    #: player → rank, in seat order, once ``finished`` (empty otherwise): winners first, then the
    #: others by score, players level sharing a rank (1, 2, 2, 4)
    ranks: dict[str, int] = field(default_factory=dict)
    #: the setup as the referee understood it, in canonical JSON (None when the envelope or the
    #: setup is wrong)
    setup: dict[str, Any] | None = None
    #: the teams of partners the setup names (``Game.teams``), empty when every player plays for
    #: themselves
    teams: list[list[str]] = field(default_factory=list)
    #: the plan of every legal move, in order (see ``moves``)
    plans: list[Plan] = field(default_factory=list, repr=False, compare=False)
    #: the game state after the last legal move (None when the envelope or setup is wrong)
    state: Game | None = field(default=None, repr=False, compare=False)

    @property
    def moves(self) -> list[dict[str, Any]]:
        """Every legal move as the referee understood it, in canonical JSON, in order: judging
        ``setup`` and ``moves`` (then any moves after them) gives this same judgement."""
        # Worked out on demand: most callers (the referee command, the pages) never ask.
        return [plan.canonical() for plan in self.plans]

    @property
    def legal(self) -> bool:
        return self.status != "illegal"

    @property
    def message(self) -> str | None:
        return self.error["message"] if self.error else None

    def as_dict(self) -> dict[str, Any]:
        """The referee's output line (without "file"): the contract, so nothing more."""
        return {
            "game": self.game,
            "status": self.status,
            "error": self.error,
            "scores": self.scores,
            "winners": self.winners,
            "details": self.details,
        }


def _envelope_error(game: str | None, verdict: Message) -> Judgement:
    return Judgement(
        game=game,
        status="illegal",
        error={"move": None, "message": str(verdict)},
        verdict=verdict,
    )


def read_envelope(log: Any) -> tuple[str, list[str], Any, list] | Message:
    """The game, players, setup and moves of a log, or a message saying what is wrong with it."""
    if not isinstance(log, dict):
        return Message("log.not_object")
    if log.get("format") != FORMAT:
        return Message("log.format", format=FORMAT, value=log.get("format"))
    game = log.get("game")
    if not isinstance(game, str) or game not in GAMES:
        return Message("log.unknown_game", value=game, games=list(GAMES))
    players = log.get("players")
    if not isinstance(players, list) or not players:
        return Message("log.players")
    for name in players:
        if not isinstance(name, str) or not name.strip():
            return Message("log.player_name", value=name)
    if len(set(players)) != len(players):
        return Message("log.players_distinct")
    moves = log.get("moves")
    if not isinstance(moves, list):
        return Message("log.moves")
    return game, players, log.get("setup"), moves


def judge(log: Any) -> Judgement:
    """Replay a log move by move and judge it. Never raises, whatever JSON it is given."""
    envelope = read_envelope(log)
    if isinstance(envelope, Message):
        game = log.get("game") if isinstance(log, dict) else None
        return _envelope_error(game if isinstance(game, str) else None, envelope)
    game_name, players, setup, moves = envelope
    engine = GAMES[game_name]
    try:
        state = engine.start(players, setup)
        understood = state.canonical_setup()
    except SetupError as exc:
        return _envelope_error(game_name, Message("log.bad_setup", problem=exc.verdict))
    except Exception as exc:  # a bug in an engine must not crash the caller
        return _envelope_error(game_name, Message("log.setup_crash", error=crash_name(exc)))

    plans: list[Plan] = []
    error, verdict = _play(state, moves, plans)
    return _judged(game_name, state, understood, plans, error, verdict)


def judge_next(before: Judgement, move: Any) -> Judgement:
    """The judgement of ``before``'s log with ``move`` appended, the same as ``judge`` gives
    for that whole log, made from a copy of ``before``'s game instead of every move again: a
    move entry judges the log once, then its new move (the copy costs about what 8 Punto moves
    do). ``before`` and its game are left as they were (a page tells the new move from them)."""
    if before.status == "illegal" or before.state is None:
        return before  # judging stops at the first error: a move after it changes nothing
    state = copy.deepcopy(before.state)
    plans = [*before.plans]
    error, verdict = _play(state, [move], plans)
    return _judged(before.game, state, before.setup, plans, error, verdict)  # type: ignore[arg-type]


def _play(state: Game, moves: list, plans: list[Plan]) -> tuple[dict | None, Message | None]:
    """Make ``moves`` on ``state``, adding their plans to ``plans`` (the moves made before
    them), up to the first illegal one: its error and verdict, or (None, None)."""
    for move in moves:
        try:
            plans.append(state.play(move))
        except IllegalMove as exc:
            problem = exc.verdict
        except Exception as exc:  # a bug in an engine must not crash the caller
            problem = Message("log.move_crash", error=crash_name(exc))
        else:
            continue
        verdict = Message("log.move", number=len(plans), problem=problem)
        return {"move": len(plans), "message": str(verdict)}, verdict
    return None, None


def crash_name(exc: Exception) -> str:
    """How the verdict on an engine that raised ``exc`` instead of refusing names it
    ("log.setup_crash", "log.move_crash"). Never a ruling, always a bug: the tests make this
    re-raise (tests/referee/crashes.py), so every crash shows there with its traceback."""
    return type(exc).__name__


def _judged(
    game_name: str,
    state: Game,
    understood: dict[str, Any],
    plans: list[Plan],
    error: dict | None,
    verdict: Message | None,
) -> Judgement:
    """The judgement of a game played up to ``state`` (``error``: its first illegal move)."""
    if error is not None:
        status = "illegal"
    else:
        status = "finished" if state.finished else "in_progress"
    finished = status == "finished"
    scores = state.scores()
    winners = state.winners() if finished else []
    return Judgement(
        game=game_name,
        status=status,
        error=error,
        verdict=verdict,
        scores=scores,
        winners=winners,
        details=state.details(),
        ranks=competition_ranks(scores, winners) if finished else {},
        setup=understood,
        teams=[list(team) for team in state.teams or ()],
        plans=plans,
        state=state,
    )
