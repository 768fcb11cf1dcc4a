"""Punto in a real browser: setup colours, each move as two taps (card, cell), undo, the sheet;
team play for four and another number of rounds to win."""

import json
import re

from playwright.sync_api import expect

from tests.examples import EXAMPLES

from .conftest import RESULTS, assert_no_horizontal_scroll, in_view, log_in, start_play

#: The setup page tests/browser/test_layout.py measures (tests/per_game.py): two players, two
#: colours each.
LAYOUT_SEATS = 2
MATCH = json.loads((EXAMPLES / "punto-1.json").read_text())


def logged_moves(page):
    return page.locator("#move-log li:not(.undone) .move-text")


def tap_move(page, move, done: int, *, sent: bool = True) -> None:
    """Tap the card drawn, then the cell (or "blocked"); wait for the move to be logged
    (unless not ``sent``: it waits in the outbox)."""
    before = getattr(page, "taps", 0)
    in_view(page, f"button[name=card][value={move['card']}]").click()
    expect(page.locator("#punto-tapped")).to_be_visible()
    if move.get("blocked"):
        in_view(page, "#punto-blocked").click()
    else:
        x, y = move["at"]
        in_view(page, f'button[name=at][value="{x},{y}"]').click()
    if sent:
        expect(logged_moves(page)).to_have_count(done + 1)
    assert page.taps - before == 2  # the card drawn, then its cell


def start_punto(page, table, seats):
    log_in(page)
    start_play(page, table["night"], "punto", seats)
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))


def test_a_whole_match_tapped_in_on_a_phone(page, table):
    start_punto(page, table, ["Ana", "Ben"])
    expect(page.locator("#punto-turn")).to_have_text("Ana drew:")
    expect(page.locator("#punto-empty")).to_be_visible()

    moves = MATCH["moves"]
    for index, move in enumerate(moves[:7]):
        tap_move(page, move, index)
    # the table is now 4 wide: a drafted card shows its legal cells, covering included
    page.click("button[name=card][value=orange-4]")
    # red and orange 1, 2, 3, offered as soon as the card is tapped (no request)
    expect(page.locator("button.punto-card:enabled")).to_have_count(6)
    assert_no_horizontal_scroll(page)
    page.screenshot(path="/tmp/punto/phone-draft.png", full_page=True)
    page.click("#punto-change-card")
    expect(page.locator("#punto-turn")).to_have_text("Ben drew:")

    # one illegal move, typed as JSON: the referee's message, nothing stored
    page.click("#move-json-box summary")
    page.fill("#move-json", json.dumps({"player": "Ben", "card": "orange-4", "at": [5, 5]}))
    page.click("button[name=json]")
    expect(page.locator("#move-error")).to_contain_text(
        "Round 1, card 8: the orange 4 cannot go at K11"
    )
    expect(logged_moves(page)).to_have_count(7)
    expect(page.locator("#move-error")).to_be_in_viewport()  # next to the box that caused it
    page.evaluate("window.scrollTo(0, 0)")  # the JSON box is below the taps: back to the top

    # one undo: the last move is struck through, the red 9 leaves the table
    in_view(page, "#undo").click()
    expect(page.locator("#move-log li.undone")).to_have_count(1)
    expect(page.locator("#move-notice")).to_be_in_viewport()
    expect(logged_moves(page)).to_have_count(6)
    expect(page.locator("[data-card=red-9]")).to_have_count(0)
    expect(page.locator("#punto-turn")).to_have_text("Ana drew:")
    tap_move(page, moves[6], 6)

    for index, move in enumerate(moves[7:], start=7):
        tap_move(page, move, index)
        if index == 8:  # Ana's red 1-2-3-9-5 line wins round 1
            expect(page.locator("#punto-round")).to_contain_text("Round 2 · Ben to play")
            expect(page.locator("#punto-won [data-player=Ana] .punto-wins")).to_have_text("1")

    expect(page.locator("#result")).to_have_text("Winners: Ana")
    expect(page.locator("#play-status")).to_have_text("finished", ignore_case=True)
    expect(page.locator("#scores [data-player=Ana] .score")).to_have_text("2")
    expect(page.locator("#scores [data-player=Ben] .score")).to_have_text("0")
    expect(page.locator("#move-form")).to_have_count(0)
    rounds = page.locator("#punto-rounds tbody tr")
    expect(rounds).to_have_count(2)
    expect(rounds.nth(0)).to_contain_text("Ana")
    expect(rounds.nth(0)).to_contain_text("red 9")
    expect(rounds.nth(1)).to_contain_text("blue 8")
    assert_no_horizontal_scroll(page)
    # Each entry appended its line to the log on the screen (issue 19): the same log, in the
    # same order, as the page drawn whole.
    log = page.locator("#move-log li")
    entries = [(li.get_attribute("data-seq"), li.inner_text()) for li in log.all()]
    assert [int(seq) for seq, _ in entries] == list(range(len(moves) + 1))
    page.reload()
    assert [(li.get_attribute("data-seq"), li.inner_text()) for li in log.all()] == entries

    page.click("text=Score sheet")
    page.wait_for_url(re.compile(r".*/sheet/$"))
    expect(page.locator("#punto-won [data-player=Ana] .punto-wins")).to_have_text("2")
    expect(page.locator("table.scores tr.winner")).to_contain_text("Ana")
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []


def test_a_whole_match_tapped_in_on_a_phone_in_french(page, table):
    """The example match in French, two taps a move, every tap already on the screen."""
    log_in(page)
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("html[lang=fr]")
    start_play(page, table["night"], "punto", ["Ana", "Ben"])
    in_view(page, "#start-play").click()
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    expect(page.locator("#punto-turn")).to_have_text("Ana a retourné :")
    for index, move in enumerate(MATCH["moves"]):
        tap_move(page, move, index)  # asserts two taps, each in view
        if index == 8:  # Ana's red line wins round 1
            expect(page.locator("#punto-round")).to_contain_text("Manche 2")
        if index == 12:
            assert_no_horizontal_scroll(page)
            page.screenshot(path=str(RESULTS / "punto-phone-fr-mid-game.png"))
    expect(page.locator("#result")).to_have_text("Vainqueurs : Ana")
    expect(page.locator("#result")).to_be_in_viewport(ratio=1)
    expect(page.locator("#scores [data-player=Ana] .score")).to_have_text("2")
    expect(page.locator("#move-form")).to_have_count(0)
    assert_no_horizontal_scroll(page)
    page.screenshot(path=str(RESULTS / "punto-phone-fr-finished.png"))
    assert page.js_errors == []


def test_three_players_in_french_on_a_desktop(desktop_page, table):
    page = desktop_page
    log_in(page)
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("text=Vos clubs")
    start_play(page, table["night"], "punto", ["Ana", "Ben", "Chloé"])
    # three players: one colour each, the fourth is neutral; Ana takes green instead of red
    expect(page.locator("#punto-colours")).to_contain_text("neutre")
    page.select_option("select[name=colour-0-0]", "green")
    page.select_option("select[name=colour-2-0]", "green")
    page.click("#start-play")
    expect(page.locator("#setup-error")).to_contain_text(
        "Le vert est donné deux fois (Ana et Chloé)"
    )
    page.select_option("select[name=colour-2-0]", "red")
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))

    expect(page.locator("#punto-round")).to_have_text("Manche 1 · À Ana de jouer")
    # Ben keeps orange, so blue is neutral: Ana plays green or blue
    expect(page.locator(".punto-hand:visible legend")).to_have_text(["Vert", "Bleu (neutre)"])
    page.screenshot(path="/tmp/punto/desktop-fr-picker.png", full_page=True)
    tap_move(page, {"card": "green-5", "at": [0, 0]}, 0)
    tap_move(page, {"card": "blue-3", "at": [1, 0]}, 1)
    page.click("button[name=card][value=red-4]")
    expect(page.locator("button.punto-card:enabled")).to_have_count(
        1
    )  # the blue 3, not the green 5
    page.click('button[name=at][value="1,0"]')
    expect(logged_moves(page)).to_have_count(3)
    expect(page.locator("[data-card=red-4]")).to_be_visible()
    expect(page.locator("#punto-rounds .punto-current")).to_contain_text("en jeu")
    page.screenshot(path="/tmp/punto/desktop-fr.png", full_page=True)
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []


def test_two_phones_at_one_table_a_stale_tap_changes_nothing(browser, page, table, live_server):
    """Phone B still shows "Ana drew:" when phone A enters Ana's move (its live updates cut
    off, as on a phone that lost its connection): B's move is refused with where the play
    stands now, and B can go on from there."""
    from .conftest import PHONE

    start_punto(page, table, ["Ana", "Ben"])
    second = browser.new_context(base_url=live_server.url, locale="en-GB", **PHONE)
    second.set_default_timeout(10_000)
    second.route("**/events/**", lambda route: route.abort())  # no live updates for B
    phone_b = second.new_page()
    errors: list[str] = []
    phone_b.on("pageerror", lambda exc: errors.append(str(exc)))
    play_url = page.url.replace(live_server.url, "")
    log_in(phone_b)
    phone_b.goto(play_url)
    expect(phone_b.locator("#punto-turn")).to_have_text("Ana drew:")

    tap_move(page, MATCH["moves"][0], 0)  # phone A: Ana's red 1 at the centre

    # Ana's move as B still sees the table: built on the phone, refused once it is sent
    phone_b.click("button[name=card][value=blue-4]")
    phone_b.click('#punto-centre button[name=at][value="0,0"]')
    expect(phone_b.locator("#move-error")).to_contain_text(
        "Someone else changed this play — here is where it stands now."
    )
    expect(phone_b.locator("#punto-turn")).to_have_text("Ben drew:")
    expect(phone_b.locator("#punto-tapped")).to_be_hidden()
    expect(logged_moves(phone_b)).to_have_count(1)
    # From the position it was shown, phone B enters Ben's move.
    tap_move(phone_b, MATCH["moves"][1], 1)
    expect(logged_moves(page)).to_have_count(2)  # A follows live, without a reload
    assert errors == []
    second.close()


# Team play (issue 18): Chloé lays the fifth red of her team's line.
TEAM_MATCH = [
    {"player": p, "card": c, "at": [x, y]}
    for p, c, x, y in [
        ("Ana", "red-1", 0, 0), ("Ben", "orange-1", 0, 1), ("Chloé", "red-2", 1, 0),
        ("Dev", "green-1", 1, 1), ("Ana", "blue-5", 0, 2), ("Ben", "orange-2", 2, 1),
        ("Chloé", "red-3", 2, 0), ("Dev", "green-2", 3, 1), ("Ana", "red-4", 3, 0),
        ("Ben", "orange-3", 1, 2), ("Chloé", "red-5", 4, 0),
    ]
]  # fmt: skip
FOUR = ["Ana", "Ben", "Chloé", "Dev"]


def tap_choice(page, selector: str) -> None:
    """Tap a setup choice: its label, as a finger would (the radio itself is not drawn)."""
    page.click(f"label:has({selector})")


def test_a_team_match_set_up_and_tapped_in_on_a_phone(page, table):
    log_in(page)
    start_play(page, table["night"], "punto", FOUR)
    # each for themselves until "Teams" is tapped: then the teams' colours, not the players'
    expect(page.locator("#punto-team-colours")).to_be_hidden()
    expect(page.locator("#punto-mode")).to_contain_text("Teams: Ana & Chloé against Ben & Dev")
    taps = 0
    tap_choice(page, "#punto-mode-teams")
    taps += 1
    expect(page.locator("#punto-team-colours")).to_be_visible()
    expect(page.locator("#punto-colours")).to_be_hidden()
    tap_choice(page, "input[name=rounds_to_win][value='1']")
    taps += 1
    expect(page.locator("input[name=rounds_to_win][value='1']")).to_be_checked()
    assert_no_horizontal_scroll(page)
    page.screenshot(path=str(RESULTS / "punto-teams-phone-setup.png"), full_page=True)
    page.click("#start-play")
    taps += 1
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    assert taps == 3  # "Teams", "1 round", "Start": the proposed colours as they are

    standing = page.locator("#punto-standing .punto-team")
    expect(standing).to_have_count(2)
    expect(standing.nth(0)).to_contain_text("Ana & Chloé")
    expect(standing.nth(1)).to_contain_text("Ben & Dev")
    expect(page.locator("#punto-goal")).to_contain_text("5 in a row of a team's colour")
    for index, move in enumerate(TEAM_MATCH[:2]):
        tap_move(page, move, index)
    # Chloé's hand is her team's two colours, Ana's red 1 already down once
    expect(page.locator("#punto-turn")).to_have_text("Chloé drew:")
    expect(page.locator(".punto-hand:visible legend")).to_have_text(["Red", "Blue"])
    expect(page.locator("#punto-partner-hint")).to_contain_text("With Ana")
    expect(page.locator("button[name=card][value=red-1] small")).to_have_text("×1")
    page.screenshot(path=str(RESULTS / "punto-teams-phone-hand.png"), full_page=True)
    for index, move in enumerate(TEAM_MATCH[2:], start=2):
        tap_move(page, move, index)  # two taps each: the card, then the cell
        if index == 7:  # four reds in a row do not win a team's round
            expect(page.locator("#punto-round")).to_contain_text("Round 1")

    expect(page.locator("#result")).to_have_text("Winners: Ana, Chloé")
    expect(page.locator("#scores [data-player=Chloé] .score")).to_have_text("1")
    expect(page.locator("#scores [data-player=Ana] .score")).to_have_text("1")
    expect(page.locator("#scores [data-player=Ben] .score")).to_have_text("0")
    expect(standing.nth(0).locator(".punto-wins")).to_have_text("1 round won")
    expect(page.locator("#punto-rounds tbody tr").nth(0)).to_contain_text("Chloé (with Ana)")
    expect(page.locator("#punto-won [data-team='0']")).to_contain_text("Ana & Chloé")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=str(RESULTS / "punto-teams-phone-finished.png"), full_page=True)

    # history: the leaderboard and Ana's page name her partner
    club = table["club"]
    page.goto(f"/clubs/{club.pk}/leaderboard/punto/")
    expect(page.locator(".leaderboard .partners").first).to_contain_text("Team plays with")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=str(RESULTS / "punto-teams-phone-leaderboard.png"), full_page=True)
    ana = next(player for player in table["players"] if player.name == "Ana")
    page.goto(f"/players/{ana.pk}/")
    expect(page.locator("#partners [data-player=Chloé]")).to_contain_text("Chloé")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=str(RESULTS / "punto-teams-phone-player.png"), full_page=True)
    assert page.js_errors == []


def test_teams_in_french_on_a_desktop(desktop_page, table):
    page = desktop_page
    log_in(page)
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("text=Vos clubs")
    start_play(page, table["night"], "punto", FOUR)
    expect(page.locator("#punto-mode")).to_contain_text("En équipes : Ana & Chloé contre Ben & Dev")
    tap_choice(page, "#punto-mode-teams")
    # both teams red: the referee refuses, the form comes back with the teams chosen
    page.select_option("select[name=team-1-0]", "red")
    page.click("#start-play")
    expect(page.locator("#setup-error")).to_contain_text(
        "Le rouge est donné deux fois (Ana et Ben) : chaque couleur appartient à une équipe"
    )
    expect(page.locator("#punto-team-colours")).to_be_visible()
    page.select_option("select[name=team-1-0]", "green")
    page.select_option("select[name=team-1-1]", "orange")
    tap_choice(page, "input[name=rounds_to_win][value='3']")
    page.screenshot(path=str(RESULTS / "punto-teams-desktop-fr-setup.png"), full_page=True)
    page.click("#start-play")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))

    expect(page.locator("#punto-goal")).to_contain_text("3 manches gagnent la partie")
    expect(page.locator("#punto-standing .punto-team").nth(1)).to_contain_text("Ben & Dev")
    for index, move in enumerate(TEAM_MATCH):
        tap_move(page, move, index)
    # Chloé won round 1 for her team: Dev, on her left, starts round 2
    expect(page.locator("#punto-round")).to_have_text("Manche 2 · À Dev de jouer")
    teams = page.locator("#punto-standing .punto-team .punto-wins")
    expect(teams).to_have_text(["1 manche gagnée", "0 manche gagnée"])
    expect(page.locator("#punto-won thead")).to_contain_text("Équipe")
    expect(page.locator("#punto-rounds tbody tr").nth(0)).to_contain_text("Chloé (avec Ana)")
    page.screenshot(path=str(RESULTS / "punto-teams-desktop-fr.png"), full_page=True)
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []
