"""A form made before someone else changed the play changes nothing: every tap of a move being
built, every undo, abandoning and deleting carry the play's version, and anything made at an
older version is refused with "someone else changed this play — here is where it stands now",
the answer showing the play as it is now. With and without htmx."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import AuditEntry, Move, Play, Seat
from referee import GAMES
from tests.dom import attr, dom, find, find_all, text
from tests.examples import EXAMPLES
from tests.per_game import own

PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())
STALE = "Someone else changed this play"
HTMX = {"HX-Request": "true"}

pytestmark = pytest.mark.django_db


@pytest.fixture
def punto(night, players):
    """Ana and Ben at Punto; Ana plays first."""
    return services.start_play(night=night, game="punto", players=players[:2], setup=PUNTO["setup"])


def db_state():
    return (
        list(Move.objects.order_by("id").values_list("play_id", "seq", "data", "undone_at")),
        list(Seat.objects.order_by("id").values_list("score", "rank", "is_winner")),
        list(Play.objects.order_by("id").values_list("status", "details", "version")),
        AuditEntry.objects.count(),
    )


def post(client, name, play, data, *, htmx):
    return client.post(reverse(name, args=[play.pk]), data, headers=HTMX if htmx else {})


def version_on(response) -> int:
    """The play's version the page's forms carry (every one of them the same)."""
    (version,) = {
        attr(field, "value") for field in find_all(dom(response), "input", name="version")
    }
    return int(version)


def draft_on(response) -> str:
    """The draft the move form carries in its hidden field, as the browser sends it."""
    return attr(find(find(dom(response), "form", id="move-form"), "input", name="draft"), "value")


def said(response) -> str:
    """What the page says next to the controls, or on top of it (a message after a redirect)."""
    page = dom(response)
    return " ".join(
        text(where)
        for where in find_all(page, "div", id="verdict") + find_all(page, "ul", class_="messages")
    )


def assert_refused_as_stale(response, *, htmx):
    assert response.status_code == (200 if htmx else 409)
    error = find(find(dom(response), "div", id="verdict"), "p", id="move-error")
    assert STALE in text(error)


# Every change advances the version --------------------------------------------------------


def test_every_change_advances_the_version(punto):
    assert punto.version == 0
    services.record_move(play=punto, move=PUNTO["moves"][0])
    assert punto.version == 1
    services.undo_last_move(play=punto)
    punto.refresh_from_db()
    assert punto.version == 2
    services.record_move(play=punto, move=PUNTO["moves"][0])
    assert punto.version == 3
    services.abandon_play(play=punto)
    punto.refresh_from_db()
    assert punto.version == 4


def test_a_refused_move_leaves_the_version_alone(punto):
    with pytest.raises(services.IllegalMoveError):
        services.record_move(play=punto, move={**PUNTO["moves"][0], "player": "Ben"}, version=0)
    punto.refresh_from_db()
    assert punto.version == 0


# Move entry at the right version still works -----------------------------------------------


@pytest.mark.parametrize("htmx", [True, False])
def test_a_move_made_at_the_current_version_is_stored(member_client, punto, htmx):
    move = PUNTO["moves"][0]
    response = post(
        member_client, "play-move", punto, {"move_json": json.dumps(move), "version": 0}, htmx=htmx
    )
    assert response.status_code == (200 if htmx else 302)
    assert list(punto.moves.values_list("data", flat=True)) == [move]
    if htmx:  # the new form is for the new version
        assert version_on(response) == 1
    page = member_client.get(reverse("play", args=[punto.pk]))
    assert version_on(page) == 1


@pytest.mark.parametrize("htmx", [True, False])
def test_a_move_tapped_in_two_steps_at_the_current_version_is_stored(member_client, punto, htmx):
    first = post(member_client, "play-move", punto, {"card": "red-1", "version": 0}, htmx=htmx)
    assert first.status_code == 200
    assert text(find(dom(first), "p", id="punto-drafted")).startswith("Ana plays")
    draft = draft_on(first)
    post(member_client, "play-move", punto, {"at": "0,0", "draft": draft, "version": 0}, htmx=htmx)
    assert list(punto.moves.values_list("data", flat=True)) == [PUNTO["moves"][0]]


# Two undos from one page ------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False])
def test_two_undos_posted_from_one_page_undo_one_move(member_client, punto, htmx):
    for move in PUNTO["moves"][:2]:
        services.record_move(play=punto, move=move)
    page = member_client.get(reverse("play", args=[punto.pk]))
    version = version_on(page)  # a double tap, or two members on the same page
    first = post(member_client, "play-undo", punto, {"version": version}, htmx=htmx)
    assert first.status_code == (200 if htmx else 302)
    before = db_state()
    second = post(member_client, "play-undo", punto, {"version": version}, htmx=htmx)
    assert_refused_as_stale(second, htmx=htmx)
    assert db_state() == before
    assert punto.moves.active().count() == 1
    # The answer shows where the play stands: one move undone, and a form for the new version.
    assert version_on(second) == version + 1
    assert len(find_all(find(dom(second), "ol", id="move-log"), "li", class_="undone")) == 1


def test_an_undo_without_a_version_is_refused(member_client, punto):
    services.record_move(play=punto, move=PUNTO["moves"][0])
    response = post(member_client, "play-undo", punto, {}, htmx=True)
    assert "The form was damaged" in said(response)
    assert punto.moves.active().count() == 1


# A form made before an undo ---------------------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False])
def test_a_move_form_made_before_an_undo_is_refused(member_client, punto, htmx):
    """Three moves in; a form made then; someone undoes move 2. The form's next move (what was
    move 3) must not land on a position its sender never saw."""
    for move in PUNTO["moves"][:3]:
        services.record_move(play=punto, move=move)
    version = version_on(member_client.get(reverse("play", args=[punto.pk])))
    services.undo_last_move(play=punto)
    before = db_state()
    # Ben's move 1 again would be legal now: only the version tells that it is stale.
    again = PUNTO["moves"][2]
    response = post(
        member_client,
        "play-move",
        punto,
        {"move_json": json.dumps(again), "version": version},
        htmx=htmx,
    )
    assert_refused_as_stale(response, htmx=htmx)
    assert db_state() == before


def test_a_move_without_a_version_is_refused(member_client, punto):
    response = post(
        member_client,
        "play-move",
        punto,
        {"move_json": json.dumps(PUNTO["moves"][0])},
        htmx=True,
    )
    assert "The form was damaged" in said(response)
    assert punto.moves.count() == 0


# A half-built move on a second phone -------------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False])
def test_a_half_built_move_on_a_second_phone_is_refused_at_every_step(
    member_client, owner, punto, htmx
):
    """Phone B still shows "Ana drew:"; phone A enters Ana's move; B's taps, made at the old
    version, must not become Ben's move (nor Ana's again)."""
    phone_b = member_client
    phone_a = Client()
    phone_a.force_login(owner)
    page_b = phone_b.get(reverse("play", args=[punto.pk]))
    assert text(find(dom(page_b), "p", id="punto-turn")) == "Ana drew:"
    old = version_on(page_b)
    # Phone A enters Ana's move in two taps.
    draft = draft_on(
        post(phone_a, "play-move", punto, {"card": "red-1", "version": old}, htmx=True)
    )
    post(
        phone_a,
        "play-move",
        punto,
        {"at": "0,0", "draft": draft, "version": old},
        htmx=True,
    )
    assert punto.moves.count() == 1
    before = db_state()
    # Phone B taps a card: refused, and no draft is made of it (it would be "Ben plays …").
    tapped = post(phone_b, "play-move", punto, {"card": "orange-1", "version": old}, htmx=htmx)
    assert_refused_as_stale(tapped, htmx=htmx)
    assert draft_on(tapped) == "" and not find_all(dom(tapped), None, id="punto-drafted")
    # where the play stands now
    assert text(find(dom(tapped), "p", id="punto-turn")) == "Ben drew:"
    # Phone B's next tap, with the draft its old page would have built: refused too.
    for draft in ({"player": "Ben", "card": "orange-1"}, {"player": "Ana", "card": "red-2"}):
        cell = post(
            phone_b,
            "play-move",
            punto,
            {"at": "0,1", "draft": json.dumps(draft), "version": old},
            htmx=htmx,
        )
        assert_refused_as_stale(cell, htmx=htmx)
    assert db_state() == before


def first_tap(game: str, log: dict) -> dict:
    """The first tap of the game's first move, as its form posts it: the move's card, unless the
    game's own tests say otherwise (``first_tap``, tests/per_game.py)."""
    return own(game, "first_tap", lambda log: {"card": log["moves"][0]["card"]})(log)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_first_tap_made_at_an_older_version_is_refused_in_every_game(member_client, club, game):
    log = json.loads((EXAMPLES / f"{game}-1.json").read_text())
    tap = first_tap(game, log)
    log["moves"] = log["moves"][:1]
    play = services.import_log(club=club, log=log)
    old = play.version
    services.undo_last_move(play=play)  # the page made at ``old`` showed move 0 entered
    before = db_state()
    response = post(member_client, "play-move", play, {**tap, "version": old}, htmx=True)
    assert_refused_as_stale(response, htmx=True)
    assert draft_on(response) == ""
    assert db_state() == before
    # The same tap at the current version is taken: a draft, or the whole move.
    play.refresh_from_db()
    response = post(member_client, "play-move", play, {**tap, "version": play.version}, htmx=True)
    assert not find_all(dom(response), "p", id="move-error")
    assert draft_on(response) != "" or play.moves.active().count() == 1


# Abandoning and deleting --------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False])
def test_abandoning_from_a_page_made_before_a_move_is_refused(member_client, punto, htmx):
    old = version_on(member_client.get(reverse("play", args=[punto.pk])))
    services.record_move(play=punto, move=PUNTO["moves"][0])
    before = db_state()
    response = post(member_client, "play-abandon", punto, {"version": old}, htmx=htmx)
    assert_refused_as_stale(response, htmx=htmx)
    assert db_state() == before
    punto.refresh_from_db()
    assert punto.status == "in_progress"


def test_abandoning_at_the_current_version_abandons(member_client, punto):
    services.record_move(play=punto, move=PUNTO["moves"][0])
    page = member_client.get(reverse("play", args=[punto.pk]))
    response = post(member_client, "play-abandon", punto, {"version": version_on(page)}, htmx=False)
    assert response.status_code == 302
    punto.refresh_from_db()
    assert punto.status == "abandoned" and punto.version == 2


def test_the_abandon_page_asks_at_the_current_version(member_client, punto):
    """Abandoning asks first, on a page of its own made at the play's version of that moment."""
    services.record_move(play=punto, move=PUNTO["moves"][0])
    before = db_state()
    page = member_client.get(reverse("play-abandon", args=[punto.pk]))
    assert page.status_code == 200 and db_state() == before
    assert version_on(page) == 1
    assert attr(find(dom(page), "button", id="confirm-abandon"), "type") == "submit"


def test_a_move_form_made_before_abandoning_is_refused(member_client, punto):
    services.abandon_play(play=punto)
    before = db_state()
    response = post(
        member_client,
        "play-move",
        punto,
        {"move_json": json.dumps(PUNTO["moves"][0]), "version": 0},
        htmx=True,
    )
    assert_refused_as_stale(response, htmx=True)
    assert db_state() == before


@pytest.mark.parametrize("htmx", [True, False])
def test_resuming_from_a_page_made_before_a_change_is_refused(owner_client, punto, htmx):
    services.abandon_play(play=punto)
    old = version_on(owner_client.get(reverse("play", args=[punto.pk])))
    services.resume_play(play=punto)  # another owner resumed it, then it was abandoned again
    services.abandon_play(play=punto)
    before = db_state()
    response = post(owner_client, "play-resume", punto, {"version": old}, htmx=htmx)
    assert response.status_code == (200 if htmx else 409) and STALE in said(response)
    assert db_state() == before


def test_resuming_a_play_in_progress_says_why_on_its_page(owner_client, punto):
    response = owner_client.post(
        reverse("play-resume", args=[punto.pk]), {"version": punto.version}, follow=True
    )
    assert response.redirect_chain == [(reverse("play", args=[punto.pk]), 302)]
    assert "Only an abandoned play can be resumed." in said(response)


@pytest.mark.parametrize("action", ["play-abandon", "play-resume"])
def test_abandoning_or_resuming_without_a_version_says_the_form_was_damaged(
    owner_client, punto, action
):
    if action == "play-resume":
        services.abandon_play(play=punto)
    before = db_state()
    response = owner_client.post(reverse(action, args=[punto.pk]), {}, follow=True)
    assert response.redirect_chain == [(reverse("play", args=[punto.pk]), 302)]
    assert "The form was damaged: try again." in said(response)
    assert db_state() == before


def test_deleting_a_play_that_changed_since_the_confirmation_is_refused(owner_client, punto):
    url = reverse("play-delete", args=[punto.pk])
    old = version_on(owner_client.get(url))
    services.record_move(play=punto, move=PUNTO["moves"][0])
    response = owner_client.post(url, {"version": old})
    assert response.status_code == 409
    assert STALE in text(find(dom(response), "p", id="delete-error"))
    assert Play.objects.filter(pk=punto.pk).exists()
    assert version_on(response) == 1  # confirming again deletes it
    assert owner_client.post(url, {"version": 1}).status_code == 302
    assert not Play.objects.filter(pk=punto.pk).exists()


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


def test_the_refusal_is_in_french_for_a_french_table(member_client, punto):
    member_client.cookies.load({"django_language": "fr"})
    services.record_move(play=punto, move=PUNTO["moves"][0])
    response = post(
        member_client,
        "play-move",
        punto,
        {"move_json": json.dumps(PUNTO["moves"][1]), "version": 0},
        htmx=True,
    )
    assert "Quelqu'un d'autre a modifié cette partie — voici où elle en est." in said(response)

    assert punto.moves.count() == 1
