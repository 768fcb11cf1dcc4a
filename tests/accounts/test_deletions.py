"""Deleting a play or a player: confirm first, owners only, and the audit keeps it."""

import pytest
from django.urls import reverse

from games import services
from games.models import AuditEntry, Move, Play, Player, Seat
from tests.conftest import PLAY_FIRST_MOVE
from tests.dom import dom, find, find_all

pytestmark = pytest.mark.django_db


def test_deleting_a_play_asks_first(owner_client, play):
    response = owner_client.get(reverse("play-delete", args=[play.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Yes, delete" in page and "Chloé" in page
    assert Play.objects.filter(pk=play.pk).exists()


def test_owner_deletes_a_play_with_its_seats_and_moves(owner_client, play, member):
    services.record_move(play=play, move=PLAY_FIRST_MOVE, by=member)
    response = owner_client.post(reverse("play-delete", args=[play.pk]), {"version": 1})
    assert response["Location"] == reverse("night", args=[play.night_id])
    assert not Play.objects.filter(pk=play.pk).exists()
    assert not Seat.objects.filter(play_id=play.pk).exists()
    assert not Move.objects.filter(play_id=play.pk).exists()
    entry = AuditEntry.objects.get(action="play.delete")
    assert entry.data["log"]["moves"] == [PLAY_FIRST_MOVE] and entry.actor_name == "olivia"


def test_members_and_outsiders_get_404_for_deleting_a_play(member_client, outsider_client, play):
    url = reverse("play-delete", args=[play.pk])
    for client in (member_client, outsider_client):
        assert client.get(url).status_code == 404
        assert client.post(url).status_code == 404
    assert Play.objects.filter(pk=play.pk).exists()


def test_deleting_a_player_without_plays_asks_then_deletes(owner_client, club, players):
    zoe = services.add_player(club=club, name="Zoé")
    url = reverse("player-delete", args=[zoe.pk])
    assert "Yes, delete" in owner_client.get(url).content.decode()
    response = owner_client.post(url)
    assert response["Location"] == reverse("club", args=[club.pk])
    assert not Player.objects.filter(pk=zoe.pk).exists()
    entry = AuditEntry.objects.get(action="player.delete")
    assert (entry.summary, entry.object_id) == ("Zoé", zoe.pk)


def test_a_player_with_seats_cannot_be_deleted(owner_client, play, players):
    ana = players[0]
    url = reverse("player-delete", args=[ana.pk])
    page = owner_client.get(url).content.decode()
    assert "cannot be deleted" in page and "Yes, delete" not in page
    response = owner_client.post(url)
    assert response.status_code == 409 and "cannot be deleted" in response.content.decode()
    assert Player.objects.filter(pk=ana.pk).exists()
    assert not AuditEntry.objects.filter(action="player.delete").exists()


def test_members_and_outsiders_get_404_for_deleting_a_player(
    member_client, outsider_client, players
):
    url = reverse("player-delete", args=[players[0].pk])
    for client in (member_client, outsider_client):
        assert client.get(url).status_code == 404
        assert client.post(url).status_code == 404
    assert Player.objects.filter(pk=players[0].pk).exists()


def test_owner_sees_delete_links_for_players_member_does_not(
    owner_client, member_client, club, players
):
    url = reverse("player-delete", args=[players[0].pk])
    owner_page = dom(owner_client.get(reverse("club", args=[club.pk])))
    assert find_all(find(owner_page, "ul", class_="players"), "a", href=url)

    assert url not in member_client.get(reverse("club", args=[club.pk])).content.decode()


def test_anonymous_visitor_is_sent_to_log_in_from_deletions(client, play, players):
    for url in (
        reverse("play-delete", args=[play.pk]),
        reverse("player-delete", args=[players[0].pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]
