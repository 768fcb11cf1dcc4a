"""games.services.moves, exactly once (issue 28): a move or an undo whose request carries a key
is done once however often the request is sent; the same key asking something else is refused,
nothing stored."""

import hashlib
import threading

import pytest
from django.db import connection, connections

from games import services
from games.models import Move, Play
from games.services import moves
from tests.services.stored import BAD, GOOD, SERIES, TIE, snapshot

KEY = "3f1c0c8e-5b1e-4c53-9a5c-0d7c2f1e9b11"


def stored():
    """Everything a change could write, the request keys and the play's version included."""
    keys = list(Move.objects.values_list("play_id", "seq", "key", "asked", "undo_key"))
    return snapshot(), keys, list(Play.objects.values_list("id", "version"))


def enter(play, move, *, key=KEY, version=None):
    """One entry of ``move`` sent with ``key``, as the play page sends it."""
    keyed = services.Keyed.of(key, move)
    return services.enter_move(
        play=play, by=None, version=version, compose=lambda *_: move, keyed=keyed
    )


@pytest.mark.django_db
def test_a_keyed_move_is_stored_with_its_key_and_what_it_asked(play):
    state = enter(play, GOOD, version=0)
    assert not state.repeated and state.entered is not None
    move = play.moves.get()
    assert move.key == KEY
    assert move.asked == services.Keyed.of(KEY, GOOD).asked
    assert len(move.asked) == 32 and move.undo_key is None


@pytest.mark.django_db
def test_the_same_move_sent_again_is_stored_once_and_answered_as_the_first(play):
    enter(play, GOOD, version=0)
    before = stored()
    # Its answer was lost: the phone sends it again, made at the version of before the move.
    again = enter(play, GOOD, version=0)
    assert again.repeated and again.entered is None
    assert stored() == before
    # Answered with the play as it stands, the move in it, not as someone else's change.
    assert [entry.data for entry in again.log] == [GOOD]
    assert again.judgement.scores["Ana"] == 1 and again.play.version == 1


@pytest.mark.django_db
def test_the_same_move_sent_again_after_more_moves_is_still_done_once(play):
    enter(play, GOOD, version=0)
    services.record_move(play=play, move=TIE, version=1)
    before = stored()
    assert enter(play, GOOD, version=0).repeated
    assert stored() == before


@pytest.mark.django_db
def test_the_same_key_with_another_move_is_refused_and_stores_nothing(play):
    enter(play, GOOD, version=0)
    before = stored()
    with pytest.raises(services.KeyReusedError, match="already used for another change"):
        enter(play, TIE, version=1)  # at the current version, so only the key can refuse it
    assert stored() == before
    with pytest.raises(services.KeyReusedError):
        enter(play, TIE, version=0)
    assert stored() == before


@pytest.mark.django_db
def test_a_reused_key_is_refused_with_a_message_that_says_to_reload(play):
    enter(play, GOOD, version=0)
    with pytest.raises(services.KeyReusedError) as refused:
        enter(play, TIE, version=1)
    assert refused.value.message == (
        "This request's key was already used for another change of this play: nothing was"
        " changed. Reload the page."
    )


def test_what_a_request_asked_is_the_digest_of_its_body_as_compact_sorted_json():
    # Stored with the move (Move.asked), it must come out the same in the next release: a
    # request sent again across a deploy is the same request.
    asked = services.Keyed.of(KEY, {"b": [1, "é"], "a": None}).asked
    text = '{"a":null,"b":[1,"é"]}'
    assert asked == hashlib.blake2s(text.encode(), digest_size=16).hexdigest()


@pytest.mark.django_db
def test_a_key_belongs_to_its_play(play, night, players):
    other = services.start_play(
        night=night, game="buntherum", players=players, setup={"series": SERIES}
    )
    enter(play, GOOD, version=0)
    state = enter(other, GOOD, version=0)
    assert not state.repeated
    assert other.moves.get().key == KEY and play.moves.get().key == KEY
    assert other.seats.get(player__name="Ana").score == 1


@pytest.mark.django_db
def test_a_refused_move_keeps_no_key_and_is_refused_again_when_sent_again(play):
    services.record_move(play=play, move=GOOD)
    services.record_move(play=play, move=TIE)
    before = stored()
    for _attempt in range(2):
        with pytest.raises(services.IllegalMoveError):
            enter(play, BAD, version=2)
        assert stored() == before


@pytest.mark.django_db
def test_a_stale_move_with_a_new_key_is_still_refused_as_stale(play):
    services.record_move(play=play, move=GOOD)
    before = stored()
    with pytest.raises(services.StalePlayError):
        enter(play, TIE, key="another-key", version=0)
    assert stored() == before


@pytest.mark.django_db
def test_a_move_sent_again_after_it_was_undone_is_not_entered_again(play):
    enter(play, GOOD, version=0)
    services.undo_last_move(play=play, version=1)
    before = stored()
    assert enter(play, GOOD, version=0).repeated
    assert stored() == before
    assert play.moves.active().count() == 0


@pytest.mark.django_db
def test_the_same_undo_sent_again_undoes_one_move(play):
    services.record_move(play=play, move=GOOD)
    services.record_move(play=play, move=TIE)
    first = services.undo_last_move(play=play, version=2, key=KEY)
    assert first.seq == 1 and first.undo_key == KEY
    before = stored()
    assert services.undo_last_move(play=play, version=2, key=KEY) is None
    assert stored() == before
    assert [m.seq for m in play.moves.active()] == [0]


@pytest.mark.django_db
def test_an_undo_with_a_moves_key_is_refused(play):
    enter(play, GOOD, version=0)
    before = stored()
    with pytest.raises(services.KeyReusedError):
        services.undo_last_move(play=play, version=1, key=KEY)
    assert stored() == before


@pytest.mark.django_db
def test_a_move_with_an_undos_key_is_refused(play):
    services.record_move(play=play, move=GOOD)
    services.undo_last_move(play=play, version=1, key=KEY)
    before = stored()
    with pytest.raises(services.KeyReusedError):
        enter(play, GOOD, version=2)
    assert stored() == before


@pytest.mark.django_db
def test_record_move_takes_the_key_of_its_request(play):
    services.record_move(play=play, move=GOOD, version=0, key=KEY)
    services.record_move(play=play, move=GOOD, version=0, key=KEY)
    assert play.moves.count() == 1
    assert play.moves.get().asked == services.Keyed.of(KEY, GOOD).asked


def test_what_a_request_asked_does_not_depend_on_the_order_of_its_keys():
    one = services.Keyed.of(KEY, {"card": "red-ball", "call": {"player": "Ana", "series": 1}})
    two = services.Keyed.of(KEY, {"call": {"series": 1, "player": "Ana"}, "card": "red-ball"})
    other = services.Keyed.of(KEY, {"card": "red-ball", "call": {"player": "Ana", "series": 2}})
    assert one == two and one.asked != other.asked


@pytest.mark.django_db
def test_the_unique_key_is_the_last_line_of_defence(play, monkeypatch):
    """Should another entry with the same key ever get past the row lock and the key's read,
    the database refuses the second key: nothing is half-saved."""
    judge_next = moves.judge_next

    def judge_then_race(*args, **kwargs):
        Move.objects.create(play=play, seq=5, data={"sneaked": "in"}, key=KEY)
        return judge_next(*args, **kwargs)

    monkeypatch.setattr(moves, "judge_next", judge_then_race)
    before = stored()
    with pytest.raises(services.StalePlayError):
        enter(play, GOOD, version=0)
    assert stored() == before


@pytest.mark.django_db
def test_the_unique_undo_key_is_the_last_line_of_defence(play, monkeypatch):
    services.record_move(play=play, move=GOOD)
    services.record_move(play=play, move=TIE)
    Move.objects.filter(play=play, seq=0).update(undo_key=KEY)  # as if another undo got past
    monkeypatch.setattr(moves, "_asked_before", lambda *args, **kwargs: False)
    before = stored()
    with pytest.raises(services.StalePlayError):
        services.undo_last_move(play=play, version=2, key=KEY)
    assert stored() == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("change", ["move", "undo"])
def test_one_request_sent_twice_at_once_is_done_once(club, night, players, change):
    if connection.vendor != "postgresql":
        pytest.skip("real concurrent transactions are tested on PostgreSQL")
    play = services.start_play(
        night=night, game="buntherum", players=players, setup={"series": SERIES}
    )
    if change == "undo":
        services.record_move(play=play, move=GOOD)
    version = play.moves.count()
    barrier = threading.Barrier(2)
    outcomes = []

    def send():
        try:
            barrier.wait(timeout=10)
            if change == "move":
                state = enter(Play.objects.get(pk=play.pk), GOOD, version=version)
                outcomes.append("repeated" if state.repeated else "done")
            else:
                undone = services.undo_last_move(
                    play=Play.objects.get(pk=play.pk), version=version, key=KEY
                )
                outcomes.append("repeated" if undone is None else "done")
        except services.ServiceError as refused:
            outcomes.append(type(refused).__name__)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["done", "repeated"]
    if change == "move":
        assert play.moves.count() == 1 and play.moves.get().key == KEY
    else:
        assert play.moves.active().count() == 0
    play.refresh_from_db()
    assert play.version == version + 1
