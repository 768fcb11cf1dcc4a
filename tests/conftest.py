"""Shared fixtures: the healthchecks way — an owner, a member and an outsider around one club.

Django is imported inside the fixtures, so that the pure rules tests (tests/rules) also run
without Django (`pytest -p no:django tests/rules`).
"""

import datetime

import pytest

#: A valid Buntherum setup (the public example's series), for tests that need any play.
BUNTHERUM_SERIES = {
    "1": ["red-die", "blue-car"],
    "2": ["orange-ball", "green-cup"],
    "3": ["yellow-ball", "purple-telephone"],
    "4": ["red-icecream", "black-butterfly"],
    "5": ["pink-ball", "orange-flower"],
    "6": ["red-telephone", "yellow-cup"],
}


@pytest.fixture(autouse=True)
def _plain_http(request):
    if "settings" in request.fixturenames or _django_active(request):
        settings = request.getfixturevalue("settings")
        # Production settings redirect to HTTPS; the test client speaks plain HTTP.
        settings.SECURE_SSL_REDIRECT = False
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def _plain_http_live_server(request):
    """The live server (session-scoped) builds its middleware once, before any function-scoped
    settings override: turn the HTTPS redirect off for the whole test session."""
    if _django_active(request):
        from django.conf import settings

        settings.SECURE_SSL_REDIRECT = False


def _django_active(request) -> bool:
    return request.config.pluginmanager.hasplugin("django")


@pytest.fixture
def owner(db, django_user_model):
    return django_user_model.objects.create_user("olivia", password="owner-pass-123")


@pytest.fixture
def member(db, django_user_model):
    return django_user_model.objects.create_user("mahmoud", password="member-pass-123")


@pytest.fixture
def outsider(db, django_user_model):
    return django_user_model.objects.create_user("oscar", password="outsider-pass-123")


@pytest.fixture
def club(owner, member):
    from games import services
    from games.models import Membership

    club = services.create_club(name="Les Joueurs", owner=owner)
    Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
    return club


@pytest.fixture
def night(club):
    from games import services

    return services.create_game_night(club=club, date=datetime.date(2026, 11, 20), place="Ana's")


@pytest.fixture
def players(club):
    from games import services

    return [services.add_player(club=club, name=name) for name in ["Ana", "Ben", "Chloé"]]


@pytest.fixture
def member_client(client, member):
    client.force_login(member)
    return client


@pytest.fixture
def outsider_client(client, outsider):
    client.force_login(outsider)
    return client
