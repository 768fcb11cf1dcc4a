"""Free text has a limit, in the forms and in the services, with a clear message past it."""

import datetime
import re

import pytest
from django.urls import reverse

from games import services
from games.models import AuditEntry, GameNight
from tests.dom import attr, dom, find

pytestmark = pytest.mark.django_db

DATE = datetime.date(2026, 11, 27)
NOTES_MAX = 2000  # as the README and docs/security.md say


def test_a_night_with_notes_past_the_limit_is_refused_with_a_message(member_client, club):
    response = member_client.post(
        reverse("night-create", args=[club.pk]),
        {"date": "2026-11-27", "notes": "x" * (NOTES_MAX + 1)},
        follow=True,
    )
    assert "Notes: Ensure this value has at most 2000 characters (it has 2001)." in (
        response.content.decode()
    )
    assert not GameNight.objects.filter(date=DATE).exists()


def test_editing_a_night_with_notes_past_the_limit_changes_nothing(member_client, night):
    response = member_client.post(
        reverse("night-edit", args=[night.pk]),
        {"date": "2026-11-27", "place": "Ben's", "notes": "x" * 100_000},
        follow=True,
    )
    assert "at most 2000 characters" in response.content.decode()
    night.refresh_from_db()
    assert (night.date, night.place, night.notes) == (datetime.date(2026, 11, 20), "Ana's", "")
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.NIGHT_EDIT).exists()


def test_notes_at_the_limit_are_kept_and_the_form_says_the_limit(member_client, night):
    member_client.post(
        reverse("night-edit", args=[night.pk]),
        {"date": "2026-11-20", "notes": "é" * NOTES_MAX},
    )
    night.refresh_from_db()
    assert night.notes == "é" * NOTES_MAX
    page = dom(member_client.get(reverse("night", args=[night.pk])))
    form = find(page, "form", action=reverse("night-edit", args=[night.pk]))
    assert attr(find(form, "textarea", name="notes"), "maxlength") == str(NOTES_MAX)
    assert attr(find(form, "input", name="place"), "maxlength") == "120"


@pytest.mark.parametrize(
    ("place", "notes", "message"),
    [
        ("x" * 121, "", "The place is at most 120 characters."),
        ("", "x" * 2001, "The notes are at most 2000 characters (these are 2001)."),
    ],
)
def test_the_services_refuse_night_text_past_the_limit(club, night, place, notes, message):
    with pytest.raises(services.ServiceError, match=re.escape(message)):
        services.create_game_night(club=club, date=DATE, place=place, notes=notes)
    with pytest.raises(services.ServiceError, match=message.split(" (")[0]):
        services.update_game_night(night=night, date=DATE, place=place, notes=notes)
    assert GameNight.objects.count() == 1
    night.refresh_from_db()
    assert night.date != DATE


def test_night_text_loses_control_and_invisible_characters_but_keeps_its_lines(club):
    night = services.create_game_night(
        club=club, date=DATE, place=" Ana\u200b's\x00  kitchen ", notes="Bring\r\ncards\x00\u202e."
    )
    assert night.place == "Ana's kitchen"
    assert night.notes == "Bring\ncards."


def test_the_services_refuse_a_club_name_past_the_limit(owner):
    with pytest.raises(services.ServiceError, match="at most 100 characters"):
        services.create_club(name="x" * 101, owner=owner)


def test_the_services_refuse_a_player_name_past_the_limit(club):
    with pytest.raises(services.ServiceError, match="at most 60 characters"):
        services.add_player(club=club, name="x" * 61)
