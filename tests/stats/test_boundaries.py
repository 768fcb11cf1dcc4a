"""The statistics on their boundaries: a rating on exactly PROVISIONAL_PLAYS plays and one short
of it, an import dated tonight (late in the evening, and at midnight), a nemesis at exactly
NEMESIS_MIN_PLAYS shared plays and one below, and the win rate at no play. Each test fails when
its boundary moves by one."""

import datetime
from unittest import mock

import pytest
from django.urls import reverse

from games import services, stats
from tests.dom import dom, find, find_all, text
from tests.stats.test_teams import ANA_AND_CHLOE_WIN, BEN_AND_DEV_WIN, team_log


@pytest.fixture
def five_and_four(record, players):
    """Ana rated on exactly PROVISIONAL_PLAYS plays, Ben on one fewer, Chloé on one. Ben beat Ana
    in each of his plays, so his number is above hers: only the rule puts her first."""
    ana, ben, chloe = players
    for _ in range(stats.PROVISIONAL_PLAYS - 1):
        record("thricewise", [(ben, 10, True), (ana, 5, False)])
    record("thricewise", [(ana, 10, True), (chloe, 5, False)])
    return players


@pytest.mark.parametrize("scope", [stats.ALL_GAMES, "thricewise"])
def test_a_rating_on_exactly_provisional_plays_is_established(five_and_four, club, scope):
    board = stats.leaderboard(club, scope)
    assert [(s.player, s.plays, s.provisional) for s in board] == [
        ("Ana", stats.PROVISIONAL_PLAYS, False),
        ("Ben", stats.PROVISIONAL_PLAYS - 1, True),
        ("Chloé", 1, True),
    ]
    ana, ben, _ = board
    assert ben.ordinal > ana.ordinal


def test_the_leaderboard_ranks_and_marks_only_the_established(five_and_four, club, member_client):
    page = dom(member_client.get(reverse("leaderboard", args=[club.pk])))
    rows = find_all(find(page, "tbody"), "tr")
    assert [dict(row.attributes).get("data-player") for row in rows] == [
        "Ana",
        None,  # the provisional ones' heading
        "Ben",
        "Chloé",
    ]
    ana, heading, ben, _ = rows
    assert text(heading) == f"Provisional: fewer than {stats.PROVISIONAL_PLAYS} plays"
    assert text(ana.children[0]) == "1" and not find_all(ana, "tr", class_="provisional")
    assert not find_all(ana, "small", class_="provisional-mark")
    assert text(ben.children[0]) == "–" and find_all(ben, "tr", class_="provisional")
    assert text(find(ben, "small", class_="provisional-mark")) == "provisional"


def test_the_player_page_marks_a_rating_one_play_short(five_and_four, member_client):
    ana, ben, _ = five_and_four
    for player, provisional in [(ana, False), (ben, True)]:
        page = dom(member_client.get(reverse("player", args=[player.pk])))
        for where in [
            find(page, "li", id="rating-figure"),
            find(page, "table", class_="player-games"),
        ]:
            marks = find_all(where, "small", class_="provisional-mark")
            assert [text(mark) for mark in marks] == ["provisional"] * provisional, player


def test_an_import_dated_tonight_counts_as_at_today_and_one_at_midnight_the_next_day(club):
    """The club's zone is the server's: a play imported at 23:30 there counts "as at" that
    day; one at midnight sharp counts from the next (both team plays of Ana and Chloé)."""
    tonight = datetime.datetime(2026, 3, 14, 23, 30, tzinfo=club.zone)
    midnight = datetime.datetime(2026, 3, 15, 0, 0, tzinfo=club.zone)
    for now, moves in [(tonight, ANA_AND_CHLOE_WIN), (midnight, BEN_AND_DEV_WIN)]:
        with mock.patch("django.utils.timezone.now", return_value=now.astimezone(datetime.UTC)):
            play = services.import_log(club=club, log=team_log(moves))
        assert play.night.date == now.date() and play.ended_at == now

    def as_at(day):
        board = stats.leaderboard(club, "punto", as_of=day)
        return {s.player: (s.plays, s.wins, s.partners) for s in board}

    assert as_at(datetime.date(2026, 3, 13)) == {}
    assert as_at(datetime.date(2026, 3, 14)) == {
        "Ana": (1, 1, [("Chloé", 1)]),
        "Ben": (1, 0, [("Dev", 1)]),
        "Chloé": (1, 1, [("Ana", 1)]),
        "Dev": (1, 0, [("Ben", 1)]),
    }
    assert as_at(datetime.date(2026, 3, 15))["Ana"] == (2, 1, [("Chloé", 2)])


def test_a_nemesis_and_a_victim_need_exactly_nemesis_min_plays(record, players, member_client):
    ana, ben, chloe = players

    def shared_plays():  # Ben beats Ana, Ana beats Chloé
        record("punto", [(ana, 0, False), (ben, 2, True)])
        record("punto", [(ana, 2, True), (chloe, 0, False)])

    def head_to_head():
        page = dom(member_client.get(reverse("player", args=[ana.pk])))
        _, figures = find_all(page, "ul", class_="figures")  # the record's, the head-to-head's
        return [text(item) for item in find_all(figures, "li")]

    for _ in range(stats.NEMESIS_MIN_PLAYS - 1):
        shared_plays()
    summary = stats.player_summary(ana)
    assert summary.nemesis is None and summary.victim is None
    assert head_to_head() == ["Nemesis –", "Beaten most –"]
    shared_plays()
    summary = stats.player_summary(ana)
    floor = stats.NEMESIS_MIN_PLAYS
    assert (summary.nemesis.player, summary.nemesis.lost) == ("Ben", floor)
    assert (summary.victim.player, summary.victim.won) == ("Chloé", floor)
    assert head_to_head() == [
        f"Nemesis Ben beat them {floor} times in {floor} plays",
        f"Beaten most Chloé beaten {floor} times in {floor} plays",
    ]


def test_the_win_rate_at_no_competitive_play_is_no_number(record, players, member_client):
    ana, ben, chloe = players
    record("three-high", [(ana, 5, True), (ben, 5, True)])
    for player in (ana, chloe):  # a team play only, and no play at all
        summary = stats.player_summary(player)
        assert (summary.plays, summary.wins, summary.win_rate) == (0, 0, None)
        page = dom(member_client.get(reverse("player", args=[player.pk])))
        record_figures, _ = find_all(page, "ul", class_="figures")
        assert "Win rate –" in [text(item) for item in find_all(record_figures, "li")]
    (three_high,) = stats.player_summary(ana).games
    assert three_high.win_rate is None
    page = dom(member_client.get(reverse("player", args=[ana.pk])))
    row = find(find(page, "table", class_="player-games"), "td", data_label="Win rate")
    assert text(row) == "–"
