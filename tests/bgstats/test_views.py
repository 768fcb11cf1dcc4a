"""BG Stats on the club's pages: an upload (owners), its matches changed, the import; downloads
of the club's and a night's plays; the push link on a finished play's page."""

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.models import Play, Player

FIXTURES = Path(__file__).parent.parent / "fixtures" / "bgstats"


def upload(client, club, data, name="BGStatsExport.json"):
    return client.post(
        reverse("bgstats-upload", args=[club.pk]), {"file": SimpleUploadedFile(name, data)}
    )


def test_the_owner_sees_the_matches_then_changes_one_and_imports(owner_client, club, players):
    page = upload(owner_client, club, (FIXTURES / "export-ios.json").read_bytes())
    assert page.status_code == 200
    assert "6 to add" in page.text and "matched by name" in page.text
    token = page.context["token"]
    ben = Player.objects.get(club=club, name="Ben")
    # The owner keeps the file's Chloé and Dev new, and says its Ben is the club's Ben.
    answer = owner_client.post(
        reverse("bgstats-confirm", args=[club.pk]),
        {"token": token, "player-1": "", "player-2": str(ben.pk), "player-4": "", "player-7": ""},
    )
    assert answer.status_code == 302
    assert Play.objects.filter(club=club).count() == 6
    # A new player whose name the club has already is that player ("Ana", "Chloé").
    assert sorted(club.players.values_list("name", flat=True)) == ["Ana", "Ben", "Chloé", "Dev"]
    again = upload(owner_client, club, (FIXTURES / "export-ios.json").read_bytes())
    assert "0 to add" in again.text and "6 already here" in again.text


def test_a_choice_that_seats_someone_twice_is_refused_and_nothing_added(
    owner_client, club, players
):
    page = upload(owner_client, club, (FIXTURES / "export-ios.json").read_bytes())
    ana = Player.objects.get(club=club, name="Ana")
    answer = owner_client.post(
        reverse("bgstats-confirm", args=[club.pk]),
        {"token": page.context["token"], "player-1": str(ana.pk), "player-2": str(ana.pk)},
    )
    assert answer.status_code == 422 and "twice" in answer.text
    assert not Play.objects.exists()


def test_members_may_not_upload_and_outsiders_see_nothing(member_client, outsider_client, club):
    data = (FIXTURES / "export-ios.json").read_bytes()
    assert upload(member_client, club, data).status_code == 404  # owners' pages: as elsewhere
    assert upload(outsider_client, club, data).status_code == 404
    assert outsider_client.get(reverse("bgstats-download", args=[club.pk])).status_code == 404


def test_a_bad_file_or_an_expired_upload_is_said(owner_client, club):
    answer = upload(owner_client, club, b"{nope")
    assert answer.status_code == 302
    page = owner_client.get(answer.url)
    assert "not valid JSON" in page.text
    answer = owner_client.post(reverse("bgstats-confirm", args=[club.pk]), {"token": "zzz"})
    assert "expired" in owner_client.get(answer.url).text


def test_too_big_an_upload_is_refused_before_it_is_read(owner_client, club, settings):
    settings.MAX_UPLOAD_BYTES = 1000
    answer = upload(owner_client, club, b" " * 50_000)
    assert answer.status_code == 302
    assert "too big" in owner_client.get(answer.url).text


def test_a_zipped_export_is_taken(owner_client, club):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("BGStatsExport.json", (FIXTURES / "export-android.json").read_bytes())
    page = upload(owner_client, club, buffer.getvalue(), name="export.zip")
    assert page.status_code == 200 and "4 plays" in page.text


def test_downloads_of_the_club_and_of_a_night(member_client, club, night, players):
    from games import services

    azul = services.add_catalogue_game(club=club, name="Azul")
    services.enter_result(night=night, game=azul.key, seats=[services.SeatResult(players[0], 3)])
    answer = member_client.get(reverse("bgstats-download", args=[club.pk]))
    assert answer["Content-Disposition"].startswith("attachment")
    assert len(json.loads(answer.content)["plays"]) == 1
    answer = member_client.get(reverse("night-bgstats-download", args=[night.pk]))
    assert json.loads(answer.content)["games"][0]["name"] == "Azul"
    page = member_client.get(reverse("night", args=[night.pk]))
    assert reverse("night-bgstats-download", args=[night.pk]) in page.text
    page = member_client.get(reverse("club", args=[club.pk]))
    assert reverse("bgstats-download", args=[club.pk]) in page.text


@pytest.mark.parametrize("kind", ["result", "refereed"])
def test_a_finished_play_page_offers_the_push_link(member_client, club, night, players, kind):
    from games import services

    if kind == "result":
        azul = services.add_catalogue_game(club=club, name="Azul")
        play = services.enter_result(
            night=night, game=azul.key, seats=[services.SeatResult(players[0], 3)]
        )
    else:
        log = json.loads((FIXTURES.parent / "examples" / "punto-1.json").read_text())
        play = services.import_log(club=club, log=log, night=night)
    page = member_client.get(reverse("play", args=[play.pk]))
    assert 'id="bgstats-push" href="https://app.bgstatsapp.com/createPlay.html?data=' in page.text
