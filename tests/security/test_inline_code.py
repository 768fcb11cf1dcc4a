"""CSP is `script-src 'self'` and `style-src 'self'`: no page may carry inline code or styles.

Every GET route of the app is rendered, as a member and as the owner, as a full page and as an
htmx fragment, and the HTML is searched for inline scripts, event-handler attributes, style
attributes and <style> elements — none of which the browser would run under our CSP.
"""

from html.parser import HTMLParser

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games import services
from games.models import Play
from tests.conftest import PLAY_FIRST_MOVE

pytestmark = pytest.mark.django_db


class InlineCodeFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        names = {name.lower(): value for name, value in attrs}
        # A data block (JSON the page reads, as the referee's options) is not a script: the
        # browser never runs it, and CSP does not apply to it (HTML, "data block").
        data_block = (names.get("type") or "").lower() == "application/json"
        if tag == "script" and not names.get("src") and not data_block:
            self.problems.append(f"inline <script> ({self.getpos()})")
        if tag == "style":
            self.problems.append(f"<style> element ({self.getpos()})")
        for name, value in names.items():
            if name.startswith("on") or name.startswith("hx-on"):
                self.problems.append(f"<{tag} {name}=...> event handler ({self.getpos()})")
            if name == "style":
                self.problems.append(f"<{tag} style=...> ({self.getpos()})")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.problems.append(f"<{tag} {name}=javascript:...> ({self.getpos()})")


def inline_code(html: str) -> list[str]:
    finder = InlineCodeFinder()
    finder.feed(html)
    finder.close()
    return finder.problems


def test_the_finder_finds_what_it_looks_for():
    html = (
        '<script>alert(1)</script><script src="/x.js"></script><a onclick="x()">a</a>'
        '<p style="color:red">p</p><style>p{}</style><div hx-on:click="x()"></div>'
        '<a href="javascript:x()">j</a><script type="application/json">{"a": 1}</script>'
    )
    assert len(inline_code(html)) == 6  # the JSON data block is no script


def _routes(resolver=None, prefix=""):
    """(name, route) of every named URL pattern of the project."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            if getattr(pattern, "app_name", None) == "admin" or str(pattern.pattern) == "admin/":
                continue
            yield from _routes(pattern, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield pattern.name, pattern


@pytest.fixture
def objects(club, night, players, play, owner):
    services.record_move(play=play, move=PLAY_FIRST_MOVE, by=owner)  # a log to show and undo
    player = services.add_player(club=club, name="Zoé")
    invite = services.create_invite(club=club, by=owner)
    membership = club.memberships.get(role="member")
    return {
        "club_id": club.pk,
        "night_id": night.pk,
        "play_id": play.pk,
        "player_id": player.pk,
        "invite_id": invite.pk,
        "membership_id": membership.pk,
        "token": invite.token,
        "scope": "buntherum",
    }


# Routes whose GET answers no HTML page, or that Django's auth handles with its own arguments.
NOT_PAGES = {"set_language", "logout", "password_reset_confirm", "invite-create", "invite-revoke"}


def every_page(objects):
    urls = []
    for name, pattern in _routes():
        if name in NOT_PAGES:
            continue
        if not set(pattern.pattern.converters) <= set(objects):
            continue  # a route with an argument this test does not know how to fill
        kwargs = {key: objects[key] for key in pattern.pattern.converters}
        urls.append((name, reverse(name, kwargs=kwargs)))
    return urls


def test_no_page_has_inline_code_for_a_member_or_an_owner(member_client, owner_client, objects):
    checked = 0
    for name, url in every_page(objects):
        for who, http in (("member", member_client), ("owner", owner_client)):
            for headers in ({}, {"HX-Request": "true"}):
                response = http.get(url, headers=headers)
                assert response.status_code < 500, (name, who)
                if "html" not in response.get("Content-Type", ""):
                    continue
                problems = inline_code(response.content.decode())
                assert not problems, (name, who, headers, problems)
                checked += 1
    assert checked > 20


def test_anonymous_pages_have_no_inline_code(client, objects):
    for name in ["home", "login", "signup", "password_reset", "password_reset_done"]:
        response = client.get(reverse(name))
        assert response.status_code == 200, name
        assert not inline_code(response.content.decode()), name
    # a night's read-only link: the pages people without an account open
    share = services.share_night(night=Play.objects.get(pk=objects["play_id"]).night, by=None)
    for url in (
        reverse("shared-night", args=[share.token]),
        reverse("shared-play", args=[share.token, objects["play_id"]]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert not inline_code(response.content.decode()), url
    missing = client.get("/no/such/page/")
    assert missing.status_code == 404 and not inline_code(missing.content.decode())


def test_the_lockout_page_has_no_inline_code(client, member):
    for _ in range(5):
        response = client.post(reverse("login"), {"username": "mahmoud", "password": "nope"})
    assert response.status_code == 429
    assert not inline_code(response.content.decode())
