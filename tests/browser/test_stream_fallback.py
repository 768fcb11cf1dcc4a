"""Issue 29: past the streams' limits a stream is refused (429; 503 past the process's
ceiling), and every page that follows a night live falls back to asking every few seconds: the
night's page and its read-only link too, not only the play's pages (tests/browser/test_live.py).
The read-only link is where the limit bites first: 50 holders of one link."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from .conftest import log_in

PUNTO = {"colours": {"Ana": ["red", "blue"], "Ben": ["orange", "green"]}}


def follows_while_refused(page, url: str, cards: str, night, players) -> None:
    """Open ``url`` with its stream refused; a play started elsewhere shows on it within a few
    seconds, and the page asks about once per 5 s meanwhile."""
    from games import services

    streams, asked = [], []
    page.on(
        "request",
        lambda request: (
            streams.append(request.url) if "/events/" in request.url else None,
            asked.append(request.url) if request.headers.get("hx-request") else None,
        ),
    )
    page.goto(url)
    start = time.monotonic()
    expect(page.locator(cards)).not_to_contain_text("Ana 0, Ben 0")
    page.wait_for_timeout(1_000)
    services.start_play(night=night, game="punto", players=players[:2], setup=PUNTO)
    expect(page.locator(cards)).to_contain_text("Ana 0, Ben 0", timeout=8_000)
    page.wait_for_timeout(11_000 - 1000 * (time.monotonic() - start))
    spent = time.monotonic() - start
    assert streams, "the page has a stream to be refused"
    assert len(asked) <= spent / 5 + 1, (len(asked), spent)


def test_the_nights_page_follows_it_with_its_stream_refused(page, table, settings):
    settings.LIVE_STREAMS_PER_SESSION = 0  # every stream of the session refused
    night = table["night"]
    log_in(page)
    follows_while_refused(page, f"/nights/{night.pk}/", "#night-plays", night, table["players"])
    assert page.js_errors == []


def test_a_read_only_link_follows_the_night_with_its_stream_refused(page, table, settings):
    from games import services

    settings.LIVE_STREAMS_PER_SHARE = 0  # the link's holders are too many
    night = table["night"]
    share = services.share_night(night=night, by=table["user"])
    follows_while_refused(page, f"/shared/{share.token}/", "#shared-night", night, table["players"])
    assert page.js_errors == []


def test_a_result_plays_table_screen_moves_on_with_its_stream_refused(page, table, settings):
    """A result play's table screen hears of the night's next play by asking every few seconds
    when its stream is refused, and moves on to that play's screen."""
    import re

    from games import services

    settings.LIVE_STREAMS_PER_SESSION = 0
    night, players = table["night"], table["players"]
    azul = services.add_catalogue_game(club=night.club, name="Azul")
    result = services.enter_result(
        night=night,
        game=azul.key,
        seats=[services.SeatResult(players[0], 3), services.SeatResult(players[1], 5)],
        by=table["user"],
    )
    log_in(page)
    page.goto(f"/plays/{result.pk}/table/")
    page.wait_for_timeout(1_000)
    play = services.start_play(night=night, game="punto", players=players[:2], setup=PUNTO)
    page.wait_for_url(re.compile(rf".*/plays/{play.pk}/table/$"), timeout=8_000)
    assert page.js_errors == []
