"""games.services.imports: a game log becomes a play whole, as the referee understood it, or is
refused whole."""

import copy
import datetime
import json

import pytest

from games import services
from games.gamelog import play_to_log
from games.models import Player
from referee import judge
from tests.examples import EXAMPLES
from tests.services.stored import punto_log, snapshot


@pytest.mark.django_db
def test_import_creates_missing_players_and_a_night(club):
    log = json.loads((EXAMPLES / "buntherum-1.json").read_text())
    play = services.import_log(club=club, log=log)
    assert sorted(club.players.values_list("name", flat=True)) == sorted(log["players"])
    assert play.night.club == club


@pytest.mark.django_db
def test_an_illegal_log_is_refused_whole(club):
    log = json.loads((EXAMPLES / "buntherum-2.json").read_text())
    before = snapshot()
    with pytest.raises(services.IllegalMoveError, match="^Card 3: Chloé cannot call"):
        services.import_log(club=club, log=log)
    assert snapshot() == before


@pytest.mark.django_db
def test_import_log_refuses_a_night_of_another_club(club, outsider):
    """The service itself refuses, whatever night a caller hands it."""
    elsewhere = services.create_club(name="Le Club d'à côté", owner=outsider)
    their_night = services.create_game_night(club=elsewhere, date=datetime.date(2026, 11, 20))
    log = json.loads((EXAMPLES / "buntherum-1.json").read_text())
    before = snapshot()
    with pytest.raises(services.ServiceError, match="That game night belongs to another club"):
        services.import_log(club=club, log=log, night=their_night)
    assert snapshot() == before
    assert not their_night.plays.exists()


@pytest.mark.django_db
def test_import_log_is_one_transaction(club, players):
    """A log refused at its second player leaves no first player (nor night, nor play) behind."""
    log = punto_log("Zoé", "Z" * 61)  # the referee takes any name; a club's player list does not
    assert judge(log).legal
    before = snapshot()
    with pytest.raises(services.ServiceError, match="cannot be a player's name here"):
        services.import_log(club=club, log=log, night_date=datetime.date(2026, 12, 1))
    assert snapshot() == before
    assert not Player.objects.filter(name="Zoé").exists()


@pytest.mark.django_db
def test_a_play_is_a_game_log_round_trip(club):
    log = json.loads((EXAMPLES / "buntherum-1.json").read_text())
    play = services.import_log(club=club, log=copy.deepcopy(log))
    exported = play_to_log(play)
    assert exported == log
    assert judge(exported).as_dict() == judge(log).as_dict()


@pytest.mark.django_db
def test_an_imported_log_is_stored_as_the_referee_understood_it(club):
    log = json.loads((EXAMPLES / "buntherum-1.json").read_text())
    sent = copy.deepcopy(log)
    sent["setup"] = {
        "series": {
            side: [f" {card.upper()}" for card in cards]
            for side, cards in log["setup"]["series"].items()
        },
        "note": {"deep": [[[{"a": 1}]]]},
    }
    for move in sent["moves"]:
        move["card"] = move["card"].title()
        move["noise"] = {"nested": [[{"deep": True}]]}
    play = services.import_log(club=club, log=sent)
    exported = play_to_log(play)
    assert exported == log
    assert judge(exported).as_dict() == judge(sent).as_dict()


@pytest.mark.django_db
def test_a_log_seating_one_name_twice_is_refused_by_the_referee(club):
    before = snapshot()
    with pytest.raises(services.IllegalMoveError) as refusal:
        services.import_log(club=club, log=punto_log("Ana", "Ana"))
    assert refusal.value.judgement.verdict.id == "log.players_distinct"
    assert snapshot() == before


@pytest.mark.django_db
def test_two_new_players_of_a_log_who_look_alike_are_refused_whole(club):
    """The log's second name is vetted against its first, created a moment before: the referee
    takes "Ana" and Cyrillic "Аna" as two players; a club's list would show one name twice."""
    log = punto_log("Ana", "\u0410na")
    assert judge(log).legal
    before = snapshot()
    with pytest.raises(services.ServiceError, match="“\u0410na” would look just like “Ana”"):
        services.import_log(club=club, log=log)
    assert snapshot() == before
