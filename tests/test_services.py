"""Writes go through games.services: judged by the referee, stored with results, or refused."""

import copy
import datetime
import json
import threading

import pytest
from django.db import connection, connections

from games import services
from games.gamelog import play_to_log
from games.models import AuditEntry, GameNight, Move, Play, Player, RatingChange, Seat
from games.services import moves
from referee import judge
from tests.conftest import BUNTHERUM_SERIES, PLAY_FIRST_MOVE
from tests.examples import EXAMPLES

SERIES = BUNTHERUM_SERIES
GOOD = PLAY_FIRST_MOVE
TIE = {"card": "blue-ball", "tie": ["Ana", "Ben"]}
BAD = {"card": "blue-flower", "call": {"player": "Chloé", "series": 3}}


def snapshot():
    return (
        list(Move.objects.values_list("play_id", "seq", "data", "undone_at")),
        list(Seat.objects.values_list("id", "score", "rank", "is_winner")),
        list(Play.objects.values_list("id", "status", "details")),
        Player.objects.count(),
        GameNight.objects.count(),
    )


@pytest.mark.django_db
def test_start_play_seats_players_in_order(play, players):
    assert [s.player for s in play.seats.order_by("position")] == players
    assert play.status == Play.Status.IN_PROGRESS
    assert play.details["pile"] == {"Ana": 9, "Ben": 9, "Chloé": 9}


@pytest.mark.django_db
def test_start_play_with_a_bad_setup_is_refused_and_stores_nothing(night, players):
    before = snapshot()
    with pytest.raises(services.ServiceError, match="setup"):
        services.start_play(night=night, game="buntherum", players=players, setup={"series": {}})
    assert snapshot() == before


@pytest.mark.django_db
def test_start_play_with_the_wrong_number_of_players_is_refused(night, players):
    with pytest.raises(services.ServiceError, match="3 players"):
        services.start_play(night=night, game="forget-venice", players=players[:2], setup=None)


@pytest.mark.django_db
def test_start_play_refuses_a_player_of_another_club(night, players, outsider):
    """The service itself refuses, whatever list of players a caller hands it."""
    elsewhere = services.create_club(name="Le Club d'à côté", owner=outsider)
    stranger = services.add_player(club=elsewhere, name="Zoé")
    before = snapshot()
    with pytest.raises(services.ServiceError, match="Every player must belong to the club"):
        services.start_play(
            night=night,
            game="buntherum",
            players=[*players[:2], stranger],
            setup={"series": SERIES},
        )
    assert snapshot() == before


@pytest.mark.django_db
def test_legal_move_is_stored_with_its_results(play):
    judgement = services.record_move(play=play, move=GOOD)
    assert judgement.status == "in_progress"
    assert list(play.moves.values_list("seq", flat=True)) == [0]
    ana = play.seats.get(player__name="Ana")
    assert ana.score == 1
    play.refresh_from_db()
    assert play.details["pile"]["Ana"] == 8


@pytest.mark.django_db
def test_illegal_move_is_refused_with_the_referees_message_and_nothing_is_stored(play):
    services.record_move(play=play, move=GOOD)
    services.record_move(play=play, move=TIE)
    before = snapshot()
    with pytest.raises(services.IllegalMoveError) as refused:
        services.record_move(play=play, move=BAD)
    # Said in the players' words (the third card turned); the referee's own verdict is kept.
    assert refused.value.message == (
        "Card 3: Chloé cannot call: only Ana and Ben, who tied on the last card, may call this one."
    )
    assert refused.value.judgement.error["move"] == 2
    assert snapshot() == before


@pytest.mark.django_db
def test_undo_keeps_the_move_marked_undone_and_recomputes_results(play, member):
    services.record_move(play=play, move=GOOD, by=member)
    undone = services.undo_last_move(play=play, by=member)
    assert undone.undone_by == member and undone.undone_at is not None
    assert play.moves.count() == 1 and play.moves.active().count() == 0
    assert play.seats.get(player__name="Ana").score == 0


@pytest.mark.django_db
def test_undo_again_steps_back_further(play):
    services.record_move(play=play, move=GOOD)
    services.record_move(play=play, move=TIE)
    services.undo_last_move(play=play)
    services.undo_last_move(play=play)
    assert play.moves.active().count() == 0
    with pytest.raises(services.ServiceError, match="no move to undo"):
        services.undo_last_move(play=play)


@pytest.mark.django_db
def test_a_move_after_an_undo_takes_the_next_sequence_number(play):
    services.record_move(play=play, move=GOOD)
    services.undo_last_move(play=play)
    services.record_move(play=play, move=GOOD)
    moves = play.moves.order_by("seq")
    assert [(m.seq, m.is_undone) for m in moves] == [(0, True), (1, False)]


@pytest.mark.django_db
def test_a_stale_entry_form_is_refused(play):
    services.record_move(play=play, move=GOOD, version=0)
    with pytest.raises(services.StalePlayError, match="Someone else changed this play"):
        services.record_move(play=play, move=TIE, version=0)
    assert play.moves.count() == 1


@pytest.mark.django_db
def test_a_stale_undo_is_refused_and_undoes_nothing(play):
    services.record_move(play=play, move=GOOD)
    services.record_move(play=play, move=TIE)
    services.undo_last_move(play=play, version=2)
    before = snapshot()
    with pytest.raises(services.StalePlayError, match="Someone else changed this play"):
        services.undo_last_move(play=play, version=2)
    assert snapshot() == before
    assert play.moves.active().count() == 1


@pytest.mark.django_db
def test_an_entry_made_before_an_undo_is_refused(play):
    """The old check compared sequence numbers, which count undone moves: a form made at two
    moves still matched after one of them was undone."""
    services.record_move(play=play, move=GOOD)
    services.record_move(play=play, move=TIE, version=1)
    services.undo_last_move(play=play)
    before = snapshot()
    with pytest.raises(services.StalePlayError):
        services.record_move(play=play, move=TIE, version=2)
    assert snapshot() == before


@pytest.mark.django_db
def test_a_stale_abandon_is_refused(play):
    services.record_move(play=play, move=GOOD)
    with pytest.raises(services.StalePlayError):
        services.abandon_play(play=play, version=0)
    play.refresh_from_db()
    assert play.status == Play.Status.IN_PROGRESS


@pytest.mark.django_db
def test_a_stale_deletion_is_refused(play, owner):
    services.record_move(play=play, move=GOOD)
    with pytest.raises(services.StalePlayError):
        services.delete_play(play=play, by=owner, version=0)
    assert Play.objects.filter(pk=play.pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("change", ["move", "undo", "abandon", "delete"])
def test_a_change_to_a_play_deleted_meanwhile_is_refused_not_a_crash(play, owner, change):
    services.record_move(play=play, move=GOOD)
    Play.objects.filter(pk=play.pk).delete()  # the owner deleted it while the form was on its way
    with pytest.raises(services.PlayGoneError, match="deleted"):
        if change == "move":
            services.record_move(play=play, move=TIE, version=1)
        elif change == "undo":
            services.undo_last_move(play=play, version=1)
        elif change == "abandon":
            services.abandon_play(play=play, version=1)
        else:
            services.delete_play(play=play, by=owner, version=1)


@pytest.mark.django_db
def test_an_abandoned_play_takes_no_move(play):
    services.abandon_play(play=play)
    with pytest.raises(services.ServiceError, match="abandoned"):
        services.record_move(play=play, move=GOOD)


@pytest.mark.django_db
def test_a_finished_play_cannot_be_abandoned(club, night, member):
    """Its results and ratings stand: nothing changes, and the audit records nothing."""
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    finished = services.import_log(club=club, log=log, night=night)
    ratings = list(RatingChange.objects.filter(play=finished).values_list("id", "mu_after"))
    assert finished.status == Play.Status.FINISHED and ratings
    before = snapshot(), AuditEntry.objects.count()
    with pytest.raises(services.ServiceError, match="A finished play cannot be abandoned"):
        services.abandon_play(play=finished, by=member)
    assert (snapshot(), AuditEntry.objects.count()) == before
    assert list(RatingChange.objects.filter(play=finished).values_list("id", "mu_after")) == ratings
    finished.refresh_from_db()
    assert finished.status == Play.Status.FINISHED and finished.ended_at is not None


@pytest.mark.django_db
def test_a_play_is_abandoned_once(play, member):
    services.abandon_play(play=play, by=member)
    before = snapshot(), list(Play.objects.values_list("ended_at", flat=True))
    audited = AuditEntry.objects.count()
    with pytest.raises(services.ServiceError, match="already abandoned"):
        services.abandon_play(play=play, by=member)
    assert (snapshot(), list(Play.objects.values_list("ended_at", flat=True))) == before
    assert AuditEntry.objects.count() == audited


@pytest.mark.django_db
def test_finished_play_ranks_and_winners_are_derived_from_the_log(club, night):
    log = json.loads((EXAMPLES / "buntherum-1.json").read_text())
    play = services.import_log(club=club, log=log, night_date=night.date)
    assert play.status == Play.Status.FINISHED and play.ended_at is not None
    seats = {s.player.name: s for s in play.seats.select_related("player")}
    assert seats["Ana"].is_winner and seats["Ana"].rank == 1
    assert [seats[n].rank for n in ("Dev", "Eli", "Ben", "Chloé")] == [2, 2, 4, 4]


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
    log = {
        "format": "gamelog/1",
        "game": "punto",
        "players": ["Zoé", "Z" * 61],  # the referee takes any name; a club's player list does not
        "setup": {"colours": {"Zoé": ["red", "blue"], "Z" * 61: ["orange", "green"]}},
        "moves": [],
    }
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
def test_undone_moves_are_left_out_of_the_exported_log(play):
    services.record_move(play=play, move=GOOD)
    services.record_move(play=play, move=TIE)
    services.undo_last_move(play=play)
    assert play_to_log(play)["moves"] == [GOOD]


@pytest.mark.django_db(transaction=True)
def test_two_people_entering_a_move_at_once_store_exactly_one(club, night, players):
    if connection.vendor != "postgresql":
        pytest.skip("real concurrent transactions are tested on PostgreSQL")
    play = services.start_play(
        night=night, game="buntherum", players=players, setup={"series": SERIES}
    )
    barrier = threading.Barrier(2)
    outcomes = []

    def enter():
        try:
            barrier.wait(timeout=10)
            services.record_move(play=play, move=GOOD, version=0)
            outcomes.append("stored")
        except services.StalePlayError:
            outcomes.append("stale")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=enter) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["stale", "stored"]
    assert play.moves.count() == 1
    assert play.seats.get(player__name="Ana").score == 1


@pytest.mark.django_db
def test_deleting_a_rated_play_rates_the_later_plays_again_without_it(club, owner):
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    first = services.import_log(club=club, log=log, night_date=datetime.date(2026, 1, 1))
    second = services.import_log(club=club, log=log, night_date=datetime.date(2026, 1, 8))
    later = RatingChange.objects.get(play=second, player__name="Ana", scope="punto")
    assert later.plays == 2
    services.delete_play(play=first, by=owner)
    later = RatingChange.objects.get(play=second, player__name="Ana", scope="punto")
    assert later.plays == 1
    assert later.mu_before == pytest.approx(25.0)  # openskill's starting mu: a first play


@pytest.mark.django_db
def test_the_unique_sequence_is_the_last_line_of_defence(play, monkeypatch):
    """Should a second entry ever get past the row lock, the database refuses the duplicate
    sequence number: the entry is told someone else entered a move and nothing is half-saved."""
    judge_play = moves.judge_play

    def judge_then_race(*args, **kwargs):
        Move.objects.create(play=play, seq=0, data={"sneaked": "in"})  # the other entry
        return judge_play(*args, **kwargs)

    monkeypatch.setattr(moves, "judge_play", judge_then_race)
    before = snapshot()
    with pytest.raises(services.StalePlayError, match="Someone else changed this play"):
        services.record_move(play=play, move=GOOD, version=0)
    assert snapshot() == before


# What is stored: the results the referee judged, the moves and setups it understood ----------


@pytest.mark.django_db
def test_seat_ranks_are_the_referees_not_recomputed(club, night):
    log = json.loads((EXAMPLES / "buntherum-1.json").read_text())
    play = services.import_log(club=club, log=log, night_date=night.date)
    judgement = judge(log)
    # A ranking no score order gives: only a service that takes the referee's ranks stores it.
    judgement.ranks = {"Ana": 5, "Ben": 1, "Chloé": 2, "Dev": 3, "Eli": 4}
    services.refresh_results(play, judgement)
    ranks = dict(play.seats.values_list("player__name", "rank"))
    assert ranks == judgement.ranks


#: the Buntherum setup and move above, as a careless hand or an attacker may send them
SENT_SETUP = {
    "series": {side: [f"  {card.upper()} " for card in cards] for side, cards in SERIES.items()},
    "note": {"deep": [[[{"a": 1}]]]},
}
SENT_MOVE = {"card": " Green-Die", "call": {"player": "Ana", "series": "3", "x": [1]}, "y": 2}


@pytest.mark.django_db
def test_a_play_stores_the_setup_and_moves_the_referee_understood(night, players):
    from games.models import AuditEntry

    play = services.start_play(night=night, game="buntherum", players=players, setup=SENT_SETUP)
    play.refresh_from_db()
    assert play.setup == {"series": SERIES}
    services.record_move(play=play, move=SENT_MOVE)
    assert list(play.moves.values_list("data", flat=True)) == [GOOD]
    audited = AuditEntry.objects.filter(action=AuditEntry.Action.MOVE_ENTER).get()
    assert audited.data["move"] == GOOD
    start = AuditEntry.objects.filter(action=AuditEntry.Action.PLAY_START).get()
    assert start.data["setup"] == {"series": SERIES}


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
