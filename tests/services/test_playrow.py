"""games.services.playrow: a change to a play deleted meanwhile is refused; the results stored
are the referee's."""

import json

import pytest
from django.utils import timezone

from games import live, services
from games.models import Play
from games.selectors import judge_play, seat_names
from games.services import moves, playrow
from referee import judge
from tests.examples import EXAMPLES
from tests.services.stored import GOOD, TIE, punto_log


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
def test_finished_play_ranks_and_winners_are_derived_from_the_log(club, night):
    log = json.loads((EXAMPLES / "buntherum-1.json").read_text())
    play = services.import_log(club=club, log=log, night_date=night.date)
    assert play.status == Play.Status.FINISHED and play.ended_at is not None
    seats = {s.player.name: s for s in play.seats.select_related("player")}
    assert seats["Ana"].is_winner and seats["Ana"].rank == 1
    assert [seats[n].rank for n in ("Dev", "Eli", "Ben", "Chloé")] == [2, 2, 4, 4]


@pytest.mark.django_db
def test_an_imported_finished_play_ends_when_it_started_its_night_not_today(club, night):
    log = json.loads((EXAMPLES / "buntherum-1.json").read_text())
    play = services.import_log(club=club, log=log, night_date=night.date)
    play.refresh_from_db()
    assert play.ended_at == play.started_at


@pytest.mark.django_db
def test_a_play_ends_when_its_last_move_is_entered_and_keeps_that_end_when_judged_again(
    club, night
):
    log = json.loads((EXAMPLES / "buntherum-1.json").read_text())
    *moves, last = log["moves"]
    play = services.import_log(club=club, log=log | {"moves": moves}, night_date=night.date)
    assert play.status == Play.Status.IN_PROGRESS and play.ended_at is None
    before = timezone.now()
    services.record_move(play=play, move=last)
    play.refresh_from_db()
    assert play.status == Play.Status.FINISHED
    assert before <= play.ended_at <= timezone.now()
    ended = play.ended_at
    services.rejudge(play)
    play.refresh_from_db()
    assert play.ended_at == ended


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


@pytest.mark.django_db
def test_a_change_wakes_the_plays_and_its_nights_watchers_once_it_commits(
    play, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(live, "is_postgresql", lambda: False)  # on PostgreSQL: a NOTIFY instead
    monkeypatch.setattr(live, "hub", live.Hub())
    watching_play = live.hub.watch(f"play:{play.pk}", threaded=True)
    watching_night = live.hub.watch(f"night:{play.night_id}", threaded=True)
    with django_capture_on_commit_callbacks(execute=True):
        services.record_move(play=play, move=GOOD)
        assert not watching_play.event.is_set()  # not before the move commits
    assert watching_play.event.is_set() and watching_night.event.is_set()


@pytest.mark.django_db
def test_partners_are_numbered_from_one_in_the_setups_order(club):
    log = punto_log("Ana", "Ben", "Chloé", "Dev", teams=[["Ben", "Dev"], ["Ana", "Chloé"]])
    play = services.import_log(club=club, log=log)
    teams = dict(play.seats.values_list("player__name", "team"))
    assert teams == {"Ana": 2, "Ben": 1, "Chloé": 2, "Dev": 1}


@pytest.mark.django_db
def test_the_next_entry_judges_from_the_state_kept_in_the_plays_row(play, monkeypatch):
    """Read with the play's row by any process (the one that wrote it or another), the state
    kept is judged from: the log is neither read nor judged again."""
    services.record_move(play=play, move=GOOD, version=play.version)
    monkeypatch.setattr(moves, "log_moves", None)  # a call would fail
    monkeypatch.setattr(moves, "judge_play", None)
    judgement = services.record_move(play=play, move=TIE, version=play.version)
    assert len(judgement.plans) == 2
    play.refresh_from_db()
    kept = playrow.kept_judgement(play)
    assert kept.next_seq == 2 and kept.judgement.as_dict() == judgement.as_dict()


@pytest.mark.django_db
def test_a_kept_state_that_does_not_read_is_as_none(play):
    """Another version of the play, a row changed by hand, bytes that are not a kept state:
    nothing is trusted, and the next entry judges the log (and keeps its state again)."""
    services.record_move(play=play, move=GOOD, version=play.version)
    play.refresh_from_db()
    version, next_seq, position, judged = play.kept.split(" ")
    assert playrow.kept_judgement(play).next_seq == int(next_seq) == 1
    for kept in (
        f"{int(version) + 1} {next_seq} {position} {judged}",
        f"{version} {next_seq} {position} {judged[:-8]}",
        f"{version} {next_seq} {position} not base64!",
        f"{version} {next_seq} {position}",
        "kept",
    ):
        play.kept = kept
        assert playrow.kept_judgement(play) is None, kept
    play.save(update_fields=["kept"])
    assert len(services.record_move(play=play, move=TIE, version=play.version).plans) == 2
    play.refresh_from_db()
    assert playrow.kept_judgement(play).next_seq == 2


@pytest.mark.django_db
def test_a_game_played_on_after_its_state_is_recalled_changes_not_the_next_recalled(play):
    """A page tells the move it enters on the game before it, which it plays: the state recalled
    after is the one kept all the same."""
    services.record_move(play=play, move=GOOD, version=play.version)
    play.refresh_from_db()
    recalled = playrow.kept_judgement(play).judgement
    recalled.state.play(TIE)
    logged = judge_play(play, seat_names(play), [GOOD])
    assert playrow.kept_judgement(play).judgement.state.dump() == logged.state.dump()
