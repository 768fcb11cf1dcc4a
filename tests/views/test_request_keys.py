"""The play page's changes exactly once (issue 28): a move or an undo sent again with its key
(the Idempotency-Key header, or the form's idempotency_key field) is done once and answered as
the first time, not as someone else's change; the key used for another change answers 422."""

import json

import pytest
from django.urls import reverse

from games import services
from games.models import Move
from tests.dom import attr, dom, find, find_all, text
from tests.services.stored import GOOD, TIE

pytestmark = pytest.mark.django_db

KEY = "9b2e61f0-7f7c-4a4e-8d0e-2b8f3a6c5d41"
HTMX = {"HTTP_HX_REQUEST": "true"}


def send_move(client, play, move, *, version=0, key=KEY, htmx=True, field=False):
    """The move typed as JSON (what the page's outbox sends), with its key in the header, or
    in the form's field (``field``: the page without a script)."""
    data = {"json": "1", "move_json": json.dumps(move), "version": version}
    headers = dict(HTMX) if htmx else {}
    if field:
        data["idempotency_key"] = key
    elif key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(reverse("play-move", args=[play.pk]), data, **headers)


def send_undo(client, play, *, version, key=KEY, htmx=True):
    headers = {**(HTMX if htmx else {}), "HTTP_IDEMPOTENCY_KEY": key}
    return client.post(reverse("play-undo", args=[play.pk]), {"version": version}, **headers)


def refusal(response) -> str:
    return text(find(dom(response.content.decode()), "p", id="move-error"))


def test_a_move_sent_again_is_stored_once_and_answered_as_the_first(member_client, play):
    first = send_move(member_client, play, GOOD)
    again = send_move(member_client, play, GOOD)
    assert first.status_code == again.status_code == 200
    assert play.moves.count() == 1 and play.moves.get().key == KEY
    page = dom(again.content.decode())
    assert find_all(page, "p", id="move-error") == []  # not "someone else changed this play"
    assert attr(find(page, "div", id="play-main"), "data-version") == "1"


@pytest.mark.parametrize("field", [False, True], ids=["header", "form field"])
def test_without_htmx_a_move_sent_again_goes_where_the_first_went(member_client, play, field):
    first = send_move(member_client, play, GOOD, htmx=False, field=field)
    again = send_move(member_client, play, GOOD, htmx=False, field=field)
    play_url = reverse("play", args=[play.pk])
    assert (first.status_code, first["Location"]) == (again.status_code, again["Location"])
    assert (again.status_code, again["Location"]) == (302, play_url)
    assert play.moves.count() == 1


def test_a_move_without_a_key_sent_again_is_still_refused_as_stale(member_client, play):
    send_move(member_client, play, GOOD, key=None, htmx=False)
    again = send_move(member_client, play, GOOD, key=None, htmx=False)
    assert again.status_code == 409
    assert play.moves.count() == 1


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_the_same_key_for_another_move_answers_422_and_stores_nothing(member_client, play, htmx):
    send_move(member_client, play, GOOD)
    refused = send_move(member_client, play, TIE, version=1, htmx=htmx)
    assert refused.status_code == 422
    assert "already used for another change" in refusal(refused)
    assert list(play.moves.values_list("data", flat=True)) == [GOOD]


def test_the_key_may_come_as_a_structured_field_string(member_client, play):
    send_move(member_client, play, GOOD, key=f'"{KEY}"')
    send_move(member_client, play, GOOD)
    assert play.moves.count() == 1 and play.moves.get().key == KEY


@pytest.mark.parametrize("key", ["x" * 65, "two words", "<script>", '"'])
def test_a_key_no_page_makes_is_a_damaged_form(member_client, play, key):
    refused = send_move(member_client, play, GOOD, key=key)
    assert refusal(refused) == "The form was damaged: start the move again."
    assert play.moves.count() == 0


def test_the_same_request_is_the_same_body_whatever_its_csrf_token(member_client, play):
    """The page may send a newer CSRF token with the same request: it is the same request."""
    send_move(member_client, play, GOOD)
    data = {"json": "1", "move_json": json.dumps(GOOD), "version": 0, "csrfmiddlewaretoken": "x"}
    again = member_client.post(
        reverse("play-move", args=[play.pk]), data, HTTP_IDEMPOTENCY_KEY=KEY, **HTMX
    )
    assert again.status_code == 200 and play.moves.count() == 1


def test_an_undo_sent_again_undoes_one_move(member_client, play):
    services.record_move(play=play, move=GOOD)
    services.record_move(play=play, move=TIE)
    first = send_undo(member_client, play, version=2)
    again = send_undo(member_client, play, version=2)
    assert first.status_code == again.status_code == 200
    assert [m.seq for m in play.moves.active()] == [0]
    assert text(find(dom(first.content.decode()), "p", id="move-notice")).startswith("Move undone")
    # Answered with the play as it stands: no second "Move undone", nor "someone else".
    page = dom(again.content.decode())
    assert find_all(page, "p", id="move-notice") == find_all(page, "p", id="move-error") == []


def test_an_undo_with_a_moves_key_answers_422(member_client, play):
    send_move(member_client, play, GOOD)
    refused = send_undo(member_client, play, version=1)
    assert refused.status_code == 422
    assert play.moves.active().count() == 1


def test_the_page_makes_one_key_for_its_move_and_one_for_its_undo(member_client, play):
    services.record_move(play=play, move=GOOD)
    page = dom(member_client.get(reverse("play", args=[play.pk])).content.decode())
    keys = {
        attr(form, "id") or attr(form, "action"): attr(field, "value")
        for form in find_all(page, "form")
        for field in find_all(form, "input", name="idempotency_key")
    }
    assert set(keys) == {"move-form", reverse("play-undo", args=[play.pk])}
    move_key, undo_key = keys["move-form"], keys[reverse("play-undo", args=[play.pk])]
    assert move_key != undo_key and len(move_key) == len(undo_key) == 32
    again = dom(member_client.get(reverse("play", args=[play.pk])).content.decode())
    made_again = {attr(f, "value") for f in find_all(again, "input", name="idempotency_key")}
    assert len(made_again) == 2 and not made_again & set(keys.values())


def test_the_forms_key_makes_a_tapped_move_once(member_client, play):
    """Without a script the page's own form carries its key: sending the form twice (a reload
    that posts again) enters the move once."""
    page = dom(member_client.get(reverse("play", args=[play.pk])).content.decode())
    key = attr(find(page, "input", name="idempotency_key"), "value")
    for _ in range(2):
        send_move(member_client, play, GOOD, key=key, htmx=False, field=True)
    assert play.moves.count() == 1 and Move.objects.get().key == key


def change_of(response) -> str:
    return response["X-Play-Change"]


def test_each_answer_says_what_became_of_the_change_for_the_outbox(member_client, play):
    assert change_of(send_move(member_client, play, GOOD)) == "done"
    assert change_of(send_move(member_client, play, GOOD)) == "done"  # the same, again
    assert change_of(send_move(member_client, play, TIE, key="other", version=0)) == "stale"
    illegal = {"card": "blue-flower", "call": {"player": "Nobody", "series": 3}}
    assert change_of(send_move(member_client, play, illegal, key="third", version=1)) == "refused"
    assert change_of(send_undo(member_client, play, version=1, key="undo")) == "done"
    assert change_of(send_undo(member_client, play, version=2, key="undo2")) == "refused"


def test_a_step_of_a_move_built_on_the_server_says_it_stored_nothing(member_client, punto):
    tap = {"card": "red-1", "version": 0}
    answer = member_client.post(reverse("play-move", args=[punto.pk]), tap, **HTMX)
    assert answer.status_code == 200 and change_of(answer) == "draft"
    assert "X-Play-Change" not in member_client.get(reverse("play", args=[punto.pk]))
