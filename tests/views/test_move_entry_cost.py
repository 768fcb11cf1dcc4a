"""A move entry near its floor (issue 19): the play's seats read once, under its row lock, with
the judged state kept after its last move (issue 32: the log is not judged again, and read only
once, by the page, for its position), and the page rendered from what was read; at most 8 SQL
statements, however long the log and however big the club; and the log not drawn again: only
its new entry is sent."""

import json
from pathlib import Path

import pytest
from django.db import connection
from django.test.html import Element
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Seat
from tests.conftest import client_for
from tests.dom import ANY, attr, dom, find, find_all, text
from tests.examples import EXAMPLES

#: The benchmark's Punto match (benchmarks/bench_move_entry.py enters its 31st move).
LOG = json.loads(
    (Path(__file__).resolve().parents[2] / "benchmarks" / "logs" / "punto-bench.json").read_text()
)
#: Transaction control (BEGIN/COMMIT, or savepoints inside a test's transaction): not counted.
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
MAX_STATEMENTS = 8

pytestmark = pytest.mark.django_db


def statements(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(CONTROL)]


def grow(club, night, plays: int) -> None:
    """A bigger club: more players and finished plays (rated), none of them at this table."""
    log = json.loads((EXAMPLES / "forget-venice-1.json").read_text())
    for index in range(plays):
        names = [f"Guest {index} {seat}" for seat in range(3)]
        renamed = json.loads(
            json.dumps(log).replace('"Ana"', f'"{names[0]}"').replace('"Ben"', f'"{names[1]}"')
        )
        renamed = json.loads(json.dumps(renamed).replace('"Chloé"', f'"{names[2]}"'))
        services.import_log(club=club, log=renamed, night=night)


def entry_cost(member, club, night, logged: int) -> tuple[list[str], Element]:
    """One htmx entry of the next move on a Punto play with ``logged`` moves: its statements
    and its answer (as a tree)."""
    play = services.import_log(club=club, log={**LOG, "moves": LOG["moves"][:logged]}, night=night)
    client = client_for(member)
    scores = list(Seat.objects.filter(play=play).values_list("score", flat=True))
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            reverse("play-move", args=[play.pk]),
            {"move_json": json.dumps(LOG["moves"][logged]), "version": play.version},
            headers={"HX-Request": "true"},
        )
    answer = dom(response)
    assert response.status_code == 200 and not find_all(answer, None, id="move-error")
    assert play.moves.count() == logged + 1
    # A move inside a round: the scores (rounds won) stay as they were.
    assert list(Seat.objects.filter(play=play).values_list("score", flat=True)) == scores
    return statements(queries), answer


def entries(node) -> list[str]:
    """The move log's entries in ``node``: their numbers (``data-seq``)."""
    return [attr(entry, "data-seq") for entry in find_all(node, "li", data_seq=ANY)]


@pytest.mark.parametrize("club_plays", [0, 40])
def test_a_move_entry_costs_at_most_8_statements_whatever_the_log_and_the_club(
    member, club, night, club_plays
):
    grow(club, night, club_plays)
    short, _ = entry_cost(member, club, night, 5)
    long, _ = entry_cost(member, club, night, 30)
    assert len(short) == len(long) <= MAX_STATEMENTS, "\n".join(long)


def test_the_statement_count_does_not_depend_on_the_clubs_size(member, club, night):
    small, _ = entry_cost(member, club, night, 30)
    grow(club, night, 40)
    big, _ = entry_cost(member, club, night, 30)
    assert len(small) == len(big)


def test_the_log_is_not_read_and_the_seats_are_read_once(member, club, night):
    """The entry judges from the state kept with the play, and its answer appends the move's
    line to the page's log (issue 32): the log is not read at all."""
    sql, _ = entry_cost(member, club, night, 30)
    moves = [q for q in sql if q.startswith('SELECT "games_move"."seq"')]
    seats = [q for q in sql if q.startswith("SELECT") and 'FROM "games_seat"' in q]
    assert len(moves) == 0 and len(seats) == 1


def test_the_play_is_read_once_with_its_lock(member, club, night):
    """The page's read of the play (its club and night, for a member of its club) is the
    entry's under the lock (issue 32): the play's row is not read before it."""
    sql, _ = entry_cost(member, club, night, 30)
    reads = [q for q in sql if q.startswith("SELECT") and '"games_play"' in q.split(" WHERE ")[0]]
    (read,) = reads
    assert '"games_membership"' in read and '"games_club"' in read and '"games_gamenight"' in read


def test_only_the_new_entry_of_the_log_is_sent_back(member, club, night):
    _, answer = entry_cost(member, club, night, 30)
    assert entries(answer) == ["30"]
    # The page keeps the log it shows and appends the new entry to it.
    log = find(answer, "ol", id="move-log")
    assert attr(log, "hx-preserve") == "" and log.children == []
    (appended,) = find_all(answer, None, hx_swap_oob=ANY)
    assert (appended.name, attr(appended, "hx-swap-oob")) == ("ol", "beforeend:#move-log")
    assert entries(appended) == ["30"] and "entered by" in text(appended)


def test_the_first_entry_sends_the_whole_log(member, club, night):
    """The log said "No move yet.": it is drawn again, not appended to."""
    _, answer = entry_cost(member, club, night, 0)
    assert not find_all(answer, None, hx_preserve=ANY) and not find_all(
        answer, None, hx_swap_oob=ANY
    )
    log = find(answer, "ol", id="move-log")
    assert entries(log) == ["0"] and "No move yet." not in text(log)


def test_a_refused_entry_draws_the_whole_log(member, club, night):
    play = services.import_log(club=club, log={**LOG, "moves": LOG["moves"][:30]}, night=night)
    response = client_for(member).post(
        reverse("play-move", args=[play.pk]),
        {"move_json": json.dumps(LOG["moves"][31]), "version": play.version},  # out of turn
        headers={"HX-Request": "true"},
    )
    answer = dom(response)
    assert find_all(find(answer, "div", id="verdict"), "p", id="move-error")
    assert not find_all(answer, None, hx_preserve=ANY)
    assert entries(find(answer, "ol", id="move-log")) == [str(seq) for seq in range(30)]


def test_the_page_still_shows_every_entry(member, club, night):
    play = services.import_log(club=club, log={**LOG, "moves": LOG["moves"][:30]}, night=night)
    page = dom(client_for(member).get(reverse("play", args=[play.pk])))
    assert entries(find(page, "ol", id="move-log")) == [str(seq) for seq in range(30)]


def test_the_parts_that_change_only_with_the_play_s_status_are_drawn_once(
    member, club, night, monkeypatch
):
    """The links, the play's kind, its ratings and its end change only with its status: an
    entry draws them once per process and language, not for every move (issue 32)."""
    from games import jinja

    monkeypatch.setattr(jinja, "CHECK_KEPT", False)
    monkeypatch.setattr(jinja, "KEPT_PARTS", {})
    entry_cost(member, club, night, logged=30)
    kept = {part.name for part in jinja.KEPT_PARTS.values()}
    assert {"play-actions", "play-kind", "play-ratings", "play-end"} <= kept
