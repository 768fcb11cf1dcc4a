"""A play entered as its result (games.services.results): checked, stored whole, rated, audited;
refused whole."""

import datetime
from decimal import Decimal

import pytest

from games import services
from games.models import AuditEntry, CatalogueGame, Play, RatingChange, Seat
from games.services import SeatResult


@pytest.fixture
def azul(club, owner):
    return services.add_catalogue_game(club=club, name="Azul", result="highest", by=owner)


@pytest.fixture
def hanabi(club, owner):
    return services.add_catalogue_game(
        club=club, name="Hanabi", result="cooperative", scored=True, by=owner
    )


def test_a_catalogue_game_is_added_once_whatever_the_case(club, owner, azul):
    assert services.add_catalogue_game(club=club, name="  azul ", result="lowest") == azul
    assert CatalogueGame.objects.filter(club=club).count() == 1
    assert AuditEntry.objects.filter(action=AuditEntry.Action.GAME_ADD).count() == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": ""}, "needs a name"),
        ({"name": "x" * 101}, "at most 100"),
        ({"name": "Azul", "result": "loudest"}, "how a result"),
        ({"name": "Azul", "min_players": 3, "max_players": 2}, "1 to 30"),
        ({"name": "Azul", "bgg_id": 0}, "BoardGameGeek"),
    ],
)
def test_a_catalogue_game_badly_described_is_refused(club, fields, message):
    with pytest.raises(services.ServiceError, match=message):
        services.add_catalogue_game(club=club, **fields)
    assert not CatalogueGame.objects.exists()


def test_a_result_is_stored_ranked_and_rated(night, players, azul, owner):
    ana, ben, chloe = players
    start = datetime.datetime(2026, 11, 20, 21, 0, tzinfo=datetime.UTC)
    play = services.enter_result(
        night=night,
        game=azul.key,
        seats=[
            SeatResult(ana, Decimal("42.5")),
            SeatResult(ben, Decimal(57)),
            SeatResult(chloe, Decimal(-3)),
        ],
        started_at=start,
        duration_minutes=45,
        by=owner,
    )
    assert play.kind == Play.Kind.RESULT and play.status == Play.Status.FINISHED
    assert play.game == azul.key and play.game_title == "Azul"
    assert play.ended_at == start + datetime.timedelta(minutes=45)
    seats = list(Seat.objects.filter(play=play).order_by("position"))
    assert [(s.entered_score, s.score, s.rank, s.is_winner) for s in seats] == [
        (Decimal("42.5"), 43, 2, False),
        (Decimal(57), 57, 1, True),
        (Decimal(-3), -3, 3, False),
    ]
    rows = RatingChange.objects.filter(play=play)
    assert {row.game for row in rows} == {azul.key}
    assert all(row.all_plays == 1 and row.all_mu_after is not None for row in rows)  # all games
    entry = AuditEntry.objects.get(action=AuditEntry.Action.RESULT_ENTER)
    assert entry.data["results"][0] == {
        "player": "Ana",
        "score": "42.5",
        "rank": 2,
        "winner": False,
    }


def test_a_cooperative_result_is_counted_apart_and_never_rated(night, players, hanabi):
    play = services.enter_result(
        night=night,
        game=hanabi.key,
        seats=[SeatResult(p, Decimal(21)) for p in players],
        won=True,
    )
    rows = RatingChange.objects.filter(play=play)
    assert set(rows.values_list("game", flat=True)) == {hanabi.key}
    assert all(row.mu_after is None and row.is_winner for row in rows)
    assert all(row.all_plays is None and row.all_mu_after is None for row in rows)


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (lambda p: [SeatResult(p[0], Decimal(3)), SeatResult(p[1])], "needs a score"),
        (lambda p: [SeatResult(p[0], Decimal(3)), SeatResult(p[0], Decimal(4))], "one seat"),
        (lambda p: [SeatResult(p[0], Decimal(3), team=1)], "not played in teams"),
    ],
)
def test_a_bad_result_is_refused_whole(night, players, azul, seats, message):
    with pytest.raises(services.ServiceError, match=message):
        services.enter_result(night=night, game=azul.key, seats=seats(players))
    assert not Play.objects.exists() and not Seat.objects.exists()
    assert not RatingChange.objects.exists()


def test_a_refereed_game_or_an_unknown_one_is_not_entered_as_a_result(night, players, club):
    with pytest.raises(services.ServiceError, match="refereed move by move"):
        services.enter_result(night=night, game="punto", seats=[SeatResult(players[0])])
    other = services.create_club(name="Other", owner=club.memberships.first().user)
    theirs = services.add_catalogue_game(club=other, name="Azul")
    for game in (theirs.key, "game-x", "nothing", "game-99999"):
        with pytest.raises(services.ServiceError, match="Unknown game"):
            services.enter_result(night=night, game=game, seats=[SeatResult(players[0])])
    assert not Play.objects.exists()


def test_a_player_of_another_club_is_refused(night, players, azul, owner):
    other = services.create_club(name="Other", owner=owner)
    stranger = services.add_player(club=other, name="Zoe")
    with pytest.raises(services.ServiceError, match="belong to the club"):
        services.enter_result(night=night, game=azul.key, seats=[SeatResult(stranger, Decimal(1))])


def test_a_duration_beyond_a_week_is_refused(night, players, azul):
    with pytest.raises(services.ServiceError, match="at most"):
        services.enter_result(
            night=night,
            game=azul.key,
            seats=[SeatResult(players[0], Decimal(1))],
            duration_minutes=7 * 24 * 60 + 1,
        )


def test_a_corrected_duration_moves_the_plays_version_on(night, players, azul, play):
    """The night's live pages follow a play by its version: a duration corrected moves it on
    (the night's cards show durations); a play still in progress has no duration to correct."""
    result = services.enter_result(
        night=night, game=azul.key, seats=[SeatResult(players[0], Decimal(1))]
    )
    before = result.version
    services.set_duration(play=result, minutes=30)
    result.refresh_from_db()
    assert (result.version, result.duration_minutes) == (before + 1, 30)
    version = play.version
    with pytest.raises(services.ServiceError, match="once it is finished"):
        services.set_duration(play=play, minutes=30)
    play.refresh_from_db()
    assert play.duration_minutes is None and play.version == version
