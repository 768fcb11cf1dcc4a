import json

import pytest
from django.core.management import call_command

from games.management.commands.load_demo import (
    DEMO_CLUB,
    DEMO_LOGS,
    DEMO_PASSWORD,
    DEMO_USERNAME,
    demo_logs,
)
from games.models import Club, GameNight, Play, Player
from referee import GAMES


@pytest.mark.django_db
def test_demo_data_loads_and_loading_twice_is_harmless(client, capsys):
    call_command("load_demo")
    counts = (
        Club.objects.count(),
        Player.objects.count(),
        GameNight.objects.count(),
        Play.objects.count(),
    )
    call_command("load_demo")
    assert (
        Club.objects.count(),
        Player.objects.count(),
        GameNight.objects.count(),
        Play.objects.count(),
    ) == counts
    club = Club.objects.get(name=DEMO_CLUB)
    assert club.players.count() == 5 and club.nights.count() == 3
    assert club.plays.filter(status="finished").count() >= 5
    assert club.plays.filter(status="in_progress").exists()
    assert set(club.plays.values_list("game", flat=True)) == set(GAMES)
    out = capsys.readouterr()
    assert DEMO_USERNAME in out.out and DEMO_PASSWORD in out.out
    assert "skipped" not in out.err


@pytest.mark.django_db
def test_the_demo_login_works_and_sees_the_demo_club(client):
    call_command("load_demo")
    assert client.login(username=DEMO_USERNAME, password=DEMO_PASSWORD)
    club = Club.objects.get(name=DEMO_CLUB)
    response = client.get(f"/clubs/{club.pk}/")
    assert response.status_code == 200 and DEMO_CLUB in response.content.decode()
    play = club.plays.filter(status="finished").first()
    assert client.get(f"/plays/{play.pk}/").status_code == 200


def test_each_demo_log_is_named_after_its_game():
    found = {game: demo_logs(game) for game in GAMES}
    assert sorted(DEMO_LOGS.glob("*.json")) == sorted(p for paths in found.values() for p in paths)
    for game, paths in found.items():
        assert paths, f"{game} has no demo play"
        assert {json.loads(path.read_text())["game"] for path in paths} == {game}
