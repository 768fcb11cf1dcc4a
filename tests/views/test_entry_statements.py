"""Statements per move entry, for every game (issue 32): at most 8 for an entry that does not
finish the play, at most 8 + 2 × players for the one that does — the request as the page sends
it (its hidden fields, its key), whatever the depth.

Counted apart: the statements of the answer, made once the service returned (the page reads
the move log for its position, and the play's rating changes once it is finished), which the
answer that carries only what changed (the lead's, issue 28's bad networks) is to drop; the
test says how many they are, so that the count is honest either way. Transaction control
(BEGIN/COMMIT, or a test's savepoints) is not counted, as in benchmarks/bench_move_entry.py.
"""

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from benchmarks.forms import hidden_fields
from games import services
from referee import GAMES
from tests.conftest import client_for

LOGS = Path(__file__).resolve().parents[2] / "benchmarks" / "logs"
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
MAX_STATEMENTS = 8

pytestmark = pytest.mark.django_db


def statements(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(CONTROL)]


def entry(member, club, night, monkeypatch, game: str, logged: int) -> tuple[list, list, dict]:
    """One htmx entry of move ``logged`` of the game's example log: the statements of the whole
    request, those of its answer, and the log."""
    log = json.loads((LOGS / f"{game}-bench.json").read_text())
    play = services.import_log(club=club, log={**log, "moves": log["moves"][:logged]}, night=night)
    client = client_for(member)
    fields = hidden_fields(client.get(reverse("play", args=[play.pk])).content, "move-form")
    enter_move = services.enter_move
    returned: list[int] = []

    def counted(*args, **kwargs):
        state = enter_move(*args, **kwargs)
        returned.append(len(connection.queries))
        return state

    monkeypatch.setattr(services, "enter_move", counted)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            reverse("play-move", args=[play.pk]),
            {**fields, "move_json": json.dumps(log["moves"][logged])},
            headers={"HX-Request": "true"},
        )
    assert response.status_code == 200 and b"move-error" not in response.content
    assert play.moves.count() == logged + 1
    (service_done,) = returned
    answered = statements(SimpleNamespace(captured_queries=connection.queries[service_done:]))
    return statements(queries), answered, log


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("depth", ["first", "mid-game", "late"])
def test_an_entry_that_does_not_finish_the_play_costs_at_most_8_statements(
    member, club, night, monkeypatch, game, depth
):
    moves = len(json.loads((LOGS / f"{game}-bench.json").read_text())["moves"])
    logged = {"first": 0, "mid-game": moves // 2, "late": moves - 2}[depth]
    made, answered, _ = entry(member, club, night, monkeypatch, game, logged)
    assert len(made) - len(answered) <= MAX_STATEMENTS, "\n".join(made)
    # The answer reads nothing more: the position is the entry's, the log is appended to;
    # the first move's answer draws the log whole (it said "No move yet."): one line, read.
    assert len(answered) == (1 if depth == "first" else 0), "\n".join(answered)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_entry_that_finishes_the_play_costs_at_most_8_and_2_per_player(
    member, club, night, monkeypatch, game
):
    moves = len(json.loads((LOGS / f"{game}-bench.json").read_text())["moves"])
    made, answered, log = entry(member, club, night, monkeypatch, game, moves - 1)
    limit = MAX_STATEMENTS + 2 * len(log["players"])
    assert len(made) - len(answered) <= limit, "\n".join(made)
    # The answer reads the play's rating changes only (the finished play's ratings).
    assert len(answered) <= 1, "\n".join(answered)
