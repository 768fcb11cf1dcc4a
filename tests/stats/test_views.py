"""Pages and downloads of history and leaderboards: members see them, outsiders get 404."""

import csv
import io
import json
import zipfile

import pytest
from django.urls import reverse
from pytest_django.asserts import assertContains

from games import services, stats
from tests.dom import dom, find, find_all, text
from tests.examples import EXAMPLES


@pytest.fixture
def history(club, night):
    for game in ["forget-venice", "thricewise", "three-high"]:
        log = json.loads((EXAMPLES / f"{game}-1.json").read_text())
        services.import_log(club=club, log=log, night_date=night.date)
    return club


def urls(club, night):
    ana = club.players.get(name="Ana")
    return [
        reverse("leaderboard", args=[club.pk]),
        reverse("leaderboard-game", args=[club.pk, "thricewise"]),
        reverse("leaderboard-game", args=[club.pk, "three-high"]),
        reverse("player", args=[ana.pk]),
        reverse("night-summary", args=[night.pk]),
        reverse("export-csv", args=[club.pk]),
        reverse("export-logs", args=[club.pk]),
    ]


def test_outsiders_get_404_on_every_page_and_download(history, night, outsider_client):
    for url in urls(history, night):
        assert outsider_client.get(url).status_code == 404, url


def test_anonymous_visitors_are_sent_to_log_in(history, night, client):
    for url in urls(history, night):
        assert client.get(url).status_code == 302, url


def test_members_see_every_page(history, night, member_client):
    for url in urls(history, night):
        response = member_client.get(url)
        assert response.status_code == 200, url


def test_leaderboard_lists_the_players_with_one_rating_number_explained(history, member_client):
    response = member_client.get(reverse("leaderboard", args=[history.pk]))
    # one number a club reads, and what it is on the page; no "± σ" beside it
    assert b"\xc2\xb1" not in response.content
    assert "What is this number?" in response.content.decode()
    standings = response.context["standings"]
    assert {s.player for s in standings} == {"Ana", "Ben", "Chloé", "Dev", "Eli"}
    assert response.context["sort"] == "-ordinal"
    assert not [e.name for e in find_all(dom(response), None) if "style" in dict(e.attributes)]


def test_leaderboard_filters_and_sort(history, member_client):
    url = reverse("leaderboard", args=[history.pk])
    response = member_client.get(url, {"min_plays": 2, "sort": "player"})
    assert [s.player for s in response.context["standings"]] == ["Ana", "Ben", "Chloé"]
    response = member_client.get(url, {"as_of": "2000-01-01", "sort": "nonsense"})
    assert response.context["standings"] == [] and response.context["sort"] == "-ordinal"
    assert member_client.get(url + "?min_plays=x&as_of=never").status_code == 200
    unknown = reverse("leaderboard-game", args=[history.pk, "chess"])
    assert member_client.get(unknown).status_code == 404


def test_three_high_leaderboard_shows_team_wins_and_losses(history, member_client):
    response = member_client.get(reverse("leaderboard-game", args=[history.pk, "three-high"]))
    assert [c["key"] for c in response.context["columns"]] == ["player", "plays", "wins", "losses"]
    assert {s.player for s in response.context["standings"]} == {"Ana", "Ben"}
    # no rating, so none to call provisional, however few the plays
    assert not any(s.provisional for s in response.context["standings"])
    assert not find_all(dom(response), None, class_="provisional")


def test_the_notes_name_the_games_as_the_referee_declares_them(history, night, member_client):
    ana = history.players.get(name="Ana")
    player = member_client.get(reverse("player", args=[ana.pk])).content.decode()
    assert "3-High (team)" in player
    assert "Cooperative games (3-High) are counted apart." in player
    assert "the games scored in points: Forget Venice and Thricewise." in player
    summary = member_client.get(reverse("night-summary", args=[night.pk])).content.decode()
    assert "the games scored in points: Forget Venice and Thricewise." in summary
    board = member_client.get(reverse("leaderboard-game", args=[history.pk, "three-high"]))
    assert "3-High is cooperative: the table wins or loses together." in board.content.decode()
    board = member_client.get(reverse("leaderboard-game", args=[history.pk, "thricewise"]))
    assert "is cooperative" not in board.content.decode()


def test_the_notes_name_the_games_in_french_too(history, night, member_client):
    french = {"headers": {"Accept-Language": "fr"}}
    ana = history.players.get(name="Ana")
    player = member_client.get(reverse("player", args=[ana.pk]), **french).content.decode()
    assert "3-High (équipe)" in player
    assert "Les jeux coopératifs (3-High) sont comptés à part." in player
    assert "qui se comptent en points : Forget Venice et Thricewise." in player
    board = member_client.get(
        reverse("leaderboard-game", args=[history.pk, "three-high"]), **french
    ).content.decode()
    assert "3-High est coopératif" in board


def test_player_page_has_an_svg_chart_without_inline_styles(history, member_client):
    ana = history.players.get(name="Ana")
    response = member_client.get(reverse("player", args=[ana.pk]))
    page = dom(response)
    assert len(find_all(find(page, "svg"), "polyline")) == 1
    assert not find_all(find(page, "main"), "script")
    assert not [e.name for e in find_all(page, None) if "style" in dict(e.attributes)]
    summary = response.context["summary"]
    assert (summary.plays, summary.team_plays, summary.team_wins) == (2, 1, 1)
    response = member_client.get(reverse("player", args=[ana.pk]), {"scope": "thricewise"})
    assert response.context["chart_scope"] == "thricewise"


def test_other_clubs_players_are_404(history, member_client, outsider):
    other = services.create_club(name="Elsewhere", owner=outsider)
    stranger = services.add_player(club=other, name="Zoé")
    assert member_client.get(reverse("player", args=[stranger.pk])).status_code == 404
    assert member_client.get(reverse("leaderboard", args=[other.pk])).status_code == 404
    assert member_client.get(reverse("export-csv", args=[other.pk])).status_code == 404


def test_night_summary_and_links(history, night, member_client):
    response = member_client.get(reverse("night-summary", args=[night.pk]))
    assert response.context["summary"].finished == 3
    ana = history.players.get(name="Ana")
    lines = find(dom(response), "table", class_="night-lines")
    (ana_line,) = [row for row in find_all(lines, "tr") if text(row).startswith("Ana ")]
    points = find(ana_line, "td", data_label="Points")
    assert [text(game) for game in find_all(points, "span")] == ["Forget Venice 16", "Thricewise 0"]
    assert find_all(ana_line, "a", href=reverse("player", args=[ana.pk]))
    night_page = dom(member_client.get(reverse("night", args=[night.pk])))
    assert find_all(night_page, "a", href=reverse("night-summary", args=[night.pk]))
    club_page = dom(member_client.get(reverse("club", args=[history.pk])))
    assert find_all(club_page, "a", href=reverse("leaderboard", args=[history.pk]))
    assert find_all(club_page, "a", href=reverse("player", args=[ana.pk]))


def test_play_page_shows_rating_changes(history, member_client):
    play = history.plays.get(game="forget-venice")
    page = dom(member_client.get(reverse("play", args=[play.pk])))
    changes = find(page, "table", class_="rating-changes")
    seated = [reverse("player", args=[seat.player_id]) for seat in play.seats.order_by("position")]
    assert [dict(a.attributes)["href"] for a in find_all(find(changes, "tbody"), "a")] == seated
    assert "Rating changes" in [text(h2) for h2 in find_all(page, "h2")]


def test_csv_has_one_row_per_player_per_play(history, member_client):
    response = member_client.get(reverse("export-csv", args=[history.pk]))
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert len(rows) == 3 + 5 + 2
    ana_fv = next(r for r in rows if r["game"] == "forget-venice" and r["player"] == "Ana")
    assert (ana_fv["score"], ana_fv["winner"], ana_fv["status"]) == ("16", "1", "finished")
    assert float(ana_fv["mu_after"]) > float(ana_fv["mu_before"])


def test_csv_ranks_the_seats_of_finished_plays_only(history, member_client, night):
    log = json.loads((EXAMPLES / "buntherum-1.json").read_text())
    services.import_log(club=history, log=log | {"moves": log["moves"][:-1]}, night=night)
    response = member_client.get(reverse("export-csv", args=[history.pk]))
    content = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(content)))
    ranks = {
        (seat.play_id, seat.player.name): seat.rank
        for play in history.plays.all()
        for seat in play.seats.select_related("player")
    }
    for row in rows:
        rank = ranks[(int(row["play"]), row["player"])]
        assert row["rank"] == ("" if row["status"] != "finished" else str(rank)), row
    assert {row["status"] for row in rows} == {"finished", "in_progress"}
    assert any(row["rank"] == "1" for row in rows)


def test_zip_holds_one_gamelog_per_play(history, member_client):
    response = member_client.get(reverse("export-logs", args=[history.pk]))
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    names = archive.namelist()
    assert len(names) == 3
    logs = [json.loads(archive.read(name)) for name in names]
    assert {log["game"] for log in logs} == {"forget-venice", "thricewise", "three-high"}
    assert all(log["format"] == "gamelog/1" for log in logs)


def test_player_page_shows_an_unrounded_average_and_how_a_nemesis_is_chosen(
    record, players, member_client
):
    ana, ben, _ = players
    for ana_points, ben_points in [(12, 3), (7, 9), (10, 10)]:
        won = ana_points >= ben_points
        record("thricewise", [(ana, ana_points, won), (ben, ben_points, ben_points >= ana_points)])
    response = member_client.get(reverse("player", args=[ana.pk]))
    # (12 + 7 + 10) / 3 = 9.67, shown to one decimal
    row = """<tr><td>Thricewise</td><td class="num">12</td><td class="num">9.7</td>
             <td class="num">7</td></tr>"""
    assertContains(response, row, count=1, html=True)
    assert "on a tie, the one you have beaten least often, then the first by name" in text(
        find(dom(response), "main")
    )


def test_player_page_says_the_nemesis_floor_the_statistics_use(players, member_client, monkeypatch):
    # the note takes the floor from the rule, so the two cannot drift apart
    monkeypatch.setattr(stats, "NEMESIS_MIN_PLAYS", 4)
    response = member_client.get(reverse("player", args=[players[0].pk]))
    assert "A nemesis needs at least 4 shared plays." in text(find(dom(response), "main"))
