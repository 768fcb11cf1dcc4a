"""The judged state kept with a play (Play.kept, issue 32) is the state the referee judges from its
log, after every kind of change to the log, for random games of every game.

A random game here is a play imported from the start of a game's example log, then a random run
of changes, each as the site makes it (games.services): a random legal move entered, a random
illegal one refused, the last move undone, the play abandoned then resumed, the play exported
and imported as a new play, and the kept state lost (or kept by another referee), which the next
entry must judge again from the log. After each change, the kept state must equal the log's.

A new kind of change to the log is one more entry of CHANGES (a function of the play, the
game's random move and the dice, returning the play to follow).
"""

from __future__ import annotations

import base64
import datetime
import itertools
import json
import pickle
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import selectors, services
from games.gamelog import play_to_log
from games.models import Play
from games.selectors import judge_play, log_moves, seat_names
from games.services.playrow import kept_judgement
from games.views.drafts import position_of
from referee import GAMES, judge, keep, resume
from referee.judge import KEPT_PROTOCOL
from referee.state import decode, encode, shared_containers
from tests.referee import (
    test_options_buntherum as buntherum,
)
from tests.referee import (
    test_options_forget_venice as forget_venice,
)
from tests.referee import (
    test_options_three_high as three_high,
)
from tests.referee import (
    test_options_thricewise as thricewise,
)

LOGS = Path(__file__).resolve().parents[2] / "benchmarks" / "logs"


def _punto(state, rng: random.Random) -> dict:
    options = state.options()
    card = rng.choice(list(options["cards"]))
    cells = options["cards"][card]
    if cells is None:  # the round's first card goes anywhere
        return {"player": options["player"], "card": card, "at": [0, 0]}
    if not cells:
        return {"player": options["player"], "card": card, "blocked": True}
    return {"player": options["player"], "card": card, "at": rng.choice(cells)}


def _picked(offered) -> Callable:
    def pick(state, rng: random.Random) -> dict:
        moves = sorted(offered(state.options()), key=repr)
        return rng.choice(moves)

    return pick


#: game → a random legal move now (built from the referee's own options, as the tests of each
#: game's options build them), or None when the game offers none
RANDOM_MOVE: dict[str, Callable] = {
    "punto": _punto,
    "thricewise": lambda state, rng: thricewise.random_turn(state.options(), state.players, rng),
    "forget-venice": lambda state, rng: forget_venice.random_deal(state.options(), rng),
    "buntherum": lambda state, rng: buntherum.as_move(_picked(buntherum.offered_moves)(state, rng)),
    "three-high": lambda state, rng: three_high.as_move(
        _picked(lambda options: list(three_high.offered_moves(options)))(state, rng)
    ),
}


def from_the_log(play: Play):
    """The referee's judgement of the play's active log, judged whole."""
    moves = [move.data for move in play.moves.active()]
    return judge_play(play, seat_names(play), moves)


def assert_kept_is_the_logs(play: Play) -> None:
    play.refresh_from_db()
    judged = kept_judgement(play)
    if play.status != Play.Status.IN_PROGRESS:
        # No move may be entered: none is kept (an undo or resuming judges the log again).
        assert play.kept == ""
        return
    assert judged is not None, "no state kept at the play's version"
    kept, next_seq, position = judged
    logged = from_the_log(play)
    assert position == selectors.position([move.seq for move in play.moves.active()])
    assert kept.state.dump() == logged.state.dump()
    assert type(kept.state).load(json.loads(json.dumps(kept.state.dump()))).dump() == (
        logged.state.dump()
    )
    assert (kept.status, kept.scores, kept.winners, kept.ranks, kept.details, kept.setup) == (
        logged.status,
        logged.scores,
        logged.winners,
        logged.ranks,
        logged.details,
        logged.setup,
    )
    assert len(kept.plans) == len(logged.plans)
    if logged.plans:
        assert kept.plans[-1].canonical() == logged.plans[-1].canonical()
    last = play.moves.order_by("seq").last()
    assert next_seq == (last.seq + 1 if last else 0)


def enter_random_move(play: Play, move_of, rng: random.Random) -> Play:
    state = from_the_log(play).state
    if state.finished:
        return play
    move = move_of(state, rng)
    entered = services.enter_move(play=play, by=None, version=play.version, compose=lambda *_: move)
    # The position the page carries, known without the log, is the log's.
    assert entered.position == position_of(log_moves(play))
    assert entered.active_moves == play.moves.active().count()
    return play


def refuse_a_move(play: Play, move_of, rng: random.Random) -> Play:
    """A move the referee refuses (no move of any game is a list) changes nothing."""
    with pytest.raises(services.ServiceError):
        services.record_move(play=play, move=["not", "a", "move"], version=play.version)
    return play


def undo(play: Play, move_of, rng: random.Random) -> Play:
    if play.moves.active().exists():
        services.undo_last_move(play=play, version=play.version)
    return play


def abandon_then_resume(play: Play, move_of, rng: random.Random) -> Play:
    if play.status != Play.Status.IN_PROGRESS:
        return play
    services.abandon_play(play=play, version=play.version)
    assert_kept_is_the_logs(play)
    play.refresh_from_db()
    services.resume_play(play=play, version=play.version)
    return play


def export_then_import(play: Play, move_of, rng: random.Random) -> Play:
    """The play's log downloaded and uploaded again: the new play is followed from now on."""
    return services.import_log(club=play.club, log=play_to_log(play), night=play.night)


def lose_the_kept_state(play: Play, move_of, rng: random.Random) -> Play:
    """No state kept (a play from before kept states), one kept by another referee, or one that
    does not load: the next entry judges the log and keeps its state again."""
    play.refresh_from_db()
    if play.status != Play.Status.IN_PROGRESS:
        return play  # no entry to judge the log again
    version, next_seq, position, judged = play.kept.split(" ")
    revision, *rest = pickle.loads(base64.b64decode(judged))
    lost = rng.choice(["none", "another referee", "damaged"])
    if lost == "none":
        play.kept = ""
    elif lost == "another referee":
        other = pickle.dumps(("another", *rest), KEPT_PROTOCOL)
        play.kept = f"{version} {next_seq} {position} {base64.b64encode(other).decode()}"
    else:
        play.kept = f"{version} {next_seq} {position} {judged[: len(judged) // 2]}"
    play.save(update_fields=["kept"])
    assert kept_judgement(play) is None
    return enter_random_move(play, move_of, rng)


def correct_a_past_move(play: Play, move_of, rng: random.Random) -> Play:
    """A past move replaced by another legal one at its position (issue 30); the moves after it
    that it makes illegal dropped."""
    moves = [move.data for move in play.moves.active()]
    if not moves or play.status == Play.Status.ABANDONED:
        return play
    index = rng.randrange(len(moves))
    before = judge_play(play, seat_names(play), moves[:index]).state
    services.replace_move(
        play=play,
        index=index,
        move=move_of(before, rng),
        by=None,
        version=play.version,
        cut_at_refusal=True,
    )
    play.refresh_from_db()
    return play


#: every kind of change to a play's log, with how often the dice pick it
CHANGES: list[tuple[Callable, int]] = [
    (enter_random_move, 8),
    (refuse_a_move, 1),
    (undo, 3),
    (correct_a_past_move, 2),
    (abandon_then_resume, 1),
    (export_then_import, 1),
    (lose_the_kept_state, 1),
]


_OWNERS = itertools.count()  # hypothesis runs its examples in one test's database


def a_night(name: str):
    owner = get_user_model().objects.create_user(name, password="x-kept-pass-1")
    club = services.create_club(name="Kept", owner=owner)
    return club, services.create_game_night(club=club, date=datetime.date(2026, 1, 9))


def start(game: str, rng: random.Random) -> Play:
    club, night = a_night(f"kept-{next(_OWNERS)}")
    log = json.loads((LOGS / f"{game}-bench.json").read_text())
    prefix = rng.randint(0, len(log["moves"]) - 1)
    return services.import_log(club=club, log={**log, "moves": log["moves"][:prefix]}, night=night)


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(GAMES))
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_kept_state_is_the_logs_after_every_change(game, seed):
    rng = random.Random(seed)
    move_of = RANDOM_MOVE[game]
    play = start(game, rng)
    assert_kept_is_the_logs(play)
    changes, weights = zip(*CHANGES, strict=True)
    for _ in range(12):
        change = rng.choices(changes, weights)[0]
        play = change(play, move_of, rng)
        assert_kept_is_the_logs(play)


@pytest.mark.django_db
def test_a_play_started_keeps_its_state_before_any_move():
    club, night = a_night("kept-start")
    players = [services.add_player(club=club, name=name) for name in ("Ana", "Ben")]
    setup = {"colours": {"Ana": ["red", "blue"], "Ben": ["orange", "green"]}}
    play = services.start_play(night=night, game="punto", players=players, setup=setup)
    assert_kept_is_the_logs(play)
    services.record_move(
        play=play, move={"player": "Ana", "card": "red-1", "at": [0, 0]}, version=play.version
    )
    assert_kept_is_the_logs(play)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_engines_state_loads_as_it_was_dumped(game):
    """Every state of an example game, dumped to JSON text and loaded, is the same state, and
    shares no container between its attributes (a load would part them)."""
    log = json.loads((LOGS / f"{game}-bench.json").read_text())
    engine = GAMES[game]
    state = engine.start(log["players"], log["setup"])
    for moved, move in enumerate([None, *log["moves"]]):
        if move is not None:
            state.play(move)
        assert shared_containers(state) == []
        loaded = engine.load(json.loads(json.dumps(state.dump())))
        assert vars(loaded) == vars(state)
        assert loaded.scores() == state.scores() and loaded.details() == state.details()
        # as a move entry reads it (referee.keep and resume: pickle's, of its plain values)
        kept = resume(keep(judge({**log, "moves": log["moves"][:moved]})), game).state
        assert typed(vars(kept)) == typed(vars(state)) == typed(vars(loaded))
        # and the copy a move is judged on (pickle's): the same, sharing no container
        copied = state.copy()
        assert typed(vars(copied)) == typed(vars(state))
        assert shared_containers(copied) == [] and not shares_with(copied, state)


def typed(value):
    """``value`` with the type of every container in it (a tuple is not a list, a set is not a
    frozenset, which ``==`` does not tell apart)."""
    if isinstance(value, dict):
        return ("dict", sorted((repr(typed(k)), typed(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [typed(item) for item in value])
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, sorted(repr(typed(item)) for item in value))
    return value


def shares_with(one, other) -> bool:
    """Whether a mutable container of ``one`` is also one of ``other``'s."""

    def mutable(value, found):
        if isinstance(value, (list, dict, set)):
            found.add(id(value))
        items = value.items() if isinstance(value, dict) else value
        if isinstance(value, (list, tuple, set, frozenset, dict)):
            for item in items:
                for inner in item if isinstance(value, dict) else (item,):
                    mutable(inner, found)
        return found

    return bool(mutable(vars(one), set()) & mutable(vars(other), set()))


def test_a_dumped_state_loads_back_as_it_was_whatever_its_values():
    """referee.state.decode makes again what encode wrote, tags and all, and a plain dict that
    looks like a tag is not taken for one (encode wrote it as pairs)."""
    value = {
        "tuple": (1, (2, 3), [4]),
        "set": {1, 2},
        "frozen": frozenset({"a"}),
        "keyed": {(0, 1): "cell", 2: [None]},
        "looks like a tag": {"(": [1, 2]},
        "empty": {},
    }
    assert typed(decode(json.loads(json.dumps(encode(value))))) == typed(value)
