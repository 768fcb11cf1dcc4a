"""Judging the next move from a judgement (judge_next): what a move entry does once it has
judged the play's log, instead of judging the log again with the move appended."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from referee import GAMES, judge, judge_next, keep, resume
from referee.judge import KEPT_PROTOCOL, REVISION
from referee.messages import Message
from tests.examples import EXAMPLES, example_paths
from tests.referee.crashes import JUDGE, assert_not_crashed, assert_refused

#: the judge's own naming of a crash, before the tests make it re-raise
CRASH_NAME = JUDGE.crash_name

BENCH_LOGS = sorted((Path(__file__).resolve().parents[2] / "benchmarks" / "logs").glob("*.json"))
#: every public example (legal or not) and every benchmark log
LOGS = {path.stem: json.loads(path.read_text()) for path in [*example_paths(""), *BENCH_LOGS]}
EXAMPLE_NAMES = {path.stem for path in example_paths("")}


def judged(log: dict, moves: list) -> object:
    return judge({**log, "moves": moves})


def seen(judgement) -> tuple:
    """Everything a judgement says, its game's own state included."""
    state = judgement.state
    return (
        judgement.as_dict(),
        judgement.moves,
        judgement.ranks,
        judgement.teams,
        judgement.setup,
        state and (state.details(), state.scores(), state.finished),
    )


def resumed_seen(judgement) -> tuple:
    """``seen`` of a judgement resumed from a kept state (its last plan alone is known), and
    its game's whole state."""
    plans = judgement.plans
    last = plans[-1].canonical() if plans else None
    state = judgement.state
    return (
        judgement.as_dict(),
        len(plans),
        last,
        judgement.ranks,
        judgement.teams,
        judgement.setup,
        state and (state.details(), state.scores(), state.finished, state.dump()),
    )


def positions(log: dict):
    """Each position of ``log``: the judgement of its moves so far, and the next move's index."""
    for count in range(len(log["moves"])):
        yield judged(log, log["moves"][:count]), count


@pytest.mark.parametrize("name", sorted(LOGS))
def test_judging_the_next_move_is_judging_the_longer_log(name):
    log = LOGS[name]
    for before, count in positions(log):
        after = judge_next(before, log["moves"][count])
        assert seen(after) == seen(judged(log, log["moves"][: count + 1])), count


@pytest.mark.parametrize("name", sorted(LOGS))
def test_judging_the_next_move_leaves_the_judgement_before_it_as_it_was(name):
    log = LOGS[name]
    for before, count in positions(log):
        after = judge_next(before, log["moves"][count])
        assert seen(before) == seen(judged(log, log["moves"][:count])), count
        if after.legal:
            # its game is still the one before the move: a page tells the move from it
            before.state.play(log["moves"][count])
            assert before.state.details() == after.state.details(), count


@pytest.mark.parametrize("name", sorted(path.stem for path in BENCH_LOGS))
def test_a_kept_judgement_resumes_as_it_was_made_new_each_time(name):
    """What the site keeps after each move (keep) resumes to the judgement it was, next move and
    all; and each resume is a game of its own: a page telling a move on one (it plays it)
    changes none resumed after."""
    log = LOGS[name]
    for before, count in positions(log):
        kept = keep(before)
        resumed = resume(kept, before.game)
        assert resumed_seen(resumed) == resumed_seen(before), count
        assert resume(kept, "not " + before.game) is None
        move = log["moves"][count]
        assert resumed_seen(judge_next(resumed, move)) == resumed_seen(judge_next(before, move))
        if judge_next(resumed, move).legal:
            resumed.state.play(move)
            assert resume(kept, before.game).state.dump() == before.state.dump(), count


def test_a_state_kept_by_another_referee_is_not_resumed():
    before = judge(LOGS["punto-1"])
    revision, *rest = pickle.loads(keep(before))
    assert revision == REVISION
    other = pickle.dumps(("another", *rest), KEPT_PROTOCOL)
    assert resume(other, "punto") is None


class Called(Exception):
    """Raised by what a kept state must never call."""


def call_me():
    raise Called


class Calls:
    """What pickle would make by calling ``call_me`` when it is read."""

    def __reduce__(self):
        return (call_me, ())


def test_reading_a_kept_state_makes_no_object_of_any_class():
    """Bytes read from the database that name a class or a function (a row changed by hand, a
    damaged one) are refused, never looked up nor called: reading a kept state runs no code."""
    before = judge(LOGS["punto-1"])
    revision, game, values, *rest = pickle.loads(keep(before))
    hostile = pickle.dumps((revision, game, {**values, "x": Calls()}, *rest), KEPT_PROTOCOL)
    with pytest.raises(Called):
        pickle.loads(hostile)  # what an unrestricted read would do
    with pytest.raises(pickle.UnpicklingError, match="plain values only"):
        resume(hostile, "punto")


@pytest.mark.parametrize("move", [{}, None, "nonsense", {"player": "Nobody"}, [1, 2]])
def test_an_illegal_next_move_is_refused_as_in_the_longer_log(move):
    for log in LOGS.values():
        before = judge(log)
        assert seen(judge_next(before, move)) == seen(judged(log, [*log["moves"], move]))


def test_a_move_after_a_log_already_refused_changes_nothing():
    log = LOGS["punto-1"]
    broken = judged(log, [log["moves"][1], *log["moves"]])  # the second player first
    assert broken.error["move"] == 0
    assert seen(judge_next(broken, log["moves"][0])) == seen(broken)


# An engine crash: re-raised in the tests (tests/referee/crashes.py), a verdict everywhere else.


def _crash_on_commit(monkeypatch) -> dict:
    """A Punto log whose first move crashes the engine (a bug in ``commit``)."""
    engine = GAMES["punto"]

    def commit(self, plan):
        raise KeyError("a bug")

    monkeypatch.setattr(engine, "commit", commit)
    return LOGS["punto-1"]


def test_an_engine_crash_in_a_test_is_raised_with_its_traceback(monkeypatch):
    log = _crash_on_commit(monkeypatch)
    with pytest.raises(KeyError, match="a bug"):
        judge(log)
    with pytest.raises(KeyError, match="a bug"):
        judge_next(judge({**log, "moves": []}), log["moves"][0])
    monkeypatch.setattr(GAMES["punto"], "from_setup", classmethod(lambda cls, p, s: {}[0]))
    with pytest.raises(KeyError):
        judge(log)


def test_outside_the_tests_an_engine_crash_is_a_verdict_that_names_it(monkeypatch):
    log = _crash_on_commit(monkeypatch)
    monkeypatch.setattr(JUDGE, "crash_name", CRASH_NAME)  # the judge as the site runs it
    judgement = judge(log)
    assert judgement.verdict == Message(
        "log.move", number=0, problem=Message("log.move_crash", error="KeyError")
    )
    assert judgement.message == "move 0: this move could not be read (KeyError)"
    with pytest.raises(AssertionError, match="an engine crashed"):
        assert_not_crashed(judgement)
    monkeypatch.setattr(GAMES["punto"], "from_setup", classmethod(lambda cls, p, s: {}[0]))
    judgement = judge(log)
    assert judgement.verdict == Message("log.setup_crash", error="KeyError")
    assert judgement.error == {"move": None, "message": "the setup could not be read (KeyError)"}
    with pytest.raises(AssertionError, match="an engine crashed"):
        assert_not_crashed(judgement)


@pytest.mark.parametrize("name", sorted(LOGS))
def test_no_example_crashes_an_engine_at_any_move(name):
    log = LOGS[name]
    for before, count in positions(log):
        assert_not_crashed(before)
        assert_not_crashed(judge_next(before, log["moves"][count]))
    assert_not_crashed(judge(log))


#: the rule each refused public example breaks (tests/fixtures/examples/README.md tells why)
REFUSED_EXAMPLES = {
    "buntherum-2": ("buntherum.not_tied_call", {"player": "Chloé", "names": ["Ana", "Ben"]}),
    "forget-venice-2": ("forget-venice.dealer_left", {"player": "Chloé", "player_next": "Ben"}),
    "punto-2": ("punto.cannot_cover", {"card": "green-3", "card_below": "orange-3"}),
    "three-high-2": ("three-high.under", {"piece": "red-3", "piece_above": "red-2"}),
    "thricewise-2": ("thricewise.tied_places", {"player": "Ben", "card": "The Battle"}),
}


@pytest.mark.parametrize("name", sorted(REFUSED_EXAMPLES))
def test_each_refused_example_is_refused_by_the_rule_it_breaks(name):
    message_id, params = REFUSED_EXAMPLES[name]
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    assert_refused(judge(LOGS[name]), message_id, move=expected["error"]["move"], **params)


def test_every_refused_example_is_named_here():
    refused = {name for name in LOGS if name in EXAMPLE_NAMES and not judge(LOGS[name]).legal}
    assert refused == set(REFUSED_EXAMPLES)
