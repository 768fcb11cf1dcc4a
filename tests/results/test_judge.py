"""A result checked as a referee would check a result sheet (games.results)."""

from decimal import Decimal

import pytest

from games.results import (
    COOPERATIVE,
    HIGHEST,
    LOWEST,
    RANKS,
    Entry,
    ResultError,
    Rule,
    judge_result,
    parse_score,
    score_text,
    whole,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("6+10-3", Decimal(13)),
        (" 6 + 10 - 3 ", Decimal(13)),
        ("-2", Decimal(-2)),
        ("+4", Decimal(4)),
        ("12.5", Decimal("12.5")),
        ("12,5", Decimal("12.5")),
        ("−3+1", Decimal(-2)),
        ("1.25-0.25", Decimal(1)),
        (".5+.5", Decimal(1)),
        ("0", Decimal(0)),
        ("-0", Decimal(0)),
        ("", None),
        ("   ", None),
        (None, None),
    ],
)
def test_a_score_is_a_sum_of_signed_decimals(text, value):
    assert parse_score(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "6*2",
        "2**100",
        "__import__('os')",
        "1e9",
        "6++1",
        "6+",
        "--1",
        "1.2.3",
        "abc",
        "(1+2)",
        "1" * 101,
        "999999999999999",
        "NaN",
        "Infinity",
    ],
)
def test_anything_but_a_sum_is_refused_in_words(text):
    with pytest.raises(ResultError) as refused:
        parse_score(text)
    assert refused.value.message


def test_a_score_not_text_is_refused():
    with pytest.raises(ResultError):
        parse_score(12)


def test_whole_rounds_halves_away_from_zero_and_text_is_as_written():
    assert [whole(Decimal(x)) for x in ("2.5", "-2.5", "2.4", "3")] == [3, -3, 2, 3]
    assert whole(None) == 0
    assert [score_text(parse_score(x)) for x in ("6+10-3", "12,50", "-0")] == ["13", "12.5", "0"]
    assert score_text(None) == ""


def _entries(*scores, places=None, teams=None):
    places = places or [None] * len(scores)
    teams = teams or [None] * len(scores)
    return [
        Entry(None if s is None else Decimal(s), p, t)
        for s, p, t in zip(scores, places, teams, strict=True)
    ]


def _ranks_and_wins(outcomes):
    return [(o.rank, o.winner) for o in outcomes]


def test_highest_score_wins_and_ties_share_a_rank():
    outcomes = judge_result(Rule(HIGHEST), _entries(10, 12, 12, 3))
    assert _ranks_and_wins(outcomes) == [(3, False), (1, True), (1, True), (4, False)]


def test_lowest_score_wins():
    outcomes = judge_result(Rule(LOWEST), _entries(10, -2, 30))
    assert _ranks_and_wins(outcomes) == [(2, False), (1, True), (3, False)]


def test_every_player_needs_a_score_when_scores_decide():
    with pytest.raises(ResultError, match="Every player needs a score"):
        judge_result(Rule(HIGHEST), _entries(10, None))


def test_places_only_read_as_an_order_with_ties():
    outcomes = judge_result(Rule(RANKS), _entries(None, None, None, places=[2, 1, 1]))
    assert _ranks_and_wins(outcomes) == [(3, False), (1, True), (1, True)]


def test_places_only_need_every_place_and_take_scores_for_all_or_none():
    with pytest.raises(ResultError, match="Every player needs a place"):
        judge_result(Rule(RANKS), _entries(None, None, places=[1, None]))
    with pytest.raises(ResultError, match="has no scores"):
        judge_result(Rule(RANKS), _entries(3, 4, places=[1, 2]))
    with pytest.raises(ResultError, match="count from 1"):
        judge_result(Rule(RANKS), _entries(None, None, places=[0, 1]))


def test_a_score_for_some_but_not_all_is_refused():
    with pytest.raises(ResultError, match="or none"):
        judge_result(Rule(COOPERATIVE), _entries(3, None), won=True)


def test_cooperative_the_table_wins_or_loses_together():
    outcomes = judge_result(Rule(COOPERATIVE, scored=False), _entries(None, None), won=False)
    assert _ranks_and_wins(outcomes) == [(1, False), (1, False)]
    outcomes = judge_result(Rule(COOPERATIVE), _entries(21, 21), won=True)
    assert _ranks_and_wins(outcomes) == [(1, True), (1, True)]
    with pytest.raises(ResultError, match="won or lost"):
        judge_result(Rule(COOPERATIVE, scored=False), _entries(None, None))
    with pytest.raises(ResultError, match="the table's"):
        judge_result(Rule(COOPERATIVE), _entries(20, 21), won=True)
    with pytest.raises(ResultError, match="has no scores"):
        judge_result(Rule(COOPERATIVE, scored=False), _entries(20, 20), won=True)


def test_partners_share_their_result():
    rule = Rule(HIGHEST, teams=True)
    outcomes = judge_result(rule, _entries(10, 7, 10, 7, teams=[1, 2, 1, 2]))
    # Two teams: ranked 1 and 2, partners counting once.
    assert _ranks_and_wins(outcomes) == [(1, True), (2, False), (1, True), (2, False)]
    with pytest.raises(ResultError, match="team 1"):
        judge_result(rule, _entries(10, 7, 9, 7, teams=[1, 2, 1, 2]))


def test_teams_only_in_a_team_game():
    with pytest.raises(ResultError, match="not played in teams"):
        judge_result(Rule(HIGHEST), _entries(1, 2, teams=[1, 2]))


def test_player_count_follows_the_game():
    with pytest.raises(ResultError, match="2 to 4 players, not 5"):
        judge_result(Rule(HIGHEST, min_players=2, max_players=4), _entries(1, 2, 3, 4, 5))
    with pytest.raises(ResultError):
        judge_result(Rule(HIGHEST), [])


def test_recorded_winners_stand_with_recorded_or_derived_ranks():
    # A tie on points broken by the game's own rule: the recorded winner stands.
    outcomes = judge_result(Rule(HIGHEST), _entries(10, 10, 4), winners=[False, True, False])
    assert _ranks_and_wins(outcomes) == [(2, False), (1, True), (3, False)]
    # Ranks as recorded, a seat without one last.
    outcomes = judge_result(
        Rule(RANKS), _entries(None, None, None, places=[2, 1, None]), winners=[False, True, False]
    )
    assert _ranks_and_wins(outcomes) == [(2, False), (1, True), (3, False)]
    # No score, no rank: winners first.
    outcomes = judge_result(Rule(RANKS), _entries(None, None), winners=[False, True])
    assert _ranks_and_wins(outcomes) == [(2, False), (1, True)]
    # A winner recorded below a loser is put first.
    outcomes = judge_result(Rule(RANKS), _entries(None, None, places=[1, 2]), winners=[False, True])
    assert _ranks_and_wins(outcomes) == [(2, False), (1, True)]


def test_recorded_partners_win_together():
    with pytest.raises(ResultError, match="winners and losers"):
        judge_result(
            Rule(HIGHEST, teams=True),
            _entries(5, 5, 3, teams=[1, 1, 2]),
            winners=[True, False, False],
        )


def test_teams_ranked_by_places_count_once():
    outcomes = judge_result(
        Rule(RANKS, teams=True), _entries(None, None, None, None, places=[1, 2, 1, 2],
                                          teams=[1, 2, 1, 2]),
    )  # fmt: skip
    assert _ranks_and_wins(outcomes) == [(1, True), (2, False), (1, True), (2, False)]
