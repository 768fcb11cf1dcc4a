"""python manage.py leaderboard GAME --club NAME --json"""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def run(*args):
    out = StringIO()
    call_command("leaderboard", *args, stdout=out)
    return out.getvalue()


def test_json_leaderboard_sorted_by_ordinal(record, players):
    ana, ben, chloe = players
    record("punto", [(ana, 2, True), (ben, 0, False)], day=1)
    record("thricewise", [(ana, 3, False), (chloe, 9, True)], day=2)
    record("punto", [(ana, 2, True), (chloe, 1, False)], day=3)
    board = json.loads(run("all", "--club", "Les Joueurs", "--json"))
    assert set(board[0]) == {
        "player", "plays", "wins", "win_rate", "mu", "sigma", "ordinal", "partners"
    }  # fmt: skip
    assert board[0]["partners"] == []  # nobody played in a team
    assert [row["ordinal"] for row in board] == sorted(
        (row["ordinal"] for row in board), reverse=True
    )
    ana_row = next(row for row in board if row["player"] == "Ana")
    assert (ana_row["plays"], ana_row["wins"], ana_row["win_rate"]) == (3, 2, 2 / 3)
    assert ana_row["ordinal"] == pytest.approx(ana_row["mu"] - 3 * ana_row["sigma"])
    punto = json.loads(run("punto", "--club", "Les Joueurs", "--json", "--min-plays", "2"))
    assert [row["player"] for row in punto] == ["Ana"]
    past = json.loads(run("all", "--club", "Les Joueurs", "--json", "--as-of", "2026-01-01"))
    assert sorted(row["player"] for row in past) == ["Ana", "Ben"]
    assert "Ana" in run("all", "--club", "Les Joueurs")


def test_the_cooperative_game_has_no_rating(record, players):
    ana, ben, _ = players
    record("three-high", [(ana, 5, True), (ben, 5, True)])
    board = json.loads(run("three-high", "--club", "Les Joueurs", "--json"))
    assert [(row["wins"], row["ordinal"]) for row in board] == [(1, None), (1, None)]


@pytest.mark.parametrize(
    "args, message",
    [
        (["chess", "--club", "Les Joueurs"], "unknown game"),
        (["all", "--club", "Nobody"], "no club"),
        (["all", "--club", "Les Joueurs", "--as-of", "yesterday"], "YYYY-MM-DD"),
        (["all", "--club", "Les Joueurs", "--min-plays", "-1"], "--min-plays"),
    ],
)
def test_bad_arguments_are_a_clear_error(club, args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)
