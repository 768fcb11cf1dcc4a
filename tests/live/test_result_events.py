"""Result plays on the live pages (games.live): a result entered, a duration corrected and a BG
Stats history brought in each tell the night's open pages, as a move does (issue 31)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient
from django.urls import reverse

from games import services
from tests.live.test_events import async_client_for, events, frames

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _slow_keepalive(settings):
    """Only the wake-up a change sends can bring its event in time."""
    settings.LIVE_KEEPALIVE_SECONDS = 60


def test_a_result_entered_and_its_duration_corrected_reach_the_nights_page(
    night, member, owner, players
):
    azul = services.add_catalogue_game(club=night.club, name="Azul")

    async def run():
        response = await (await async_client_for(member)).get(
            reverse("night-events", args=[night.pk])
        )
        task = asyncio.ensure_future(frames(response, "event: changed", count=3))
        await asyncio.sleep(0.2)
        play = await sync_to_async(services.enter_result)(
            night=night,
            game=azul.key,
            seats=[services.SeatResult(players[0], 3), services.SeatResult(players[1], 5)],
            by=owner,
        )
        await asyncio.sleep(0.2)
        await sync_to_async(services.set_duration)(play=play, minutes=25, by=owner)
        return events(await task)

    first, after_result, after_duration = async_to_sync(run)()
    assert first < after_result < after_duration


def test_a_result_reaches_the_read_only_link(night, owner, players):
    azul = services.add_catalogue_game(club=night.club, name="Azul")
    share = services.share_night(night=night, by=owner)

    async def run():
        response = await AsyncClient().get(reverse("shared-events", args=[share.token]))
        task = asyncio.ensure_future(frames(response, "event: changed", count=2))
        await asyncio.sleep(0.2)
        await sync_to_async(services.enter_result)(
            night=night, game=azul.key, seats=[services.SeatResult(players[0], 3)], by=owner
        )
        return events(await task)

    first, after_result = async_to_sync(run)()
    assert first < after_result
