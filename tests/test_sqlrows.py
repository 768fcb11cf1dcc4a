"""games/sqlrows.py: the move entry's statements written in SQL read and write exactly what the
ORM would (issue 19), on SQLite and on PostgreSQL alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.db.models.signals import post_init
from django.http import Http404

from games import access, selectors, services
from games.models import Move, Play, Player, Seat
from games.services.playrow import lock_seated
from games.sqlrows import Writes, insert, update

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


def test_the_locked_rows_are_made_without_the_models_init(punto, monkeypatch):
    """Issue 32: the instances of a move entry's rows are made as from_db makes them, with
    nothing of Model.__init__ but their fields set (a tenth of its time)."""
    orm = {
        (model, obj.pk): obj
        for model in (Seat, Player, Play)
        for obj in model.objects.filter(pk__in=_keys(model, punto))
    }

    def refused(*args, **kwargs):
        raise AssertionError("Model.__init__ called")

    with monkeypatch.context() as patched:
        for model in (Seat, Player, Play):
            patched.setattr(model, "__init__", refused)
        with transaction.atomic():
            play, seats, _asked = lock_seated(punto.pk)
    for obj in [play, *seats, *(seat.player for seat in seats)]:
        same = orm[type(obj), obj.pk]
        assert _fields(obj) == _fields(same)
        assert (obj._state.adding, obj._state.db) == (False, "default")
        assert type(obj._state) is type(same._state)


def test_a_model_someone_listens_to_the_making_of_is_made_by_its_init(punto):
    """A post_init receiver (ImageField's, or anyone's) is sent its signal as from_db sends it."""
    made = []

    def heard(sender, instance, **kwargs):
        made.append(instance)

    post_init.connect(heard, sender=Player)
    try:
        with transaction.atomic():
            _play, seats, _asked = lock_seated(punto.pk)
    finally:
        post_init.disconnect(heard, sender=Player)
    assert made == [seat.player for seat in seats] and made


def test_writes_are_run_with_the_last_statement(punto, member, django_assert_num_queries):
    """sqlrows.Writes: an INSERT and an UPDATE run with the play's UPDATE, their rows written,
    the inserted instance given its key; on PostgreSQL as one statement (issue 32)."""
    punto.refresh_from_db()
    writes = Writes()
    move = Move(play=punto, seq=99, data={"card": "a"}, entered_by=member)
    writes.insert(move)
    seat = punto.seats.order_by("position").first()
    seat.score = 41
    writes.update([seat], ["score"])
    statements = 1 if connection.vendor == "postgresql" else 3
    with django_assert_num_queries(statements):
        (version,) = writes.run(
            'UPDATE "games_play" SET "version" = "version" + 1 WHERE "id" = %s RETURNING "version"',
            [punto.pk],
        )
    assert version == punto.version + 1 and len(writes) == 0
    assert move.pk is not None and not move._state.adding
    assert row(Move.objects.get(pk=move.pk)) == row(move)
    assert Seat.objects.get(pk=seat.pk).score == 41


def _keys(model, play) -> list[int]:
    if model is Play:
        return [play.pk]
    seats = play.seats.all()
    return [seat.pk if model is Seat else seat.player_id for seat in seats]


def _fields(obj) -> dict:
    return {key: value for key, value in vars(obj).items() if key != "_state"}
