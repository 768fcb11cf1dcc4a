"""Shared fixtures: the healthchecks way — an owner, a member and an outsider around one club."""

import datetime

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Membership


@pytest.fixture(autouse=True)
def _plain_http(settings):
    # Production settings redirect to HTTPS; the test client speaks plain HTTP.
    settings.SECURE_SSL_REDIRECT = False


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("olivia", password="owner-pass-123")


@pytest.fixture
def member(db):
    return get_user_model().objects.create_user("mahmoud", password="member-pass-123")


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("oscar", password="outsider-pass-123")


@pytest.fixture
def club(owner, member):
    club = services.create_club(name="Les Joueurs", owner=owner)
    Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
    return club


@pytest.fixture
def night(club):
    return services.create_game_night(club=club, date=datetime.date(2026, 11, 20), place="Ana's")


@pytest.fixture
def players(club):
    return [services.add_player(club=club, name=name) for name in ["Ana", "Ben", "Chloé"]]


@pytest.fixture
def member_client(client, member):
    client.force_login(member)
    return client


@pytest.fixture
def outsider_client(client, outsider):
    client.force_login(outsider)
    return client


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
