"""judge_next: one more move judged from where a judgement stands gives the same judgement as the
whole log judged again (what a move entry relies on to judge once)."""

import copy

import pytest

from referee import judge, judge_next
from tests.examples import example_cases


def _same(judgement, expected):
    assert judgement.as_dict() == expected.as_dict()
    assert (judgement.ranks, judgement.setup, judgement.moves) == (
        expected.ranks,
        expected.setup,
        expected.moves,
    )


@pytest.mark.parametrize("case", example_cases(""), ids=lambda case: case[0].get("game"))
def test_every_move_of_every_example_judged_from_the_one_before(case):
    log, _ = case
    moves = log["moves"]
    judgement = judge({**log, "moves": []})
    for index, move in enumerate(moves):
        if not judgement.legal:
            break
        expected = judge({**log, "moves": moves[: index + 1]})
        judgement = judge_next(judgement, copy.deepcopy(move))
        _same(judgement, expected)


def test_an_illegal_move_leaves_the_judgement_where_it_stood():
    log, _ = example_cases("punto")[0]
    before = judge({**log, "moves": log["moves"][:3]})
    out_of_turn = {**log["moves"][3], "player": log["moves"][2]["player"]}
    refused = judge_next(before, out_of_turn)
    assert refused.status == "illegal" and refused.error["move"] == 3
    assert refused.details == before.details and refused.plans == before.plans
    after = judge_next(before, log["moves"][3])  # the state is as it was: the log goes on
    _same(after, judge({**log, "moves": log["moves"][:4]}))


def test_it_goes_on_only_from_a_legal_log():
    log, _ = example_cases("punto")[0]
    illegal = judge({**log, "moves": [{"nonsense": True}]})
    with pytest.raises(ValueError):
        judge_next(illegal, log["moves"][0])
