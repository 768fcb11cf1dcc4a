"""The parts that changed, pushed in the play page's stream event itself (issue 32,
games.views.live._Push): what a page gets in the event is what its fetch at that version would
give that viewer — the same parts, in the viewer's language, with the viewer's own CSRF token
and fresh keys — and it is told which fingerprints its page must show for that to hold; nothing
is pushed where a fetch must decide (a play no longer in progress, a viewer no longer a member,
a page further behind), nor to a stream that did not ask."""

from __future__ import annotations

import asyncio
import gzip as std_gzip
import json
import zlib

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.middleware.csrf import _unmask_cipher_token
from django.test import AsyncClient, RequestFactory
from django.urls import reverse

from games import services
from games.models import Membership, Play
from games.views import live as views
from tests.dom import ANY, attr, dom, find, find_all
from tests.views.test_move_answer import GAMES, cut_at, example, put_in_place, shown, steady

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def page_of(client, play, **headers) -> str:
    """The fragment a phone shows of the play (what the page draws, as every member sees it)."""
    return client.get(reverse("play", args=[play.pk]), **HTMX, **headers).content.decode()


def fetch(client, play, version: int, page: str, **headers):
    """What that page fetches when its stream says the play changed (static/js/play-parts.js:
    the parts it shows in X-Play-Parts)."""
    url = reverse("play-live", args=[play.pk])
    return client.get(
        url, {"version": version, "kept": ""}, HTTP_X_PLAY_PARTS=shown(page), **HTMX, **headers
    )


def stream_push(client, play, user, language: str = "en") -> views._Push:
    """The push of a stream opened by ``client``'s browser (its CSRF cookie, its language)."""
    request = RequestFactory().get(f"/plays/{play.pk}/events/", {"v": play.version, "parts": "1"})
    if "csrftoken" not in client.cookies:
        page_of(client, play)  # the page the stream belongs to: its cookie
    request.META["CSRF_COOKIE"] = client.cookies["csrftoken"].value
    request.LANGUAGE_CODE = language
    push = views._Push.asked(request, play.pk, user.pk)
    assert push is not None
    return push


def pushed(frame: bytes | None) -> dict:
    assert frame is not None, "the plain event: nothing pushed"
    head, data = frame.decode().split("data: ", 1)
    assert "event: parts" in head
    assert data.endswith("\n\n") and "\n" not in data[:-2]  # one line of data
    return json.loads(data)


def fingerprints(page: str) -> dict[str, str]:
    return dict(pair.split(":") for pair in shown(page).split())


def fits(page: str, expect: dict[str, str]) -> bool:
    """Whether a page shows every fingerprint the push was decided on (live-catchup.js)."""
    have = fingerprints(page)
    return all(have.get(name, "") == h for name, h in expect.items())


def csrf_of(html: str) -> set[str]:
    return {
        dict(node.attributes)["value"]
        for node in find_all(dom(html), "input", name="csrfmiddlewaretoken")
    }


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("where", ["first", "middle"])
def test_the_parts_pushed_are_what_the_viewers_fetch_gets(
    member_client, member, club, night, game, where, language
):
    count = len(example(game)["moves"])
    play, move = cut_at(club, night, game, {"first": 0, "middle": count // 2}[where])
    accept = {"HTTP_ACCEPT_LANGUAGE": language}
    page = page_of(member_client, play, **accept)
    push = stream_push(member_client, play, member, language)
    push.start(play.version)  # the stream opens on the page

    services.record_move(play=play, move=move)  # entered on another phone
    play.refresh_from_db()
    event = pushed(push.event(play.version))
    answer = fetch(member_client, play, event["since"], page, **accept)

    assert answer["X-Play-Parts"] == "1"
    assert event["since"] == play.version - 1
    assert fits(page, event["expect"])  # the page takes them
    # the same parts as the fetch's, and the page shows the same once they are in place
    assert steady(dom(event["html"])) == steady(dom(answer.content.decode()))
    assert steady(put_in_place(dom(page), event["html"])) == steady(
        put_in_place(dom(page), answer.content.decode())
    )
    # the viewer's own token (of their browser's CSRF cookie), and keys of their own
    secret = member_client.cookies["csrftoken"].value
    tokens = csrf_of(event["html"])
    assert tokens and {_unmask_cipher_token(token) for token in tokens} == {secret}
    keys = find_all(dom(event["html"]), "input", name="idempotency_key")
    assert keys and all("undokey" not in str(key) and "movekey" not in str(key) for key in keys)


def test_each_stream_gets_its_own_token_and_keys_from_one_drawing(
    member_client, owner_client, member, owner, club, night
):
    play, move = cut_at(club, night, "punto", 3)
    pages = [page_of(client, play) for client in (member_client, owner_client)]
    pushes = [
        stream_push(member_client, play, member),
        stream_push(owner_client, play, owner),
    ]
    for push in pushes:
        push.start(play.version)
    services.record_move(play=play, move=move)
    play.refresh_from_db()
    events = [pushed(push.event(play.version)) for push in pushes]
    assert pushes[0].base is pushes[1].base  # one drawing for both
    assert all(fits(page, event["expect"]) for page, event in zip(pages, events, strict=True))
    tokens = [csrf_of(event["html"]) for event in events]
    assert {_unmask_cipher_token(t) for t in tokens[0]} == {
        member_client.cookies["csrftoken"].value
    }
    assert {_unmask_cipher_token(t) for t in tokens[1]} == {owner_client.cookies["csrftoken"].value}
    (first,), (second,) = (
        [
            dict(node.attributes)["value"]
            for node in find_all(find(dom(event["html"]), "form", id="move-form"), "input")
            if dict(node.attributes).get("name") == "idempotency_key"
        ]
        for event in events
    )
    assert first != second


def test_a_drawing_kept_is_pushed_without_reading_the_database(
    member_client, owner_client, member, owner, club, night, django_assert_num_queries
):
    """The first stream of a process to push a version draws it (reading the play as its
    viewer may see it); the others push it from there, reading nothing (who may see what is
    told them: tests/live/test_events.py)."""
    play, move = cut_at(club, night, "punto", 3)
    first, second = stream_push(member_client, play, member), stream_push(owner_client, play, owner)
    for push in (first, second):
        push.start(play.version)
    services.record_move(play=play, move=move)
    play.refresh_from_db()
    pushed(first.event(play.version))
    with django_assert_num_queries(0):
        pushed(second.event(play.version))


def test_a_page_that_shows_something_of_its_own_does_not_take_them(
    member_client, member, club, night
):
    """A refusal shown next to the controls: that page's fetch would replace more than the
    parts pushed for a page that shows the play as every member sees it, so it fetches."""
    play, move = cut_at(club, night, "punto", 2)
    page = page_of(member_client, play)
    push = stream_push(member_client, play, member)
    push.start(play.version)
    refused = member_client.post(
        reverse("play-move", args=[play.pk]),
        {
            "json": "1",
            "move_json": json.dumps({**move, "card": "no-card"}),
            "version": play.version,
        },
        HTTP_X_PLAY_PARTS=shown(page),
        **HTMX,
    )
    assert refused["X-Play-Change"] == "refused"
    refusing = put_in_place(dom(page), refused.content.decode())
    assert find_all(refusing, "p", id="move-error")
    services.record_move(play=play, move=move)
    play.refresh_from_db()
    event = pushed(push.event(play.version))
    assert fits(page, event["expect"])  # the page as every member sees it takes them
    have = {attr(node, "id"): attr(node, "data-h") for node in find_all(refusing, None, data_h=ANY)}
    assert any(have.get(name, "") != h for name, h in event["expect"].items())


def test_nothing_is_pushed_for_a_page_further_behind(member_client, member, club, night):
    play, move = cut_at(club, night, "punto", 2)
    push = stream_push(member_client, play, member)
    push.start(play.version)
    log = example("punto")["moves"]
    services.record_move(play=play, move=move)
    services.record_move(play=Play.objects.get(pk=play.pk), move=log[3])
    play.refresh_from_db()
    # told of the second move only (the first's event was coalesced): fetched
    assert push.event(play.version - 1) is None
    # the next one is pushed again, from the drawing the stream has now
    services.record_move(play=play, move=log[4])
    play.refresh_from_db()
    assert pushed(push.event(play.version))["since"] == play.version - 1


def test_nothing_is_pushed_once_the_play_is_over_or_the_viewer_out(
    member_client, member, owner, club, night
):
    play, move = cut_at(club, night, "punto", 2)
    push = stream_push(member_client, play, member)
    push.start(play.version)
    services.abandon_play(play=play, by=owner)
    play.refresh_from_db()
    assert push.event(play.version) is None  # the owner's "Resume": fetched

    other, move = cut_at(club, night, "punto", 2)
    push = stream_push(member_client, other, member)
    push.start(other.version)
    Membership.objects.filter(user=member).delete()  # no notification says so
    services.record_move(play=other, move=move)
    other.refresh_from_db()
    assert push.event(other.version) is None


def test_only_a_stream_that_asks_gets_them_and_only_with_a_csrf_cookie(member, play):
    def asked(**query) -> views._Push | None:
        request = RequestFactory().get("/", {"v": 0, **query})
        request.META["CSRF_COOKIE"] = "x" * 32
        request.LANGUAGE_CODE = "en"
        return views._Push.asked(request, play.pk, member.pk)

    assert asked(parts="1") is not None
    assert asked() is None  # the table screen and the sheet: the plain event, their fetch
    request = RequestFactory().get("/", {"parts": "1"})
    request.LANGUAGE_CODE = "en"
    assert views._Push.asked(request, play.pk, member.pk) is None  # no cookie to match
    request.META["CSRF_COOKIE"] = "x" * 32
    request.LANGUAGE_CODE = "xx"
    assert views._Push.asked(request, play.pk, member.pk) is None  # a language not the site's


@pytest.mark.django_db(transaction=True)
def test_the_stream_sends_the_parts_in_its_event(member, club, night):
    """Through the view under ASGI: the page at the play's version, a move, the event."""
    play, move = cut_at(club, night, "punto", 2)

    async def run():
        client = AsyncClient(HTTP_HX_REQUEST="true")
        await client.aforce_login(member)
        await client.get(reverse("play", args=[play.pk]))  # the page: its CSRF cookie
        url = reverse("play-events", args=[play.pk])
        response = await client.get(url, {"v": play.version, "parts": "1"})
        stream = aiter(response.streaming_content)
        async with asyncio.timeout(10):
            assert await anext(stream) == views.HELLO
            task = asyncio.ensure_future(anext(stream))
            await asyncio.sleep(0.3)  # the stream has drawn its page's version, and waits
            await sync_to_async(services.record_move)(play=play, move=move)
            return await task

    start = play.version
    event = pushed(async_to_sync(run)())
    assert event["since"] == start
    assert f'data-version="{start + 1}"' in event["html"]


def test_a_gzipped_stream_gives_each_frame_as_it_comes_and_ends_as_gzip_does():
    """Each frame compressed on its own and flushed: the browser reads it at once, and the
    frames one after another are one gzip stream, its trailer at the end."""
    frames = [
        views.HELLO,
        views.KEEPALIVE,
        b"id: 7\nevent: parts\ndata: " + b"x" * 50_000 + b"\n\n",
    ]
    gzip = views._Gzip()
    reader = zlib.decompressobj(wbits=31)
    sent = []
    for frame in frames:
        sent.append(gzip.frame(frame))
        assert reader.decompress(sent[-1]) == frame  # all of it, nothing held back
    assert len(sent[-1]) < 1000
    sent.append(gzip.end())
    assert reader.decompress(sent[-1]) == b"" and reader.eof
    assert std_gzip.decompress(b"".join(sent)) == b"".join(frames)


@pytest.mark.django_db(transaction=True)
def test_the_stream_is_gzipped_for_a_browser_that_takes_it(member, club, night):
    play, move = cut_at(club, night, "punto", 2)

    async def run():
        client = AsyncClient(HTTP_HX_REQUEST="true")
        await client.aforce_login(member)
        await client.get(reverse("play", args=[play.pk]))
        url = reverse("play-events", args=[play.pk])
        asked = {"v": play.version, "parts": "1"}
        gzip = {"Accept-Encoding": "gzip, deflate, br"}
        response = await client.get(url, asked, headers=gzip)
        assert response["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in response["Vary"]
        reader = zlib.decompressobj(wbits=31)
        stream = aiter(response.streaming_content)
        async with asyncio.timeout(10):
            assert reader.decompress(await anext(stream)) == views.HELLO
            task = asyncio.ensure_future(anext(stream))
            await asyncio.sleep(0.3)
            await sync_to_async(services.record_move)(play=play, move=move)
            frame = reader.decompress(await task)
        # a stream that does not ask for the parts, or a browser that does not take gzip: plain
        plain = await client.get(url, {"v": play.version}, headers=gzip)
        assert not plain.has_header("Content-Encoding")
        plain = await client.get(url, asked)
        assert not plain.has_header("Content-Encoding")
        return frame

    start = play.version
    event = pushed(async_to_sync(run)())
    assert event["since"] == start
