"""Streams have limits, and end with their session (issue 29, findings 2 and 4): at most
``LIVE_STREAMS_PER_SESSION`` per browser session, ``LIVE_STREAMS_PER_ACCOUNT`` per account and
``LIVE_STREAMS_PER_SHARE`` per read-only link, then 429; past the process's ceiling, 503; a
refused stream asks the browser to wait (Retry-After) and is not counted. A logout ends the
session's streams at once, a new password every other session's. One account held 1,000 open
streams and one share link 3,000, and streams outlived a logout or a password change."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient
from django.urls import reverse

from games import live, services
from tests.live.test_events import WAIT, async_client_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _slow_keepalive(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 60  # only a notification can end a stream in time


@pytest.fixture(autouse=True)
def _own_slots(monkeypatch):
    """The count of this test's streams alone (another test's may still be open)."""
    monkeypatch.setattr(live, "slots", live.Slots())


def at(play) -> str:
    """The play's stream, from a page at its version: nothing is sent until it changes."""
    return reverse("play-events", args=[play.pk]) + f"?v={play.version}"


async def opened(client, url: str):
    """A stream, read until it is connected (its retry line); its response and its frames."""
    response = await client.get(url)
    if response.status_code != 200:
        return response, None
    stream = aiter(response.streaming_content)
    await asyncio.wait_for(anext(stream), WAIT)
    return response, stream


async def close(*responses) -> None:
    for response in responses:
        await sync_to_async(response.close)()


def test_a_session_holds_at_most_its_limit_of_streams(play, member, settings):
    settings.LIVE_STREAMS_PER_SESSION = 2
    url = at(play)

    async def run():
        client = await async_client_for(member)
        first, _ = await opened(client, url)
        second, _ = await opened(client, reverse("night-events", args=[play.night_id]))
        refused, _ = await opened(client, url)
        assert refused.status_code == 429 and refused["Retry-After"] == "5"
        assert live.slots.count() == 2  # the refused one is not counted
        await close(first)  # a page closed: its slot is given back
        again, _ = await opened(client, url)
        assert again.status_code == 200
        await close(second, again)

    async_to_sync(run)()
    assert live.slots.count() == 0


def test_an_account_holds_at_most_its_limit_across_its_sessions(play, member, settings):
    settings.LIVE_STREAMS_PER_ACCOUNT = 2
    url = at(play)

    async def run():
        phone, laptop = await async_client_for(member), await async_client_for(member)
        kept = [(await opened(phone, url))[0], (await opened(laptop, url))[0]]
        refused, _ = await opened(phone, url)
        assert refused.status_code == 429
        await close(*kept)

    async_to_sync(run)()


def test_a_read_only_link_holds_at_most_its_limit(play, night, owner, settings):
    settings.LIVE_STREAMS_PER_SHARE = 1
    share = services.share_night(night=night, by=owner)
    url = reverse("shared-events", args=[share.token])

    async def run():
        kept, _ = await opened(AsyncClient(), url)
        refused, _ = await opened(AsyncClient(), url)  # anyone else holding the link
        assert refused.status_code == 429
        await close(kept)

    async_to_sync(run)()


def test_past_the_process_ceiling_a_stream_is_a_503(play, member, owner, settings):
    settings.LIVE_STREAMS_PER_PROCESS = 1
    url = at(play)

    async def run():
        kept, _ = await opened(await async_client_for(member), url)
        refused, _ = await opened(await async_client_for(owner), url)
        assert refused.status_code == 503 and refused["Retry-After"] == "5"
        await close(kept)

    async_to_sync(run)()


def test_the_process_ceiling_stays_below_the_file_descriptor_limit(settings, monkeypatch):
    settings.LIVE_STREAMS_PER_PROCESS = None
    monkeypatch.setattr(live.resource, "getrlimit", lambda which: (1024, 4096))
    assert live.process_ceiling() == 1024 - live.FD_RESERVE


def test_a_logout_ends_the_sessions_streams_at_once(play, member):
    async def run():
        client = await async_client_for(member)
        response, stream = await opened(client, at(play))
        other, other_stream = await opened(await async_client_for(member), at(play))
        await client.post(reverse("logout"))
        async with asyncio.timeout(WAIT):
            rest = [chunk async for chunk in stream]  # ends by itself, long before a keep-alive
        # the same account's other session is not logged out: its stream goes on
        waiting = asyncio.ensure_future(anext(other_stream, None))
        await asyncio.sleep(0.3)
        assert not waiting.done()
        waiting.cancel()
        await close(response, other)
        return rest

    assert async_to_sync(run)() == []


def test_a_new_password_ends_every_other_sessions_streams(play, member):
    async def run():
        response, stream = await opened(await async_client_for(member), at(play))

        def change_password():
            member.set_password("a-new-pass-phrase-2026")
            member.save()

        await sync_to_async(change_password)()
        async with asyncio.timeout(WAIT):
            rest = [chunk async for chunk in stream]
        await close(response)
        return rest

    assert async_to_sync(run)() == []


def test_an_expired_session_ends_its_stream_at_the_keep_alive(play, member, settings):
    settings.LIVE_KEEPALIVE_SECONDS = 0.3
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    async def run():
        client = await async_client_for(member)
        response, stream = await opened(client, at(play))
        await Session.objects.aupdate(expire_date=timezone.now())
        async with asyncio.timeout(WAIT):
            rest = [chunk async for chunk in stream]
        await close(response)
        return rest

    assert all(b"event: changed" not in chunk for chunk in async_to_sync(run)())


def test_the_session_check_reads_when_the_session_expires(member, client):
    """The check tells when the session expires, so that the stream checks again then."""
    import time

    from games.views import live as views

    client.force_login(member)
    session = views._Session(client.session.session_key, member.pk)
    expires = session.holder(views._django_connection)()
    assert expires is not None
    assert abs(expires - (time.time() + client.session.get_expiry_age())) < 60
    member.set_password("another-pass-phrase-2026")
    member.save()
    assert session.holder(views._django_connection)() is None
