"""Judge a ``gamelog/1`` document (gamelog.md §1–2): the one referee every part of the app uses."""

from __future__ import annotations

import io
import pickle
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import Game, IllegalMove, Plan, SetupError, competition_ranks
from .messages import Message, define
from .messages import gettext_noop as _
from .registry import GAMES
from .state import REVISION

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
    #: the plan of every legal move, in order (see ``moves``); a judgement resumed from a kept
    #: state (``resume``) knows only its last one (``Plans``)
    plans: list[Plan] | Plans = field(default_factory=list, repr=False, compare=False)
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
    for that whole log, made from a copy of ``before``'s game instead of every move again (a
    move entry judges its new move from the state kept after the last one: ``resume``).
    ``before`` and its game are left as they were (a page tells the new move from them)."""
    if before.status == "illegal" or before.state is None:
        return before  # judging stops at the first error: a move after it changes nothing
    state = before.state.copy()
    plans = before.plans.copy()
    error, verdict = _play(state, [move], plans)
    return _judged(before.game, state, before.setup, plans, error, verdict)  # type: ignore[arg-type]


class Plans(Sequence[Plan]):
    """The plans of a log judged from a kept state: as many as its legal moves, of which only
    those made since it was kept, or the last one before (as the referee understood it), are
    known. Enough for what a move entry asks (how many moves, the last one); asking for an
    earlier one is a LookupError: a caller that needs every plan judges the log (``judge``)."""

    __slots__ = ("count", "known")

    def __init__(self, count: int, known: list[Plan]):
        self.count = count
        self.known = known

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            raise LookupError("a kept state's plans are not sliced")
        at = index + self.count if index < 0 else index
        first = self.count - len(self.known)
        if not first <= at < self.count:
            raise LookupError(f"plan {index} of {self.count} was judged before the state was kept")
        return self.known[at - first]

    def __iter__(self) -> Iterator[Plan]:
        if len(self.known) != self.count:
            raise LookupError("the plans judged before the state was kept are not known")
        return iter(self.known)

    def append(self, plan: Plan) -> None:
        self.known.append(plan)
        self.count += 1

    def copy(self) -> Plans:
        return Plans(self.count, list(self.known))


class Recalled(Plan):
    """The last move before a state was kept, as the referee understood it: its canonical JSON,
    all a page asks of it (where the last card went). It cannot be committed again."""

    __slots__ = ("move",)

    def __init__(self, move: dict[str, Any]):
        self.move = move

    def canonical(self) -> dict[str, Any]:
        return self.move


#: pickle's protocol for a kept state, fixed: a state kept by one process is read by every other,
#: whichever Python each runs (5 is read by every Python the site runs on).
KEPT_PROTOCOL = 5


def keep(judgement: Judgement) -> bytes | None:
    """What to keep of a legal judgement to judge the next move from it (``resume``): the game's
    state (its plain values), the setup, the last move as understood, the number of moves, what
    the judgement says of its game (scores, details, …, worked out already) and the referee's
    revision; None for a log that does not judge legal: it is judged again.

    As pickle's bytes, of plain values only (numbers, strings, lists, tuples, dicts, sets: an
    engine's state holds nothing else, which ``Game.dump`` refuses otherwise and the tests ask of
    every engine), which ``resume`` reads without ever making an object of any class: pickle
    writes and reads them in C, where the state's JSON (``Game.dump``) took 45–266 µs of every
    move entry to write (issue 32)."""
    if judgement.status == "illegal" or judgement.state is None:
        return None
    plans = judgement.plans
    last = plans[-1].canonical() if plans else None
    kept = (
        REVISION,
        judgement.game,
        vars(judgement.state),
        judgement.setup,
        len(plans),
        last,
        judgement.status,
        judgement.scores,
        judgement.winners,
        judgement.details,
        judgement.ranks,
        judgement.teams,
    )
    return pickle.dumps(kept, KEPT_PROTOCOL)


class _PlainValues(pickle.Unpickler):
    """pickle's reader of plain values alone: a class or function named in what it reads (never
    in what ``keep`` writes) is refused, never looked up, so reading a kept state runs no code."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"a kept state holds plain values only, not {module}.{name}")


def resume(kept: bytes, game: str) -> Judgement | None:
    """The judgement ``keep`` kept, of a log of ``game``, as ``judge`` gave it (its plans but the
    last excepted: ``Plans``), made new each time (a caller may play on its game: nothing is
    shared); None when it was kept for another game or by another revision of the referee: then
    the log is judged again. Bytes that are not a kept state raise (pickle's errors, ValueError,
    TypeError...)."""
    revision, name, values, setup, count, last, status, scores, winners, details, ranks, teams = (
        _PlainValues(io.BytesIO(kept)).load()
    )
    if revision != REVISION or name != game:
        return None
    engine = GAMES[game]
    state = engine.__new__(engine)
    state.__dict__.update(values)
    return Judgement(
        game=game,
        status=status,
        scores=scores,
        winners=winners,
        details=details,
        ranks=ranks,
        setup=setup,
        teams=teams,
        plans=Plans(count, [Recalled(last)] if last is not None else []),
        state=state,
    )


def _play(
    state: Game, moves: list, plans: list[Plan] | Plans
) -> tuple[dict | None, Message | None]:
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
