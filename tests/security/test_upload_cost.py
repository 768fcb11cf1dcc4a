"""Uploads cost what they weigh (issue 29, finding 3): a game log is parsed once, never walked in
Python by the parser, and what its service checks is only what it stores; unknown fields are
ignored without being walked; and each account may upload only so many files an hour. (The CPU
a 1 MB log of any shape costs is measured in benchmarks/bench_hard.py, not timed here.)"""

from __future__ import annotations

import io
import json

import pytest
from django.urls import reverse

from games import userjson
from games.models import Play
from tests.dom import dom, find, find_all
from tests.dom import text as words
from tests.examples import EXAMPLES

PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())

pytestmark = pytest.mark.django_db


def upload(client, night, log: dict | str):
    text = log if isinstance(log, str) else json.dumps(log)
    file = io.BytesIO(text.encode())
    file.name = "log.json"
    return client.post(reverse("log-upload", args=[night.pk]), {"log": file})


def said(client, response) -> list[str]:
    page = dom(response if response.status_code != 302 else client.get(response["Location"]))
    return [words(item) for item in find_all(find(page, "ul", class_="messages"), "li")]


def with_junk(junk: str) -> str:
    """The example log with ``junk`` under an unknown key, at the top and in its first move."""
    text = json.dumps(PUNTO)
    move = json.dumps(PUNTO["moves"][0])
    text = text.replace(move, move[:-1] + ', "junk": ' + junk + "}", 1)
    return text[:-1] + ', "junk": ' + junk + "}"


@pytest.fixture
def walked(monkeypatch):
    """Every value ``userjson.check`` walks, as JSON text."""
    seen: list[str] = []
    check = userjson.check

    def watching(value):
        seen.append(json.dumps(value))
        return check(value)

    monkeypatch.setattr(userjson, "check", watching)
    return seen


def test_an_unknown_field_is_never_walked_and_what_is_stored_is_checked_once(
    member_client, night, walked
):
    """The parser checks on the text; the service walks what it stores (the names, the
    canonical setup and moves), once. It walked the whole upload twice, junk included."""
    junk = "[" + ",".join(["[[[[]]]]"] * 2000) + "]"
    response = upload(member_client, night, with_junk(junk))
    assert response.status_code == 302 and Play.objects.count() == 1
    assert len(walked) == 1 and "junk" not in walked[0] and "[[[[" not in walked[0]
    play = Play.objects.get()
    assert "junk" not in json.dumps(list(play.moves.values_list("data", flat=True)))


@pytest.mark.parametrize(
    ("poison", "message"),
    [
        ('"\\u0000"', "null character"),
        ('"\\ud800"', "half of a character"),
        ("[" * 21 + "]" * 21, "nested too deeply"),
        ("NaN", "is not a number JSON allows"),
        ("1" * 40, "is too big"),
    ],
)
def test_poison_under_an_unknown_field_is_still_refused(member_client, night, poison, message):
    """Ignored is not unread: what no database stores is refused wherever it is."""
    response = upload(member_client, night, with_junk(poison))
    assert any(message in line for line in said(member_client, response))
    assert Play.objects.count() == 0


def test_an_emoji_and_escaped_backslashes_are_text_not_poison(member_client, night):
    log = with_junk('["\\ud83c\\udfb2", "\\\\u0000", "\\\\\\\\ud800"]')
    response = upload(member_client, night, log)
    assert response.status_code == 302 and Play.objects.count() == 1


def test_uploads_are_throttled_per_account(member_client, owner_client, night, settings):
    settings.UPLOADS_PER_HOUR = 2
    assert upload(member_client, night, PUNTO).status_code == 302
    assert upload(member_client, night, "not json").status_code == 302  # refused, counted
    response = upload(member_client, night, PUNTO)
    assert response.status_code == 429
    assert said(member_client, response)[-1] == (
        "Too many files were uploaded from your account in the last hour: please try again later."
    )
    assert Play.objects.count() == 1
    # another account of the same club, from the same address, has its own count
    assert upload(owner_client, night, PUNTO).status_code == 302
    assert Play.objects.count() == 2


def test_a_bg_stats_upload_shares_the_accounts_upload_throttle(owner_client, club, settings):
    """A BG Stats file is an upload like a game log (up to 8 MB of JSON once unzipped): it was
    never counted, so an owner could make a worker parse them without end."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.bgstats.test_views import FIXTURES

    settings.UPLOADS_PER_HOUR = 2
    data = (FIXTURES / "export-ios.json").read_bytes()
    url = reverse("bgstats-upload", args=[club.pk])

    def bgstats_upload():
        return owner_client.post(url, {"file": SimpleUploadedFile("BGStatsExport.json", data)})

    assert bgstats_upload().status_code == 200  # the matches, to confirm
    night = club.nights.create(date="2026-11-26")
    assert upload(owner_client, night, PUNTO).status_code == 302  # a game log counts the same
    response = bgstats_upload()
    assert response.status_code == 429
    assert said(owner_client, response)[-1] == (
        "Too many files were uploaded from your account in the last hour: please try again later."
    )


def test_a_bg_stats_confirmation_reads_the_file_again_and_is_counted_too(
    owner_client, club, settings
):
    """The confirmation reads the kept file again (up to 8 MB of JSON) and keeps it when refused:
    sent again and again, it made a worker read it without end."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.bgstats.test_views import FIXTURES

    settings.UPLOADS_PER_HOUR = 2
    data = (FIXTURES / "export-ios.json").read_bytes()
    page = owner_client.post(
        reverse("bgstats-upload", args=[club.pk]),
        {"file": SimpleUploadedFile("BGStatsExport.json", data)},
    )
    club.players.create(name="Ana")
    ana = club.players.get(name="Ana")
    twice = {"token": page.context["token"], "player-1": str(ana.pk), "player-2": str(ana.pk)}
    confirm = reverse("bgstats-confirm", args=[club.pk])
    assert owner_client.post(confirm, twice).status_code == 422  # refused, the file kept
    response = owner_client.post(confirm, twice)
    assert response.status_code == 429
    assert said(owner_client, response)[-1].startswith("Too many files were uploaded")
    assert not Play.objects.exists()
