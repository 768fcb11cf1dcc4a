"""games.access, helper by helper: each opens exactly the object asked for, to exactly the people
it is for, with what its pages read of it (the club, the night, the user) in the same query."""

import datetime

import pytest
from django.http import Http404

from games import access, services
from games.models import Membership
from tests.conftest import PLAY_FIRST_MOVE

pytestmark = pytest.mark.django_db


@pytest.fixture
def asking(rf):
    """``asking(user)``: a request from ``user``, as the views pass it to the helpers."""

    def asking(user):
        request = rf.get("/")
        request.user = user
        return request

    return asking


def test_an_owner_opens_the_invite_asked_for_among_the_clubs_with_its_club_in_one_query(
    asking, club, owner, django_assert_num_queries
):
    first = services.create_invite(club=club, by=owner, max_uses=1)
    second = services.create_invite(club=club, by=owner, max_uses=2)
    with django_assert_num_queries(1):
        opened = access.get_owned_invite(asking(owner), second.pk)
        assert (opened, opened.club.name) == (second, "Les Joueurs")
    assert access.get_owned_invite(asking(owner), first.pk) == first


def test_a_member_opens_the_night_asked_for_among_the_clubs(asking, club, member, night):
    later = services.create_game_night(club=club, date=datetime.date(2026, 11, 27))
    assert access.get_night(asking(member), later.pk) == later
    assert access.get_night(asking(member), night.pk) == night


def test_an_owner_opens_the_membership_asked_for_with_its_user_in_one_query(
    asking, club, owner, member, django_assert_num_queries
):
    membership = Membership.objects.get(club=club, user=member)
    with django_assert_num_queries(1):
        opened = access.get_owned_membership(asking(owner), membership.pk)
        assert (opened.club.name, opened.user.username) == ("Les Joueurs", "mahmoud")


def test_owner_only_objects_are_a_404_to_a_member(asking, club, owner, member, night):
    invite = services.create_invite(club=club, by=owner, max_uses=1)
    share = services.share_night(night=night, by=owner)
    membership = Membership.objects.get(club=club, user=owner)
    for opening in (
        lambda: access.get_owned_invite(asking(member), invite.pk),
        lambda: access.get_owned_membership(asking(member), membership.pk),
        lambda: access.get_owned_share(asking(member), share.pk),
        lambda: access.get_owned_club(asking(member), club.pk),
    ):
        with pytest.raises(Http404):
            opening()


def test_an_invite_link_opens_its_invite_and_club_in_one_query(
    asking, club, owner, outsider, django_assert_num_queries
):
    invite = services.create_invite(club=club, by=owner, max_uses=1)
    with django_assert_num_queries(1):
        opened = access.get_invite_by_token(asking(outsider), invite.token)
        assert opened.club.name == "Les Joueurs"


def test_a_player_is_opened_by_its_id_with_its_club_in_one_query(
    asking, players, member, django_assert_num_queries
):
    ben = players[1]
    with django_assert_num_queries(1):
        opened = access.get_player(asking(member), ben.pk)
        assert (opened.name, opened.club.name) == ("Ben", "Les Joueurs")


def test_a_shared_play_comes_with_its_club_and_night_in_one_query(
    play, night, owner, django_assert_num_queries
):
    share = services.share_night(night=night, by=owner)
    with django_assert_num_queries(1):
        opened = access.get_shared_play(share.token, play.pk)
        assert (opened.club.name, opened.night.place) == ("Les Joueurs", "Ana's")


def test_a_nights_version_counts_its_own_plays_only(club, member, night, play):
    """Two nights of one club: each stream follows its own night's plays."""
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    play.refresh_from_db()
    quiet = services.create_game_night(club=club, date=datetime.date(2026, 11, 27))
    versions = access.versions_of(list(access.watched_night(member.pk, night.pk)))
    assert access.night_version(versions) == play.version + 1
    quiet_versions = access.versions_of(list(access.watched_night(member.pk, quiet.pk)))
    assert quiet_versions == {} and access.night_version(quiet_versions) == 0
