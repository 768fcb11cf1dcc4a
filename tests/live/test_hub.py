"""The hub of games.live, on its own: who is woken when a key is published, what a closed stream
leaves behind (nothing), and the statements that tell the other processes."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import connection

from games import live


def watchers_of(hub: live.Hub) -> dict:
    """The hub's keys and their watchers: what a long-running process keeps in memory."""
    return hub._watchers


def test_publishing_a_key_wakes_its_watchers_only():
    hub = live.Hub()
    play, night, other = (hub.watch(key, threaded=True) for key in ("play:1", "night:1", "play:2"))
    hub.publish(*live.play_keys(night_id=1, play_id=1))
    assert play.event.is_set() and night.event.is_set()
    assert not other.event.is_set()


def test_a_closed_stream_leaves_the_hub_and_the_other_watcher_of_its_play_stays():
    hub = live.Hub()
    leaving = hub.watch("play:1", threaded=True)
    staying = hub.watch("play:1", threaded=True)
    hub.forget(leaving)
    hub.publish("play:1")
    assert staying.event.is_set() and not leaving.event.is_set()
    hub.forget(staying)
    assert hub.count() == 0
    assert watchers_of(hub) == {}  # no key is kept for a play nobody watches


def test_a_watcher_of_two_keys_counts_once_and_wake_all_reaches_every_key():
    hub = live.Hub()
    assert hub.count() == 0
    both = hub.watch("play:1", "night:1", threaded=True)
    alone = hub.watch("play:2", threaded=True)
    assert hub.count() == 2
    hub.wake_all()
    assert both.event.is_set() and alone.event.is_set()


def test_wake_all_on_an_empty_hub_does_nothing():
    live.Hub().wake_all()


def test_a_threaded_watcher_needs_no_event_loop_and_is_woken_from_another_thread():
    watcher = live.Hub().watch("play:1", threaded=True)
    assert watcher.loop is None
    waker = threading.Thread(target=watcher.wake)
    waker.start()
    assert watcher.event.wait(5)
    waker.join()


def test_an_async_watcher_is_woken_in_its_own_loop_from_another_thread():
    async def run():
        watcher = live.Hub().watch("play:1")
        assert watcher.loop is asyncio.get_running_loop()
        threading.Thread(target=watcher.wake).start()
        await asyncio.wait_for(watcher.event.wait(), 5)

    asyncio.run(run())


def test_waking_a_watcher_whose_loop_is_closed_is_harmless():
    loop = asyncio.new_event_loop()
    watcher = loop.run_until_complete(_async_watcher())
    loop.close()
    watcher.wake()  # the stream is gone: nothing to tell, nothing raised
    assert not watcher.event.is_set()


async def _async_watcher() -> live.Watcher:
    return live.Watcher()


# Telling: the statements and the in-process wake-up -------------------------------------------


@pytest.fixture
def on_postgresql(monkeypatch):
    monkeypatch.setattr(connection, "vendor", "postgresql")


def test_the_vendor_decides_whether_postgresql_is_told(on_postgresql):
    assert live.is_postgresql()


def test_on_postgresql_the_version_update_returns_the_version_and_notifies(on_postgresql):
    sql = live.advance_version_sql("games_play", ['"state" = %s'])
    assert sql.startswith('UPDATE "games_play" SET "version" = "version" + 1, "state" = %s ')
    assert sql.endswith(
        f"RETURNING \"version\", pg_notify('{live.CHANNEL}', \"night_id\"::text || ' ' || "
        '"id"::text || \' \' || "version"::text)'
    )


def test_elsewhere_the_version_update_only_returns_the_version(monkeypatch):
    monkeypatch.setattr(connection, "vendor", "sqlite")
    sql = live.advance_version_sql("games_play")
    assert (
        sql
        == 'UPDATE "games_play" SET "version" = "version" + 1 WHERE "id" = %s RETURNING "version"'
    )


def test_a_new_or_deleted_play_wakes_its_own_and_its_nights_watchers_on_commit(
    db, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(connection, "vendor", "sqlite")  # on PostgreSQL: a NOTIFY instead
    monkeypatch.setattr(live, "hub", live.Hub())
    play = live.hub.watch("play:2", threaded=True)
    night = live.hub.watch("night:1", threaded=True)
    with django_capture_on_commit_callbacks(execute=True):
        live.notify(night_id=1, play_id=2)
        assert not play.event.is_set()  # not before the change commits
    assert play.event.is_set() and night.event.is_set()


def test_a_watcher_keeps_the_newest_version_told_of_each_play_until_it_takes_them():
    """Issue 29: what a stream is told comes with the notification."""
    hub = live.Hub()
    night = hub.watch("night:1", threaded=True)
    hub.publish("night:1", note=live.Change(3, 7))
    hub.publish("night:1", note=live.Change(3, 6))  # an older one, arriving late
    hub.publish("night:1", note=live.Change(4, 2))
    news = night.take()
    assert news.versions == {3: 7, 4: 2} and not news.reread
    assert night.take().versions == {}  # taken: nothing kept
    hub.publish("night:1", note=live.Change(5, 0))  # a play created or deleted: read again
    hub.publish("night:1")
    assert night.take().reread


def test_forgetting_a_watcher_touches_only_its_own_keys():
    hub = live.Hub()
    others = [hub.watch(f"play:{n}", threaded=True) for n in range(100)]
    leaving = hub.watch("play:1", "night:9", "user:3", threaded=True)
    hub.forget(leaving)
    assert "night:9" not in watchers_of(hub) and len(watchers_of(hub)) == 100
    assert hub.count() == len(others)


def test_the_channel_payloads_each_reach_their_streams():
    hub_before = live.hub
    live.hub = hub = live.Hub()
    try:
        play, user = hub.watch("play:2", threaded=True), hub.watch("user:5", threaded=True)
        session = hub.watch("session:abc", threaded=True)
        for payload in ("1 2 9", "user 5", "session abc", "nonsense", "user x", "1 2"):
            live.heard(payload)
        assert play.take().versions == {2: 9}
        assert user.take().recheck and session.take().ended
        live.heard("member 5")  # left a club: read again what they may see, and check
        news = user.take()
        assert news.reread and news.recheck
    finally:
        live.hub = hub_before
