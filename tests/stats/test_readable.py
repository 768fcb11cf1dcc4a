"""Statistics people can read: one rating number, explained; provisional ratings marked and
ranked after established ones; a chart with labelled axes and dates; cooperative results said
in words; the head-to-head's "Tied"; no empty rating table for a cooperative play; and French
that says "Cote"."""

import datetime

import pytest
from django.urls import reverse

from games import services, stats
from tests.dom import dom, find, find_all, text

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
    response = member_client.get(reverse("leaderboard", args=[club.pk]))
    assert "±" not in response.content.decode()  # one number
    page = dom(response)
    rows = find_all(find(page, "tbody"), "tr")
    order = [dict(row.attributes).get("data-player") for row in rows]
    assert order == ["Chloé", "Ben", None, "Dev", "Ana", "Eli"]  # None: the provisional heading
    row = dict(zip(order, rows, strict=True))
    assert text(row[None]) == "Provisional: fewer than 5 plays"
    # marked, and no rank number
    assert find_all(row["Ana"], "tr", class_="provisional") and text(row["Ana"].children[0]) == "–"
    assert text(find(row["Ana"], "small", class_="provisional-mark")) == "provisional"
    assert (
        not find_all(row["Ben"], None, class_="provisional") and text(row["Ben"].children[0]) == "2"
    )
    assert not find_all(row["Ben"], "small", class_="provisional-mark")
    main = text(find(page, "main"))
    assert "What is this number?" in main and "everyone starts at 0" in main
    french = dom(member_client.get(reverse("leaderboard", args=[club.pk]), headers=FRENCH))
    headings = [text(link) for link in find_all(find(french, "thead"), "a")]
    assert headings == ["Joueur", "Cote ↓", "Parties", "Victoires", "Taux de victoire"]
    rows = find_all(find(french, "tbody"), "tr")
    assert text(rows[2]) == "Provisoire : moins de 5 parties"
    assert text(find(rows[4], "small", class_="provisional-mark")) == "provisoire"
    assert "Que dit ce nombre ?" in text(find(french, "main"))


def test_the_player_page_marks_a_provisional_rating(veterans_and_newcomers, member_client):
    club = veterans_and_newcomers
    for name, marks in [("Ana", ["provisional"]), ("Ben", [])]:
        player = club.players.get(name=name)
        figure = find(
            dom(member_client.get(reverse("player", args=[player.pk]))), "li", id="rating-figure"
        )
        assert [
            text(mark) for mark in find_all(figure, "small", class_="provisional-mark")
        ] == marks


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
    svg = find(dom(member_client.get(reverse("player", args=[ben.pk]))), "svg")
    assert len(find_all(svg, "polyline")) == 1 and not find_all(svg, "polygon")  # one thing drawn
    assert [text(axis) for axis in find_all(svg, "text", class_="chart-axis")] == [
        "Rating",
        "Date of play →",
    ]
    # every rating tick is labelled, and the first, middle and last plays' dates under the axis
    ticks = [text(label) for label in find_all(find(svg, "g", class_="chart-grid"), "text")]
    assert [float(label) for label in ticks] == pytest.approx(values)
    dates = [text(label) for label in find_all(find(svg, "g", class_="chart-dates"), "text")]
    assert len(dates) == 3 and all(date.endswith("/2026") for date in dates)
    assert "the rating is now" in text(find(svg, "desc"))
    french = find(dom(member_client.get(reverse("player", args=[ben.pk]), headers=FRENCH)), "svg")
    assert [text(axis) for axis in find_all(french, "text", class_="chart-axis")] == [
        "Cote",
        "Date de la partie →",
    ]


def test_a_single_play_still_gets_a_readable_chart(record, players):
    ana, ben, _ = players
    record("thricewise", [(ana, 10, True), (ben, 5, False)])
    chart = stats.rating_chart(ana)
    assert chart.count == 1 and len(chart.y_ticks) >= 2 and len(chart.x_ticks) == 1


def test_the_rating_axis_of_a_narrow_range_ticks_at_a_round_fraction():
    """Ratings 1.0 to 1.8 apart by 0.8: about four ticks make a step of 0.2 (2 × 10⁻¹), each
    labelled to its decimal; the chart spans the first play's date to the last's."""
    first, last = (datetime.datetime(2026, 1, day, 20, tzinfo=datetime.UTC) for day in (1, 2))
    chart = stats.draw_rating_chart([(first, 1.0, 0.0), (last, 1.8, 0.0)])
    assert [value for _, value in chart.y_ticks] == [1.0, 1.2, 1.4, 1.6, 1.8]
    assert (chart.first, chart.last) == (first, last)


def test_the_rating_axis_of_a_wide_range_ticks_at_a_round_multiple():
    """Ratings 0 to 100: a step of 50 (5 × 10), not one per ten points."""
    at = datetime.datetime(2026, 1, 1, 20, tzinfo=datetime.UTC)
    chart = stats.draw_rating_chart([(at, 0.0, 0.0), (at, 100.0, 0.0)])
    assert [value for _, value in chart.y_ticks] == [0.0, 50.0, 100.0]


@pytest.fixture
def three_high_plays(record, players):
    ana, ben, _ = players
    for won in (True, True, False, False, False):
        record("three-high", [(ana, 5, won), (ben, 5, won)])
    return players


def game_row(response, title):
    """The cells' texts of the player page's row of the game ``title``."""
    games = find(dom(response), "table", class_="player-games")
    (row,) = [row for row in find_all(games, "tr") if text(row.children[0]).startswith(title)]
    return [text(cell) for cell in row.children]


def test_cooperative_results_read_won_and_lost(three_high_plays, member_client):
    ana = three_high_plays[0]
    row = game_row(member_client.get(reverse("player", args=[ana.pk])), "3-High")
    assert row == ["3-High (team)", "5", "2 won, 3 lost", "–", "–"]
    french = member_client.get(reverse("player", args=[ana.pk]), headers=FRENCH)
    assert game_row(french, "3-High")[2] == "2 gagnées, 3 perdues"


def test_one_cooperative_win_is_said_in_the_singular_in_french(record, players, member_client):
    ana, ben, _ = players
    for won in (True, False):
        record("three-high", [(ana, 5, won), (ben, 5, won)])
    french = member_client.get(reverse("player", args=[ana.pk]), headers=FRENCH)
    assert game_row(french, "3-High")[2] == "1 gagnée, 1 perdue"


def test_head_to_head_columns_say_won_lost_tied(record, players, member_client):
    ana, ben, _ = players
    record("thricewise", [(ana, 10, True), (ben, 10, True)])

    def columns(response):
        rivals = find(dom(response), "table", class_="rivals")
        return [text(column) for column in find_all(find(rivals, "thead"), "th")]

    page = member_client.get(reverse("player", args=[ana.pk]))
    assert columns(page) == ["Opponent", "Plays", "Won", "Lost", "Tied"]
    french = member_client.get(reverse("player", args=[ana.pk]), headers=FRENCH)
    assert columns(french) == ["Adversaire", "Parties", "Gagnées", "Perdues", "Égalités"]


def test_a_three_high_play_shows_no_rating_changes(three_high_plays, member_client, club):
    play = club.plays.filter(game="three-high").first()
    page = dom(member_client.get(reverse("play", args=[play.pk])))
    assert find_all(page, "table", id="scores")  # the play's own sheet is there
    assert "Rating changes" not in text(page) and not find_all(page, None, class_="rating-changes")
    french = dom(member_client.get(reverse("play", args=[play.pk]), headers=FRENCH))
    assert "Évolution des cotes" not in text(french)


def test_a_finished_competitive_play_shows_its_rating_changes_in_french(
    veterans_and_newcomers, member_client
):
    play = veterans_and_newcomers.plays.filter(game="thricewise").last()
    page = dom(member_client.get(reverse("play", args=[play.pk]), headers=FRENCH))
    assert "Évolution des cotes" in [text(heading) for heading in find_all(page, "h2")]
    assert find_all(page, "table", class_="rating-changes")
    assert "Classement" not in text(find(page, "main"))
