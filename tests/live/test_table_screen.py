"""The table screen (/plays/<id>/table/): read-only, for everyone at the table; it moves on to
the night's next play once its play is over."""

from __future__ import annotations

from django.urls import reverse

from games import services
from tests.conftest import PLAY_FIRST_MOVE
from tests.dom import ANY, attr, dom, find, find_all, text

HTMX = {"HX-Request": "true"}


def test_a_member_sees_the_board_the_scores_and_the_last_move(member_client, play):
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    response = member_client.get(reverse("play-table", args=[play.pk]))
    page = dom(response)
    assert response.status_code == 200
    screen = find(page, "article", id="table-screen")
    assert find_all(screen, "table", id="scores") and find_all(
        screen, "section", class_="board-frame"
    )
    last_move = find(screen, "p", id="last-move")
    assert text(last_move) == "Last move: Card 1 — Ana calls the green die for series 3: right."
    assert text(find(last_move, "strong")) == "Card 1"
    # its board drawn, not bare
    styles = [attr(link, "href") for link in find_all(find(page, "head"), "link", rel="stylesheet")]
    assert {"/static/css/play.css", "/static/css/games/buntherum.css"} <= set(styles)
    (follows,) = find_all(page, None, sse_connect=ANY)
    assert attr(follows, "sse-connect").startswith(reverse("night-events", args=[play.night_id]))
    assert not find_all(screen, "form")  # read-only: nothing to enter


def test_another_clubs_table_screen_is_a_404(outsider_client, client, play):
    assert outsider_client.get(reverse("play-table", args=[play.pk])).status_code == 404
    assert client.get(reverse("play-table", args=[play.pk])).status_code in (302, 404)


def test_once_over_it_moves_on_to_the_nights_next_play(member_client, play, night, players):
    url = reverse("play-table", args=[play.pk])
    services.abandon_play(play=play)
    assert member_client.get(url).status_code == 200  # no next play yet: it stays
    following = services.start_play(night=night, game=play.game, players=players, setup=play.setup)
    response = member_client.get(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("play-table", args=[following.pk])
    live = member_client.get(url, headers=HTMX)
    assert live["HX-Redirect"] == reverse("play-table", args=[following.pk])


def test_a_play_in_progress_does_not_move_on(member_client, play, night, players):
    services.start_play(night=night, game=play.game, players=players, setup=play.setup)
    assert member_client.get(reverse("play-table", args=[play.pk])).status_code == 200


def test_once_over_it_does_not_move_back_to_an_earlier_play(member_client, play, night, players):
    """Only a play started after it is the night's next one: a finished play's screen stays on
    it while an earlier play is still going on."""
    later = services.start_play(night=night, game=play.game, players=players, setup=play.setup)
    services.abandon_play(play=later)
    assert member_client.get(reverse("play-table", args=[later.pk])).status_code == 200
