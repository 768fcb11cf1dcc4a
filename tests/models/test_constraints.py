import threading
import time

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.utils import timezone

from games.models import Move, Play, Player, Seat


def _play(night, players):
    play = Play.objects.create(
        club=night.club, night=night, game="punto", setup={}, started_at=timezone.now()
    )
    for index, player in enumerate(players[:2]):
        Seat.objects.create(play=play, position=index, player=player)
    return play


@pytest.mark.django_db
def test_move_sequence_is_unique_per_play(night, players):
    play = _play(night, players)
    Move.objects.create(play=play, seq=0, data={})
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(play=play, seq=0, data={})


@pytest.mark.django_db
def test_same_sequence_in_two_plays_is_fine(night, players):
    first, second = _play(night, players), _play(night, players)
    Move.objects.create(play=first, seq=0, data={})
    Move.objects.create(play=second, seq=0, data={})
    assert Move.objects.count() == 2


@pytest.mark.django_db
def test_player_names_are_unique_within_a_club(club, players):
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name="Ana")


@pytest.mark.django_db
def test_a_player_takes_one_seat_per_play(night, players):
    play = _play(night, players)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(play=play, position=5, player=players[0])


@pytest.mark.django_db(transaction=True)
def test_unique_move_sequence_under_a_concurrent_insert(night, players):
    """Two connections insert the same (play, seq) at once: the database lets exactly one in."""
    if connection.vendor != "postgresql":
        pytest.skip("real concurrent transactions are tested on PostgreSQL")
    play = _play(night, players)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def insert(label: str) -> None:
        try:
            barrier.wait(timeout=10)
            with transaction.atomic():
                Move.objects.create(play_id=play.pk, seq=0, data={"by": label})
                time.sleep(0.3)  # hold the transaction open: the other insert overlaps it
            outcomes.append("stored")
        except IntegrityError:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=insert, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused", "stored"]
    assert Move.objects.filter(play=play).count() == 1
