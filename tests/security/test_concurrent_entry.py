"""Two people entering a move on the same play at once, through real HTTP requests against a
live server on PostgreSQL: exactly one move is stored, the other person is told someone else
entered a move and shown the new position; nothing is lost or duplicated."""

import http.client
import json
import secrets
import threading
from urllib.parse import urlencode, urlparse

import pytest
from django.db import connection

from games import services
from games.models import Move
from tests.conftest import client_for
from tests.examples import EXAMPLES

PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())


def session_cookie(user) -> str:
    return client_for(user).cookies["sessionid"].value


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_entries_store_exactly_one(live_server, owner, member, night):
    if connection.vendor != "postgresql":
        pytest.skip("real concurrent requests are tested on PostgreSQL")
    ana = services.add_player(club=night.club, name="Ana")
    ben = services.add_player(club=night.club, name="Ben")
    play = services.start_play(night=night, game="punto", players=[ana, ben], setup=PUNTO["setup"])
    sessions = [session_cookie(owner), session_cookie(member)]
    server = urlparse(live_server.url)
    barrier = threading.Barrier(2)
    answers: list[tuple[int, bytes]] = []

    def enter(session: str) -> None:
        csrf = secrets.token_hex(16)
        body = urlencode({"move_json": json.dumps(PUNTO["moves"][0]), "version": 0})
        conn = http.client.HTTPConnection(server.hostname, server.port, timeout=30)
        barrier.wait(timeout=10)
        conn.request(
            "POST",
            f"/plays/{play.pk}/move/",
            body=body,
            headers={
                "Cookie": f"sessionid={session}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        response = conn.getresponse()
        answers.append((response.status, response.read()))
        conn.close()

    threads = [threading.Thread(target=enter, args=(s,)) for s in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert [status for status, _ in answers] == [200, 200], answers
    assert Move.objects.filter(play=play).count() == 1
    stale = [body for _, body in answers if b"Someone else changed this play" in body]
    assert len(stale) == 1
    # The one told about the race sees the new position: the form is now for move 1.
    assert b'name="version" value="1"' in stale[0]
