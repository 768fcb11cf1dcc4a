import pytest
from django.test import Client

SERIES = {
    "1": ["red-die", "blue-car"],
    "2": ["orange-ball", "green-cup"],
    "3": ["yellow-ball", "purple-telephone"],
    "4": ["red-icecream", "black-butterfly"],
    "5": ["pink-ball", "orange-flower"],
    "6": ["red-telephone", "yellow-cup"],
}


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
