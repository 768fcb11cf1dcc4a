"""Statistics people can read: one rating number, explained; provisional ratings marked and
ranked after established ones; a chart with labelled axes and dates; cooperative results said
in words; the head-to-head's "Tied"; no empty rating table for a cooperative play; and French
that says "Cote"."""

import html
import re

import pytest
from django.urls import reverse

from games import services, stats

FRENCH = {"Accept-Language": "fr"}


@pytest.fixture
def veterans_and_newcomers(record, club, players):
    """Ben: 4 wins in 15 plays against Chloé (11 wins). Ana: 2 plays without a win, second of
    three behind Dev (2 wins in 2) each time, which raises her cautious rating above Ben's."""
    ana, ben, chloe = players
    dev = services.add_player(club=club, name="Dev")
    eli = services.add_player(club=club, name="Eli")
    for i in range(15):
        won = i % 4 == 0  # plays 0, 4, 8, 12
        record("thricewise", [(ben, 10, won), (chloe, 5, not won)])
    for _ in range(2):
        record("thricewise", [(dev, 20, True), (ana, 10, False), (eli, 5, False)])
    return club


def _by_name(standings):
    return {s.player: s for s in standings}


def test_two_plays_without_a_win_rank_below_fifteen_plays_with_four(veterans_and_newcomers):
    club = veterans_and_newcomers
    standings = stats.leaderboard(club, stats.ALL_GAMES)
    found = _by_name(standings)
    ana, ben = found["Ana"], found["Ben"]
    assert (ana.plays, ana.wins, ben.plays, ben.wins) == (2, 0, 15, 4)
    # the raw cautious rating puts Ana above Ben: the order a club would not understand
    assert ana.ordinal > ben.ordinal
    assert ana.provisional and not ben.provisional
    order = [s.player for s in standings]
    assert order.index("Ben") < order.index("Ana")
    # established first (by rating), then the provisional ones (by rating)
    assert order == ["Chloé", "Ben", "Dev", "Ana", "Eli"]


def test_provisional_ratings_come_last_in_both_directions_only_when_sorted_by_rating(
    veterans_and_newcomers,
):
    club = veterans_and_newcomers
    ascending = [s.player for s in stats.leaderboard(club, stats.ALL_GAMES, sort="ordinal")]
    assert ascending[:2] == ["Ben", "Chloé"] and set(ascending[2:]) == {"Ana", "Dev", "Eli"}
    by_plays = [s.player for s in stats.leaderboard(club, stats.ALL_GAMES, sort="-plays")]
    assert by_plays[:2] == ["Ben", "Chloé"]
    by_wins = [s.player for s in stats.leaderboard(club, stats.ALL_GAMES, sort="-wins")]
    assert by_wins[:3] == ["Chloé", "Ben", "Dev"]  # Dev's 2 wins count, rating or not


def test_the_leaderboard_marks_provisional_players_and_says_what_the_number_is(
    veterans_and_newcomers, member_client
):
    club = veterans_and_newcomers
    page = member_client.get(reverse("leaderboard", args=[club.pk])).content.decode()
    ana = page[page.index('data-player="Ana"') :]
    ana = ana[: ana.index("</tr>")]
    assert "provisional" in ana and "<td>–</td>" in ana  # marked, and no rank number
    ben = page[page.index('data-player="Ben"') :]
    ben = ben[: ben.index("</tr>")]
    assert "provisional" not in ben and "<td>2</td>" in ben
    assert "Provisional: fewer than 5 plays" in page
    assert page.index("Provisional: fewer than 5 plays") < page.index('data-player="Dev"')
    assert "What is this number?" in page and "everyone starts at 0" in page
    assert "±" not in page  # one number
    french = html.unescape(
        member_client.get(reverse("leaderboard", args=[club.pk]), headers=FRENCH).content.decode()
    )
    assert ">Cote" in french and "Classement</a>" not in french
    assert "Provisoire : moins de 5 parties" in french and "provisoire" in french
    assert "Que dit ce nombre ?" in french


def test_the_player_page_marks_a_provisional_rating(veterans_and_newcomers, member_client):
    club = veterans_and_newcomers
    ana = club.players.get(name="Ana")
    page = member_client.get(reverse("player", args=[ana.pk])).content.decode()
    figure = page[page.index('id="rating-figure"') :]
    assert "provisional" in figure[: figure.index("</li>")]
    ben = club.players.get(name="Ben")
    page = member_client.get(reverse("player", args=[ben.pk])).content.decode()
    figure = page[page.index('id="rating-figure"') :]
    assert "provisional" not in figure[: figure.index("</li>")]


def test_the_rating_chart_draws_one_line_with_labelled_axes_and_dates(
    veterans_and_newcomers, member_client
):
    club = veterans_and_newcomers
    ben = club.players.get(name="Ben")
    chart = stats.rating_chart(ben)
    assert chart.count == 15 and len(chart.dots) == 15
    # round ticks covering every value, from the bottom of the plot to its top
    values = [value for _, value in chart.y_ticks]
    step = values[1] - values[0]
    assert all(abs((b - a) - step) < 1e-9 for a, b in zip(values, values[1:], strict=False))
    ys = [float(point.split(",")[1]) for point in chart.points.split()]
    assert min(y for y, _ in chart.y_ticks) <= min(ys) and max(ys) <= max(
        y for y, _ in chart.y_ticks
    )
    assert [anchor for _, _, anchor in chart.x_ticks] == ["start", "middle", "end"]
    page = member_client.get(reverse("player", args=[ben.pk])).content.decode()
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert svg.count("<polyline") == 1 and "<polygon" not in svg  # one thing drawn
    assert ">Rating</text>" in svg and "Date of play →" in svg
    assert svg.count('text-anchor="end">') >= len(values)  # every rating tick is labelled
    assert "1/1/2026" in svg or "01/01/2026" in svg or "2026" in svg  # dates under the axis
    assert "the rating is now" in svg
    french = member_client.get(reverse("player", args=[ben.pk]), headers=FRENCH)
    svg = french.content.decode()
    assert ">Cote</text>" in svg and "Date de la partie →" in svg


def test_a_single_play_still_gets_a_readable_chart(record, players):
    ana, ben, _ = players
    record("thricewise", [(ana, 10, True), (ben, 5, False)])
    chart = stats.rating_chart(ana)
    assert chart.count == 1 and len(chart.y_ticks) >= 2 and len(chart.x_ticks) == 1


@pytest.fixture
def three_high_plays(record, players):
    ana, ben, _ = players
    for won in (True, True, False, False, False):
        record("three-high", [(ana, 5, won), (ben, 5, won)])
    return players


def test_cooperative_results_read_won_and_lost(three_high_plays, member_client):
    ana = three_high_plays[0]
    page = member_client.get(reverse("player", args=[ana.pk])).content.decode()
    row = page[page.index(">3-High</a>") :]
    row = re.sub(r"<[^>]+>", "", row[: row.index("</tr>")])
    assert "2 won, 3 lost" in row and "2 / 3" not in row
    french = member_client.get(reverse("player", args=[ana.pk]), headers=FRENCH).content.decode()
    row = french[french.index(">3-High</a>") :]
    row = re.sub(r"<[^>]+>", "", row[: row.index("</tr>")])
    assert "2 gagnées, 3 perdues" in row


def test_one_cooperative_win_is_said_in_the_singular_in_french(record, players, member_client):
    ana, ben, _ = players
    for won in (True, False):
        record("three-high", [(ana, 5, won), (ben, 5, won)])
    french = member_client.get(reverse("player", args=[ana.pk]), headers=FRENCH).content.decode()
    row = french[french.index(">3-High</a>") :]
    row = re.sub(r"<[^>]+>", "", row[: row.index("</tr>")])
    assert "1 gagnée, 1 perdue" in row


def test_head_to_head_columns_say_won_lost_tied(record, players, member_client):
    ana, ben, _ = players
    record("thricewise", [(ana, 10, True), (ben, 10, True)])
    page = member_client.get(reverse("player", args=[ana.pk])).content.decode()
    rivals = page[page.index('class="sheet stack rivals"') :]
    head = rivals[: rivals.index("</thead>")]
    assert ">Tied<" in head and ">Level<" not in head
    french = member_client.get(reverse("player", args=[ana.pk]), headers=FRENCH).content.decode()
    rivals = french[french.index('class="sheet stack rivals"') :]
    head = rivals[: rivals.index("</thead>")]
    assert ">Gagnées<" in head and ">Perdues<" in head and ">Égalités<" in head


def test_a_three_high_play_shows_no_rating_changes(three_high_plays, member_client, club):
    play = club.plays.filter(game="three-high").first()
    page = member_client.get(reverse("play", args=[play.pk])).content.decode()
    assert "Rating changes" not in page and "rating-changes" not in page
    french = member_client.get(reverse("play", args=[play.pk]), headers=FRENCH)
    assert "Évolution des cotes" not in french.content.decode()


def test_a_finished_competitive_play_shows_its_rating_changes_in_french(
    veterans_and_newcomers, member_client
):
    play = veterans_and_newcomers.plays.filter(game="thricewise").last()
    page = member_client.get(reverse("play", args=[play.pk]), headers=FRENCH).content.decode()
    assert "Évolution des cotes" in page and "Classement" not in page.split("<main")[1]
