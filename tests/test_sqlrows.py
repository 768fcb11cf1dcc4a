"""games/sqlrows.py: the move entry's statements written in SQL read and write exactly what the
ORM would (issue 19), on SQLite and on PostgreSQL alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import transaction
from django.http import Http404

from games import access, selectors, services
from games.models import Move, Play, Seat
from games.services.playrow import lock_seated
from games.sqlrows import insert, update

PUNTO = json.loads(
    (Path(__file__).resolve().parent / "fixtures" / "examples" / "punto-1.json").read_text()
)


@pytest.fixture
def punto(club, night, owner, member):
    """A Punto play imported by the owner, a move then entered by the member and undone."""
    play = services.import_log(club=club, log={**PUNTO, "moves": PUNTO["moves"][:5]}, night=night)
    services.record_move(play=play, move=PUNTO["moves"][5], by=member)
    services.undo_last_move(play=play, by=owner)
    return play


def row(obj) -> dict[str, tuple]:
    """Every field's value with its type (an int is no boolean; a naive time equals no aware
    one)."""
    fields = obj._meta.concrete_fields
    return {f.attname: (type(getattr(obj, f.attname)), getattr(obj, f.attname)) for f in fields}


def test_the_play_is_read_with_its_club_and_night_as_the_orm_reads_them(punto, rf, member):
    request = rf.get("/")
    request.user = member
    read = access.get_play(request, punto.pk)
    orm = Play.objects.select_related("club", "night").get(pk=punto.pk)
    assert row(read) == row(orm)
    assert row(read.club) == row(orm.club) and row(read.night) == row(orm.night)
    assert not read._state.adding and read._state.db == "default"


@pytest.mark.parametrize("play_id", [0, 2**63, 10**30])
def test_a_play_no_database_stores_is_not_found(punto, rf, member, play_id):
    request = rf.get("/")
    request.user = member
    with pytest.raises(Http404):
        access.get_play(request, play_id)


def test_a_play_of_another_club_is_not_found(punto, rf, outsider):
    request = rf.get("/")
    request.user = outsider
    with pytest.raises(Http404):
        access.get_play(request, punto.pk)


def test_the_locked_read_gives_the_seats_players_and_play_as_the_orm(punto):
    with transaction.atomic():
        play, seats, _asked = lock_seated(punto.pk)
    seated = Seat.objects.select_related("play", "player").filter(play=punto)
    orm = list(seated.order_by("position"))
    assert [row(seat) for seat in seats] == [row(seat) for seat in orm]
    assert [row(seat.player) for seat in seats] == [row(seat.player) for seat in orm]
    assert row(play) == row(orm[0].play) and all(seat.play is play for seat in seats)


def test_the_move_log_is_read_as_the_orm_reads_it(punto, owner, member):
    rows = (
        Move.objects.filter(play=punto)
        .order_by("seq")
        .values_list(
            "seq",
            "data",
            "entered_by__username",
            "entered_at",
            "undone_by__username",
            "undone_at",
            "struck",
        )
    )
    log = selectors.log_moves(punto)
    typed = [[(type(value), value) for value in entry] for entry in log]
    assert typed == [[(type(value), value) for value in r] for r in rows]
    # imported (by nobody), entered by the member, undone by the owner
    assert log[0].entered_by is None and log[-1].entered_by == member.username
    assert log[-1].undone_by == owner.username and log[-1].undone_at is not None


def test_an_inserted_row_is_the_one_the_orm_would_have_saved(punto, member):
    data = {"player": "Ana", "note": ["é", 1.5, None]}
    move = Move(play=punto, seq=99, data=data, entered_by=member)
    insert(move)
    assert move.pk is not None and move.entered_at is not None  # auto_now_add, as save() does
    assert not move._state.adding
    assert row(Move.objects.get(pk=move.pk)) == row(move)


@pytest.mark.parametrize(
    "values",
    [
        [(7, 1, True, 1), (-3, None, False, 2)],
        [(7, 1, True, 1)],  # the other seat as it was
        [(0, None, False, None)],  # NULLs alone
    ],
)
def test_updated_rows_are_the_ones_bulk_update_would_have_written(punto, values):
    """Each row gets its own values (a NULL too, which PostgreSQL must be told the type of);
    other rows and fields are as they were."""
    seats = list(punto.seats.order_by("position"))
    others = {seat.pk: row(seat) for seat in seats[len(values) :]}
    for seat, (score, rank, is_winner, team) in zip(seats, values, strict=False):  # 2 seats
        seat.score, seat.rank, seat.is_winner, seat.team = score, rank, is_winner, team
    update(seats[: len(values)], ["score", "rank", "is_winner", "team"])
    for seat in seats[: len(values)]:
        assert row(Seat.objects.get(pk=seat.pk)) == row(seat)
    for pk, was in others.items():
        assert row(Seat.objects.get(pk=pk)) == was
