import datetime

import pytest
from django.urls import reverse

from games import services
from games.models import Club, GameNight, Player
from referee import GAMES
from tests.conftest import client_for
from tests.dom import chosen, dom, find, find_all, text

pytestmark = pytest.mark.django_db


def test_home_page_renders_for_anonymous_visitor(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert b"Log in" in response.content


def test_home_page_lists_the_users_clubs(member_client, club):
    response = member_client.get(reverse("home"))
    assert response.status_code == 200
    assert club.name in response.content.decode()


def test_home_page_in_french(client):
    response = client.get(reverse("home"), headers={"accept-language": "fr"})
    assert "Se connecter" in response.content.decode()


def test_language_switcher_sets_french(client):
    response = client.post(reverse("set_language"), {"language": "fr", "next": "/"}, follow=True)
    assert "Se connecter" in response.content.decode()


def test_member_sees_the_club(member_client, club, players, night):
    response = member_client.get(reverse("club", args=[club.pk]))
    assert response.status_code == 200
    page = dom(response)
    assert "Chloé" in [text(player) for player in find_all(find(page, "ul", class_="players"), "a")]
    # the night, at Ana's
    assert [text(night) for night in find_all(page, "a", class_="card-link")] == [
        "Nov. 20, 2026 — Ana's"
    ]


def test_outsider_gets_404_for_the_club(outsider_client, club):
    assert outsider_client.get(reverse("club", args=[club.pk])).status_code == 404


def test_anonymous_visitor_is_sent_to_log_in(client, club):
    response = client.get(reverse("club", args=[club.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_outsider_gets_404_for_a_night(outsider_client, night):
    assert outsider_client.get(reverse("night", args=[night.pk])).status_code == 404


def test_outsider_cannot_add_a_player(outsider_client, club):
    response = outsider_client.post(reverse("player-create", args=[club.pk]), {"name": "Mallory"})
    assert response.status_code == 404
    assert not Player.objects.filter(name="Mallory").exists()


def test_member_adds_a_player(member_client, club):
    member_client.post(reverse("player-create", args=[club.pk]), {"name": "  Zoé  "})
    assert Player.objects.filter(club=club, name="Zoé").exists()


def test_duplicate_player_name_is_refused_with_a_message(member_client, club, players):
    response = member_client.post(
        reverse("player-create", args=[club.pk]), {"name": "Ana"}, follow=True
    )
    assert "already a player named" in response.content.decode()
    assert Player.objects.filter(club=club, name="Ana").count() == 1


def test_member_adds_a_game_night(member_client, club):
    response = member_client.post(
        reverse("night-create", args=[club.pk]), {"date": "2026-11-21", "place": "Chez Ben"}
    )
    night = GameNight.objects.get(club=club, place="Chez Ben")
    assert response.status_code == 302 and response["Location"] == reverse("night", args=[night.pk])


def test_bad_game_night_date_is_refused_with_a_message(member_client, club):
    response = member_client.post(
        reverse("night-create", args=[club.pk]), {"date": "yesterday"}, follow=True
    )
    assert "valid date" in response.content.decode()
    assert not GameNight.objects.filter(club=club).exists()


def test_create_a_club_makes_the_user_its_owner(member_client, member):
    member_client.post(reverse("club-create"), {"name": "Mardi soir"})
    club = Club.objects.get(name="Mardi soir")
    assert club.memberships.get(user=member).role == "owner"


def test_nights_are_listed_newest_first(member_client, club):
    services.create_game_night(club=club, date=datetime.date(2026, 1, 1), place="Old")
    services.create_game_night(club=club, date=datetime.date(2026, 6, 1), place="New")
    page = dom(member_client.get(reverse("club", args=[club.pk])))
    nights = [text(night) for night in find_all(page, "a", class_="card-link")]
    assert nights == ["June 1, 2026 — New", "Jan. 1, 2026 — Old"]


def test_admin_renders_for_a_superuser(make_user):
    client = client_for(make_user("root", is_staff=True, is_superuser=True))
    for name in [
        "admin:index",
        "admin:games_play_changelist",
        "admin:games_move_changelist",
        "admin:games_club_changelist",
        "admin:games_player_changelist",
    ]:
        assert client.get(reverse(name)).status_code == 200, name


def test_login_page_renders(client):
    assert client.get(reverse("login")).status_code == 200


def test_member_edits_a_nights_notes_and_the_audit_keeps_the_old_ones(member_client, night):
    from games.models import AuditEntry

    response = member_client.post(
        reverse("night-edit", args=[night.pk]),
        {"date": "2026-11-20", "place": "Chez Ben", "notes": "Bring snacks"},
    )
    assert response.status_code == 302
    night.refresh_from_db()
    assert (night.place, night.notes) == ("Chez Ben", "Bring snacks")
    entry = AuditEntry.objects.get(action="night.edit")
    assert (
        entry.data["before"]["place"] == "Ana's" and entry.data["after"]["notes"] == "Bring snacks"
    )


def test_a_bad_night_edit_says_what_is_wrong_and_changes_nothing(member_client, night):
    response = member_client.post(
        reverse("night-edit", args=[night.pk]), {"date": "31/31/2026"}, follow=True
    )
    assert "valid date" in response.content.decode()
    night.refresh_from_db()
    assert night.date == datetime.date(2026, 11, 20)


def test_outsider_cannot_edit_a_night(outsider_client, night):
    response = outsider_client.post(reverse("night-edit", args=[night.pk]), {"date": "2026-01-01"})
    assert response.status_code == 404
    night.refresh_from_db()
    assert night.date == datetime.date(2026, 11, 20)


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_has_a_rulings_page_in_english_and_french(client, game):
    english = client.get(reverse("rules", args=[game]))
    assert english.status_code == 200 and find(find(dom(english), "main"), "ul", class_="rulings")
    french = client.get(reverse("rules", args=[game]), headers={"accept-language": "fr"})
    assert "Comment l'arbitre applique les règles" in french.content.decode()
    assert english.content != french.content


def test_an_unknown_game_has_no_rulings_page(client):
    assert client.get("/rules/chess/").status_code == 404


# The club's settings: its time zone -------------------------------------------------------------


def test_a_new_club_keeps_the_servers_time_zone(club, settings):
    assert club.time_zone == settings.TIME_ZONE == "Europe/Paris"


def test_the_owner_sets_the_clubs_time_zone(owner_client, club):
    url = reverse("club-settings", args=[club.pk])
    assert chosen(dom(owner_client.get(url)), "time_zone") == ["Europe/Paris"]
    response = owner_client.post(url, {"time_zone": "America/Montreal"})
    assert response.status_code == 302 and response["Location"] == reverse("club", args=[club.pk])
    club.refresh_from_db()
    assert club.time_zone == "America/Montreal"
    assert club.audit_entries.filter(action="club.edit").count() == 1


def test_an_unknown_time_zone_is_refused(owner_client, club):
    response = owner_client.post(
        reverse("club-settings", args=[club.pk]), {"time_zone": "Mars/Olympus_Mons"}
    )
    assert response.status_code == 422
    assert "Mars/Olympus_Mons" in response.content.decode()
    club.refresh_from_db()
    assert club.time_zone == "Europe/Paris"


def test_only_owners_see_the_clubs_settings(owner_client, member_client, outsider_client, club):
    url = reverse("club-settings", args=[club.pk])
    assert member_client.get(url).status_code == 404
    assert member_client.post(url, {"time_zone": "UTC"}).status_code == 404
    assert outsider_client.get(url).status_code == 404
    assert find_all(dom(owner_client.get(reverse("club", args=[club.pk]))), "a", href=url)
    assert url not in member_client.get(reverse("club", args=[club.pk])).content.decode()

    club.refresh_from_db()
    assert club.time_zone == "Europe/Paris"


def test_the_service_refuses_an_unknown_time_zone(club, owner):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.update_club_settings(club=club, time_zone="Nowhere/Land", by=owner)
    club.refresh_from_db()
    assert club.time_zone == "Europe/Paris"
