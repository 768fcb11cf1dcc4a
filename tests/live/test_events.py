"""The event source of a play (games.views.live, games.live): who may open it, what it sends on
connect and on each change, and when it stops.

Transactional tests: a change is announced once its transaction commits (PostgreSQL's NOTIFY
is delivered on commit), so the changes here really commit. The streams are read through
Django's async test client, inside ``async_to_sync`` so that the views' ORM calls share the
test's database connection.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import SyncToAsync, ThreadSensitiveContext, async_to_sync, sync_to_async
from django.db import connection
from django.test import AsyncClient
from django.urls import reverse

from games import live, services
from games.models import Membership
from games.views import live as views
from tests.conftest import PLAY_FIRST_MOVE

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 10  # seconds: a generous bound for a loaded machine; an event comes in milliseconds


@pytest.fixture(autouse=True)
def _slow_keepalive(settings):
    """Each keep-alive re-reads the version too: long here, so that only the wake-up a change
    sends can bring its event in time."""
    settings.LIVE_KEEPALIVE_SECONDS = 60


@pytest.fixture
def quick_keepalive(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 0.3


async def async_client_for(user) -> AsyncClient:
    client = AsyncClient()
    await client.aforce_login(user)
    return client


async def frames(response, until: str, count: int = 1) -> list[str]:
    """The stream's frames, read until ``count`` of them contain ``until`` (or WAIT passes)."""
    seen, found = [], 0
    stream = aiter(response.streaming_content)
    async with asyncio.timeout(WAIT):
        while found < count:
            chunk = (await anext(stream)).decode()
            seen.append(chunk)
            found += until in chunk
    return seen


def events(chunks: list[str]) -> list[int]:
    """The ids of the ``changed`` events among the frames (the play's versions)."""
    ids = []
    for chunk in chunks:
        if "event: changed" in chunk:
            ids.append(int(chunk.split("id: ", 1)[1].split("\n", 1)[0]))
    return ids


def test_on_connect_the_current_version_is_sent(play, member):
    async def run():
        response = await (await async_client_for(member)).get(
            reverse("play-events", args=[play.pk])
        )
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        assert response["Cache-Control"] == "no-cache"
        assert response["X-Accel-Buffering"] == "no"  # a proxy in front must not buffer it
        assert events(await frames(response, "event: changed")) == [play.version]

    async_to_sync(run)()


def test_a_page_at_the_current_version_gets_no_event_on_connect(play, member, quick_keepalive):
    """The page says the version it was rendered at: nothing new, nothing sent but keep-alives."""

    async def run():
        url = reverse("play-events", args=[play.pk]) + f"?v={play.version}"
        response = await (await async_client_for(member)).get(url)
        chunks = await frames(response, "keep-alive")
        assert events(chunks) == []

    async_to_sync(run)()


def test_last_event_id_behind_gets_the_current_version_at_once(play, member, quick_keepalive):
    """A phone that slept resumes with Last-Event-ID: it missed a move, so it is told at once."""
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    play.refresh_from_db()

    async def run():
        url = reverse("play-events", args=[play.pk]) + "?v=0"  # the header wins over ?v=
        client = await async_client_for(member)
        behind = await client.get(url, headers={"Last-Event-ID": str(play.version - 1)})
        assert events(await frames(behind, "event: changed")) == [play.version]
        current = await client.get(url, headers={"Last-Event-ID": str(play.version)})
        assert events(await frames(current, "keep-alive")) == []

    async_to_sync(run)()


def test_move_undo_and_abandon_each_send_the_new_version(play, member, owner):
    async def run():
        url = reverse("play-events", args=[play.pk]) + f"?v={play.version}"
        response = await (await async_client_for(member)).get(url)
        stream_frames = frames(response, "event: changed", count=3)
        task = asyncio.ensure_future(stream_frames)
        await asyncio.sleep(0.1)
        changes = [
            lambda: services.record_move(play=play, move=PLAY_FIRST_MOVE, by=owner),
            lambda: services.undo_last_move(play=play, by=owner),
            lambda: services.abandon_play(play=play, by=owner),
        ]
        for change in changes:
            await sync_to_async(change)()
            await asyncio.sleep(0.2)  # one event per change, not coalesced
        return events(await task)

    start = play.version
    assert async_to_sync(run)() == [start + 1, start + 2, start + 3]


def test_another_clubs_stream_is_a_404(play, outsider):
    async def run():
        return await (await async_client_for(outsider)).get(reverse("play-events", args=[play.pk]))

    assert async_to_sync(run)().status_code == 404


def test_an_anonymous_stream_is_a_404(play, client):
    async def run():
        return await AsyncClient().get(reverse("play-events", args=[play.pk]))

    assert async_to_sync(run)().status_code == 404


def test_removing_a_member_ends_their_stream(play, member, owner, quick_keepalive):
    async def run():
        url = reverse("play-events", args=[play.pk]) + f"?v={play.version}"
        response = await (await async_client_for(member)).get(url)
        stream = aiter(response.streaming_content)
        await asyncio.wait_for(anext(stream), WAIT)  # the retry line: connected
        membership = await Membership.objects.aget(user=member)
        await sync_to_async(services.remove_member)(membership=membership, by=owner)
        async with asyncio.timeout(WAIT):
            rest = [chunk async for chunk in stream]  # ends by itself
        return rest

    rest = async_to_sync(run)()
    assert all(b"event: changed" not in chunk for chunk in rest)


def test_leaving_the_club_ends_a_stream_at_once_not_at_its_keep_alive(play, member, owner):
    """Issue 32: a play page's stream pushes the play's parts without reading the database each
    time, so losing the right to see it is told, not found at the next keep-alive (60 s here):
    by the owners' page, the admin, or an account made inactive."""

    async def ended_after(change) -> list[bytes]:
        url = reverse("play-events", args=[play.pk]) + f"?v={play.version}"
        response = await (await async_client_for(member)).get(url)
        stream = aiter(response.streaming_content)
        await asyncio.wait_for(anext(stream), WAIT)  # the retry line: connected

        async def rest() -> list[bytes]:
            return [chunk async for chunk in stream]  # ends by itself

        reading = asyncio.ensure_future(rest())
        await asyncio.sleep(0.3)  # it has read the play, and waits
        await sync_to_async(change)()
        async with asyncio.timeout(WAIT):
            return await reading

    def removed():
        services.remove_member(membership=Membership.objects.get(user=member), by=owner)

    assert async_to_sync(ended_after)(removed) == []
    Membership.objects.create(club=play.club, user=member, role=Membership.Role.MEMBER)
    admin = async_to_sync(ended_after)(lambda: Membership.objects.filter(user=member).delete())
    assert admin == []
    Membership.objects.create(club=play.club, user=member, role=Membership.Role.MEMBER)

    def inactive():
        member.is_active = False
        member.save(update_fields=["is_active"])

    assert async_to_sync(ended_after)(inactive) == []


def test_a_deleted_play_ends_its_stream(play, member, owner):
    async def run():
        url = reverse("play-events", args=[play.pk]) + f"?v={play.version}"
        response = await (await async_client_for(member)).get(url)
        stream = aiter(response.streaming_content)
        await asyncio.wait_for(anext(stream), WAIT)
        await sync_to_async(services.delete_play)(play=play, by=owner)
        async with asyncio.timeout(WAIT):
            return [chunk async for chunk in stream]

    async_to_sync(run)()


def test_the_nights_stream_follows_its_plays(play, night, member, owner, players):
    async def run():
        response = await (await async_client_for(member)).get(
            reverse("night-events", args=[night.pk])
        )
        task = asyncio.ensure_future(frames(response, "event: changed", count=3))
        await asyncio.sleep(0.2)
        await sync_to_async(services.record_move)(play=play, move=PLAY_FIRST_MOVE, by=owner)
        await asyncio.sleep(0.2)
        await sync_to_async(services.start_play)(
            night=night, game=play.game, players=players, setup=play.setup, by=owner
        )
        return events(await task)

    first, after_move, after_new_play = async_to_sync(run)()
    assert first < after_move < after_new_play


# Through a night's read-only link (games.views.shares): no account, and it ends when withdrawn


def test_a_read_only_link_streams_its_nights_changes_without_an_account(play, night, owner):
    share = services.share_night(night=night, by=owner)

    async def run():
        response = await AsyncClient().get(reverse("shared-events", args=[share.token]))
        assert response.status_code == 200
        task = asyncio.ensure_future(frames(response, "event: changed", count=2))
        await asyncio.sleep(0.2)
        await sync_to_async(services.record_move)(play=play, move=PLAY_FIRST_MOVE, by=owner)
        return events(await task)

    first, after_move = async_to_sync(run)()
    assert first < after_move


def test_withdrawing_the_link_ends_its_stream_at_once(play, night, owner):
    """No keep-alive needed (60 s here): withdrawing wakes the waiting stream, which reads
    again and finds the link gone."""
    share = services.share_night(night=night, by=owner)
    shown = sum(p.version for p in night.plays.all()) + night.plays.count()

    async def run():
        url = reverse("shared-events", args=[share.token]) + f"?v={shown}"
        response = await AsyncClient().get(url)
        stream = aiter(response.streaming_content)
        await asyncio.wait_for(anext(stream), WAIT)  # the retry line: connected
        after = asyncio.ensure_future(anext(stream, None))
        await asyncio.sleep(0.3)  # the stream has read its version and waits
        assert not after.done()
        await sync_to_async(services.revoke_share)(share=share, by=owner)
        return await asyncio.wait_for(after, WAIT)

    assert async_to_sync(run)() is None  # the stream ended, with no event


def test_under_wsgi_the_same_stream_blocks_its_thread_and_ends_with_the_play(
    play, member_client, owner, quick_keepalive
):
    """The development server and the tests' live server speak WSGI: the stream is a plain
    generator there, reading through the request's own connection."""
    watching = live.hub.count()
    response = member_client.get(reverse("play-events", args=[play.pk]))
    assert response["Content-Type"] == "text/event-stream"
    stream = iter(response.streaming_content)
    assert next(stream) == views.HELLO
    assert events([next(stream).decode()]) == [play.version]
    assert live.hub.count() == watching + 1
    services.delete_play(play=play, by=owner)
    assert all(b"event: changed" not in frame for frame in stream)  # it ended
    assert live.hub.count() == watching


def test_an_open_stream_reads_without_holding_a_request_thread(play, member, quick_keepalive):
    """Django's ASGI handler gives each request a thread for its synchronous parts, kept while
    the response lasts: the stream lets it go and reads from the shared pool instead. (Run
    outside async_to_sync, whose own thread would take every such call.)"""

    async def run():
        client = await async_client_for(member)
        url = reverse("play-events", args=[play.pk]) + f"?v={play.version}"
        async with ThreadSensitiveContext() as request_context:
            response = await client.get(url)
            await frames(response, "keep-alive", count=2)  # a few reads
            return request_context in SyncToAsync.context_to_thread_executor

    assert asyncio.run(run()) is False


def test_an_open_stream_holds_no_pooled_connection_between_its_reads(play, member, quick_keepalive):
    """On PostgreSQL the stream's reads take a connection from the pool and give it back: an
    idle stream, or one whose event loop has ended, holds none (they held one each for good,
    and a few hundred streams or a few ended loops left the requests none)."""
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL has a connection pool")

    async def run():
        client = await async_client_for(member)
        url = reverse("play-events", args=[play.pk]) + f"?v={play.version}"
        async with ThreadSensitiveContext():
            response = await client.get(url)
            await frames(response, "keep-alive", count=2)  # a few reads

    asyncio.run(run())
    assert [wrapper for wrapper in views._pool_wrappers if wrapper.connection is not None] == []
