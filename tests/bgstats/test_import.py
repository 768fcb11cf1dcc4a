"""BG Stats files brought into a club (games.bgstats.reader, games.services.bgstats): fixtures in
the shapes of real exports (two app versions, both uuid cases, null and sum scores, tied ranks,
teams, co-op wins and losses, a missing location, an ignored play, unknown fields)."""

import datetime
import io
import json
import zipfile
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games import services
from games.bgstats.reader import MAX_BYTES, BGStatsError, read_bytes, read_document
from games.models import CatalogueGame, GameNight, Play, Player, Seat
from games.services.bgstats import import_bgstats
from tests.stats.recount import recount, stored

FIXTURES = Path(__file__).parent.parent / "fixtures" / "bgstats"


def load(name):
    return read_bytes((FIXTURES / name).read_bytes())


def seats_of(play):
    return [
        (s.player.name, s.shown_score, s.rank, s.is_winner, s.team)
        for s in Seat.objects.filter(play=play).select_related("player").order_by("position")
    ]


@pytest.fixture
def ios(club, players):
    """The iOS export brought into the club (Ana, Ben and Chloé are players already)."""
    return import_bgstats(club=club, export=load("export-ios.json"))


def test_an_export_becomes_result_plays(club, players, ios):
    assert ios.added == 6 and ios.already == 0 and ios.ignored == 1
    assert ios.players_added == ["Dev"]
    assert sorted(ios.games_added) == ["Azul", "Codenames", "Hanabi"]
    assert {(m.name, m.how) for m in ios.games} >= {("Punto", "name")}
    plays = Play.objects.filter(club=club).order_by("started_at")
    assert {p.kind for p in plays} == {"result"}
    azul = plays[0]
    assert azul.game_title == "Azul" and azul.duration_minutes == 40 and azul.notes == "Close one"
    assert azul.started_at == datetime.datetime(2024, 3, 1, 20, 30, tzinfo=club.zone)
    assert azul.bgstats_uuid == "d1b2c3d4-0000-4000-8000-000000000001"
    # A sum kept as its total; Ben and Chloé tied first (winners as recorded).
    assert seats_of(azul) == [
        ("Ana", "13", 3, False, None),
        ("Ben", "61", 1, True, None),
        ("Chloé", "61", 1, True, None),
    ]
    assert azul.night.place == "Le Dé Rouge"
    # Nights are the plays' dates in the club's time; a play without a location has none.
    assert sorted(GameNight.objects.filter(club=club).values_list("date", "place")) == [
        (datetime.date(2024, 3, 1), "Le Dé Rouge"),
        (datetime.date(2024, 3, 8), ""),
        (datetime.date(2024, 3, 15), "Le Dé Rouge"),
    ]


def test_cooperative_wins_and_losses_teams_ignored_and_refereed_games(club, players, ios):
    plays = list(Play.objects.filter(club=club).order_by("started_at"))
    won, lost, code, ignored, punto = plays[1:]
    assert won.details == {"won": True} and {s[3] for s in seats_of(won)} == {True}
    assert lost.details == {"won": False} and {s[3] for s in seats_of(lost)} == {False}
    assert lost.duration_minutes is None  # 0 in BG Stats: unknown
    # Teams by name, whatever the case; places as recorded.
    assert [(s[0], s[2], s[3], s[4]) for s in seats_of(code)] == [
        ("Ana", 1, True, 1),
        ("Ben", 2, False, 2),
        ("Chloé", 1, True, 1),
        ("Dev", 2, False, 2),
    ]
    assert ignored.status == Play.Status.IGNORED
    assert seats_of(ignored)[0][1] == "12.5"
    # Punto is one of the referee's games: a result play of it, with no move log.
    assert punto.game == "punto" and punto.catalogue_game is None
    assert not punto.moves.exists()
    hanabi = CatalogueGame.objects.get(name="Hanabi")
    assert hanabi.cooperative and hanabi.bgg_id == 98778
    codenames = CatalogueGame.objects.get(name="Codenames")  # noPoints, usesTeams
    assert (codenames.result, codenames.teams) == ("ranks", True)
    assert not CatalogueGame.objects.get(name="Azul").teams


def test_players_matched_by_uuid_any_case_then_by_name(club, players, ios):
    ana = Player.objects.get(club=club, name="Ana")
    assert ana.bgstats_uuid == "a1b2c3d4-0000-4000-8000-000000000001"
    assert {m.name: m.how for m in ios.players} == {
        "Ana": "name", "Ben": "name", "Chloé": "name", "Dev": "new",
    }  # fmt: skip
    # The Android export calls Ana "Ana (BG)", with her uuid in lower case: she is found by it.
    android = import_bgstats(club=club, export=load("export-android.json"))
    hows = {m.name: (m.player.name if m.player else None, m.how) for m in android.players}
    assert hows["Ana (BG)"] == ("Ana", "uuid")
    assert hows["Eve"] == (None, "new")
    assert android.players_added == ["Eve"]


def test_a_second_import_adds_nothing_and_says_so(club, players, ios):
    again = import_bgstats(club=club, export=load("export-ios.json"))
    assert (again.added, again.already) == (0, 6)
    assert Play.objects.filter(club=club).count() == 6
    # The same play from the other phone (its uuid in lower case) is the same play.
    android = import_bgstats(club=club, export=load("export-android.json"))
    assert android.already == 1 and android.added == 2 and android.without_players == 1
    assert import_bgstats(club=club, export=load("export-android.json")).added == 0


def test_android_shapes_sums_decimals_lowest_wins_and_ties(club, players):
    summary = import_bgstats(club=club, export=load("export-android.json"))
    golf = Play.objects.get(club=club, game=CatalogueGame.objects.get(name="Golf").key)
    assert seats_of(golf) == [
        ("Ana (BG)", "7", 3, False, None),
        ("Eve", "-3.5", 1, True, None),
        ("Ben", "4", 2, False, None),
    ]
    assert golf.night.place == ""  # its location is not in the file
    podium = Play.objects.get(club=club, game=CatalogueGame.objects.get(name="Podium").key)
    assert [s[2:4] for s in seats_of(podium)] == [(1, True), (1, True), (3, False)]
    assert podium.bgstats_uuid  # made from the play, so a second import still finds it
    assert summary.without_players == 1


def test_statistics_after_an_import_equal_a_recount_from_the_file(club, players, ios):
    assert stored(club) == recount(club)
    document = json.loads((FIXTURES / "export-ios.json").read_text())
    names = {p["id"]: p["name"] for p in document["players"]}
    coop = {g["id"] for g in document["games"] if g["cooperative"]}
    plays, wins = {}, {}
    for play in document["plays"]:
        if play["ignored"] or play["gameRefId"] in coop:
            continue
        for score in play["playerScores"]:
            name = names[score["playerRefId"]]
            plays[name] = plays.get(name, 0) + 1
            wins[name] = wins.get(name, 0) + score["winner"]
    from games import stats

    board = {s.player: (s.plays, s.wins) for s in stats.leaderboard(club, "all")}
    assert board == {name: (plays[name], wins[name]) for name in plays}


def test_a_play_file_and_a_zip(club, players):
    single = import_bgstats(club=club, export=load("tonight.bgsplay"))
    assert single.added == 1 and single.players_added == ["Zoé"]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("BGStatsExport.json", (FIXTURES / "export-ios.json").read_bytes())
    zipped = read_bytes(buffer.getvalue())
    assert len(zipped.plays) == 6


def test_a_zip_bomb_stops_at_the_limit():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("BGStatsExport.json", b" " * (MAX_BYTES + 10))
    assert len(buffer.getvalue()) < 100_000
    with pytest.raises(BGStatsError, match="too big"):
        read_bytes(buffer.getvalue())


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "not a BG Stats export"),
        ({"players": []}, "no plays"),
        ({"plays": {}}, "not a list"),
        ({"plays": [{"gameRefId": 1}]}, "game is not in the file"),
        (
            {"games": [{"id": 1, "name": "G"}], "plays": [{"gameRefId": 1, "playDate": "soon"}]},
            "not a date",
        ),
        (
            {
                "games": [{"id": 1, "name": "G"}],
                "players": [{"id": 1, "name": "A"}],
                "plays": [
                    {
                        "gameRefId": 1,
                        "playDate": "2024-01-01 20:00:00",
                        "playerScores": [{"playerRefId": 1, "score": "2*3"}],
                    }
                ],
            },
            "is not a score",
        ),
        (
            {
                "games": [{"id": 1, "name": "G"}],
                "players": [{"id": 1, "name": "A"}],
                "plays": [
                    {
                        "gameRefId": 1,
                        "playDate": "2024-01-01 20:00:00",
                        "playerScores": [{"playerRefId": 1}, {"playerRefId": 1}],
                    }
                ],
            },
            "seated twice",
        ),
        (
            {
                "games": [{"id": 1, "name": "G"}],
                "players": [],
                "plays": [
                    {
                        "gameRefId": 1,
                        "playDate": "2024-01-01 20:00:00",
                        "playerScores": [{"playerRefId": 5}],
                    }
                ],
            },
            "player is not in the file",
        ),
    ],
)
def test_a_broken_file_is_refused_in_words(document, message):
    with pytest.raises(BGStatsError, match=message):
        read_document(document)


@pytest.mark.parametrize(
    "data", [b"\xff\xfe not text", b"{not json", b"[" * 5000, b"PK\x03\x04junk"]
)
def test_what_is_not_a_bgstats_file_is_refused(data):
    with pytest.raises(BGStatsError):
        read_bytes(data)


def test_scores_are_never_evaluated():
    document = {
        "games": [{"id": 1, "name": "G"}],
        "players": [{"id": 1, "name": "A"}],
        "plays": [
            {
                "gameRefId": 1,
                "playDate": "2024-01-01 20:00:00",
                "playerScores": [{"playerRefId": 1, "score": "__import__('os').getcwd()"}],
            }
        ],
    }
    with pytest.raises(BGStatsError, match="is not a score"):
        read_document(document)


def test_a_file_refused_whole_leaves_nothing(club, players, owner):
    export = load("export-ios.json")
    # A club player chosen for two of the file's players who sit at the same play.
    ana = Player.objects.get(club=club, name="Ana")
    with pytest.raises(services.ServiceError, match="twice"):
        import_bgstats(club=club, export=export, choices={1: ana.pk, 2: ana.pk})
    assert not Play.objects.exists() and not CatalogueGame.objects.exists()
    assert Player.objects.filter(club=club).count() == 3


def test_the_command_prints_the_matches(club, players, capsys):
    out = io.StringIO()
    call_command("import_bgstats", str(FIXTURES / "export-ios.json"), "--club", str(club.pk),
                 stdout=out)  # fmt: skip
    text = out.getvalue()
    assert "player 'Dev' -> (new) [new]" in text and "6 play(s) added" in text
    again = io.StringIO()
    call_command("import_bgstats", str(FIXTURES / "export-ios.json"), "--club", str(club.pk),
                 stdout=again)  # fmt: skip
    assert "0 play(s) added" in again.getvalue() and "6 already in the club" in again.getvalue()
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_bgstats", "/nonexistent.json", "--club", str(club.pk))


def test_decimal_and_numeric_scores():
    from games.bgstats.reader import score_of

    assert score_of(12, "x") == Decimal(12)
    assert score_of(-3.5, "x") == Decimal("-3.5")
    assert score_of("6+10-3", "x") == Decimal(13)
    assert score_of(None, "x") is None and score_of("", "x") is None
    with pytest.raises(BGStatsError):
        score_of(True, "x")


def one_play_of(game):
    """A file of one play of ``game`` (a BG Stats games row), Ana beating Ben 3-1."""
    return read_document(
        {
            "players": [{"id": 1, "name": "Ana"}, {"id": 2, "name": "Ben"}],
            "games": [{"id": 7, **game}],
            "plays": [
                {
                    "uuid": "E1B2C3D4-0000-4000-8000-000000000001",
                    "playDate": "2024-06-01 20:00:00",
                    "gameRefId": 7,
                    "playerScores": [
                        {"playerRefId": 1, "score": "3", "winner": True},
                        {"playerRefId": 2, "score": "1", "winner": False},
                    ],
                }
            ],
        }
    )


def test_a_game_is_the_catalogues_by_its_bgg_id_whatever_its_name(club, players):
    azul = services.add_catalogue_game(club=club, name="Azul", bgg_id=230802)
    summary = import_bgstats(
        club=club, export=one_play_of({"name": "Azul (2017)", "bggId": 230802})
    )
    assert [(m.name, m.how, m.key) for m in summary.games] == [("Azul (2017)", "bgg", azul.key)]
    assert summary.games_added == [] and Play.objects.get().catalogue_game == azul


def test_a_game_is_one_of_the_referees_by_its_title_in_any_case_or_its_bgg_id(
    club, players, monkeypatch
):
    summary = import_bgstats(club=club, export=one_play_of({"name": "forget VENICE"}))
    assert [(m.how, m.key) for m in summary.games] == [("name", "forget-venice")]
    # An engine that declares its BoardGameGeek id is found by it, whatever the file calls it.
    from referee import GAMES

    monkeypatch.setattr(GAMES["punto"], "bgg_id", 12345, raising=False)
    play = one_play_of({"name": "Punto (deluxe)", "bggId": 12345})
    assert [(m.how, m.key) for m in import_bgstats(club=club, export=play).games] == [
        ("bgg", "punto")
    ]
    assert not CatalogueGame.objects.exists()
