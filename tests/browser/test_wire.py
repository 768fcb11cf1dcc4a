"""What the play page costs on a phone's network (issue 28): its first load, cold, and the
answer to a move, which carries only what changed (games.parts). Measured as Chromium counts
it (CDP: the bytes as they came over the wire, compressed). The figures of a production setup,
on Fast 3G, are `make bench-network`'s (docs/benchmarks.md)."""

import json

import pytest
from playwright.sync_api import expect

from .conftest import log_in
from .test_play_page import example_play

#: Issue 28: an answer to a move ≤ 8 KB on the wire, the page's first load ≤ 150 KB, cold.
ANSWER_KB, FIRST_LOAD_KB = 8, 150


class Wire:
    """The bytes of each response, as the network carried them (CDP Network events)."""

    def __init__(self, page):
        self.urls: dict[str, str] = {}
        self.bytes: dict[str, int] = {}
        session = page.context.new_cdp_session(page)
        session.send("Network.enable")
        session.on("Network.responseReceived", self._response)
        session.on("Network.loadingFinished", self._finished)

    def _response(self, event):
        self.urls[event["requestId"]] = event["response"]["url"]

    def _finished(self, event):
        self.bytes[event["requestId"]] = int(event["encodedDataLength"])

    def total(self) -> int:
        return sum(self.bytes.values())

    def of(self, ending: str) -> list[int]:
        return [n for rid, n in self.bytes.items() if self.urls.get(rid, "").endswith(ending)]


@pytest.mark.parametrize(
    "example", ["punto-1", "buntherum-1", "three-high-1", "thricewise-1", "forget-venice-1"]
)
def test_a_moves_answer_and_the_first_load_weigh_what_issue_28_allows(page, table, example):
    play, log = example_play(table, example, 2)
    log_in(page)
    wire = Wire(page)  # a new context: nothing cached
    page.goto(f"/plays/{play.pk}/", wait_until="networkidle")
    first_load = wire.total()
    assert first_load <= FIRST_LOAD_KB * 1000, first_load

    page.click("#move-json-box summary")
    page.fill("#move-json", json.dumps(log["moves"][2]))
    with page.expect_response(lambda r: r.url.endswith("/move/")):
        page.click("#enter-json")
    expect(page.locator("#move-log li:not(.undone)")).to_have_count(3)
    expect(page.locator("#play-main")).to_have_attribute("data-version", str(play.version + 1))
    page.wait_for_timeout(200)  # the answer's loadingFinished
    (answer,) = wire.of("/move/")
    print(f"{example}: first load {first_load / 1000:.1f} KB, answer {answer / 1000:.1f} KB")
    assert answer <= ANSWER_KB * 1000, answer
    assert page.js_errors == []
