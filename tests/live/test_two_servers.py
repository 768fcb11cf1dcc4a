"""Two app server processes (uvicorn, ASGI) on one PostgreSQL database: a move posted to one
reaches a stream opened on the other (LISTEN/NOTIFY, games.live). PostgreSQL only."""

from __future__ import annotations

import http.client
import json
import re
import time
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.dom import attr, dom, find
from tests.servers import HOST, database_url_of_the_tests, server

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="the fan-out across processes is PostgreSQL's LISTEN/NOTIFY",
    ),
]


def test_a_move_posted_to_one_server_reaches_a_stream_on_the_other(play, member):
    from tests.conftest import PLAY_FIRST_MOVE

    client = Client()
    client.force_login(member)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    database_url = database_url_of_the_tests()
    with server(database_url) as watch_port, server(database_url) as enter_port:
        # the watcher's stream, on the first server, at the play's current version
        stream = http.client.HTTPConnection(HOST, watch_port, timeout=20)
        url = reverse("play-events", args=[play.pk]) + f"?v={play.version}"
        stream.request("GET", url, headers={"Cookie": cookie})
        events = stream.getresponse()
        assert events.status == 200
        assert events.readline() == b"retry: 1000\n"

        # the move, posted through the second server as the move form would
        entry = http.client.HTTPConnection(HOST, enter_port, timeout=20)
        entry.request("GET", reverse("play", args=[play.pk]), headers={"Cookie": cookie})
        page = entry.getresponse()
        body = page.read().decode()
        csrf = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie")).group(1)
        move_form = find(dom(body), "form", id="move-form")
        token = attr(find(move_form, "input", name="csrfmiddlewaretoken"), "value")

        form = urlencode(
            {
                "csrfmiddlewaretoken": token,
                "version": play.version,
                "move_json": json.dumps(PLAY_FIRST_MOVE),
                "json": "1",
            }
        )
        entry.request(
            "POST",
            reverse("play-move", args=[play.pk]),
            body=form,
            headers={
                "Cookie": f"{cookie}; csrftoken={csrf}",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        answer = entry.getresponse()
        answer.read()
        assert answer.status == 302, answer.status
        play.refresh_from_db()
        assert play.moves.count() == 1

        # the stream on the other server tells of the new version
        lines, deadline = [], time.monotonic() + 15
        while f"id: {play.version}\n" not in lines:
            assert time.monotonic() < deadline, f"no event: {lines}"
            line = events.readline().decode()
            assert line, f"the stream ended: {lines}"
            lines.append(line)
        stream.close()
        entry.close()


def test_the_parts_that_changed_reach_a_stream_on_the_other_server(play, member):
    """Issue 32: the stream that asks for them (parts=1) gets the parts that changed in its
    event, drawn in its own process, with its viewer's CSRF token."""
    from games import services
    from tests.conftest import PLAY_FIRST_MOVE

    client = Client()
    client.force_login(member)
    page = client.get(reverse("play", args=[play.pk]))  # the page: its CSRF cookie
    assert page.status_code == 200
    csrf = client.cookies["csrftoken"].value
    cookie = f"sessionid={client.cookies['sessionid'].value}; csrftoken={csrf}"
    database_url = database_url_of_the_tests()
    with server(database_url) as watch_port:
        stream = http.client.HTTPConnection(HOST, watch_port, timeout=20)
        url = reverse("play-events", args=[play.pk]) + f"?v={play.version}&parts=1"
        stream.request("GET", url, headers={"Cookie": cookie})
        events = stream.getresponse()
        assert events.status == 200
        assert events.readline() == b"retry: 1000\n"
        time.sleep(1)  # the stream has drawn the page's version
        services.record_move(play=play, move=PLAY_FIRST_MOVE)  # this process: another server

        lines, deadline = [], time.monotonic() + 15
        while not any(line.startswith("data: ") for line in lines):
            assert time.monotonic() < deadline, f"no event: {lines}"
            line = events.readline().decode()
            assert line, f"the stream ended: {lines}"
            if line.strip():
                lines.append(line)
        stream.close()
    assert lines[:2] == [f"id: {play.version}\n", "event: parts\n"]
    pushed = json.loads(lines[2][len("data: ") :])
    assert pushed["since"] == play.version - 1
    assert f'data-version="{play.version}"' in pushed["html"]
    assert "csrfmiddlewaretoken" in pushed["html"]
