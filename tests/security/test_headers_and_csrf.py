"""Security headers on every response, and CSRF on every POST (htmx included)."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Player
from tests.conftest import client_for
from tests.dom import attr, dom, find

pytestmark = pytest.mark.django_db


def test_security_headers_are_sent(member_client, club):
    response = member_client.get(reverse("club", args=[club.pk]))
    csp = response["Content-Security-Policy"]
    directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["default-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


def test_security_headers_are_sent_on_errors_and_fragments(member_client, club):
    for response in (
        member_client.get("/no/such/page/"),
        member_client.get(reverse("club", args=[club.pk]), headers={"HX-Request": "true"}),
    ):
        assert "script-src 'self'" in response["Content-Security-Policy"]
        assert response["X-Frame-Options"] == "DENY"


@pytest.fixture
def strict_client(member):
    return client_for(member, enforce_csrf_checks=True)


def test_a_post_without_the_csrf_token_is_refused(strict_client, club):
    response = strict_client.post(reverse("player-create", args=[club.pk]), {"name": "Mallory"})
    assert response.status_code == 403
    assert not Player.objects.filter(name="Mallory").exists()


def test_an_htmx_post_without_the_csrf_header_is_refused(strict_client, club):
    response = strict_client.post(
        reverse("player-create", args=[club.pk]),
        {"name": "Mallory"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 403
    assert not Player.objects.filter(name="Mallory").exists()


def test_an_htmx_post_with_the_header_from_the_page_is_accepted(strict_client, club):
    page = dom(strict_client.get(reverse("club", args=[club.pk])))
    # base.html hands htmx the token through hx-headers on <body>.
    token = json.loads(attr(find(page, "body"), "hx-headers"))["X-CSRFToken"]
    response = strict_client.post(
        reverse("player-create", args=[club.pk]),
        {"name": "Zoé"},
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    assert response.status_code == 302
    assert Player.objects.filter(name="Zoé").exists()


def test_log_in_sign_up_and_join_refuse_posts_without_the_token(member, club, owner):
    from games import services

    invite = services.create_invite(club=club, by=owner)
    anonymous = Client(enforce_csrf_checks=True)
    assert (
        anonymous.post(
            reverse("login"), {"username": "mahmoud", "password": "member-pass-123"}
        ).status_code
        == 403
    )
    assert anonymous.post(reverse("signup"), {"username": "x"}).status_code == 403
    signed_in = client_for(owner, enforce_csrf_checks=True)
    assert signed_in.post(reverse("invite-join", args=[invite.token])).status_code == 403
    assert signed_in.post(reverse("logout")).status_code == 403
