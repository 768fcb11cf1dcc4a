import pytest
from django.test import Client

from tests.conftest import BUNTHERUM_SERIES

SERIES = BUNTHERUM_SERIES


@pytest.fixture
def play(night, players, owner):
    from games import services

    play = services.start_play(
        night=night, game="buntherum", players=players, setup={"series": SERIES}, by=owner
    )
    services.record_move(
        play=play, move={"card": "green-die", "call": {"player": "Ana", "series": 3}}, by=owner
    )
    return play


@pytest.fixture
def owner_client(owner):
    client = Client()
    client.force_login(owner)
    return client
