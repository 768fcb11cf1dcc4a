"""Uploads: an oversize body is refused before it is read, and nothing is written to disk."""

import io
import json
import os

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Play
from tests.dom import dom, find, find_all
from tests.dom import text as words
from tests.examples import EXAMPLES

PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())

pytestmark = pytest.mark.django_db

BOUNDARY = "----refereeboundary"


class WatchedBody(io.RawIOBase):
    """A multipart body of ``size`` file bytes, made as it is read, that records how much of it
    was read and, once ``look_at`` bytes were, what the upload temporary directory held."""

    def __init__(self, size: int, look_at: int, temp_dir, csrf_token: str = "") -> None:
        head = ""
        if csrf_token:
            head += (
                f"--{BOUNDARY}\r\nContent-Disposition: form-data; "
                f'name="csrfmiddlewaretoken"\r\n\r\n{csrf_token}\r\n'
            )
        head += (
            f"--{BOUNDARY}\r\nContent-Disposition: form-data; "
            f'name="log"; filename="big.json"\r\nContent-Type: application/json\r\n\r\n'
        )
        self.head = head.encode()
        self.tail = f"\r\n--{BOUNDARY}--\r\n".encode()
        self.size = len(self.head) + size + len(self.tail)
        self.position = 0
        self.look_at = look_at
        self.temp_dir = temp_dir
        self.seen_on_disk: list[str] | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        start = self.position
        count = min(len(buffer), self.size - start)
        whole = bytearray(b" " * count)
        # Copy whatever part of the head or the tail falls in [start, start + count).
        for text, at in ((self.head, 0), (self.tail, self.size - len(self.tail))):
            low, high = max(start, at), min(start + count, at + len(text))
            if low < high:
                whole[low - start : high - start] = text[low - at : high - at]
        buffer[:count] = whole
        self.position += count
        if self.seen_on_disk is None and self.position >= self.look_at:
            self.seen_on_disk = os.listdir(self.temp_dir)
        return count


def post_body(client: Client, url: str, body: WatchedBody):
    environ = {
        "wsgi.input": body,
        "CONTENT_LENGTH": str(body.size),
        "CONTENT_TYPE": f"multipart/form-data; boundary={BOUNDARY}",
    }
    return client.generic("POST", url, **environ)


def test_an_oversize_log_upload_is_refused_before_its_body_is_read(
    member_client, night, settings, tmp_path
):
    """Past a game log's limit but within what forms may send: said on the night's page."""
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    body = WatchedBody(int(1.5 * 1024 * 1024), look_at=1, temp_dir=tmp_path)
    response = post_body(member_client, reverse("log-upload", args=[night.pk]), body)
    assert response.status_code == 302 and response["Location"] == reverse("night", args=[night.pk])
    assert body.position == 0  # not one byte was read
    page = dom(member_client.get(response["Location"]))
    said = [words(item) for item in find_all(find(page, "ul", class_="messages"), "li")]
    assert said == ["That file is too big for a game log (at most 1024 KB)."]
    assert Play.objects.count() == 0 and os.listdir(tmp_path) == []


def test_a_body_past_every_pages_limit_is_a_413_before_it_is_read(
    member_client, night, settings, tmp_path
):
    """Past what any page accepts: 413 on the upload as on every address (issue 29)."""
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    body = WatchedBody(300 * 1024 * 1024, look_at=1, temp_dir=tmp_path)
    response = post_body(member_client, reverse("log-upload", args=[night.pk]), body)
    assert response.status_code == 413 and body.position == 0
    assert Play.objects.count() == 0 and os.listdir(tmp_path) == []


def test_an_upload_that_passes_the_limit_while_read_stops_there_and_writes_nothing(
    member_client, night, settings, tmp_path, monkeypatch
):
    # A body announced small enough to be read (here: any body), whose file passes the limit.
    monkeypatch.setattr("games.uploads.FORM_OVERHEAD_BYTES", 100 * 1024 * 1024)
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    settings.MAX_UPLOAD_BYTES = 64 * 1024
    body = WatchedBody(4 * 1024 * 1024, look_at=2 * 1024 * 1024, temp_dir=tmp_path)
    response = post_body(member_client, reverse("log-upload", args=[night.pk]), body)
    assert response.status_code == 302
    assert "too big" in member_client.get(response["Location"]).content.decode()
    assert body.position <= 3 * 64 * 1024  # reading stopped at the limit (64 KB chunks)
    assert Play.objects.count() == 0 and os.listdir(tmp_path) == []


def test_a_big_upload_to_any_other_page_is_never_written_to_disk(
    member_client, club, settings, tmp_path
):
    # The CSRF check reads the form of every POST: a stalled multi-gigabyte upload used to be
    # spooled to a temporary file there, left behind when the worker was killed.
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    body = WatchedBody(8 * 1024 * 1024, look_at=4 * 1024 * 1024, temp_dir=tmp_path)
    response = post_body(member_client, reverse("player-create", args=[club.pk]), body)
    assert response.status_code < 500
    assert body.seen_on_disk in (None, [])
    assert body.position <= 1024 * 1024 + 256 * 1024  # stopped at the limit, not at 8 MB
    assert os.listdir(tmp_path) == []


def test_the_upload_still_checks_the_csrf_token(member, night):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(member)
    upload = io.BytesIO(json.dumps(PUNTO).encode())
    upload.name = "punto.json"
    url = reverse("log-upload", args=[night.pk])
    assert strict.post(url, {"log": upload}).status_code == 403
    assert Play.objects.count() == 0
    token = strict.get(reverse("night", args=[night.pk])).context["csrf_token"]
    upload.seek(0)
    response = strict.post(url, {"log": upload, "csrfmiddlewaretoken": str(token)})
    assert response.status_code == 302 and Play.objects.count() == 1


def test_an_outsider_gets_a_404_even_for_an_oversize_upload(outsider_client, night, tmp_path):
    body = WatchedBody(int(1.5 * 1024 * 1024), look_at=1, temp_dir=tmp_path)
    response = post_body(outsider_client, reverse("log-upload", args=[night.pk]), body)
    assert response.status_code == 404 and body.position == 0
    # past every page's limit: the same 413 on every address, which tells nothing of the night
    body = WatchedBody(300 * 1024 * 1024, look_at=1, temp_dir=tmp_path)
    response = post_body(outsider_client, reverse("log-upload", args=[night.pk]), body)
    assert response.status_code == 413 and body.position == 0
