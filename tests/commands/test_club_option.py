"""Club names are not unique: nobody learns which clubs exist by trying a name, and the commands
take --club as an id or an unambiguous name."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from games import services
from games.management.commands.load_demo import DEMO_CLUB
from games.models import Club, Play
from tests.examples import EXAMPLES

pytestmark = pytest.mark.django_db

FINISHED = sorted(EXAMPLES.glob("*-1.json"))


def test_a_club_name_someone_else_took_is_no_refusal_and_tells_nothing(client, outsider, club):
    client.force_login(outsider)
    response = client.post(reverse("club-create"), {"name": club.name})
    namesake = Club.objects.exclude(pk=club.pk).get(name=club.name)
    assert response["Location"] == reverse("club", args=[namesake.pk])
    assert namesake.memberships.get().user == outsider
    # The outsider still sees nothing of the first club.
    assert client.get(reverse("club", args=[club.pk])).status_code == 404


@pytest.fixture
def namesake(outsider, club):
    return services.create_club(name=club.name, owner=outsider)


@pytest.mark.parametrize(
    "command",
    [
        ["leaderboard", "all"],
        ["export_logs", "out"],
        ["import_logs", str(FINISHED[0])],
    ],
)
def test_an_ambiguous_club_name_stops_the_command_and_lists_the_clubs(
    command, club, namesake, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CommandError) as refused:
        call_command(*command, "--club", club.name)
    message = str(refused.value)
    assert "2 clubs answer to 'Les Joueurs': give the id" in message
    assert f"id {club.pk}: 'Les Joueurs'" in message and "owner olivia" in message
    assert f"id {namesake.pk}: 'Les Joueurs'" in message and "owner oscar" in message
    assert Play.objects.count() == 0 and not (tmp_path / "out").exists()


def test_an_id_picks_one_of_two_namesakes(club, namesake, tmp_path):
    call_command("import_logs", *map(str, FINISHED), "--club", str(namesake.pk))
    assert Play.objects.filter(club=namesake).count() == len(FINISHED)
    assert not Play.objects.filter(club=club).exists()
    out = StringIO()
    call_command("leaderboard", "all", "--club", f" {namesake.pk} ", "--json", stdout=out)
    assert json.loads(out.getvalue())
    call_command("export_logs", "--club", str(namesake.pk), str(tmp_path))
    assert len(list(tmp_path.glob("*.json"))) == len(FINISHED)


def test_a_unique_name_still_works_and_an_unknown_one_says_so(club):
    call_command("import_logs", str(FINISHED[0]), "--club", "Les\u200b Joueurs")
    assert Play.objects.filter(club=club).count() == 1
    for unknown in ["Nobody", "999999", "99999999999999999999999", "²", "Club\udcff"]:
        with pytest.raises(CommandError, match="no club|not valid text"):
            call_command("leaderboard", "all", "--club", unknown)


def test_a_club_named_like_another_clubs_id_is_ambiguous(club, owner):
    services.create_club(name=str(club.pk), owner=owner)
    with pytest.raises(CommandError, match="2 clubs answer to"):
        call_command("leaderboard", "all", "--club", str(club.pk))


def test_load_demo_never_takes_over_someone_elses_demo_club(outsider):
    theirs = services.create_club(name=DEMO_CLUB, owner=outsider)
    call_command("load_demo", stdout=StringIO())
    call_command("load_demo", stdout=StringIO())
    assert list(theirs.memberships.values_list("user__username", flat=True)) == ["oscar"]
    assert not theirs.players.exists() and not theirs.plays.exists()
    demo = Club.objects.exclude(pk=theirs.pk).get(name=DEMO_CLUB)
    assert demo.plays.exists()
