"""Every game's move form ends with the same "Advanced: type the move as JSON" box
(templates/plays/_move_json.html), and every game answers it the same way."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import services
from games.models import Move
from referee import GAMES
from tests.dom import attr, dom, find, find_all, text
from tests.examples import example_cases

pytestmark = pytest.mark.django_db


def _opening(game: str) -> tuple[dict, dict]:
    """A public example of the game with a legal first move: the log without its moves, and
    that first move."""
    for log, expected in example_cases(game):
        if log["moves"] and (expected["error"] is None or expected["error"]["move"] != 0):
            return {**log, "moves": []}, log["moves"][0]
    raise AssertionError(f"{game} has no example with a legal first move")


@pytest.fixture(params=list(GAMES))
def started(request, club, member):
    log, first_move = _opening(request.param)
    play = services.import_log(club=club, log=log, by=member)
    return play, first_move


def _json_box(client, play):
    """The folded box (a <details>) that holds the move form's JSON field."""
    page = dom(client.get(reverse("play", args=[play.pk])))
    fields = find_all(page, None, name="move_json")
    assert len(fields) == 1, f"{play.game}: the JSON box appears {len(fields)} times"
    # the innermost <details> around it: the last of those holding it, in document order
    return [box for box in find_all(page, "details") if fields[0] in find_all(box, None)][-1]


def _button(box) -> tuple[str, str]:
    """The name and value of the box's submit button, as a tap sends them."""
    button = find_all(box, "button", type="submit")[0]
    return attr(button, "name"), attr(button, "value")


def _submit(client, play, box, move_json: str):
    name, value = _button(box)
    data = {name: value, "move_json": move_json, "version": 0}
    return client.post(reverse("play-move", args=[play.pk]), data)


def test_the_json_box_is_the_shared_one(member_client, started):
    play, _ = started
    box = _json_box(member_client, play)
    assert attr(box, "id") == "move-json-box"
    assert _button(box) == ("json", "1")


def test_an_empty_json_box_asks_for_the_move_as_json(member_client, started):
    play, _ = started
    response = _submit(member_client, play, _json_box(member_client, play), "")
    assert response.status_code == 422
    assert text(find(dom(response), "p", id="move-error")) == "Enter the move as JSON."
    assert not Move.objects.filter(play=play).exists()


def test_a_move_typed_in_the_json_box_is_judged_and_stored(member_client, started):
    play, first_move = started
    response = _submit(member_client, play, _json_box(member_client, play), json.dumps(first_move))
    assert response.status_code == 302
    assert list(Move.objects.filter(play=play).values_list("data", flat=True)) == [first_move]
