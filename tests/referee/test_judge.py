"""Judging the next move from a judgement (judge_next): what a move entry does once it has
judged the play's log, instead of judging the log again with the move appended."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee import judge, judge_next
from tests.examples import example_paths

BENCH_LOGS = sorted((Path(__file__).resolve().parents[2] / "benchmarks" / "logs").glob("*.json"))
#: every public example (legal or not) and every benchmark log
LOGS = {path.stem: json.loads(path.read_text()) for path in [*example_paths(""), *BENCH_LOGS]}


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
