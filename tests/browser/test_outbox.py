"""The outbox in a real browser (issue 28): a finished move waits on the phone while the network
is down, survives a reload, is stored once and in order when the network returns, and a refused
one stops the queue with the moves behind it kept (static/js/outbox.js)."""

import json

from playwright.sync_api import expect

from .test_live import MOVES
from .test_punto import logged_moves, start_punto

ILLEGAL = {**MOVES[1], "player": "Ana"}  # Ben's turn: refused by the referee


def type_move(page, move) -> None:
    """The move typed in the "Advanced" box and entered: it goes through the outbox."""
    box = page.locator("#move-json-box")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    page.fill("#move-json", json.dumps(move))
    page.click("#enter-json")


def stored_moves():
    from games.models import Move

    return list(Move.objects.order_by("seq").values_list("data", "key"))


def test_a_typed_move_goes_through_the_outbox_with_its_key(page, table):
    start_punto(page, table, ["Ana", "Ben"])
    type_move(page, MOVES[0])
    expect(logged_moves(page)).to_have_count(1)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
    expect(page.locator("#outbox")).to_be_hidden()
    ((data, key),) = stored_moves()
    assert data == MOVES[0] and len(key) == 32


def test_moves_entered_offline_wait_survive_a_reload_and_are_stored_once_in_order(page, table):
    start_punto(page, table, ["Ana", "Ben"])
    page.context.set_offline(True)
    type_move(page, MOVES[0])
    type_move(page, MOVES[1])
    outbox = page.locator("#outbox")
    expect(outbox).to_have_attribute("data-waiting", "2")
    expect(outbox.locator("[data-outbox-text]")).to_have_text(
        "No connection — 2 moves waiting; they will be checked when the connection returns."
    )
    expect(page.locator("#connection")).to_be_hidden()  # one banner, not two
    assert stored_moves() == []

    # Back online, but the moves cannot reach the server yet: a reload keeps them
    page.route("**/move/", lambda route: route.abort())
    page.context.set_offline(False)
    page.reload()
    expect(outbox).to_have_attribute("data-waiting", "2")
    assert stored_moves() == []

    page.unroute("**/move/")
    expect(logged_moves(page)).to_have_count(2)
    expect(outbox).to_have_attribute("data-waiting", "0")
    assert [data for data, _key in stored_moves()] == MOVES[:2]
    assert page.js_errors == []


def test_a_move_whose_answer_was_lost_is_sent_again_and_stored_once(page, table):
    start_punto(page, table, ["Ana", "Ben"])
    lost = []

    def answer_lost_once(route):
        if not lost:
            route.fetch()  # the server stores the move…
            lost.append(True)
            route.abort()  # …and its answer never reaches the phone
        else:
            route.continue_()

    page.route("**/move/", answer_lost_once)
    type_move(page, MOVES[0])
    expect(logged_moves(page)).to_have_count(1)
    expect(page.locator("#move-error")).to_have_count(0)  # not "someone else changed this play"
    assert len(stored_moves()) == 1 and lost == [True]


def test_a_refused_move_stops_the_queue_and_the_moves_behind_it_wait(page, table):
    start_punto(page, table, ["Ana", "Ben"])
    page.context.set_offline(True)
    type_move(page, ILLEGAL)
    type_move(page, MOVES[0])
    page.context.set_offline(False)

    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("Not entered:")
    expect(outbox).to_contain_text("1 more move waits behind it.")
    expect(outbox).to_have_attribute("data-waiting", "2")
    expect(page.locator("#move-error")).to_be_visible()  # the referee's word, where one looks
    assert stored_moves() == []

    # Dropped, it goes back into its box to be put right; the move behind it is sent
    page.click("#outbox-drop")
    expect(logged_moves(page)).to_have_count(1)
    expect(outbox).to_have_attribute("data-waiting", "0")
    assert json.loads(page.input_value("#move-json")) == ILLEGAL
    assert [data for data, _key in stored_moves()] == [MOVES[0]]


def test_an_undo_goes_through_the_outbox(page, table):
    start_punto(page, table, ["Ana", "Ben"])
    type_move(page, MOVES[0])
    expect(logged_moves(page)).to_have_count(1)
    page.click("#undo")
    expect(logged_moves(page)).to_have_count(0)
    expect(page.locator("#move-notice")).to_be_visible()


def test_a_refused_move_with_nothing_behind_it_is_said_and_blocks_nothing(page, table):
    start_punto(page, table, ["Ana", "Ben"])
    type_move(page, ILLEGAL)
    expect(page.locator("#move-error")).to_be_visible()
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
    type_move(page, MOVES[0])  # the next one goes as usual
    expect(logged_moves(page)).to_have_count(1)


def test_a_refresh_answered_after_a_refusal_at_the_same_version_keeps_the_refusal(page, table):
    """Back online, the live refresh and the outbox cross: the refresh asked for before the
    outbox's answer comes back after it, at the same version. It carries only what changed
    (static/js/play-parts.js), drawn without the refusal: it is not put in place, and the
    referee's word stays where one looks (CI saw it wiped, once, in Forget Venice)."""
    from games import services
    from games.models import Play

    start_punto(page, table, ["Ana", "Ben"])
    page.context.set_offline(True)
    services.record_move(play=Play.objects.get(), move=MOVES[0])  # another phone's
    type_move(page, MOVES[0])  # made before it: stale
    type_move(page, MOVES[1])  # waits behind it
    outbox = page.locator("#outbox")
    expect(outbox).to_have_attribute("data-waiting", "2")

    refreshes = []

    def refresh_late(route):
        answer = route.fetch()  # drawn now, before the outbox's answer…
        refreshes.append(answer)
        page.wait_for_timeout(1500)  # …and arriving after it
        route.fulfill(response=answer)

    page.route("**/live/**", refresh_late)
    page.context.set_offline(False)
    expect(page.locator("#move-error")).to_contain_text("Someone else changed this play")
    page.wait_for_timeout(2500)  # the late refresh has arrived
    assert refreshes and refreshes[0].status == 200
    expect(page.locator("#move-error")).to_contain_text("Someone else changed this play")
    expect(outbox).to_have_attribute("data-waiting", "2")
    assert page.js_errors == []
