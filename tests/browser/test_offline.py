"""A phone that loses its network (issue 28): it says so, and once the network is back it shows
the play as it stands within 2 s, without a reload (static/js/live-catchup.js)."""

import time

from playwright.sync_api import expect

from .conftest import assert_no_horizontal_scroll, in_view
from .test_live import MOVES, second_phone
from .test_punto import MATCH, logged_moves, start_punto, tap_move


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
        print(f"caught up {caught_up:.2f} s after the network returned")
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


def tap_offline(page, move) -> None:
    """A Punto move tapped while moves wait: who drew (the phone cannot know), the card, the
    cell, each with no request."""
    in_view(page, f"#punto-who button[data-value='{move['player']}']").click()
    in_view(page, f"button[name=card][value={move['card']}]").click()
    x, y = move["at"]
    in_view(page, f'button[name=at][value="{x},{y}"]').click()


def test_a_whole_match_with_the_network_cut_for_part_of_it(page, table):
    """A Punto match tapped on a phone that loses its network for three moves: they wait,
    counted on the screen, built without hints once the table shown is behind, and are stored
    once each, in order, when the network returns."""
    from games.models import Move

    start_punto(page, table, ["Ana", "Ben"])
    moves = MATCH["moves"]
    for index, move in enumerate(moves[:3]):
        tap_move(page, move, index)
    page.context.set_offline(True)
    tap_move(page, moves[3], 3, sent=False)  # from the options the page has: Ben's turn
    expect(page.locator("#punto-who")).to_be_visible()  # past them: who drew is asked
    tap_offline(page, moves[4])
    tap_offline(page, moves[5])
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "3")
    expect(logged_moves(page)).to_have_count(3)
    assert Move.objects.count() == 3
    page.context.set_offline(False)
    expect(logged_moves(page)).to_have_count(6)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
    expect(page.locator("#punto-who")).to_be_hidden()
    for index, move in enumerate(moves[6:], start=6):
        tap_move(page, move, index)
    assert [m.data for m in Move.objects.order_by("seq")] == moves
    assert len({m.key for m in Move.objects.all()}) == len(moves)  # each its own request
    assert page.js_errors == []


def test_a_buntherum_game_with_the_network_cut_for_part_of_it(page, table):
    """Buntherum's moves need no player: while the network is cut the card and the call are
    tapped as usual (every card and call offered, the referee judges them once sent)."""
    from games.models import Move

    from .test_buntherum import EXAMPLE, start_the_example
    from .test_buntherum import tap_move as tap_call

    start_the_example(page, table)
    moves = EXAMPLE["moves"]
    for move in moves[:2]:
        tap_call(page, move)
    page.context.set_offline(True)
    for waiting, move in enumerate(moves[2:5], start=1):
        in_view(page, f"button[name=card][value={move['card']}]").click()
        if "tie" in move:
            for name in move["tie"]:
                in_view(page, f"input[name=tied][value='{name}']").check()
            in_view(page, "#record-tie").click()
        else:
            in_view(page, f"input[name=caller][value='{move['call']['player']}']").check()
            in_view(page, f"#call-{move['call']['series']}").click()
        expect(page.locator("#outbox")).to_have_attribute("data-waiting", str(waiting))
    assert Move.objects.count() == 2
    page.context.set_offline(False)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
    for move in moves[5:]:
        tap_call(page, move)
    expect(page.locator("#result")).to_have_text("Winners: Ana")
    assert [m.data for m in Move.objects.order_by("seq")] == moves
    assert page.js_errors == []


def test_a_three_high_game_with_the_network_cut_for_part_of_it(page, table):
    """3-High while moves wait: who plays is tapped first, then the card, the side, the piece
    and "Enter the move", each with no request."""
    from games.models import Move

    from .conftest import log_in, start_play
    from .test_three_high import GAME, enter, tap_setup

    log_in(page)
    start_play(page, table["night"], "three-high", ["Ana", "Ben"])
    tap_setup(page, GAME["setup"]["pieces"])
    moves = GAME["moves"]
    enter(page, moves[0], expect_moves=1)
    page.context.set_offline(True)
    for move in moves[1:4]:
        if move is not moves[1]:  # the first from the options the page has; then who plays
            in_view(page, f"#th-who button[data-value='{move['player']}']").click()
        in_view(page, f"button[name=card][value='{move['card']}']").click()
        in_view(page, f"button[name=side][value={move['side']}]").click()
        in_view(page, f"#th-board button[value='{move['piece']}']").click()
        in_view(page, "#confirm-move").click()
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "3")
    assert Move.objects.count() == 1
    page.context.set_offline(False)
    expect(page.locator("#move-log li:not(.undone)")).to_have_count(4)
    enter(page, moves[4], expect_moves=5)
    assert [m.data for m in Move.objects.order_by("seq")] == moves
    assert page.js_errors == []


def test_a_tapped_move_the_referee_refuses_comes_back_to_be_put_right_with_one_tap(page, table):
    """Two moves tapped offline, the second wrong (the board shown was behind: Ben covers
    Ana's 1 with a 1). Back online the first is stored; the second, refused with nothing
    behind it, comes back into the builder with the refusal next to it, and one tap on the
    right cell enters it."""
    from games.models import Move

    start_punto(page, table, ["Ana", "Ben"])
    page.context.set_offline(True)
    tap_move(page, MOVES[0], 0, sent=False)
    tap_offline(page, {**MOVES[1], "at": MOVES[0]["at"]})
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "2")
    page.context.set_offline(False)
    expect(logged_moves(page)).to_have_count(1)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
    expect(page.locator("#move-error")).to_be_visible()
    expect(page.locator("#move-error")).to_be_in_viewport()
    # The refused move is back, tap for tap: Ben's card is chosen, its cell is tapped again.
    expect(page.locator("#punto-tapped")).to_be_visible()
    expect(page.locator("#punto-tapped strong")).not_to_be_empty()
    page.taps = 0
    x, y = MOVES[1]["at"]
    in_view(page, f'button[name=at][value="{x},{y}"]').click()
    expect(logged_moves(page)).to_have_count(2)
    assert page.taps == 1
    assert [m.data for m in Move.objects.order_by("seq")] == MOVES[:2]
    assert page.js_errors == []


def test_a_refused_tapped_move_with_moves_behind_it_is_put_right_in_its_place(page, table):
    """Three moves tapped offline, the second wrong (Ben covers Ana's 2 with a 2). Back online
    the first is stored and the queue stops at the wrong one, the move behind it waiting; the
    refusal is next to the controls and the wrong move is back in the builder, tap for tap (a
    reload keeps both). One tap on the right cell puts it right in its place: it is sent, then
    the move behind it, each stored once, in order."""
    from games.models import Move

    start_punto(page, table, ["Ana", "Ben"])
    tap_move(page, MOVES[0], 0)
    tap_move(page, MOVES[1], 1)
    page.context.set_offline(True)
    tap_move(page, MOVES[2], 2, sent=False)
    tap_offline(page, {**MOVES[3], "at": MOVES[2]["at"]})  # past the options: no hints
    behind = {"player": "Ana", "card": "red-3", "at": [-1, 0]}
    tap_offline(page, behind)
    outbox = page.locator("#outbox")
    expect(outbox).to_have_attribute("data-waiting", "3")
    page.context.set_offline(False)
    expect(outbox.locator("[data-outbox-text]")).to_have_text(
        "Not entered: Ben · orange 2 · G6. It is back below to be put right; or send it "
        "again as it was, or drop it. 1 more move waits behind it."
    )
    expect(outbox).to_have_attribute("data-waiting", "2")
    expect(page.locator("#move-error")).to_be_visible()
    expect(page.locator("#move-error")).to_be_in_viewport()
    # Ben's move is back, with the hints of the play it comes to; a reload keeps it all
    expect(page.locator("#punto-tapped strong")).not_to_be_empty()
    expect(page.locator("#punto-who")).to_be_hidden()
    page.reload()
    expect(outbox).to_have_attribute("data-waiting", "2")
    expect(outbox).to_contain_text("It is back below to be put right")
    expect(page.locator("#punto-tapped strong")).not_to_be_empty()
    assert [m.data for m in Move.objects.order_by("seq")] == MOVES[:3]
    page.taps = 0
    x, y = MOVES[3]["at"]
    in_view(page, f'button[name=at][value="{x},{y}"]').click()
    expect(logged_moves(page)).to_have_count(5)
    expect(outbox).to_have_attribute("data-waiting", "0")
    assert page.taps == 1
    assert [m.data for m in Move.objects.order_by("seq")] == [*MOVES[:4], behind]
    assert page.js_errors == []


def test_the_second_card_of_a_round_is_tapped_next_to_a_first_one_still_waiting(page, table):
    """The network cut at the first move of the play: the first card waits, and the table shown
    is still empty; the second card can still be tapped next to it (the cells one ring further,
    drawn for moves built while others wait), and both are stored once, in order."""
    from games.models import Move

    start_punto(page, table, ["Ana", "Ben"])
    moves = MATCH["moves"]
    page.context.set_offline(True)
    expect(page.locator("#connection")).to_be_visible()
    tap_move(page, moves[0], 0, sent=False)  # the centre, from the options the page has
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "1")
    # next to the card waiting, on the table shown still empty; the hint is not the empty
    # table's ("tap the centre cell") any more
    in_view(page, f"#punto-who button[data-value='{moves[1]['player']}']").click()
    in_view(page, f"button[name=card][value={moves[1]['card']}]").click()
    hints = page.locator("#punto-building p:visible")
    expect(hints.filter(has_text="centre cell")).to_have_count(0)
    expect(hints.filter(has_text="next to a card")).to_have_count(1)
    x, y = moves[1]["at"]
    in_view(page, f'button[name=at][value="{x},{y}"]').click()
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "2")
    assert Move.objects.count() == 0
    page.context.set_offline(False)
    expect(logged_moves(page)).to_have_count(2)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
    assert [m.data for m in Move.objects.order_by("seq")] == moves[:2]
    # the cells drawn for moves built while others wait are hidden again
    expect(page.locator("button[name=at][data-when=past]:visible")).to_have_count(0)
    assert page.js_errors == []


def test_a_card_is_tapped_beyond_the_drawn_ring_while_the_ones_before_it_wait(page, table):
    """The table drawn reaches one cell past the cards; with two cards waiting that widen it,
    the next goes one cell further still (the red 5 two columns past the last card stored),
    and all three are stored once, in order."""
    from games.models import Move

    start_punto(page, table, ["Ana", "Ben"])
    moves = MATCH["moves"]
    for index, move in enumerate(moves[:6]):  # the cards span columns 0 to 2
        tap_move(page, move, index)
    page.context.set_offline(True)
    tap_move(page, moves[6], 6, sent=False)  # red 9 in the ring, column 3
    tap_offline(page, moves[7])
    expect(page.locator('button[name=at][value="4,0"]')).to_have_attribute("data-when", "past")
    tap_offline(page, moves[8])  # red 5 at column 4: beyond the ring drawn
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "3")
    assert_no_horizontal_scroll(page)  # the ring further fits the phone
    page.context.set_offline(False)
    expect(logged_moves(page)).to_have_count(9)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
    assert [m.data for m in Move.objects.order_by("seq")] == moves[:9]
    assert page.js_errors == []
