"""Read-only links to a game night (games.views.shares): who may make and withdraw one, what it
opens (that night's plays and summary, for anyone holding it), what it never opens (anything
else of the club), and that a withdrawn link is a 404. Its stream: tests/live/test_events.py."""

from __future__ import annotations

import datetime
import json

import pytest
from django.urls import reverse

from games import services
from games.models import AuditEntry, NightShare
from tests.conftest import PLAY_FIRST_MOVE
from tests.dom import ANY, attr, classes, dom, find, find_all, text
from tests.examples import EXAMPLES

HTMX = {"HX-Request": "true"}


@pytest.fixture
def share(night, owner):
    return services.share_night(night=night, by=owner)


def stream_of(page) -> str:
    """The URL of the stream the page follows (its ``sse-connect``), without its query."""
    (follows,) = find_all(page, None, sse_connect=ANY)
    return attr(follows, "sse-connect").split("?")[0]


def shared(share, *path) -> str:
    if path:
        return reverse("shared-play", args=[share.token, *path])
    return reverse("shared-night", args=[share.token])


# Making and withdrawing a link: the owner only -------------------------------------------------


def test_the_owner_makes_a_link_from_the_nights_page(owner_client, night):
    response = owner_client.post(reverse("night-share", args=[night.pk]))
    assert response.status_code == 302
    share = NightShare.objects.get(night=night)
    page = dom(owner_client.get(reverse("night", args=[night.pk])))
    box = find(page, "details", id="share")
    assert attr(find(box, "input", id="share-url"), "value") == f"http://testserver{shared(share)}"
    (revoke,) = find_all(box, "form", method="post")
    assert attr(revoke, "action") == reverse("share-revoke", args=[share.pk])


def test_asking_twice_keeps_one_working_link(owner_client, night):
    owner_client.post(reverse("night-share", args=[night.pk]))
    owner_client.post(reverse("night-share", args=[night.pk]))
    assert NightShare.objects.active().filter(night=night).count() == 1


def test_the_token_is_long_and_random(night, owner):
    first = services.share_night(night=night, by=owner)
    services.revoke_share(share=first, by=owner)
    second = services.share_night(night=night, by=owner)
    assert len(first.token) >= 32 and first.token != second.token


def test_a_member_cannot_make_or_withdraw_a_link_nor_see_it(member_client, night, share):
    assert member_client.post(reverse("night-share", args=[night.pk])).status_code == 404
    assert member_client.post(reverse("share-revoke", args=[share.pk])).status_code == 404
    assert share.token not in member_client.get(reverse("night", args=[night.pk])).content.decode()
    share.refresh_from_db()
    assert share.revoked_at is None


def test_an_outsider_cannot_make_or_withdraw_a_link(outsider_client, night, share):
    assert outsider_client.post(reverse("night-share", args=[night.pk])).status_code == 404
    assert outsider_client.post(reverse("share-revoke", args=[share.pk])).status_code == 404


def test_making_and_withdrawing_are_in_the_audit(owner_client, owner, night):
    owner_client.post(reverse("night-share", args=[night.pk]))
    share = NightShare.objects.get(night=night)
    owner_client.post(reverse("share-revoke", args=[share.pk]))
    actions = list(
        AuditEntry.objects.for_club(night.club).values_list("action", "object_id", "actor_name")
    )
    assert actions[:2] == [
        (AuditEntry.Action.SHARE_REVOKE, night.pk, owner.username),
        (AuditEntry.Action.NIGHT_SHARE, night.pk, owner.username),
    ]


def test_making_a_link_needs_a_post(owner_client, night):
    assert owner_client.get(reverse("night-share", args=[night.pk])).status_code == 405
    assert not NightShare.objects.exists()


# What the link opens, for anyone holding it ---------------------------------------------------


def test_without_an_account_the_link_shows_the_nights_plays_and_summary(client, play, share):
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    response = client.get(shared(share))
    page = dom(response)
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    (card,) = find_all(page, "a", class_="card-link")
    assert attr(card, "href") == shared(share, play.pk)  # the play card opens its table screen
    assert stream_of(page) == reverse("shared-events", args=[share.token])
    for name in ("Ana", "Ben", "Chloé"):
        assert name in text(card)


def test_the_link_shows_the_nights_summary(client, night, share):
    log = json.loads((EXAMPLES / "thricewise-1.json").read_text())
    services.import_log(club=night.club, log=log, night=night)
    body = client.get(shared(share)).content.decode()
    assert "1 finished play." in body
    assert "scored in points: Forget Venice and Thricewise" in body
    lines = find(find(dom(body), "div", id="shared-night"), "table", class_="night-lines")
    assert classes(lines) == {"sheet", "stack", "night-lines"}


def test_the_link_shows_nothing_else_of_the_club(client, play, share, night):
    # a finished play too: the summary then names its players (without a link to their page)
    log = json.loads((EXAMPLES / "thricewise-1.json").read_text())
    services.import_log(club=night.club, log=log, night=night)
    body = client.get(shared(share)).content.decode()
    for url in (
        reverse("club", args=[night.club_id]),
        reverse("night", args=[night.pk]),
        reverse("play", args=[play.pk]),
        reverse("night-events", args=[night.pk]),
        reverse("night-summary", args=[night.pk]),
    ):
        assert f'"{url}' not in body, url
    page = dom(body)
    assert find_all(find(page, "table", class_="night-lines"), "tbody")
    links = [attr(link, "href") for link in find_all(page, None, href=ANY)]
    assert links and not [href for href in links if href.startswith("/players/")]
    assert night.club.name not in body


def test_the_shared_table_screen_is_read_only_and_follows_the_link(client, play, share):
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    response = client.get(shared(share, play.pk))
    body = response.content.decode()
    assert response.status_code == 200
    screen = find(dom(body), "article", id="table-screen")
    assert find_all(screen, "section", class_="board-frame") and find_all(
        screen, "table", id="scores"
    )
    assert not find_all(screen, "form")
    assert stream_of(dom(body)) == reverse("shared-events", args=[share.token])
    # nor any other stream or page of the club, anywhere in the page
    assert reverse("night-events", args=[play.night_id]) not in body

    assert reverse("play-table", args=[play.pk]) not in body


def test_once_over_the_shared_screen_moves_on_through_the_link(client, play, share, players):
    services.abandon_play(play=play)
    following = services.start_play(
        night=play.night, game=play.game, players=players, setup=play.setup
    )
    response = client.get(shared(share, play.pk))
    assert response["Location"] == shared(share, following.pk)
    assert client.get(shared(share, play.pk), headers=HTMX)["HX-Redirect"] == shared(
        share, following.pk
    )


def test_a_play_of_another_night_is_a_404_through_the_link(client, play, share, club, players):
    other_night = services.create_game_night(club=club, date=datetime.date(2026, 11, 27))
    other = services.start_play(
        night=other_night, game=play.game, players=players, setup=play.setup
    )
    assert client.get(shared(share, other.pk)).status_code == 404


def test_an_unknown_token_is_a_404(client, share):
    assert client.get(reverse("shared-night", args=["x" * 32])).status_code == 404
    assert client.get(reverse("shared-play", args=["x" * 32, 1])).status_code == 404


def test_a_withdrawn_link_is_a_404_everywhere(client, owner, play, share):
    services.revoke_share(share=share, by=owner)
    assert client.get(shared(share)).status_code == 404
    assert client.get(shared(share, play.pk)).status_code == 404
    assert client.get(reverse("shared-events", args=[share.token])).status_code == 404


def test_a_new_link_does_not_bring_back_the_withdrawn_one(client, owner, night, share):
    services.revoke_share(share=share, by=owner)
    services.share_night(night=night, by=owner)
    assert client.get(shared(share)).status_code == 404


def test_the_shared_page_is_in_french_for_a_french_reader(client, play, share):
    body = client.get(shared(share), headers={"Accept-Language": "fr"}).content.decode()
    assert "Soirée jeux du 20 novembre 2026" in body
    assert "Bilan de la soirée" in body
    assert "Une vue en lecture seule de cette soirée" in body
