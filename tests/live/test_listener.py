"""The process's LISTEN connection (games.live.Listener), in this process: the two-server test
sees it only from outside, where a mutation run cannot (docs/testing.md)."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import connection

from games import live

pytestmark = [
    pytest.mark.django_db(transaction=True),  # a NOTIFY is sent when its transaction commits
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="LISTEN/NOTIFY is PostgreSQL's",
    ),
]


def _listening_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "referee-listen" and t.is_alive()]


@pytest.fixture
def listener(monkeypatch):
    live.listener.stop()  # the process's own, if a stream started it: this test starts its own
    monkeypatch.setattr(live, "hub", live.Hub())
    started = live.Listener()
    started.ensure_started(live.connection_params())
    assert started.ready.wait(10), "the listener never listened"
    yield started
    started.stop()


def _notify(payload: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [live.CHANNEL, payload])


def test_a_notification_wakes_the_plays_watchers_and_its_nights(listener):
    play = live.hub.watch("play:2", threaded=True)
    night = live.hub.watch("night:1", threaded=True)
    other = live.hub.watch("play:3", threaded=True)
    _notify("1 2 7")
    assert play.event.wait(5) and night.event.wait(5)
    assert not other.event.is_set()


def test_a_notification_it_cannot_read_is_passed_over(listener):
    play = live.hub.watch("play:2", threaded=True)
    _notify("not a change")  # a payload of another shape: nobody is woken, the listener goes on
    _notify("1 2 8")
    assert play.event.wait(5)


def test_stopping_ends_the_listening_thread(listener):
    assert _listening_threads()
    listener.stop()
    assert not _listening_threads()
