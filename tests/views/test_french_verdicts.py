"""A French page shows the referee's verdicts in French, for every game: a refused move, a
refused setup, a refused upload, a log the referee can no longer judge."""

import io
import json

import pytest
from django.urls import reverse

from games import services
from games.models import Move, Play
from referee import GAMES
from tests.dom import attr, dom, find, text
from tests.examples import EXAMPLES, illegal_example
from tests.per_game import own

FRENCH = {"Accept-Language": "fr"}


def _french(response):
    """The page, as a tree, once it is seen to be a French page."""
    page = dom(response)
    assert page.name == "html" and attr(page, "lang") == "fr"
    return page


@pytest.mark.parametrize("game", list(GAMES))
def test_a_refused_move_is_said_in_french_on_a_french_page(member_client, club, night, game):
    log, bad = illegal_example(game)
    play = services.import_log(club=club, log={**log, "moves": log["moves"][:bad]}, night=night)
    response = member_client.post(
        reverse("play-move", args=[play.pk]),
        {"move_json": json.dumps(log["moves"][bad]), "version": play.version},
        headers=FRENCH,
    )
    assert response.status_code == 422
    error = find(find(_french(response), "div", id="verdict"), "p", id="move-error")
    assert text(error) == own(game, "REFUSED_MOVE")["fr"]
    assert Move.objects.filter(play=play).count() == bad


@pytest.mark.parametrize("game", list(GAMES))
def test_a_refused_setup_is_said_in_french(member_client, night, players, game):
    setup, french = own(game, "REFUSED_SETUP")
    response = member_client.post(
        reverse("play-setup", args=[night.pk]),
        {"game": game, "seat": [p.pk for p in players], "setup_json": json.dumps(setup)},
        headers=FRENCH,
    )
    assert response.status_code == 422
    assert french in text(find(_french(response), "p", id="setup-error"))
    assert Play.objects.count() == 0


@pytest.mark.parametrize("game", list(GAMES))
def test_a_refused_upload_is_said_in_french(member_client, night, game):
    log, _bad = illegal_example(game)
    upload = io.BytesIO(json.dumps(log).encode())
    upload.name = f"{game}.json"
    response = member_client.post(
        reverse("log-upload", args=[night.pk]), {"log": upload}, headers=FRENCH, follow=True
    )
    said = text(find(find(_french(response), "ul", class_="messages"), "li", class_="error"))
    assert said == f"L'arbitre a refusé ce journal. {own(game, 'REFUSED_MOVE')['fr']}"
    assert Play.objects.count() == 0


def test_a_log_the_referee_can_no_longer_judge_is_said_in_french(member_client, club, night):
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    play = services.import_log(club=club, log={**log, "moves": []}, night=night)
    # Stored behind the referee's back (it should never happen): Ben cannot play first.
    Move.objects.create(play=play, seq=0, data={"player": "Ben", "card": "orange-1", "at": [0, 0]})
    page = _french(member_client.get(reverse("play", args=[play.pk]), headers=FRENCH))
    alert = find(find(page, "div", id="play-main"), "p", class_="error", role="alert")
    refusal = "Manche 1, carte 1 : c'est à Ana de jouer, pas à Ben."
    assert text(alert) == f"L'arbitre ne peut plus juger ce journal : {refusal}"


def test_the_undo_notice_names_the_move_as_the_players_count_it(member_client, play):
    services.record_move(
        play=play, move={"card": "green-die", "call": {"player": "Ana", "series": 3}}
    )
    response = member_client.post(
        reverse("play-undo", args=[play.pk]),
        {"version": play.version},
        headers={**FRENCH, "HX-Request": "true"},
    )
    assert "Coup annulé : Carte 1." in text(find(dom(response), "p", id="move-notice"))
