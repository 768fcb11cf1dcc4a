"""games.services.moves: a move judged with the log and stored with its results, or refused;
the last move undone; a stale entry refused."""

import threading

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from games import services
from games.gamelog import play_to_log
from games.models import AuditEntry, Move
from games.services import moves
from tests.services.stored import BAD, GOOD, SERIES, TIE, snapshot

CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


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
def test_an_entrys_writes_are_one_statement_on_postgresql(play, member):
    """Issue 32: the move, its audit entry, the seats' results and the play's row (its version,
    results, kept state and NOTIFY) are written by one statement on PostgreSQL, after the
    lock's; one after the other elsewhere. What they write is what they wrote one by one."""
    version = play.version
    with CaptureQueriesContext(connection) as queries:
        services.record_move(play=play, move=GOOD, by=member)  # Ana scores: her seat changes
    made = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(CONTROL)]
    postgresql = connection.vendor == "postgresql"
    assert len(made) == (2 if postgresql else 5), "\n".join(made)
    stored = play.moves.get(seq=0)
    assert stored.entered_by == member and stored.data == GOOD
    audit = AuditEntry.objects.filter(action=AuditEntry.Action.MOVE_ENTER).latest("pk")
    assert audit.data == {"game": play.game, "seq": 0, "move": GOOD} and audit.actor == member
    assert play.seats.get(player__name="Ana").score == 1
    play.refresh_from_db()
    assert play.version == version + 1 and play.kept and play.details["pile"]["Ana"] == 8


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
def test_an_abandoned_play_takes_no_move(play):
    services.abandon_play(play=play)
    with pytest.raises(services.ServiceError, match="abandoned"):
        services.record_move(play=play, move=GOOD)


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
def test_undone_moves_are_left_out_of_the_exported_log(play):
    services.record_move(play=play, move=GOOD)
    services.record_move(play=play, move=TIE)
    services.undo_last_move(play=play)
    assert play_to_log(play)["moves"] == [GOOD]


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
def test_the_unique_sequence_is_the_last_line_of_defence(play, monkeypatch):
    """Should a second entry ever get past the row lock, the database refuses the duplicate
    sequence number: the entry is told someone else entered a move and nothing is half-saved."""
    judge_next = moves.judge_next

    def judge_then_race(*args, **kwargs):
        Move.objects.create(play=play, seq=0, data={"sneaked": "in"})  # the other entry
        return judge_next(*args, **kwargs)

    monkeypatch.setattr(moves, "judge_next", judge_then_race)
    before = snapshot()
    with pytest.raises(services.StalePlayError, match="Someone else changed this play"):
        services.record_move(play=play, move=GOOD, version=0)
    assert snapshot() == before


@pytest.mark.django_db
def test_the_play_a_move_is_entered_on_carries_its_new_version(play):
    """The page that sent the move makes its next form at this version: a stale one would be
    refused as someone else's change."""
    before = play.version
    services.record_move(play=play, move=GOOD)
    assert play.version == before + 1
    play.refresh_from_db()
    assert play.version == before + 1
