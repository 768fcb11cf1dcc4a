import pytest
from django.core.management import call_command

from games.management.commands.load_demo import DEMO_CLUB, DEMO_PASSWORD, DEMO_USERNAME
from games.models import Club, GameNight, Play, Player


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
    assert set(club.plays.values_list("game", flat=True)) == {
        "thricewise",
        "forget-venice",
        "punto",
        "buntherum",
        "three-high",
    }
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
