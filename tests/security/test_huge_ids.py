"""An id past what a row can hold answers 404 on every address, streams included (issue 29,
finding 4: `/plays/<huge id>/events/` and `/nights/<huge id>/events/` answered 500 where pages
answered 404). Every address of the site with an id is tried, so a new one is covered too."""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from games import services
from games.converters import LARGEST_ID, IdConverter

pytestmark = pytest.mark.django_db

HUGE = [str(LARGEST_ID + 1), "9" * 30, "0"]


def routes(patterns=None, prefix: str = ""):
    """Every address pattern of the site as a route string ("plays/<id:play_id>/"), with the
    converters of its parameters."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from routes(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern) and not (prefix + route).startswith("^"):
            yield prefix + route, entry.pattern.converters


PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")
WITH_IDS = [
    route
    for route, converters in routes()
    if any(isinstance(c, IdConverter) for c in converters.values())
]


def test_every_id_in_an_address_goes_through_the_id_converter():
    """A number named like an id in an address uses ``id`` (games/converters.py), never ``int``:
    a new address added with ``<int:…_id>`` fails here."""
    for route, converters in routes():
        for name, converter in converters.items():
            if name.endswith("_id") and not route.startswith("admin/"):
                assert isinstance(converter, IdConverter), route


def test_the_streams_and_pages_are_among_the_addresses_tried():
    assert "plays/<id:play_id>/events/" in WITH_IDS
    assert "nights/<id:night_id>/events/" in WITH_IDS
    assert len(WITH_IDS) > 30


def address(route: str, the_id: str, token: str) -> str:
    """The route with every id ``the_id`` and its other parameters ones it matches: a move's
    index, a game, a read-only link's working token (with "x" for these, an address such as
    ``plays/<id>/moves/<int:index>/correct/`` was a 404 whatever its id)."""
    others = {"int": "0", "slug": "punto", "str": "punto"}

    def value(match: re.Match) -> str:
        kind, name = match.group(1), match.group(2)
        if kind == "id":
            return the_id
        return token if name == "token" else others[kind or "str"]

    return "/" + PARAMETER.sub(value, route)


@pytest.mark.parametrize("huge", HUGE)
@pytest.mark.parametrize("route", WITH_IDS)
def test_a_huge_id_is_a_404_on_every_address(member_client, owner, night, route, huge):
    token = services.share_night(night=night, by=owner).token
    # the same address with an id a row may have is one of the site's: only the id refuses it
    assert str(resolve(address(route, "1", token)).route) == route
    url = address(route, huge, token)
    for method in (member_client.get, member_client.post):
        response = method(url)
        assert response.status_code == 404, (url, response.status_code)


@pytest.mark.parametrize("huge", HUGE)
def test_a_huge_player_id_in_a_form_is_a_message_not_a_500(owner_client, night, players, huge):
    """Seats are chosen by player id in the start form and the setup's address: an id past the
    database's range was handed to it (SQLite: OverflowError, a 500)."""
    seats = [huge, str(players[0].pk)]
    start = owner_client.post(
        reverse("play-start", args=[night.pk]), {"game": "punto", "seat": seats}
    )
    assert start.status_code == 422 and "Choose the players from the list" in start.text
    query = "&".join(f"seat={seat}" for seat in seats)
    setup = reverse("play-setup", args=[night.pk]) + f"?game=punto&{query}"
    for answer in (
        owner_client.get(setup),
        owner_client.post(setup, {"game": "punto", "seat": seats}),
    ):
        assert answer.status_code == 302 and answer["Location"].startswith(
            reverse("play-start", args=[night.pk])
        )


@pytest.mark.parametrize(
    ("name", "value"),
    [(name, huge) for name in ("min_plays", "year", "players") for huge in HUGE]
    + [("year", "9999"), ("year", "10000")],
)
def test_a_huge_number_in_a_leaderboards_address_is_no_500(
    member_client, club, players, name, value
):
    """A year or a count in the address is a number of the calendar's or the table's size: a
    year past the calendar's end was a 500 (OverflowError, or ValueError from its next year)."""
    for url in (reverse("leaderboard", args=[club.pk]), reverse("player", args=[players[0].pk])):
        response = member_client.get(url, {name: value})
        assert response.status_code == 200, (url, response.status_code)


@pytest.mark.parametrize("huge", HUGE[:2])
def test_a_huge_version_in_a_change_is_refused_as_stale(owner_client, play, huge):
    """The version a change was made at is compared with the play's, never handed to the
    database as it came."""
    for name in ("play-move", "play-undo", "play-abandon", "play-delete"):
        response = owner_client.post(reverse(name, args=[play.pk]), {"version": huge})
        assert response.status_code in (302, 409, 422), (name, response.status_code)
    response = owner_client.get(reverse("play-live", args=[play.pk]), {"version": huge})
    assert response.status_code == 200
