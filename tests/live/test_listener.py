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


def test_a_notification_it_cannot_read_is_passed_over(listener, caplog):
    play = live.hub.watch("play:2", threaded=True)
    bystander = live.hub.watch("play:9", threaded=True)
    # a payload of another shape: nobody is woken, the listener goes on on the same connection
    # (one that dropped it would wake every watcher once it listened again)
    _notify("not-a-change")
    _notify("1 2 8")
    assert play.event.wait(5)
    night = live.hub.watch("night:4", threaded=True)
    _notify("4 3 1")  # read after anything the first two set off
    assert night.event.wait(5)
    assert not bystander.event.is_set()
    assert not [r for r in caplog.records if r.name == "games.live"]


def test_stopping_ends_the_listening_thread(listener):
    assert _listening_threads()
    listener.stop()
    assert not _listening_threads()


def _drop_the_listeners_connection() -> int:
    """End the listener's session from the database's side, as a restart would: how many."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid() AND query = %s",
            [f"LISTEN {live.CHANNEL}"],
        )
        return len(cursor.fetchall())


def test_a_lost_connection_is_logged_with_its_cause_and_every_watcher_woken(listener, caplog):
    listener.RETRY_SECONDS = 0.1
    watcher = live.hub.watch("play:5", threaded=True)  # no notification will name it
    assert _drop_the_listeners_connection() == 1
    assert watcher.event.wait(10), "the reconnected listener did not wake every watcher"
    lost = [r for r in caplog.records if r.name == "games.live"]
    assert lost and all(r.levelname == "WARNING" for r in lost)
    assert all("reconnecting" in r.getMessage() for r in lost)
    assert all(r.exc_info and r.exc_info[0] for r in lost), "the cause was not logged"
    assert listener.ready.is_set()


def test_a_notification_carries_the_version_and_the_sessions_end(listener):
    """Issue 29: the version comes with the change (no read per stream); a logout and a new
    password reach every process's streams of that session or account."""
    play = live.hub.watch("play:2", threaded=True)
    account = live.hub.watch("user:5", threaded=True)
    session = live.hub.watch(f"session:{live.session_digest('k' * 32)}", threaded=True)
    _notify("1 2 7")
    assert play.event.wait(5) and play.take().versions == {2: 7}
    live.user_changed(5)
    assert account.event.wait(5) and account.take().recheck
    live.session_ended("k" * 32)
    assert session.event.wait(5) and session.take().ended
