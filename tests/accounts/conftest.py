"""Fixtures for accounts, members, the audit and deletions: a play, and one client per person."""

import pytest
from django.test import Client

from tests.conftest import BUNTHERUM_SERIES

SERIES = BUNTHERUM_SERIES
GOOD_MOVE = {"card": "green-die", "call": {"player": "Ana", "series": 3}}


@pytest.fixture
def play(night, players, owner):
    from games import services

    return services.start_play(
        night=night, game="buntherum", players=players, setup={"series": SERIES}, by=owner
    )


def _client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def owner_client(owner):
    return _client_for(owner)


@pytest.fixture
def as_member(member):
    return _client_for(member)


@pytest.fixture
def as_outsider(outsider):
    return _client_for(outsider)
