"""Live pages in a real browser: two phones on one play, and the night page, follow each other
without a reload (server-sent events, games.views.live)."""

import json
import re
import time

from django.db import transaction
from django.test import Client
from playwright.sync_api import expect

from tests.examples import EXAMPLES
from tests.servers import HOST, database_url_of_the_tests, free_port, server

from .conftest import PHONE, log_in, start_play
from .test_punto import logged_moves, start_punto, tap_move

MOVES = json.loads((EXAMPLES / "punto-1.json").read_text())["moves"]


def second_phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, locale="en-GB", **PHONE)
    context.set_default_timeout(10_000)
    return context, context.new_page()


def test_two_phones_follow_each_other(page, browser, live_server, table):
    start_punto(page, table, ["Ana", "Ben"])
    play_url = page.url
    context, other = second_phone(browser, live_server)
    night_context, night_page = second_phone(browser, live_server)
    try:
        log_in(other)
        other.goto(play_url)
        log_in(night_page)
        night_page.goto(f"/nights/{table['night'].pk}/")
        expect(night_page.locator("#night-plays")).to_contain_text("Ana 0, Ben 0")

        # A move entered on one phone appears on the other, and on the night's cards
        tap_move(page, MOVES[0], 0)
        expect(logged_moves(other)).to_have_count(1)
        expect(other.locator("#punto-turn")).to_have_text("Ben drew:")
        expect(other.locator("#live-notice")).to_have_count(0)

        # The other phone is half-way through Ben's move when Ben's move comes from the first:
        # its choices are cleared, and it says why next to the move form
        other.click(f"button[name=card][value={MOVES[1]['card']}]")
        expect(other.locator("#punto-tapped")).to_be_visible()
        tap_move(page, MOVES[1], 1)
        expect(logged_moves(other)).to_have_count(2)
        expect(other.locator("#live-notice")).to_have_text(
            "Ben's move was entered on another phone — your choices were cleared."
        )
        expect(other.locator("#punto-tapped")).to_be_hidden()
        expect(other.locator("#punto-turn")).to_have_text("Ana drew:")

        # An undo on the first phone appears on the other
        page.click("#undo")
        expect(other.locator("#move-log li.undone")).to_have_count(1)
        expect(logged_moves(other)).to_have_count(1)
        expect(other.locator("#punto-turn")).to_have_text("Ben drew:")

        # A change that leaves the position as it was (a move and its undo, committed together)
        # keeps the other phone's half-built move, on the fresh page
        other.click(f"button[name=card][value={MOVES[1]['card']}]")
        expect(other.locator("#punto-tapped")).to_be_visible()
        from games import services
        from games.models import Play

        play = Play.objects.get()
        with transaction.atomic():
            services.record_move(play=play, move=MOVES[1])
            services.undo_last_move(play=play)
        expect(other.locator("#move-log li.undone")).to_have_count(2)
        expect(other.locator("#punto-tapped")).to_be_visible()
        expect(other.locator("#live-notice")).to_have_count(0)
        # ...and it can still be finished, which the first phone sees
        x, y = MOVES[1]["at"]
        other.click(f'button[name=at][value="{x},{y}"]')
        expect(logged_moves(other)).to_have_count(2)
        expect(logged_moves(page)).to_have_count(2)
        expect(night_page.locator("#night-plays")).to_contain_text("in progress", ignore_case=True)

        # Abandoning on one phone: the other shows it, its move form gone
        page.click("#abandon")  # then the confirmation step
        page.click("#confirm-abandon")
        page.wait_for_url(re.compile(r".*/plays/\d+/$"))
        expect(other.locator("#play-status")).to_have_text("abandoned", ignore_case=True)
        expect(other.locator("#move-form")).to_have_count(0)
        expect(night_page.locator("#night-plays")).to_contain_text("abandoned", ignore_case=True)
        assert page.js_errors == []
    finally:
        context.close()
        night_context.close()


def test_the_other_phone_shows_a_move_from_its_event_without_fetching(
    page, browser, live_server, table
):
    """Issue 32: the parts that changed come in the stream's event itself, and the watching
    phone puts them in place without a request of its own; what it shows is its own to use (the
    next move entered from it is stored: its token and keys are its own)."""
    start_punto(page, table, ["Ana", "Ben"])
    context, other = second_phone(browser, live_server)
    try:
        log_in(other)
        other.goto(page.url)
        expect(other.locator("#punto-turn")).to_have_text("Ana drew:")
        errors = []
        other.on("pageerror", lambda error: errors.append(str(error)))
        fetched = []
        other.on("request", lambda request: "/live/" in request.url and fetched.append(request))
        other.evaluate("window.sameDocument = true")

        tap_move(page, MOVES[0], 0)
        expect(logged_moves(other)).to_have_count(1)
        expect(other.locator("#punto-turn")).to_have_text("Ben drew:")
        expect(other.locator("#live-notice")).to_have_count(0)
        assert fetched == []

        tap_move(other, MOVES[1], 1)
        expect(logged_moves(page)).to_have_count(2)
        expect(page.locator("#punto-turn")).to_have_text("Ana drew:")
        assert other.evaluate("window.sameDocument") is True  # not reloaded

        # The phone that entered a move appended its line to its log, in step with the log
        # the others show (its fingerprint chained over its lines): the next move from another
        # phone comes to it in the event as well, one line appended, nothing fetched.
        fetched_by_mover = []
        page.on("request", lambda r: "/live/" in r.url and fetched_by_mover.append(r))
        tap_move(page, MOVES[2], 2)
        expect(logged_moves(other)).to_have_count(3)
        tap_move(other, MOVES[3], 3)
        expect(logged_moves(page)).to_have_count(4)
        assert fetched_by_mover == []
        for phone in (page, other):
            expect(phone.locator("#move-log > li")).to_have_count(4)
        fingerprints = {
            phone.locator("#move-log").get_attribute("data-h") for phone in (page, other)
        }
        assert len(fingerprints) == 1
        assert errors == []
    finally:
        context.close()


def test_the_table_screen_follows_the_play_then_the_next_one(page, desktop_page, table):
    start_punto(page, table, ["Ana", "Ben"])
    play_id = int(re.search(r"/plays/(\d+)/", page.url).group(1))
    log_in(desktop_page)
    desktop_page.goto(f"/plays/{play_id}/table/")
    expect(desktop_page.locator("#last-move")).to_contain_text("No move yet")

    tap_move(page, MOVES[0], 0)
    expect(desktop_page.locator("#last-move")).to_contain_text("Ana plays")
    page.click("#abandon")  # then the confirmation step
    page.click("#confirm-abandon")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    expect(desktop_page.locator("#play-status")).to_have_text("abandoned", ignore_case=True)

    # the night's next play: the table screen moves on to it by itself
    start_punto(page, table, ["Ben", "Ana"])
    following = int(re.search(r"/plays/(\d+)/", page.url).group(1))
    desktop_page.wait_for_url(re.compile(rf".*/plays/{following}/table/$"))
    expect(desktop_page.locator("#last-move")).to_contain_text("No move yet")
    assert desktop_page.js_errors == []


def test_a_read_only_link_follows_the_night_without_an_account(page, browser, live_server, table):
    """The owner makes the night's link on a phone; someone without an account opens it on a
    laptop, follows a move on the night's cards and on the table screen, and loses it when the
    owner withdraws the link."""
    start_punto(page, table, ["Ana", "Ben"])
    play_url = page.url
    page.goto(f"/nights/{table['night'].pk}/")
    page.click(".night-share summary")
    page.click("text=Make a read-only link")
    link = page.locator("#share-url").input_value()
    assert "/shared/" in link

    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    try:
        guest = context.new_page()
        guest.goto(link)
        expect(guest.locator("#shared-night")).to_contain_text("Ana 0, Ben 0")
        expect(guest.locator(".site-header")).not_to_contain_text("Browser club")

        page.goto(play_url)
        tap_move(page, MOVES[0], 0)
        guest.click(".play-cards a")  # the play's table screen, through the link
        expect(guest.locator("#last-move")).to_contain_text("Ana plays")
        tap_move(page, MOVES[1], 1)
        expect(guest.locator("#last-move")).to_contain_text("Ben plays")  # live
        expect(guest.locator("#table-screen form")).to_have_count(0)

        guest.goto(link)
        page.click("#abandon")  # then the confirmation step
        page.click("#confirm-abandon")
        expect(guest.locator("#shared-night")).to_contain_text("abandoned")  # live

        page.goto(f"/nights/{table['night'].pk}/")
        page.click("text=Withdraw the link")
        expect(page.locator(".messages")).to_contain_text("withdrawn")
        assert guest.goto(link).status == 404
        assert guest.goto(guest.url).status == 404
    finally:
        context.close()
    assert page.js_errors == []


def test_a_phone_catches_up_after_the_server_restarts(browser, table):
    """The app server goes away while a phone shows the play, a move is entered meanwhile (by
    another server, here straight in the database), the server comes back on the same address:
    the phone reconnects by itself and shows the move, without a reload."""
    from games import services
    from games.models import Play

    database_url = database_url_of_the_tests()
    port = free_port()
    context = browser.new_context(base_url=f"http://{HOST}:{port}", locale="en-GB", **PHONE)
    context.set_default_timeout(15_000)
    # Signed in by its session (the tests' quick password hasher is theirs alone)
    client = Client()
    client.force_login(table["user"])
    session = client.cookies["sessionid"].value
    context.add_cookies([{"name": "sessionid", "value": session, "url": f"http://{HOST}:{port}"}])
    try:
        phone = context.new_page()
        with server(database_url, port):
            start_play(phone, table["night"], "punto", ["Ana", "Ben"])
            phone.click("#start-play")
            expect(phone.locator("#punto-turn")).to_have_text("Ana drew:")
            phone.evaluate("window.sameDocument = true")
        play = Play.objects.get()
        services.record_move(play=play, move=MOVES[0])  # while no server runs
        with server(database_url, port):
            back = time.monotonic()
            expect(logged_moves(phone)).to_have_count(1)
            caught_up = time.monotonic() - back
            print(f"caught up {caught_up:.2f} s after the server came back")
            assert caught_up < 2.0, f"caught up in {caught_up:.2f} s"  # issue 28
            expect(phone.locator("#punto-turn")).to_have_text("Ben drew:")
            assert phone.evaluate("window.sameDocument") is True  # not reloaded
            tap_move(phone, MOVES[1], 1)  # and the phone enters the next move as usual
    finally:
        context.close()


def test_a_change_announced_while_the_phone_waits_for_its_own_move_is_fetched_after_it(
    page, table, monkeypatch
):
    """The race the page's own move and the stream run: the phone's move is answered (its page
    rendered), then another phone's move commits and is announced before that answer lands, so
    the stream's refresh gives way (hx-sync) — and the page fetches the play again once its own
    answer has settled (static/js/live-catchup.js), instead of waiting for the next change."""
    from games import live, services
    from games.models import Play

    start_punto(page, table, ["Ana", "Ben"])
    play = Play.objects.get()
    monkeypatch.setattr(
        live.hub, "publish", lambda *keys, **note: None
    )  # the stream is told by hand
    answered = []

    def after_the_answer_another_move(route):
        response = route.fetch()
        if "move_json" in (route.request.post_data or "") and not answered:
            answered.append(True)
            services.record_move(play=play, move=MOVES[1])  # Ben's, from another phone
        route.fulfill(response=response)

    page.route("**/move/", after_the_answer_another_move)
    # what the stream says of Ben's move, heard while this phone's own move is on its way
    page.evaluate(
        "v => document.dispatchEvent(new CustomEvent('htmx:sseMessage',"
        " {detail: {lastEventId: String(v)}}))",
        play.version + 2,
    )
    page.click(f"button[name=card][value={MOVES[0]['card']}]")
    x, y = MOVES[0]["at"]
    page.click(f'button[name=at][value="{x},{y}"]')
    expect(logged_moves(page)).to_have_count(2)
    expect(page.locator("#punto-turn")).to_have_text("Ana drew:")


def test_the_phone_that_entered_a_move_fetches_nothing_when_its_event_comes(page, table):
    """Its move's answer showed the play at that version already: the event with the parts
    that changed, coming after it, asks for nothing (its fetch would answer 204)."""
    start_punto(page, table, ["Ana", "Ben"])
    fetched = []
    page.on("request", lambda request: "/live/" in request.url and fetched.append(request))
    for done, move in enumerate(MOVES[:3]):
        tap_move(page, move, done)
        page.wait_for_timeout(500)  # its event has come
    assert fetched == []
    assert page.js_errors == []


def test_a_refresh_answered_after_the_pages_own_refused_move_leaves_the_refusal(
    page, table, monkeypatch
):
    """A refresh of the page goes out, then the page's own move, made before another phone's,
    is refused (stale) and says so; the refresh's answer, at the same version, comes back after
    it: it is turned away, and the refusal stays on the screen (it wiped it: the parts of an
    answer were put in place even when the page had turned the answer away)."""
    from games import live, services
    from games.models import Play

    start_punto(page, table, ["Ana", "Ben"])
    monkeypatch.setattr(live.hub, "publish", lambda *keys, **note: None)  # the stream is quiet
    services.record_move(play=Play.objects.get(), move=MOVES[0])  # another phone's, unheard
    held = []
    page.route("**/live/**", lambda route: held.append(route))  # its answer held back
    page.evaluate("htmx.trigger(document.getElementById('play-live'), 'sse:changed')")
    page.wait_for_function("() => document.querySelector('#play-live.htmx-request')")
    tap_move(page, MOVES[0], 0, sent=False)  # the same move, made at the older version
    expect(page.locator("#move-error")).to_contain_text("Someone else changed this play")
    (refresh,) = held
    refresh.continue_()
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    page.wait_for_timeout(300)  # its swap would be done by now
    expect(page.locator("#move-error")).to_contain_text("Someone else changed this play")
    assert page.js_errors == []


def test_a_refused_stream_falls_back_to_asking_every_few_seconds(page, table, settings):
    """Issue 29: past the streams' limits the stream is refused (429): the page still shows a
    move made on another phone, by asking for the play every 5 s, not every second, and the
    stream is tried again ever more slowly."""
    from games import services
    from games.models import Play

    settings.LIVE_STREAMS_PER_SESSION = 0  # every stream refused
    asked, streams = [], []
    start_punto(page, table, ["Ana", "Ben"])
    play = Play.objects.get()
    page.on(
        "request",
        lambda request: (
            asked.append(time.monotonic()) if "/live/" in request.url else None,
            streams.append(time.monotonic()) if "/events/" in request.url else None,
        ),
    )
    start = time.monotonic()
    page.wait_for_timeout(1_000)
    services.record_move(play=play, move=MOVES[0])  # on another phone
    expect(logged_moves(page)).to_have_count(1, timeout=8_000)
    page.wait_for_timeout(11_000 - 1000 * (time.monotonic() - start))
    spent = time.monotonic() - start
    # about one ask per 5 s (it was one a second), and a few tries of the stream at most
    assert len(asked) <= spent / 5 + 1, (len(asked), spent)
    assert len(streams) <= 6, (len(streams), spent)
