"""The table screen (/plays/<id>/table/): read-only, for everyone at the table; it moves on to
the night's next play once its play is over."""

from __future__ import annotations

from django.urls import reverse

from games import services
from tests.conftest import PLAY_FIRST_MOVE

HTMX = {"HX-Request": "true"}


def test_a_member_sees_the_board_the_scores_and_the_last_move(member_client, play):
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    response = member_client.get(reverse("play-table", args=[play.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="scores"' in body and 'class="board-frame"' in body
    last_move = body.split('id="last-move"')[1].split("</p>")[0]
    assert "Card 1</strong> — Ana calls the green die for series 3: right." in last_move
    assert "css/play" in body and "css/games/buntherum" in body  # its board drawn, not bare
    assert reverse("night-events", args=[play.night_id]) in body
    assert "<form" not in body.split('id="table-screen"')[1]  # read-only: nothing to enter


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
