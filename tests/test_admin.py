"""The admin shows a play but never changes it behind the referee's back: its game, setup,
status and seats change only through the services, which judge, rate and audit."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games import services
from games.models import Play, Seat
from tests.dom import attr, dom, find, find_all
from tests.examples import EXAMPLES

pytestmark = pytest.mark.django_db

PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())


@pytest.fixture
def admin_client(client, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.org", "pw-123456")
    client.force_login(root)
    return client


@pytest.fixture
def play(club, member):
    return services.import_log(club=club, log=PUNTO, by=member)


def _fields(page, names: list[str]) -> list[str]:
    """Which of ``names`` the page offers as form fields."""
    return [name for name in names if find_all(page, None, name=name)]


def test_the_play_is_shown_with_nothing_to_edit(admin_client, play):
    response = admin_client.get(reverse("admin:games_play_change", args=[play.pk]))
    body = response.content.decode()
    assert "Punto" in body and PUNTO["players"][0] in body
    page = find(dom(response), "form", id="play_form")
    assert _fields(page, ["csrfmiddlewaretoken", "seats-TOTAL_FORMS"]) == [
        "csrfmiddlewaretoken",
        "seats-TOTAL_FORMS",
    ]  # the form is there, and read
    assert _fields(page, ["club", "night", "game", "setup", "status", "started_at"]) == []
    assert _fields(page, [f"seats-0-{f}" for f in ["position", "player", "score", "rank"]]) == []
    assert _fields(page, ["seats-0-DELETE"]) == []
    # no seat can be added
    assert attr(find(page, "input", name="seats-MAX_NUM_FORMS"), "value") == "0"


def _form_data(page: str) -> dict[str, str]:
    """The values the change form would post as it stands."""

    class Form(HTMLParser):
        def __init__(self):
            super().__init__()
            self.data: dict[str, str] = {}
            self.field: str | None = None  # the textarea or select being read

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            name = attrs.get("name")
            if tag == "input" and name and attrs.get("type") not in ("submit", "checkbox"):
                self.data[name] = attrs.get("value") or ""
            elif tag in ("textarea", "select") and name:
                self.field = name
                self.data[name] = ""
            elif tag == "option" and self.field and "selected" in attrs:
                self.data[self.field] = attrs.get("value") or ""

        def handle_data(self, data):
            if self.field and self.get_starttag_text().startswith("<textarea"):
                self.data[self.field] += data

        def handle_endtag(self, tag):
            if tag in ("textarea", "select"):
                self.field = None

    form = Form()
    form.feed(page)
    return form.data


def test_posting_the_change_form_changes_nothing(admin_client, play):
    url = reverse("admin:games_play_change", args=[play.pk])
    before = (
        list(Play.objects.values_list("game", "setup", "status", "ended_at")),
        list(Seat.objects.values_list("position", "player", "score", "rank", "is_winner")),
    )
    data = _form_data(admin_client.get(url).content.decode())
    data |= {"game": "thricewise", "setup": "{}", "status": "abandoned", "seats-0-position": "7"}
    response = admin_client.post(url, data)
    assert response.status_code == 302  # saved, as far as the admin is concerned
    after = (
        list(Play.objects.values_list("game", "setup", "status", "ended_at")),
        list(Seat.objects.values_list("position", "player", "score", "rank", "is_winner")),
    )
    assert after == before


def test_a_play_cannot_be_added_from_the_admin(admin_client, play):
    assert admin_client.get(reverse("admin:games_play_add")).status_code == 403


def test_a_play_cannot_be_deleted_from_the_admin(admin_client, play):
    """Deleting is the club owner's, on the site: the service audits it and re-rates the club."""
    url = reverse("admin:games_play_delete", args=[play.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert Play.objects.filter(pk=play.pk).exists()
