"""Result plays stand with refereed ones in every statistic: running totals, ratings, head-to-head,
nemesis, leaderboards per game and across, the night's summary, the CSV and the command; and the
stored totals equal a recount from the seats."""

import csv
import datetime
import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import ratings, services, stats
from games.models import RatingChange
from games.services import SeatResult
from tests.stats.recount import rating_rows, recount, stored

AT = datetime.datetime(2026, 11, 20, 19, 0, tzinfo=datetime.UTC)


@pytest.fixture
def evening(night, four, record):
    """A night of refereed plays and result plays of every kind."""
    ana, ben, chloe, dev = four
    azul = services.add_catalogue_game(club=night.club, name="Azul", result="highest")
    golf = services.add_catalogue_game(club=night.club, name="Golf", result="lowest")
    podium = services.add_catalogue_game(club=night.club, name="Podium", result="ranks")
    hanabi = services.add_catalogue_game(club=night.club, name="Hanabi", result="cooperative")
    codenames = services.add_catalogue_game(
        club=night.club, name="Codenames", result="ranks", teams=True
    )
    record("thricewise", [(ana, 30, True), (ben, 20, False)], day=1)

    def enter(game, seats, minutes, **more):
        return services.enter_result(
            night=night,
            game=game.key,
            seats=seats,
            started_at=AT + datetime.timedelta(minutes=minutes),
            duration_minutes=20,
            **more,
        )

    enter(azul, [SeatResult(ana, Decimal(40)), SeatResult(ben, Decimal("52.5")),
                 SeatResult(chloe, Decimal(52.5))], 0)  # fmt: skip
    enter(golf, [SeatResult(ben, Decimal(3)), SeatResult(dev, Decimal(-1))], 30)
    enter(podium, [SeatResult(chloe, place=2), SeatResult(dev, place=1),
                   SeatResult(ana, place=2)], 60)  # fmt: skip
    enter(hanabi, [SeatResult(p) for p in (ana, ben, chloe)], 90, won=False)
    enter(codenames, [SeatResult(ana, place=1, team=1), SeatResult(ben, place=1, team=1),
                      SeatResult(chloe, place=2, team=2), SeatResult(dev, place=2, team=2)],
          120)  # fmt: skip
    enter(azul, [SeatResult(dev, Decimal(10)), SeatResult(chloe, Decimal(12))], 150)
    return {"azul": azul, "golf": golf, "podium": podium, "hanabi": hanabi, "code": codenames}


def test_stored_totals_equal_a_recount_and_a_full_rebuild(night, evening):
    club = night.club
    assert stored(club) == recount(club)
    incremental = rating_rows(club)
    ratings.rebuild_club(club.pk)
    assert rating_rows(club) == incremental
    assert stored(club) == recount(club)


def test_a_cooperative_catalogue_game_is_counted_apart_never_rated(night, evening, four):
    hanabi = evening["hanabi"].key
    rows = RatingChange.objects.filter(play__game=hanabi)
    assert rows.count() == 3 and not rows.filter(mu_after__isnull=False).exists()
    assert not rows.filter(all_plays__isnull=False).exists()  # nothing across all games
    summary = stats.player_summary(four[0])
    record = next(g for g in summary.games if g.game == hanabi)
    assert record.cooperative and record.title == "Hanabi" and record.win_rate is None
    assert summary.team_plays == 1 and summary.team_wins == 0


def test_player_page_counts_result_plays_with_the_refereed(night, evening, four):
    ana, ben, chloe, dev = four
    summary = stats.player_summary(ana)
    # Thricewise (won), Azul (3rd), Podium (2nd, tied), Codenames (won with Ben).
    assert (summary.plays, summary.wins) == (4, 2)
    titles = {g.title for g in summary.games}
    assert {"Thricewise", "Azul", "Podium", "Codenames", "Hanabi"} <= titles
    golf = next(g for g in stats.player_summary(dev).games if g.title == "Golf")
    assert (golf.best, golf.worst) == (-1, -1) and golf.wins == 1
    azul = next(g for g in stats.player_summary(chloe).games if g.title == "Azul")
    # 52.5 counts 53 in the points (rounded), and Chloé and Ben tied first.
    assert (azul.plays, azul.wins, azul.points, azul.best, azul.worst) == (2, 2, 65, 53, 12)
    partners = {p.player: p.plays for p in summary.partners}
    assert partners == {"Ben": 1}
    rivals = {r.player: (r.plays, r.won, r.lost) for r in summary.rivals}
    assert rivals["Dev"] == (2, 1, 1)  # Podium lost to Dev; Codenames won against him


def test_leaderboards_per_catalogue_game_and_across(night, evening):
    club = night.club
    azul = evening["azul"].key
    board = {s.player: (s.plays, s.wins) for s in stats.leaderboard(club, azul)}
    assert board == {"Ana": (1, 0), "Ben": (1, 1), "Chloé": (2, 2), "Dev": (1, 0)}
    across = {s.player: s.plays for s in stats.leaderboard(club, "all")}
    assert across == {"Ana": 4, "Ben": 4, "Chloé": 4, "Dev": 4}
    assert club_page_ok(club, azul)


def club_page_ok(club, scope):
    from tests.conftest import client_for

    client = client_for(club.memberships.first().user)
    page = client.get(reverse("leaderboard-game", args=[club.pk, scope]))
    return page.status_code == 200 and "Azul" in page.text


def test_the_nights_summary_counts_result_plays(night, evening, four):
    summary = stats.night_summary(night)
    lines = {line.player: line for line in summary.lines}
    assert (lines["Ana"].plays, lines["Ana"].wins) == (4, 2)
    assert (lines["Ana"].team_plays, lines["Ana"].team_wins) == (1, 0)
    assert lines["Chloé"].points["Azul"] == 65


def test_the_csv_names_the_game_and_the_kind(owner_client, night, evening):
    body = b"".join(owner_client.get(reverse("export-csv", args=[night.club.pk])).streaming_content)
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
    azul = [r for r in rows if r["game_name"] == "Azul"]
    assert {r["kind"] for r in azul} == {"result"}
    assert {r["score"] for r in azul if r["player"] == "Ben"} == {"52.5"}
    assert {r["duration_minutes"] for r in azul} == {"20"}
    assert {r["kind"] for r in rows if r["game"] == "thricewise"} == {"refereed"}


def test_the_leaderboard_command_takes_a_catalogue_game(night, evening):
    out = io.StringIO()
    call_command("leaderboard", "Azul", "--club", str(night.club.pk), "--json", stdout=out)
    assert {row["player"] for row in json.loads(out.getvalue())} == {"Ana", "Ben", "Chloé", "Dev"}


def test_by_year_and_player_count(night, evening, four, record):
    ana = four[0]
    club = night.club
    # Another year: a play a year before, at two players (record's plays are in January 2026).
    services.enter_result(
        night=night,
        game=evening["azul"].key,
        seats=[SeatResult(ana, Decimal(9)), SeatResult(four[1], Decimal(1))],
        started_at=datetime.datetime(2025, 6, 1, 20, 0, tzinfo=datetime.UTC),
        duration_minutes=90,
    )
    assert stats.years_played(club) == [2026, 2025]
    lines = {line.player: line for line in stats.period_lines(club, year=2025)}
    assert (lines["Ana"].plays, lines["Ana"].wins, lines["Ana"].minutes) == (1, 1, 90)
    at_four = {line.player: line for line in stats.period_lines(club, players=4)}
    assert (at_four["Ana"].plays, at_four["Ana"].wins) == (1, 1)  # Codenames
    azul = {line.player: line for line in stats.period_lines(club, evening["azul"].key)}
    assert azul["Ana"].points == 49 and azul["Ana"].plays == 2
    breakdown = stats.player_breakdown(ana)
    assert [(r.label, r.plays, r.wins, r.team_plays) for r in breakdown["years"]] == [
        (2026, 4, 2, 1),
        (2025, 1, 1, 0),
    ]
    assert [(r.label, r.plays + r.team_plays) for r in breakdown["counts"]] == [
        (2, 2),
        (3, 3),
        (4, 1),
    ]


def test_the_pages_show_periods(owner_client, night, evening, four):
    club = night.club
    page = owner_client.get(reverse("leaderboard", args=[club.pk]) + "?year=2026&players=4")
    assert page.status_code == 200 and 'id="period-table"' in page.text
    page = owner_client.get(reverse("player", args=[four[0].pk]))
    assert 'id="by-year"' in page.text and 'id="by-count"' in page.text
    # The club's catalogue games are named where the referee's are: counted apart, in points.
    assert "3-High and Hanabi (team)" in page.text
    assert "Azul" in page.context["point_games"] and "Golf" in page.context["point_games"]


def test_a_nemesis_made_by_result_plays_alone(night, four):
    """Three Azul results, each won by Ben over Ana: Ben is Ana's nemesis and Ana his victim;
    a co-operative game's losses, shared by both, make nobody anyone's nemesis."""
    ana, ben, chloe, _ = four
    azul = services.add_catalogue_game(club=night.club, name="Azul", result="highest")
    hanabi = services.add_catalogue_game(club=night.club, name="Hanabi", result="cooperative")
    for day in range(3):
        at = AT + datetime.timedelta(days=day)
        duel = [SeatResult(ana, Decimal(10)), SeatResult(ben, Decimal(20))]
        services.enter_result(night=night, game=azul.key, started_at=at, seats=duel)
        table = [SeatResult(ana), SeatResult(chloe)]
        services.enter_result(night=night, game=hanabi.key, won=False, started_at=at, seats=table)
    summary = stats.player_summary(ana)
    assert (summary.nemesis.player, summary.nemesis.lost) == ("Ben", 3)
    assert stats.player_summary(ben).victim.player == "Ana"
    assert "Chloé" not in {rival.player for rival in summary.rivals}


def test_a_catalogue_team_play_is_rated_team_against_team(night, four):
    """Crew, Ana and Chloé (team 1) beating Ben and Dev (team 2): rated as two teams of two, as
    openskill rates teams, not as four players each for themselves."""
    from pytest import approx

    from games.ratings import INITIAL_MU, INITIAL_SIGMA, plackett_luce, rate_teams

    ana, ben, chloe, dev = four
    crew = services.add_catalogue_game(club=night.club, name="Crew", result="highest", teams=True)
    services.enter_result(
        night=night,
        game=crew.key,
        seats=[SeatResult(ana, Decimal(30), team=1), SeatResult(ben, Decimal(20), team=2),
               SeatResult(chloe, Decimal(30), team=1), SeatResult(dev, Decimal(20), team=2)],
    )  # fmt: skip
    after = {
        row.player.name: (row.mu_after, row.sigma_after)
        for row in RatingChange.objects.filter(game=crew.key).select_related("player")
    }
    start = (INITIAL_MU, INITIAL_SIGMA)
    (won, _), (lost, _) = rate_teams([[start, start], [start, start]], [1, 2])
    assert after["Ana"] == approx(won) and after["Chloé"] == approx(won)
    assert after["Ben"] == approx(lost) and after["Dev"] == approx(lost)
    alone, _ = plackett_luce([INITIAL_MU] * 4, [INITIAL_SIGMA] * 4, [1, 2, 1, 2])
    assert after["Ana"][0] != approx(alone[0])
