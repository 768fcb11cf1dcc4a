"""A club's plays written as a BG Stats file (games.bgstats.writer), read back into a fresh club
with the same plays, players and results; the push link of a finished play decodes to the play."""

import io
import json
from decimal import Decimal
from pathlib import Path
from urllib.parse import unquote

import pytest
from django.core.management import call_command

from games import services
from games.bgstats.reader import read_document
from games.bgstats.writer import PUSH_URL, SOURCE_NAME, export_club, made_uuid, push_link
from games.models import Play, Seat
from games.services import SeatResult
from games.services.bgstats import import_bgstats

FIXTURES = Path(__file__).parent.parent / "fixtures" / "bgstats"
EXAMPLES = Path(__file__).parent.parent / "fixtures" / "examples"


def results_of(club):
    """Every play's game title, date, duration, status and seats, as a set to compare clubs."""
    found = set()
    for play in Play.objects.filter(club=club).with_durations().select_related("catalogue_game"):
        seats = tuple(
            (s.player.name, s.shown_score, s.rank, s.is_winner, s.team is not None)
            for s in Seat.objects.filter(play=play).select_related("player").order_by("position")
        )
        found.add(
            (
                play.game_title,
                play.started_at.astimezone(club.zone).strftime("%Y-%m-%d %H:%M"),
                play.duration,
                play.status,
                seats,
            )
        )
    return found


@pytest.fixture
def history(club, players, night, owner):
    """An imported BG Stats history, a result entered tonight and a finished refereed play."""
    import_bgstats(club=club, export=read_document(json.loads(
        (FIXTURES / "export-ios.json").read_text())))  # fmt: skip
    azul = services.add_catalogue_game(club=club, name="Azul")
    services.enter_result(
        night=night,
        game=azul.key,
        seats=[SeatResult(players[0], Decimal("7.5")), SeatResult(players[2], Decimal(9))],
        duration_minutes=30,
    )
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    services.import_log(club=club, log=log, night=night)
    return club


def test_the_four_tables_with_ids_and_stable_uuids(history):
    document = export_club(history)
    assert set(document) >= {"players", "games", "locations", "plays"}
    for table in ("players", "games", "locations"):
        assert [row["id"] for row in document[table]] == list(range(1, len(document[table]) + 1))
    ana = next(p for p in document["players"] if p["name"] == "Ana")
    assert ana["uuid"] == "a1b2c3d4-0000-4000-8000-000000000001"  # the one she came with
    imported = [p for p in document["plays"] if p["uuid"].startswith("d1b2c3d4")]
    assert len(imported) == 6
    refereed = Play.objects.get(club=history, kind="refereed")
    assert made_uuid("play", history.pk, refereed.pk) in {p["uuid"] for p in document["plays"]}
    assert export_club(history) == document  # the same every time


def test_a_refereed_play_carries_the_referees_winners(history):
    document = export_club(history)
    refereed = Play.objects.get(club=history, kind="refereed")
    row = next(
        p for p in document["plays"] if p["uuid"] == made_uuid("play", history.pk, refereed.pk)
    )
    winners = {s.player.name for s in refereed.seats.select_related("player") if s.is_winner}
    names = {p["id"]: p["name"] for p in document["players"]}
    assert {names[s["playerRefId"]] for s in row["playerScores"] if s["winner"]} == winners
    assert all(isinstance(s["score"], str) for s in row["playerScores"])


def test_reimported_into_a_fresh_club_the_same_plays_players_and_results(history, owner):
    document = export_club(history)
    fresh = services.create_club(name="Fresh", owner=owner)
    summary = import_bgstats(club=fresh, export=read_document(json.loads(json.dumps(document))))
    assert summary.added == Play.objects.filter(club=history).count()
    assert set(fresh.players.values_list("name", flat=True)) == set(
        history.players.filter(seats__isnull=False).distinct().values_list("name", flat=True)
    )
    assert results_of(fresh) == results_of(history)
    # And once more: nothing added.
    again = import_bgstats(club=fresh, export=read_document(document))
    assert again.added == 0 and again.already == summary.added


def test_one_night_only_from_the_command(history, night, tmp_path):
    out = tmp_path / "night.json"
    call_command("export_bgstats", "--club", str(history.pk), "--night", str(night.pk), str(out),
                 stderr=io.StringIO())  # fmt: skip
    document = json.loads(out.read_text())
    assert len(document["plays"]) == 2
    assert {g["name"] for g in document["games"]} == {"Azul", "Punto"}


def test_the_push_link_decodes_to_the_play(history, night):
    play = Play.objects.get(club=history, night=night, kind="result")
    link = push_link(play)
    assert link.startswith(PUSH_URL)
    data = json.loads(unquote(link.removeprefix(PUSH_URL)))
    assert data["game"]["name"] == "Azul" and data["durationMin"] == 30
    assert data["location"] == night.place
    assert [(p["name"], p["score"], p["winner"], p["rank"]) for p in data["players"]] == [
        ("Ana", 7.5, False, 2),
        ("Chloé", 9, True, 1),
    ]
    assert data["players"][0]["startPlayer"] is True
    assert data["playDate"].startswith(night.date.isoformat())
    # BG Stats keeps the user's game and player matches per sending app (``sourceName``), and
    # the play's id is the uuid the club's export gives it: the same play either way.
    assert data["sourceName"] == SOURCE_NAME
    assert data["sourcePlayId"] == made_uuid("play", history.pk, play.pk)
    assert data["sourcePlayId"] in {p["uuid"] for p in export_club(history)["plays"]}


def exported(club, play):
    """The export's row of ``play``, its seats as (name, score, winner, rank, team)."""
    document = export_club(club)
    names = {p["id"]: p["name"] for p in document["players"]}
    row = next(p for p in document["plays"] if p["uuid"] == made_uuid("play", club.pk, play.pk))
    seats = [
        (names[s["playerRefId"]], s["score"], s["winner"], s["rank"], s["team"])
        for s in row["playerScores"]
    ]
    return row, seats


def test_manual_winner_where_a_tie_break_decided(club, night):
    """Forget Venice 16-16-16, Ana first by the tie-break: BG Stats must keep her as the winner
    rather than crown all three; Punto 2-0 is won by the top score."""
    tied = services.import_log(
        club=club, log=json.loads((EXAMPLES / "forget-venice-1.json").read_text()), night=night
    )
    row, seats = exported(club, tied)
    assert row["manualWinner"] is True
    assert [(name, score, winner) for name, score, winner, _, _ in seats] == [
        ("Ana", "16", True), ("Ben", "16", False), ("Chloé", "16", False),
    ]  # fmt: skip
    plain = services.import_log(
        club=club, log=json.loads((EXAMPLES / "punto-1.json").read_text()), night=night
    )
    assert exported(club, plain)[0]["manualWinner"] is False


def test_a_refereed_team_play_exports_its_teams(club, night):
    """Punto for four: Ana and Chloé against Ben and Dan, each seat's team written."""
    play = services.import_log(
        club=club, log=json.loads((EXAMPLES / "punto-3.json").read_text()), night=night
    )
    row, seats = exported(club, play)
    assert row["usesTeams"] is True
    teams = {name: team for name, _, _, _, team in seats}
    assert teams["Ana"] == teams["Chloé"] != teams["Ben"] == teams["Dan"] != ""
    assert {name for name, _, winner, _, _ in seats if winner} == {"Ana", "Chloé"}


def test_game_flags_and_dates_as_bg_stats_reads_them(history):
    """Each game's flags say how its result reads; a play's date is in the club's time, as
    BG Stats wrote it (the imported Azul play of 20:30 in Paris is 20:30, not 19:30 UTC)."""
    document = export_club(history)
    flags = {
        g["name"]: (g["cooperative"], g["highestWins"], g["noPoints"], g["usesTeams"])
        for g in document["games"]
    }
    assert flags["Hanabi"] == (True, True, False, False)  # co-operative, with a score, as it came
    assert flags["Codenames"] == (False, True, True, True)  # places only, in teams
    assert flags["Azul"] == (False, True, False, False)
    assert flags["Punto"][0] is False
    dates = {p["uuid"]: p["playDate"] for p in document["plays"]}
    assert history.zone.key != "UTC"
    assert dates["d1b2c3d4-0000-4000-8000-000000000001"] == "2024-03-01 20:30:00"
