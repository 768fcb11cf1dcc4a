"""Two app server processes (uvicorn, ASGI) on one PostgreSQL database: a move posted to one
reaches a stream opened on the other (LISTEN/NOTIFY, games.live). PostgreSQL only."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="the fan-out across processes is PostgreSQL's LISTEN/NOTIFY",
    ),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@contextmanager
def server(database_url: str):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "1",
        "SECRET_KEY": settings.SECRET_KEY,  # the sessions made here are read there
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # long: only the NOTIFY can bring the event within the test's time (the keep-alive
        # re-reads the version too, which would hide a lost NOTIFY)
        "LIVE_KEEPALIVE_SECONDS": "60",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", HOST,
         "--port", str(port), "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection((HOST, port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, process.stderr.read().decode()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_move_posted_to_one_server_reaches_a_stream_on_the_other(play, member):
    from tests.conftest import PLAY_FIRST_MOVE

    client = Client()
    client.force_login(member)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    params = connection.settings_dict
    database_url = f"postgres://{params['USER']}@{params['HOST']}:{params['PORT']}/{params['NAME']}"
    with server(database_url) as watch_port, server(database_url) as enter_port:
        # the watcher's stream, on the first server, at the play's current version
        stream = http.client.HTTPConnection(HOST, watch_port, timeout=20)
        url = reverse("play-events", args=[play.pk]) + f"?v={play.version}"
        stream.request("GET", url, headers={"Cookie": cookie})
        events = stream.getresponse()
        assert events.status == 200
        assert events.readline() == b"retry: 2000\n"

        # the move, posted through the second server as the move form would
        entry = http.client.HTTPConnection(HOST, enter_port, timeout=20)
        entry.request("GET", reverse("play", args=[play.pk]), headers={"Cookie": cookie})
        page = entry.getresponse()
        body = page.read().decode()
        csrf = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie")).group(1)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
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
