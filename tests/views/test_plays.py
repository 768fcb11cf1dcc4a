"""The play pages: start a play, enter moves (htmx fragment or plain form), undo, sheet, logs.

These tests use each game's "type the move as JSON" path, which every game's form keeps for
advanced users; the per-game tap-by-tap forms have their own tests.
"""

import io
import json

import pytest
from django.urls import reverse
from pytest_django.asserts import assertContains

from games import services
from games.models import AuditEntry, Move, Play, RatingChange, Seat
from referee import GAMES
from tests.dom import attr, dom, find, find_all, text
from tests.examples import EXAMPLES

PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def post_move(client, play, move, *, seq, htmx=True):
    return client.post(
        reverse("play-move", args=[play.pk]),
        {"move_json": json.dumps(move), "version": seq},
        headers=HTMX if htmx else {},
    )


def db_state():
    return (
        list(Move.objects.values_list("play_id", "seq", "undone_at")),
        list(Seat.objects.values_list("score", "rank", "is_winner")),
        list(Play.objects.values_list("status", "details")),
    )


def test_play_page_renders_full_page_for_members(member_client, punto):
    response = member_client.get(reverse("play", args=[punto.pk]))
    assert response.status_code == 200
    page = dom(response)
    assert page.name == "html" and find(page, "div", id="play-main") in find(page, "body")


def test_outsider_gets_404_everywhere_on_a_play(outsider_client, punto):
    for name in ["play", "play-sheet", "play-download"]:
        assert outsider_client.get(reverse(name, args=[punto.pk])).status_code == 404, name
    for name in ["play-move", "play-undo", "play-abandon"]:
        assert outsider_client.post(reverse(name, args=[punto.pk])).status_code == 404, name
    assert outsider_client.get(reverse("play-start", args=[punto.night.pk])).status_code == 404


@pytest.mark.parametrize("htmx", [True, False])
def test_an_outsiders_move_made_right_is_a_404_and_stores_nothing(outsider_client, punto, htmx):
    """The member's right to the play is checked by the entry's own read of it, under its lock
    (issue 32): a move with the play's version and a legal move is refused all the same."""
    version = punto.version
    data = {"version": version, "move_json": json.dumps(PUNTO["moves"][0])}
    response = outsider_client.post(
        reverse("play-move", args=[punto.pk]), data, headers=HTMX if htmx else {}
    )
    assert response.status_code == 404
    assert not punto.moves.exists()
    punto.refresh_from_db()
    assert punto.version == version


def test_legal_move_with_htmx_returns_the_fragment_with_the_new_board(member_client, punto):
    response = post_move(member_client, punto, PUNTO["moves"][0], seq=0)
    assert response.status_code == 200
    fragment = dom(response)
    assert fragment.name == "div" and attr(fragment, "id") == "play-main"
    x, y = PUNTO["moves"][0]["at"]
    cell = find(fragment, None, role="gridcell", class_="last-move")  # a cell a card may cover
    assert attr(cell, "data-at") == f"{x},{y}" and attr(cell, "data-card") == "red-1"
    assert punto.moves.count() == 1


def test_legal_move_without_javascript_redirects_to_the_play(member_client, punto):
    response = post_move(member_client, punto, PUNTO["moves"][0], seq=0, htmx=False)
    assert response.status_code == 302 and response["Location"] == reverse("play", args=[punto.pk])
    assert punto.moves.count() == 1


def test_illegal_move_shows_the_referees_message_and_changes_nothing(member_client, punto):
    post_move(member_client, punto, PUNTO["moves"][0], seq=0)
    before = db_state()
    wrong = {"player": "Ben", "card": "orange-1", "at": [5, 5]}
    response = post_move(member_client, punto, wrong, seq=1)
    assert response.status_code == 200
    error = find(find(dom(response), "div", id="verdict"), "p", id="move-error")
    assert text(error) == (
        "Round 1, card 2: the orange 1 cannot go at K11: it must touch a card on the table"
        " (orthogonally or diagonally) or cover one."
    )
    assert db_state() == before


def test_illegal_move_without_javascript_is_a_422_page(member_client, punto):
    wrong = {"player": "Ben", "card": "orange-1", "at": [0, 0]}
    response = post_move(member_client, punto, wrong, seq=0, htmx=False)
    assert response.status_code == 422
    assertContains(
        response,
        '<p class="error" role="alert" id="move-error">'
        "Round 1, card 1: it is Ana's turn, not Ben's.</p>",
        html=True,
        status_code=422,
    )
    assert punto.moves.count() == 0


@pytest.mark.parametrize("raw", ["", "{not json", "[" * 5000])
def test_malformed_move_input_gets_a_message(member_client, punto, raw):
    response = member_client.post(
        reverse("play-move", args=[punto.pk]),
        {"move_json": raw, "version": 0},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert text(find(find(dom(response), "div", id="verdict"), "p", id="move-error"))
    assert punto.moves.count() == 0


def test_a_stale_form_says_someone_else_entered_a_move(member_client, punto):
    post_move(member_client, punto, PUNTO["moves"][0], seq=0)
    response = post_move(member_client, punto, PUNTO["moves"][1], seq=0)
    assert "Someone else changed this play" in response.content.decode()
    assert punto.moves.count() == 1


def test_undo_marks_the_move_undone_and_shows_who(member_client, member, punto):
    post_move(member_client, punto, PUNTO["moves"][0], seq=0)
    response = member_client.post(
        reverse("play-undo", args=[punto.pk]), {"version": 1}, headers=HTMX
    )
    assert response.status_code == 200
    move = punto.moves.get()
    assert move.undone_by == member
    (undone,) = find_all(dom(response), "li", class_="undone")
    assert attr(undone, "data-seq") == "0" and "undone by mahmoud" in text(undone)


def test_undo_with_nothing_to_undo_says_so(member_client, punto):
    response = member_client.post(
        reverse("play-undo", args=[punto.pk]), {"version": 0}, headers=HTMX
    )
    assert "no move to undo" in response.content.decode()


def test_a_whole_game_entered_move_by_move_finishes_with_the_winner(member_client, punto):
    for seq, move in enumerate(PUNTO["moves"]):
        assert post_move(member_client, punto, move, seq=seq).status_code == 200
    punto.refresh_from_db()
    assert punto.status == "finished"
    page = dom(member_client.get(reverse("play", args=[punto.pk])))
    assert text(find(find(page, "div", id="verdict"), "p", id="result")) == "Winners: Ana"
    assert not find_all(page, "form", id="move-form")


def test_download_is_the_plays_game_log(member_client, punto):
    post_move(member_client, punto, PUNTO["moves"][0], seq=0)
    response = member_client.get(reverse("play-download", args=[punto.pk]))
    assert response["Content-Disposition"].startswith("attachment;")
    log = json.loads(response.content)
    assert log["moves"] == PUNTO["moves"][:1] and log["players"] == ["Ana", "Ben"]


def test_upload_creates_a_play_in_the_night(member_client, night):
    upload = io.BytesIO(json.dumps(PUNTO).encode())
    upload.name = "punto.json"
    response = member_client.post(reverse("log-upload", args=[night.pk]), {"log": upload})
    play = Play.objects.get()
    assert response["Location"] == reverse("play", args=[play.pk])
    assert play.night == night and play.status == "finished"


def test_uploading_a_team_log_seats_the_partners_together(member_client, night):
    log = json.loads((EXAMPLES / "punto-3.json").read_text())  # Ana & Chloé beat Ben & Dan
    upload = io.BytesIO(json.dumps(log).encode())
    upload.name = "punto-teams.json"
    response = member_client.post(reverse("log-upload", args=[night.pk]), {"log": upload})
    play = Play.objects.get()
    assert response["Location"] == reverse("play", args=[play.pk])
    assert play.setup["teams"] == [["Ana", "Chloé"], ["Ben", "Dan"]]
    seats = {seat.player.name: seat for seat in play.seats.all()}
    assert seats["Ana"].team == seats["Chloé"].team != seats["Ben"].team == seats["Dan"].team
    assert {name for name, seat in seats.items() if seat.is_winner} == {"Ana", "Chloé"}
    page = dom(member_client.get(response["Location"]))
    standing = find(page, "ul", id="punto-standing")
    assert text(find(standing, "li", data_team="0", class_="punto-team")).startswith("Ana & Chloé")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00\xff", "not a text file"),
        (b"{oops", "not valid JSON"),
        (b'{"format": "gamelog/1", "game": "go"}', "refused"),
        (
            json.dumps({**PUNTO, "moves": PUNTO["moves"] + [PUNTO["moves"][0]]}).encode(),
            "Move 22: the game has already ended.",
        ),
    ],
)
def test_a_bad_upload_is_refused_with_a_message_and_stores_nothing(
    member_client, night, content, message
):
    upload = io.BytesIO(content)
    upload.name = "bad.json"
    response = member_client.post(
        reverse("log-upload", args=[night.pk]), {"log": upload}, follow=True
    )
    assert message in response.content.decode()
    assert Play.objects.count() == 0


def test_a_huge_upload_is_refused(member_client, night, settings):
    settings.MAX_UPLOAD_BYTES = 100
    upload = io.BytesIO(b" " * 200 + json.dumps(PUNTO).encode())
    upload.name = "big.json"
    response = member_client.post(
        reverse("log-upload", args=[night.pk]), {"log": upload}, follow=True
    )
    assert "too big" in response.content.decode()
    assert Play.objects.count() == 0


def test_start_a_play_in_two_steps(member_client, night, players):
    response = member_client.post(
        reverse("play-start", args=[night.pk]),
        {"game": "punto", "seat": [players[1].pk, players[0].pk, ""]},
    )
    assert response.status_code == 302 and "setup" in response["Location"]
    setup_page = member_client.get(response["Location"])
    assert setup_page.status_code == 200
    response = member_client.post(
        response["Location"],
        {
            "game": "punto",
            "seat": [players[1].pk, players[0].pk],
            "setup_json": json.dumps(
                {"colours": {"Ben": ["red", "blue"], "Ana": ["orange", "green"]}}
            ),
        },
    )
    play = Play.objects.get()
    assert response["Location"] == reverse("play", args=[play.pk])
    assert [s.player.name for s in play.seats.order_by("position")] == ["Ben", "Ana"]


def test_the_start_page_offers_a_seat_for_each_player_of_the_largest_game(member_client, night):
    """A game that seats more players than any other gets its seats from the registry."""
    page = dom(member_client.get(reverse("play-start", args=[night.pk])))
    seats = find_all(find(page, "fieldset", class_="seats"), "select", name="seat")
    assert len(seats) == max(engine.max_players for engine in GAMES.values())


def test_start_a_play_with_the_wrong_number_of_players_says_so(member_client, night, players):
    response = member_client.post(
        reverse("play-start", args=[night.pk]),
        {"game": "forget-venice", "seat": [players[0].pk, players[1].pk]},
    )
    assert response.status_code == 422
    assert "played by 3 players" in response.content.decode()


def test_start_a_play_with_too_few_players_for_a_range_says_the_range(
    member_client, night, players
):
    response = member_client.post(
        reverse("play-start", args=[night.pk]), {"game": "punto", "seat": [players[0].pk]}
    )
    assert response.status_code == 422
    error = text(find(dom(response), "p", class_="error"))
    assert error == "Punto is played by 2–4 players; you chose 1."


def test_start_a_play_adds_a_guest_on_the_spot(member_client, night, players):
    response = member_client.post(
        reverse("play-start", args=[night.pk]),
        {"game": "punto", "seat": [players[0].pk], "guest": "Zoé", "add_guest": "1"},
    )
    assert response.status_code == 200
    guest = night.club.players.get(name="Zoé")
    assert guest.is_guest
    seats = find_all(dom(response), "select", name="seat")
    chosen = [[attr(o, "value") for o in find_all(s, "option", selected=None)] for s in seats]
    assert chosen[:3] == [[str(players[0].pk)], [str(guest.pk)], []]


def test_a_bad_setup_is_refused_with_the_referees_message(member_client, night, players):
    url = reverse("play-setup", args=[night.pk])
    response = member_client.post(
        url,
        {"game": "punto", "seat": [players[0].pk, players[1].pk], "setup_json": "{}"},
    )
    assert response.status_code == 422
    assert text(find(dom(response), "p", id="setup-error"))
    assert Play.objects.count() == 0


def test_the_printable_sheet_renders(member_client, punto):
    response = member_client.get(reverse("play-sheet", args=[punto.pk]))
    assert response.status_code == 200
    head = find(dom(response), "head")
    assert find_all(head, "link", rel="stylesheet", href="/static/css/print.css", media="print")
    assert find_all(dom(response), "article", id="printable-sheet")


def test_abandon_a_play(member_client, punto):
    member_client.post(reverse("play-abandon", args=[punto.pk]), {"version": 0})
    punto.refresh_from_db()
    assert punto.status == "abandoned"


def test_a_finished_play_cannot_be_abandoned_from_its_page(member_client, club, night):
    finished = services.import_log(club=club, log=PUNTO, night=night)
    ratings = list(RatingChange.objects.filter(play=finished).values_list("id", "mu_after"))
    before = db_state()
    response = member_client.post(
        reverse("play-abandon", args=[finished.pk]), {"version": finished.version}, follow=True
    )
    assert response.redirect_chain == [(reverse("play", args=[finished.pk]), 302)]
    assert "A finished play cannot be abandoned." in response.content.decode()
    assert db_state() == before
    assert list(RatingChange.objects.filter(play=finished).values_list("id", "mu_after")) == ratings
    assert not AuditEntry.objects.filter(action="play.abandon").exists()


def test_only_owners_see_the_delete_link(member_client, owner_client, punto):
    delete = reverse("play-delete", args=[punto.pk])
    assert not find_all(dom(member_client.get(reverse("play", args=[punto.pk]))), "a", href=delete)
    assert find_all(dom(owner_client.get(reverse("play", args=[punto.pk]))), "a", href=delete)
