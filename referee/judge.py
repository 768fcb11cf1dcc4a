"""Judge a ``gamelog/1`` document (gamelog.md §1–2): the one referee every part of the app uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .base import Game, IllegalMove, Plan, SetupError, competition_ranks, describe
from .registry import GAMES

FORMAT = "gamelog/1"


@dataclass
class Judgement:
    """The referee's judgement of one log. ``as_dict()`` is the output line of docs/gamelog.md §2;
    the other fields are what the app needs besides."""

    game: str | None
    status: str  # "finished" | "in_progress" | "illegal"
    error: dict[str, Any] | None = None
    scores: dict[str, int] = field(default_factory=dict)
    winners: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    #: player → rank, in seat order, once ``finished`` (empty otherwise): winners first, then the
    #: others by score, players level sharing a rank (1, 2, 2, 4)
    ranks: dict[str, int] = field(default_factory=dict)
    #: the setup as the referee understood it, in canonical JSON (None when the envelope or the
    #: setup is wrong)
    setup: dict[str, Any] | None = None
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


def _envelope_error(game: str | None, message: str) -> Judgement:
    return Judgement(game=game, status="illegal", error={"move": None, "message": message})


def read_envelope(log: Any) -> tuple[str, list[str], Any, list] | str:
    """The game, players, setup and moves of a log, or a message saying what is wrong with it."""
    if not isinstance(log, dict):
        return "the game log must be a JSON object"
    if log.get("format") != FORMAT:
        return f'the log\'s "format" must be "{FORMAT}", not {describe(log.get("format"))}'
    game = log.get("game")
    if not isinstance(game, str) or game not in GAMES:
        return f"unknown game {describe(game)}: expected one of {', '.join(GAMES)}"
    players = log.get("players")
    if not isinstance(players, list) or not players:
        return '"players" must be a non-empty list of names'
    for name in players:
        if not isinstance(name, str) or not name.strip():
            return f"every player must be a non-empty name, not {describe(name)}"
    if len(set(players)) != len(players):
        return "the players' names must be distinct"
    moves = log.get("moves")
    if not isinstance(moves, list):
        return '"moves" must be a list'
    return game, players, log.get("setup"), moves


def judge(log: Any) -> Judgement:
    """Replay a log move by move and judge it. Never raises, whatever JSON it is given."""
    envelope = read_envelope(log)
    if isinstance(envelope, str):
        game = log.get("game") if isinstance(log, dict) else None
        return _envelope_error(game if isinstance(game, str) else None, envelope)
    game_name, players, setup, moves = envelope
    engine = GAMES[game_name]
    try:
        state = engine.start(players, setup)
        understood = state.canonical_setup()
    except SetupError as exc:
        return _envelope_error(game_name, f"bad setup: {exc.message}")
    except Exception as exc:  # a bug in an engine must not crash the caller
        return _envelope_error(game_name, f"the setup could not be read ({type(exc).__name__})")

    error = None
    plans = []
    for index, move in enumerate(moves):
        plan, error = _play(state, index, move)
        if error is not None:
            break
        plans.append(plan)
    return _conclude(game_name, state, understood, plans, error)


def judge_next(judgement: Judgement, move: Any) -> Judgement:
    """The judgement of the same log with ``move`` appended, going on from ``judgement`` (of a
    legal log: ValueError otherwise) instead of replaying the log: what a move entry needs,
    judged once. Its ``state`` moves on with a legal move (an illegal one leaves it as it
    was), so ``judgement`` itself must not be used after a legal move. Whatever the move, it
    does not raise."""
    state = judgement.state
    if state is None or not judgement.legal:
        raise ValueError("judge_next goes on from the judgement of a legal log")
    plan, error = _play(state, len(judgement.plans), move)
    plans = judgement.plans if error is not None else [*judgement.plans, plan]
    return _conclude(judgement.game, state, judgement.setup, plans, error)


def _play(state: Game, index: int, move: Any) -> tuple[Plan | None, dict[str, Any] | None]:
    """Play the log's move number ``index``: its plan, or the error that stops the log."""
    try:
        return state.play(move), None
    except IllegalMove as exc:
        return None, {"move": index, "message": f"move {index}: {exc.message}"}
    except Exception as exc:  # a bug in an engine must not crash the caller
        return None, {
            "move": index,
            "message": f"move {index}: this move could not be read ({type(exc).__name__})",
        }


def _conclude(
    game: str,
    state: Game,
    setup: dict[str, Any] | None,
    plans: list[Plan],
    error: dict[str, Any] | None,
) -> Judgement:
    if error is not None:
        status = "illegal"
    else:
        status = "finished" if state.finished else "in_progress"
    finished = status == "finished"
    scores = state.scores()
    winners = state.winners() if finished else []
    return Judgement(
        game=game,
        status=status,
        error=error,
        scores=scores,
        winners=winners,
        details=state.details(),
        ranks=competition_ranks(scores, winners) if finished else {},
        setup=setup,
        plans=plans,
        state=state,
    )
