"""Team plays in history (issue 18): Punto for four in two teams of two. A team's win is a win for
both partners; partners are never each other's opponents; each partner beats both opponents when
their team wins; a team play is rated as two teams of two; pages and exports name the partner."""

import csv
import datetime
import io
import json
import zipfile

import pytest
from django.urls import reverse
from django.utils import timezone
from openskill.models import PlackettLuce

from games import services, stats
from games.models import ALL_GAMES, Play, RatingChange
from referee import judge
from tests.dom import dom, find, find_all, text
from tests.stats.recount import by_scope

TEAMS = [["Ana", "Chloé"], ["Ben", "Dev"]]
COLOURS = {
    "Ana": ["red", "blue"],
    "Ben": ["orange", "green"],
    "Chloé": ["blue", "red"],
    "Dev": ["green", "orange"],
}
#: Ana and Chloé lay five reds in row 0: Ana lays the fifth.
ANA_AND_CHLOE_WIN = [
    ("Ana", "red-1", 0, 0), ("Ben", "orange-1", 0, 1), ("Chloé", "red-2", 1, 0),
    ("Dev", "green-1", 1, 1), ("Ana", "red-3", 2, 0), ("Ben", "orange-2", 2, 1),
    ("Chloé", "red-4", 3, 0), ("Dev", "green-2", 3, 1), ("Ana", "red-5", 4, 0),
]  # fmt: skip
#: Ben and Dev lay five oranges in row 1: Ben lays the fifth.
BEN_AND_DEV_WIN = [
    ("Ana", "red-1", 0, 0), ("Ben", "orange-1", 0, 1), ("Chloé", "blue-1", 1, 0),
    ("Dev", "orange-2", 1, 1), ("Ana", "red-2", 2, 0), ("Ben", "orange-3", 2, 1),
    ("Chloé", "blue-2", 3, 0), ("Dev", "orange-4", 3, 1), ("Ana", "red-3", 4, 0),
    ("Ben", "orange-5", 4, 1),
]  # fmt: skip


def team_log(moves):
    return {
        "format": "gamelog/1",
        "game": "punto",
        "players": ["Ana", "Ben", "Chloé", "Dev"],
        "setup": {"colours": COLOURS, "teams": TEAMS, "rounds_to_win": 1},
        "moves": [{"player": p, "card": c, "at": [x, y]} for p, c, x, y in moves],
    }


@pytest.fixture
def team_play(club, night, four):
    """``team_play(moves)`` imports a finished team play into the night."""

    def team_play(moves):
        return services.import_log(club=club, log=team_log(moves), night=night)

    return team_play


def seats_of(play):
    return {seat.player.name: seat for seat in play.seats.select_related("player")}


def test_the_logs_are_finished_team_plays():
    assert judge(team_log(ANA_AND_CHLOE_WIN)).winners == ["Ana", "Chloé"]
    assert judge(team_log(BEN_AND_DEV_WIN)).winners == ["Ben", "Dev"]


def test_partners_share_a_team_on_their_seats(team_play):
    seats = seats_of(team_play(ANA_AND_CHLOE_WIN))
    assert seats["Ana"].team == seats["Chloé"].team is not None
    assert seats["Ben"].team == seats["Dev"].team is not None
    assert seats["Ana"].team != seats["Ben"].team


def test_a_team_win_is_a_win_for_both_partners(team_play, four):
    ana, ben, chloe, dev = four
    play = team_play(ANA_AND_CHLOE_WIN)
    seats = seats_of(play)
    assert [seats[n].is_winner for n in ("Ana", "Ben", "Chloé", "Dev")] == [1, 0, 1, 0]
    assert [seats[n].rank for n in ("Ana", "Ben", "Chloé", "Dev")] == [1, 3, 1, 3]
    assert [stats.player_summary(p).wins for p in four] == [1, 0, 1, 0]
    assert [stats.player_summary(p).plays for p in four] == [1, 1, 1, 1]


def test_partners_are_never_each_others_opponents(team_play, four, record):
    ana, ben, chloe, dev = four
    record("punto", [(chloe, 2, True), (ana, 0, False)])  # Chloé beats Ana on her own
    for _ in range(3):
        team_play(ANA_AND_CHLOE_WIN)
    summary = stats.player_summary(ana)
    rivals = {r.player: (r.plays, r.won, r.lost) for r in summary.rivals}
    # three team plays with Chloé as a partner are not plays against her
    assert rivals["Chloé"] == (1, 0, 1)
    # so Chloé, who beat Ana once in one play, is no nemesis (she would be with 4 shared plays)
    assert summary.nemesis is None
    assert "Ana" not in {r.player for r in stats.head_to_head(chloe) if r.plays > 1}


def test_each_partner_beats_both_opponents_when_their_team_wins(team_play, four):
    ana, ben, chloe, dev = four
    team_play(ANA_AND_CHLOE_WIN)
    team_play(BEN_AND_DEV_WIN)
    team_play(ANA_AND_CHLOE_WIN)
    for partner in (ana, chloe):
        rivals = {r.player: (r.plays, r.won, r.lost) for r in stats.head_to_head(partner)}
        assert rivals == {"Ben": (3, 2, 1), "Dev": (3, 2, 1)}
    for opponent in (ben, dev):
        rivals = {r.player: (r.plays, r.won, r.lost) for r in stats.head_to_head(opponent)}
        assert rivals == {"Ana": (3, 1, 2), "Chloé": (3, 1, 2)}
    # the victim of Ana: Ben and Dev tie (beaten twice, beat her once), then by name
    assert stats.player_summary(ana).victim.player == "Ben"


def test_a_team_play_is_rated_as_two_teams_of_two_by_openskill(club, night, four, team_play):
    # Ana and Ben first meet alone, so the four ratings differ before the team play
    duel = {
        "format": "gamelog/1",
        "game": "punto",
        "players": ["Ana", "Ben"],
        "setup": {"colours": {"Ana": ["red", "blue"], "Ben": ["orange", "green"]},
                  "rounds_to_win": 1},
        "moves": [{"player": p, "card": c, "at": [x, y]} for p, c, x, y in [
            ("Ana", "red-1", 0, 0), ("Ben", "green-1", 0, 1), ("Ana", "red-2", 1, 0),
            ("Ben", "green-2", 1, 1), ("Ana", "red-3", 2, 0), ("Ben", "green-3", 2, 1),
            ("Ana", "red-4", 3, 0), ("Ben", "green-4", 3, 1), ("Ana", "red-5", 4, 0),
        ]],
    }  # fmt: skip
    assert judge(duel).winners == ["Ana"]
    services.import_log(club=club, log=duel, night=night)
    play = team_play(BEN_AND_DEV_WIN)
    model = PlackettLuce()
    for scope in ("punto", ALL_GAMES):
        rows = {
            row.player.name: row
            for row in by_scope(RatingChange.objects.filter(play=play).select_related("player"))
            if row.scope == scope
        }
        assert rows["Ana"].mu_before != rows["Chloé"].mu_before

        def rating(name, rows=rows):
            return model.rating(mu=rows[name].mu_before, sigma=rows[name].sigma_before)

        (ben, dev), (ana, chloe) = model.rate(
            [[rating("Ben"), rating("Dev")], [rating("Ana"), rating("Chloé")]], ranks=[1, 2]
        )
        expected = {"Ana": ana, "Ben": ben, "Chloé": chloe, "Dev": dev}
        for name, row in rows.items():
            assert (row.mu_after, row.sigma_after) == (expected[name].mu, expected[name].sigma)
        assert rows["Ben"].is_winner and rows["Dev"].is_winner and not rows["Ana"].is_winner


def test_leaderboards_name_the_partners(team_play, club, four):
    team_play(ANA_AND_CHLOE_WIN)
    team_play(BEN_AND_DEV_WIN)
    for scope in ("punto", ALL_GAMES):
        board = {s.player: s for s in stats.leaderboard(club, scope)}
        assert board["Ana"].partners == [("Chloé", 2)]
        assert board["Dev"].partners == [("Ben", 2)]
        assert board["Ana"].as_json()["partners"] == [{"player": "Chloé", "plays": 2}]
        # Today's partners come from the pair records, a past day's from the seats: the same.
        as_of = {
            s.player: s.partners for s in stats.leaderboard(club, scope, as_of=timezone.localdate())
        }
        assert as_of == {name: standing.partners for name, standing in board.items()}
    assert stats.leaderboard(club, "thricewise") == []


def test_as_of_the_calendars_last_day_the_partners_are_todays(team_play, club):
    """The last day (9999-12-31) has no end to count the seats before: it is everything."""
    team_play(ANA_AND_CHLOE_WIN)
    for scope in ("punto", ALL_GAMES):
        last_day = stats.leaderboard(club, scope, as_of=datetime.date.max)
        assert {s.player: s.partners for s in last_day}["Ana"] == [("Chloé", 1)]
        assert last_day == stats.leaderboard(club, scope)


def test_the_leaderboard_page_names_the_partners(team_play, club, member_client):
    team_play(ANA_AND_CHLOE_WIN)
    page = dom(member_client.get(reverse("leaderboard-game", args=[club.pk, "punto"])))
    partners = {
        dict(row.attributes)["data-player"]: text(find(row, "small", class_="partners"))
        for row in find_all(find(page, "tbody"), "tr")
        if not find_all(row, "tr", class_="provisional-head")
    }
    assert partners == {
        "Ana": "Team plays with Chloé ×1",
        "Ben": "Team plays with Dev ×1",
        "Chloé": "Team plays with Ana ×1",
        "Dev": "Team plays with Ben ×1",
    }


def test_the_player_page_names_the_partners(team_play, four, member_client):
    ana = four[0]
    team_play(ANA_AND_CHLOE_WIN)
    team_play(BEN_AND_DEV_WIN)
    page = dom(member_client.get(reverse("player", args=[ana.pk])))
    rows = find_all(find(find(page, "table", id="partners"), "tbody"), "tr")
    # 2 plays, 1 won together
    assert [[text(cell) for cell in row.children] for row in rows] == [["Chloé", "2", "1"]]
    assert [dict(row.attributes)["data-player"] for row in rows] == ["Chloé"]
    assert [p.player for p in stats.player_summary(ana).partners] == ["Chloé"]


def test_the_csv_export_names_each_seats_partner(team_play, club, four, record, member_client):
    ana, ben, chloe, _ = four
    team_play(ANA_AND_CHLOE_WIN)
    record("punto", [(ana, 2, True), (chloe, 0, False)])
    response = member_client.get(reverse("export-csv", args=[club.pk]))
    body = b"".join(response.streaming_content).decode("utf-8-sig")  # after the byte-order mark
    rows = list(csv.DictReader(io.StringIO(body)))
    team = {r["player"]: r["partners"] for r in rows if r["play"] == str(Play.objects.first().pk)}
    assert team == {"Ana": "Chloé", "Ben": "Dev", "Chloé": "Ana", "Dev": "Ben"}
    alone = [r["partners"] for r in rows if r["play"] != str(Play.objects.first().pk)]
    assert alone == ["", ""]


def test_the_zip_of_logs_holds_team_logs_that_import_again(team_play, club, owner, member_client):
    play = team_play(ANA_AND_CHLOE_WIN)
    response = member_client.get(reverse("export-logs", args=[club.pk]))
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    (name,) = archive.namelist()
    log = json.loads(archive.read(name))
    assert log["setup"] == {"colours": COLOURS, "teams": TEAMS, "rounds_to_win": 1}
    elsewhere = services.create_club(name="Elsewhere", owner=owner)
    again = services.import_log(club=elsewhere, log=log)
    assert judge(log).as_dict() == judge(team_log(ANA_AND_CHLOE_WIN)).as_dict()
    assert {n: (s.is_winner, s.team) for n, s in seats_of(again).items()} == {
        n: (s.is_winner, s.team) for n, s in seats_of(play).items()
    }


@pytest.mark.django_db
def test_the_partners_as_at_a_day_are_those_of_the_team_plays_before_its_end(record, four):
    """Each pair's partnership as at a day is its last partner row before the day's end (issue
    32): Ana and Chloé partner on days 1, 2 and 4, Ana and Ben on day 3."""
    ana, ben, chloe, _dev = four
    for day, first in zip((1, 2, 3, 4), [chloe, chloe, ben, chloe], strict=True):
        others = [p for p in four if p not in (ana, first)]
        record(
            "punto",
            [(ana, 5, True), (others[0], 1, False), (first, 5, True), (others[1], 1, False)],
            day=day,
            teams=[1, 2, 1, 2],
        )

    def partners(day):
        board = stats.leaderboard(ana.club, "punto", as_of=datetime.date(2026, 1, day))
        return {s.player: s.partners for s in board}["Ana"]

    assert partners(1) == [("Chloé", 1)]
    assert partners(2) == [("Chloé", 2)]
    assert partners(3) == [("Chloé", 2), ("Ben", 1)]
    assert partners(4) == [("Chloé", 3), ("Ben", 1)]
    assert {s.player: s.partners for s in stats.leaderboard(ana.club, "punto")}["Ana"] == [
        ("Chloé", 3),
        ("Ben", 1),
    ]
