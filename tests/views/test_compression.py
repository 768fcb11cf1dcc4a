"""Pages and fragments go out compressed to a browser that takes gzip (issue 28); live streams
and static files go out as they are (games.compression)."""

import gzip
import json

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory
from django.urls import reverse

from games.compression import CompressPages
from tests.dom import attr, dom, find
from tests.services.stored import GOOD

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def test_the_play_page_goes_out_compressed_and_reads_the_same(member_client, play):
    url = reverse("play", args=[play.pk])
    plain = member_client.get(url)
    packed = member_client.get(url, **GZIP)
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    page = gzip.decompress(packed.content).decode()
    assert attr(find(dom(page), "div", id="play-main"), "data-version") == "0"
    # Far smaller on the wire: a phone on a slow network waits for every byte.
    assert len(packed.content) * 3 < len(plain.content)


def test_a_moves_answer_goes_out_compressed(member_client, play):
    data = {"json": "1", "move_json": json.dumps(GOOD), "version": 0}
    answer = member_client.post(
        reverse("play-move", args=[play.pk]), data, HTTP_HX_REQUEST="true", **GZIP
    )
    assert answer["Content-Encoding"] == "gzip"
    page = dom(gzip.decompress(answer.content).decode())
    assert attr(find(page, "div", id="play-main"), "data-version") == "1"


def test_a_stream_goes_out_as_it_is_to_be_flushed_event_by_event():
    request = RequestFactory().get("/plays/1/events/", **GZIP)
    events = StreamingHttpResponse(iter([b"event: changed\n\n"]), content_type="text/event-stream")
    answer = CompressPages(lambda request: events)(request)
    assert "Content-Encoding" not in answer
    assert b"".join(answer.streaming_content) == b"event: changed\n\n"


def test_a_page_goes_out_as_it_is_to_a_browser_that_takes_no_gzip():
    request = RequestFactory().get("/")
    page = HttpResponse(b"<p>" + b"x" * 1000 + b"</p>")
    answer = CompressPages(lambda request: page)(request)
    assert "Content-Encoding" not in answer and answer.content.startswith(b"<p>")
