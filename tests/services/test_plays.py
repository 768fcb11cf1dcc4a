"""games.services.plays: a play started, abandoned or deleted; refused whole, storing nothing."""

import datetime
import json

import pytest

from games import services
from games.models import AuditEntry, Play, RatingChange
from tests.examples import EXAMPLES
from tests.services.stored import GOOD, SERIES, snapshot


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
def test_a_stale_abandon_is_refused(play):
    services.record_move(play=play, move=GOOD)
    with pytest.raises(services.StalePlayError):
        services.abandon_play(play=play, version=0)
    play.refresh_from_db()
    assert play.status == Play.Status.IN_PROGRESS


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
def test_a_stale_deletion_is_refused(play, owner):
    services.record_move(play=play, move=GOOD)
    with pytest.raises(services.StalePlayError):
        services.delete_play(play=play, by=owner, version=0)
    assert Play.objects.filter(pk=play.pk).exists()


@pytest.mark.django_db
def test_deleting_a_rated_play_rates_the_later_plays_again_without_it(club, owner):
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    first = services.import_log(club=club, log=log, night_date=datetime.date(2026, 1, 1))
    second = services.import_log(club=club, log=log, night_date=datetime.date(2026, 1, 8))
    later = RatingChange.objects.get(play=second, player__name="Ana", game="punto")
    assert later.plays == 2
    services.delete_play(play=first, by=owner)
    later = RatingChange.objects.get(play=second, player__name="Ana", game="punto")
    assert later.plays == 1
    assert later.mu_before == pytest.approx(25.0)  # openskill's starting mu: a first play


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
