"""Club members: the members page, invite links (valid, expired, revoked, used), removal."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import AuditEntry, ClubInvite, Membership
from tests.conftest import client_for
from tests.dom import attr, dom, find, find_all, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def invite(club, owner):
    return services.create_invite(club=club, by=owner)


def join_url(invite):
    return reverse("invite-join", args=[invite.token])


# The members page ---------------------------------------------------------------------------


def test_owner_sees_members_and_invite_controls(owner_client, club, invite):
    page = dom(owner_client.get(reverse("club-members", args=[club.pk])))
    members = find_all(find(find(page, "main"), "tbody"), "tr")
    assert {text(find(row, "span", class_="truncate")) for row in members} == {"mahmoud", "olivia"}
    (link,) = find_all(page, "input", class_="invite-url")
    assert attr(link, "value").endswith(join_url(invite)) and invite.token in attr(link, "value")
    assert find_all(page, "form", method="post", action=reverse("invite-create", args=[club.pk]))
    remove = reverse("member-remove", args=[club.memberships.get(role="member").pk])
    assert find_all(page, "a", href=remove)


def test_member_sees_the_list_without_controls(member_client, club, invite):
    response = member_client.get(reverse("club-members", args=[club.pk]))
    page = response.content.decode()
    assert response.status_code == 200 and "olivia" in page
    assert invite.token not in page and "/remove/" not in page


def test_outsider_gets_404_for_the_members_page(outsider_client, club):
    assert outsider_client.get(reverse("club-members", args=[club.pk])).status_code == 404


def test_anonymous_visitor_is_sent_to_log_in_from_the_members_page(client, club):
    response = client.get(reverse("club-members", args=[club.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_club_page_links_members_for_all_and_audit_for_owners(owner_client, member_client, club):
    owner_page = dom(owner_client.get(reverse("club", args=[club.pk])))
    member_page = member_client.get(reverse("club", args=[club.pk])).content.decode()
    assert find_all(dom(member_page), "a", href=reverse("club-members", args=[club.pk]))
    assert find_all(owner_page, "a", href=reverse("club-audit", args=[club.pk]))
    assert reverse("club-audit", args=[club.pk]) not in member_page


# Making and withdrawing invite links ---------------------------------------------------------


def test_owner_makes_an_invite_link(owner_client, club, owner):
    response = owner_client.post(reverse("invite-create", args=[club.pk]), {"max_uses": "3"})
    assert response["Location"] == reverse("club-members", args=[club.pk])
    invite = ClubInvite.objects.get(club=club)
    assert invite.max_uses == 3 and invite.created_by == owner and len(invite.token) >= 32
    assert invite.expires_at - invite.created_at == datetime.timedelta(days=7)


@pytest.mark.parametrize("bad", ["0", "101", "many"])
def test_a_bad_number_of_uses_is_refused(owner_client, club, bad):
    response = owner_client.post(
        reverse("invite-create", args=[club.pk]), {"max_uses": bad}, follow=True
    )
    assert response.status_code == 200
    assert not ClubInvite.objects.exists()


def test_member_and_outsider_cannot_make_invites(member_client, outsider_client, club):
    for client in (member_client, outsider_client):
        assert client.post(reverse("invite-create", args=[club.pk])).status_code == 404
    assert not ClubInvite.objects.exists()


def test_owner_withdraws_an_invite(owner_client, invite):
    owner_client.post(reverse("invite-revoke", args=[invite.pk]))
    invite.refresh_from_db()
    assert invite.revoked


def test_member_and_outsider_cannot_withdraw_an_invite(member_client, outsider_client, invite):
    for client in (member_client, outsider_client):
        assert client.post(reverse("invite-revoke", args=[invite.pk])).status_code == 404
    invite.refresh_from_db()
    assert not invite.revoked


# Joining with a link -------------------------------------------------------------------------


def test_valid_link_shows_a_join_button_and_joins_on_post(outsider_client, outsider, invite, club):
    page = outsider_client.get(join_url(invite))
    assert page.status_code == 200 and "Join the club" in page.content.decode()
    assert not club.memberships.filter(user=outsider).exists()  # opening it is not joining
    response = outsider_client.post(join_url(invite))
    assert response["Location"] == reverse("club", args=[club.pk])
    assert club.memberships.get(user=outsider).role == Membership.Role.MEMBER
    invite.refresh_from_db()
    assert invite.uses == 1
    assert outsider_client.get(reverse("club", args=[club.pk])).status_code == 200


def test_expired_link_says_so_and_joins_nobody(outsider_client, outsider, invite, club):
    ClubInvite.objects.filter(pk=invite.pk).update(expires_at=timezone.now())
    for response in (outsider_client.get(join_url(invite)), outsider_client.post(join_url(invite))):
        assert response.status_code == 410
        assert "expired" in response.content.decode()
    assert not club.memberships.filter(user=outsider).exists()


def test_revoked_link_says_so_and_joins_nobody(outsider_client, outsider, invite, club, owner):
    services.revoke_invite(invite=invite, by=owner)
    response = outsider_client.post(join_url(invite))
    assert response.status_code == 410 and "withdrawn" in response.content.decode()
    assert not club.memberships.filter(user=outsider).exists()


def test_single_use_link_cannot_be_used_twice(make_user, outsider_client, outsider, invite, club):
    client_for(make_user("nina")).post(join_url(invite))
    response = outsider_client.post(join_url(invite))
    assert response.status_code == 410 and "already been used" in response.content.decode()
    assert not club.memberships.filter(user=outsider).exists()


def test_opening_a_link_again_after_joining_goes_to_the_club(outsider_client, invite, club):
    outsider_client.post(join_url(invite))
    response = outsider_client.get(join_url(invite))
    assert response["Location"] == reverse("club", args=[club.pk])


def test_a_member_cannot_use_up_a_link(member_client, invite, member):
    with pytest.raises(services.ServiceError, match="already a member"):
        services.join_club(invite=invite, user=member)
    member_client.post(join_url(invite))
    invite.refresh_from_db()
    assert invite.uses == 0


def test_multi_use_link_lets_that_many_people_in(club, owner, outsider, make_user):
    invite = services.create_invite(club=club, by=owner, max_uses=2)
    services.join_club(invite=invite, user=outsider)
    services.join_club(invite=invite, user=make_user("nina"))
    with pytest.raises(services.ServiceError, match="already been used"):
        services.join_club(invite=invite, user=make_user("third"))
    assert club.memberships.count() == 4


def test_unknown_token_gets_404(outsider_client):
    assert outsider_client.get(reverse("invite-join", args=["no-such-token"])).status_code == 404


def test_anonymous_visitor_is_sent_to_log_in_and_back(client, invite):
    response = client.get(join_url(invite))
    assert response.status_code == 302
    assert reverse("login") in response["Location"] and invite.token in response["Location"]


# Removing members ----------------------------------------------------------------------------


def test_owner_removes_a_member_after_confirming(owner_client, club, member):
    membership = club.memberships.get(user=member)
    url = reverse("member-remove", args=[membership.pk])
    confirm = owner_client.get(url)
    assert confirm.status_code == 200 and "mahmoud" in confirm.content.decode()
    assert club.memberships.filter(user=member).exists()  # GET only asks
    response = owner_client.post(url)
    assert response["Location"] == reverse("club-members", args=[club.pk])
    assert not club.memberships.filter(user=member).exists()


def test_removed_member_gets_404_afterwards(owner_client, club, member, member_client):
    owner_client.post(reverse("member-remove", args=[club.memberships.get(user=member).pk]))
    assert member_client.get(reverse("club", args=[club.pk])).status_code == 404


def test_member_and_outsider_cannot_remove_anyone(member_client, outsider_client, club, owner):
    url = reverse("member-remove", args=[club.memberships.get(user=owner).pk])
    for client in (member_client, outsider_client):
        assert client.get(url).status_code == 404
        assert client.post(url).status_code == 404
    assert club.memberships.count() == 2


def test_the_last_owner_cannot_be_removed(owner_client, club, owner):
    url = reverse("member-remove", args=[club.memberships.get(user=owner).pk])
    page = owner_client.get(url)
    assert page.status_code == 409 and "last owner" in page.content.decode()
    assert owner_client.post(url).status_code == 409
    assert club.memberships.filter(user=owner, role="owner").exists()
    with pytest.raises(services.ServiceError, match="last owner"):
        services.remove_member(membership=club.memberships.get(user=owner), by=owner)


def test_the_last_owner_is_refused_before_asking_while_other_clubs_have_owners(
    owner_client, club, owner, outsider
):
    services.create_club(name="Other club", owner=outsider)
    page = owner_client.get(reverse("member-remove", args=[club.memberships.get(user=owner).pk]))
    assert page.status_code == 409
    assert "The club's last owner cannot be removed." in text(find(dom(page), "main"))


def test_an_owner_can_leave_when_another_owner_remains(owner_client, club, owner, member):
    club.memberships.filter(user=member).update(role="owner")
    response = owner_client.post(
        reverse("member-remove", args=[club.memberships.get(user=owner).pk])
    )
    assert response["Location"] == reverse("home")
    assert list(club.memberships.values_list("user__username", flat=True)) == ["mahmoud"]


def test_membership_changes_are_audited(club, owner, outsider, invite):
    membership = services.join_club(invite=invite, user=outsider)
    services.remove_member(membership=membership, by=owner)
    actions = list(AuditEntry.objects.for_club(club).values_list("action", "actor_name", "summary"))
    assert actions == [
        ("member.remove", "olivia", "oscar"),
        ("member.join", "oscar", "oscar"),
        ("member.invite", "olivia", actions[2][2]),
    ]
