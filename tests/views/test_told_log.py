"""The play page's move log told on from the one kept in the process (games.movelog.TOLD,
games.views.loglines; issue 32): deep in a play, each version's page tells and draws only the
entries the log gained, judges nothing again, and shows what telling the whole log anew shows —
after a move, an undo, a correction, whatever came before."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import movelog, services
from games.views import drawn
from referee.punto import Punto
from tests.dom import attr, dom, find, find_all
from tests.examples import EXAMPLES
from tests.views.test_move_answer import enter, put_in_place, shown

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())


@pytest.fixture
def play(club, night):
    return services.import_log(club=club, log={**PUNTO, "moves": PUNTO["moves"][:6]}, night=night)


@pytest.fixture
def told(monkeypatch):
    """The entries each page told, counted (the check against a log told anew is off, so as
    to count only what the page itself tells)."""
    monkeypatch.setattr(movelog, "CHECK_TOLD", False)
    counted = []
    tell = movelog.Teller.tell

    def counting(self, entry, plan):
        counted.append(entry.seq)
        return tell(self, entry, plan)

    monkeypatch.setattr(movelog.Teller, "tell", counting)
    return counted


def log_of(client, play) -> str:
    """The move log of the play's fragment, as a page fetches it."""
    drawn.KEPT.clear()  # each fetch draws (the drawing per version is shared: not this test's)
    page = client.get(reverse("play", args=[play.pk]), headers=HTMX).content.decode()
    return str(find(dom(page), "ol", id="move-log"))


def anew(client, play) -> str:
    movelog.TOLD.clear()
    return log_of(client, play)


def test_a_log_that_grew_is_told_on_from_the_one_kept(member_client, play, told):
    log_of(member_client, play)
    assert told == [0, 1, 2, 3, 4, 5]
    for move in PUNTO["moves"][6:8]:
        services.record_move(play=play, move=move)
    told.clear()
    grown = log_of(member_client, play)
    assert told == [6, 7]  # the two new entries alone
    assert grown == anew(member_client, play)
    assert grown.count("<li") == 8


def test_a_log_told_on_is_told_in_each_language_apart(member_client, play, told):
    english = log_of(member_client, play)
    told.clear()
    french = member_client.get(
        reverse("play", args=[play.pk]), headers={**HTMX, "Accept-Language": "fr"}
    ).content.decode()
    assert told == [0, 1, 2, 3, 4, 5]  # not the English lines
    assert str(find(dom(french), "ol", id="move-log")) != english


def test_an_undo_tells_the_log_anew(member_client, play, told):
    log_of(member_client, play)
    services.undo_last_move(play=play)
    told.clear()
    undone = log_of(member_client, play)
    assert told == [0, 1, 2, 3, 4, 5]  # the last line changed: all of it, once
    assert undone == anew(member_client, play) and 'class="undone"' in undone
    services.record_move(play=play, move=PUNTO["moves"][5])
    told.clear()
    assert log_of(member_client, play) == anew(member_client, play)


def test_a_watchers_page_deep_in_a_play_judges_nothing_again(
    member_client, play, told, monkeypatch
):
    """The play's judgement is the state kept after its last move (games.services.playrow),
    and its log's lines are those kept: the referee judges no move of the log again."""
    log_of(member_client, play)
    services.record_move(play=play, move=PUNTO["moves"][6])
    judged = []
    check = Punto.check

    def counting(self, move):
        judged.append(move)
        return check(self, move)

    monkeypatch.setattr(Punto, "check", counting)
    log_of(member_client, play)
    assert judged == [PUNTO["moves"][6]]  # the new move's line, told on the kept game


def test_a_moves_answer_leaves_the_log_as_a_page_drawn_anew_shows_it(member_client, play):
    """The mover's page appends its move's line, and its log's fingerprint is then the one a
    page drawn anew has: the next change is pushed to it as to every other phone."""
    page = member_client.get(reverse("play", args=[play.pk]), headers=HTMX).content.decode()
    answer = enter(member_client, play, PUNTO["moves"][6], shown(page))
    assert answer["X-Play-Parts"] == "1" and "data-append" in answer.content.decode()
    shows = find(put_in_place(dom(page), answer.content.decode()), "ol", id="move-log")
    drawn.KEPT.clear()
    fresh = member_client.get(reverse("play", args=[play.pk]), headers=HTMX).content.decode()
    assert shows == find(dom(fresh), "ol", id="move-log")  # its lines and fingerprint


def test_a_watchers_fetch_deep_in_a_play_carries_the_new_line_alone(member_client, club, night):
    long = {**PUNTO, "moves": PUNTO["moves"][:20]}
    play = services.import_log(club=club, log=long, night=night)
    page = member_client.get(reverse("play", args=[play.pk]), headers=HTMX).content.decode()
    version = play.version
    services.record_move(play=play, move=PUNTO["moves"][20])  # on another phone
    fetched = member_client.get(
        reverse("play-live", args=[play.pk]),
        {"version": version, "kept": ""},
        headers={**HTMX, "X-Play-Parts": shown(page)},
    ).content.decode()
    (appended,) = find_all(dom(fetched), "template", data_part="move-log")
    assert [attr(line, "data-seq") for line in find_all(appended, "li")] == ["20"]
    assert len(fetched) < len(page) / 3


def test_a_log_told_on_names_whoever_entered_a_move_as_they_are_now(member_client, member, play):
    """Renamed (in the admin) after entering a move: the lines kept are told anew."""
    services.record_move(play=play, move=PUNTO["moves"][6], by=member)
    assert f"entered by {member.username}" in log_of(member_client, play)
    member.username = "renamed"
    member.save()
    assert "entered by renamed" in log_of(member_client, play)
