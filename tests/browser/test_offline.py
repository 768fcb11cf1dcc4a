"""A phone that loses its network (issue 28): it says so, and once the network is back it shows
the play as it stands within 2 s, without a reload (static/js/live-catchup.js)."""

import time

from playwright.sync_api import expect

from .test_live import MOVES, second_phone
from .test_punto import logged_moves, start_punto, tap_move


def test_a_phone_that_was_offline_says_so_and_catches_up_within_two_seconds(
    page, browser, live_server, table
):
    from games import services
    from games.models import Play

    start_punto(page, table, ["Ana", "Ben"])
    context, watcher = second_phone(browser, live_server)
    try:
        from .conftest import log_in

        log_in(watcher)
        watcher.goto(page.url)
        expect(watcher.locator("#punto-turn")).to_have_text("Ana drew:")
        expect(watcher.locator("#connection")).to_be_hidden()
        watcher.evaluate("window.sameDocument = true")

        context.set_offline(True)
        expect(watcher.locator("#connection")).to_be_visible()
        expect(watcher.locator("#connection")).to_contain_text("No connection")
        # Two moves entered on the other phone while this one has no network
        tap_move(page, MOVES[0], 0)
        services.record_move(play=Play.objects.get(), move=MOVES[1])
        watcher.wait_for_timeout(1500)  # the announcements come and go unheard
        expect(logged_moves(watcher)).to_have_count(0)

        context.set_offline(False)
        back = time.monotonic()
        expect(logged_moves(watcher)).to_have_count(2, timeout=2_000)
        caught_up = time.monotonic() - back
        expect(watcher.locator("#punto-turn")).to_have_text("Ana drew:")
        expect(watcher.locator("#connection")).to_be_hidden()
        assert watcher.evaluate("window.sameDocument") is True  # not reloaded
        assert caught_up < 2.0, f"caught up in {caught_up:.2f} s"
    finally:
        context.close()


def test_a_move_without_network_waits_on_the_phone_and_is_sent_when_it_returns(page, table):
    start_punto(page, table, ["Ana", "Ben"])
    page.context.set_offline(True)
    expect(page.locator("#connection")).to_be_visible()
    tap_move(page, MOVES[0], 0, sent=False)  # the card, then its cell: no request for either
    outbox = page.locator("#outbox")
    expect(outbox).to_have_attribute("data-waiting", "1")
    expect(outbox.locator("[data-outbox-text]")).to_have_text(
        "No connection — 1 move waiting; it will be checked when the connection returns."
    )
    page.context.set_offline(False)
    expect(logged_moves(page)).to_have_count(1)
    expect(outbox).to_be_hidden()
    expect(page.locator("#connection")).to_be_hidden()
