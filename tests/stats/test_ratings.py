"""Ratings: openskill Plackett–Luce in play-time order, deterministic, rebuilt whenever a play's
result changes (finished, undone, imported into the past)."""

import datetime
import json
from unittest import mock

import pytest
from openskill.models import PlackettLuce

from games import ratings, services, stats
from games.models import Play, RatingChange
from games.ratings import rebuild, update
from tests.examples import EXAMPLES
from tests.stats.recount import ROW, by_scope


def example(game):
    return json.loads((EXAMPLES / f"{game}-1.json").read_text())


PLAY_ORDER = ("play__ended_at", "play__started_at", "play_id", "player_id")
SCOPES = ("punto", "all")  # a Punto play's two ratings


def rows():
    return list(RatingChange.objects.order_by(*PLAY_ORDER).values_list(*ROW))


def rated(play, player):
    """The player's row of the play per scope: ((μ, σ) before, (μ, σ) after, plays)."""
    return {
        row.scope: ((row.mu_before, row.sigma_before), (row.mu_after, row.sigma_after), row.plays)
        for row in by_scope(RatingChange.objects.filter(play=play, player=player))
    }


def test_ratings_are_openskill_plackett_luce_with_ranks(record, players):
    ana, ben, chloe = players
    record("thricewise", [(ana, 9, False), (ben, 16, True), (chloe, 2, False)])
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[2, 1, 3])
    board = {s.player: s for s in stats.leaderboard(ana.club, "thricewise")}
    for name, team in zip(["Ana", "Ben", "Chloé"], expected, strict=True):
        assert board[name].mu == pytest.approx(team[0].mu)
        assert board[name].sigma == pytest.approx(team[0].sigma)
    assert [s.player for s in stats.leaderboard(ana.club, "all")] == ["Ben", "Ana", "Chloé"]


def test_a_full_rebuild_gives_the_same_ratings_every_time(record, four):
    ana, ben, chloe, dev = four
    for day in range(1, 6):
        record("punto", [(ana, day % 3, day % 2 == 0), (ben, 1, day % 2 == 1)], day=day)
        record("forget-venice", [(ben, day, False), (chloe, 20, True), (dev, 3, False)], day=day)
    incremental = rows()
    ratings.rebuild_club(ana.club_id)
    assert rows() == incremental
    ratings.rebuild_club(ana.club_id)
    assert rows() == incremental


def test_plays_are_rated_in_play_time_order_not_entry_order(record, players):
    ana, ben, _ = players
    record("punto", [(ana, 2, True), (ben, 0, False)], day=5)
    record("punto", [(ana, 0, False), (ben, 2, True)], day=1)  # entered later, played earlier
    first = RatingChange.objects.filter(game="punto", player=ana).order_by("played_at").first()
    assert first.played_at.day == 1 and first.mu_before == ratings.INITIAL_MU
    assert first.plays == 1 and first.wins == 0
    last = RatingChange.objects.filter(game="punto", player=ana).order_by("played_at").last()
    assert (last.plays, last.wins) == (2, 1)


def test_a_player_rated_thrice_in_one_night_starts_each_play_from_the_last(record, players):
    """Three Punto plays of one night, each rated as it finishes: each starts from the one
    before, in both scopes (the last from the second, not the first), as openskill chains
    them; a rebuild of the night at once writes the same rows."""
    ana, ben, _ = players
    night = [
        record("punto", [(ana, 2, True), (ben, 0, False)]),
        record("punto", [(ana, 0, False), (ben, 2, True)]),
        record("punto", [(ana, 3, True), (ben, 1, False)]),
    ]
    assert len({play.ended_at.date() for play in night}) == 1
    start = (ratings.INITIAL_MU, ratings.INITIAL_SIGMA)
    current = {ana: start, ben: start}
    for plays, (play, winner) in enumerate(zip(night, [ana, ben, ana], strict=True), start=1):
        loser = ben if winner == ana else ana
        won, lost = openskill_rate([[current[winner]], [current[loser]]], [1, 2])
        expected = {winner: (current[winner], won[0]), loser: (current[loser], lost[0])}
        for player, (before, after) in expected.items():
            assert rated(play, player) == {scope: (before, after, plays) for scope in SCOPES}
        current = {winner: won[0], loser: lost[0]}
    incremental = rows()
    ratings.rebuild_club(ana.club_id)
    assert rows() == incremental


def test_plays_ending_at_the_same_instant_are_rated_in_the_order_they_began(record, players):
    """Two plays of one night ending together: the one begun first is rated first, though it
    was entered second (a larger id); finishing it rewrites the other from its result."""
    ana, ben, _ = players
    late = record("punto", [(ana, 2, True), (ben, 0, False)])
    early = record("punto", [(ana, 0, False), (ben, 2, True)], rebuild=False)
    began = late.started_at - datetime.timedelta(minutes=5)
    Play.objects.filter(pk=early.pk).update(ended_at=late.ended_at, started_at=began)
    early.refresh_from_db()
    ratings.refresh_for_play(early)
    start = (ratings.INITIAL_MU, ratings.INITIAL_SIGMA)
    (ben_first,), (ana_first,) = openskill_rate([[start], [start]], [1, 2])
    (ana_then,), _ = openskill_rate([[ana_first], [ben_first]], [1, 2])
    assert rated(early, ana) == {scope: (start, ana_first, 1) for scope in SCOPES}
    assert rated(late, ana) == {scope: (ana_first, ana_then, 2) for scope in SCOPES}
    incremental = rows()
    ratings.rebuild_club(ana.club_id)
    assert rows() == incremental


def test_undoing_the_last_move_unrates_the_play_and_rebuilds_later_ones(night, club):
    play = services.import_log(club=club, log=example("buntherum"), night_date=night.date)
    later = services.import_log(club=club, log=example("thricewise"), night_date=night.date)
    assert play.rating_changes.count() == 5  # 5 seats, each in Buntherum and all games
    before = rows()
    services.undo_last_move(play=play)
    play.refresh_from_db()
    assert play.status == "in_progress"
    assert not play.rating_changes.exists()
    after = rows()
    assert after != before
    ratings.rebuild_club(club.pk)
    assert rows() == after  # the incremental rebuild equals a rebuild from scratch
    eli = later.seats.get(player__name="Eli")
    all_games = RatingChange.objects.get(play=later, player=eli.player)
    assert all_games.all_mu_before == ratings.INITIAL_MU and all_games.all_plays == 1


def test_importing_a_past_play_rebuilds_every_later_rating(night, club):
    services.import_log(club=club, log=example("forget-venice"), night_date=night.date)
    past = datetime.datetime(2020, 1, 1, 20, 0, tzinfo=datetime.UTC)
    with mock.patch("django.utils.timezone.now", return_value=past):
        old = services.import_log(club=club, log=example("thricewise"), night_date=night.date)
    assert old.ended_at == past
    incremental = rows()
    ratings.rebuild_club(club.pk)
    assert rows() == incremental
    later = RatingChange.objects.filter(player__name="Ana").order_by("played_at")
    assert [r.all_plays for r in later] == [1, 2]
    assert later[1].all_mu_before == later[0].all_mu_after


def test_cooperative_plays_carry_totals_but_no_rating(night, club):
    play = services.import_log(club=club, log=example("three-high"), night_date=night.date)
    changes = by_scope(play.rating_changes.all())
    assert {c.scope for c in changes} == {"three-high"}
    assert all(c.mu_after is None and c.wins == 1 for c in changes)


def test_the_play_shows_each_players_rating_change(night, club):
    play = services.import_log(club=club, log=example("forget-venice"), night_date=night.date)
    changes = {
        (c.player.name, c.scope): c.ordinal_change
        for c in by_scope(play.rating_changes.select_related("player"))
    }
    assert {name for name, _ in changes} == {"Ana", "Ben", "Chloé"}
    assert changes[("Ana", "forget-venice")] > 0  # Ana won on the tie-break
    assert changes[("Ben", "all")] < 0


def test_the_play_page_gets_one_line_per_player_with_both_scopes(night, club):
    play = services.import_log(club=club, log=example("forget-venice"), night_date=night.date)
    rows = {
        (c.player.name, c.scope): c for c in by_scope(play.rating_changes.select_related("player"))
    }
    lines = stats.play_rating_changes(play)
    assert [line.player for line in lines] == ["Ana", "Ben", "Chloé"]  # seat order
    for line in lines:
        game, every = rows[(line.player, "forget-venice")], rows[(line.player, "all")]
        assert (line.game_after, line.game_change) == (game.ordinal_after, game.ordinal_change)
        assert (line.all_after, line.all_change) == (every.ordinal_after, every.ordinal_change)
    cooperative = services.import_log(club=club, log=example("three-high"), night_date=night.date)
    assert stats.play_rating_changes(cooperative) == []  # no rating, so no line


def openskill_rate(teams, ranks):
    """The rebuild's update done by openskill's own ``rate()``, with the play's teams."""
    model = ratings.MODEL
    rated = model.rate(
        [[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=list(ranks),
    )
    return [[(player.mu, player.sigma) for player in team] for team in rated]


def openskill_alone(mus, sigmas, ranks):
    """The same, for a play without partners, in plackett_luce's shape."""
    teams = openskill_rate([[(mu, sigma)] for mu, sigma in zip(mus, sigmas, strict=True)], ranks)
    return [team[0][0] for team in teams], [team[0][1] for team in teams]


def test_a_rebuild_writes_the_same_rows_as_with_openskills_rate(record, four):
    ana, ben, chloe, dev = four
    for day in range(1, 8):
        record(
            "thricewise", [(ana, day, False), (ben, 7, day % 3 == 0), (chloe, 7, False)], day=day
        )
        record("punto", [(ana, 3, True), (ben, 3, True)], day=day)  # a tie for first
        record("buntherum", [(dev, day % 4, False), (ana, 2, day == 2), (ben, 2, False)], day=day)
        record("three-high", [(chloe, 4, day % 2 == 0), (dev, 4, day % 2 == 0)], day=day)
        record("forget-venice", [(ben, day, False), (chloe, 20, True), (dev, 3, False)], day=day)
    record(
        "punto",
        [(ana, 2, True), (ben, 1, False), (chloe, 2, True), (dev, 1, False)],
        day=8,
        teams=[1, 2, 1, 2],
    )
    ratings.rebuild_club(ana.club_id)
    fast = rows()
    with (
        mock.patch.object(update, "plackett_luce", wraps=openskill_alone) as alone,
        mock.patch.object(update, "rate_teams", wraps=openskill_rate) as teams,
        mock.patch.object(rebuild, "_native", None),  # every play through update's functions
    ):
        ratings.rebuild_club(ana.club_id)
    assert alone.call_count == 7 * 4 * 2  # the competitive plays, in two scopes each
    assert teams.call_count == 2  # the team play
    # The same rows, every rating within 1e-9 (plackett_luce is openskill's update in closed
    # form, not in its order of operations).
    with_openskill = rows()
    assert len(with_openskill) == len(fast)
    rating = [name.removeprefix("all_").startswith(("mu_", "sigma_")) for name in ROW]
    assert sum(rating) == 8  # before and after, in the game and across games
    for ours, theirs in zip(fast, with_openskill, strict=True):
        for is_rating, mine, openskills in zip(rating, ours, theirs, strict=True):
            if not is_rating or openskills is None:  # a cooperative play's rows: no rating
                assert mine == openskills
            else:
                assert mine == pytest.approx(openskills, rel=0, abs=1e-9)
    assert len(fast) == 7 * (3 + 2 + 3 + 2 + 3) + 4  # a row a seat


def test_a_team_play_is_rated_as_its_teams(record, four):
    """Punto for four in teams (issue 18): the rating code is told only who the partners are
    (Seat.team); it rates two teams of two as openskill's own rate() does with those teams."""
    ana, ben, chloe, dev = four
    record("punto", [(ana, 2, True), (ben, 0, False)], day=1)  # some history first
    record(
        "punto",
        [(ana, 2, True), (ben, 1, False), (chloe, 2, True), (dev, 1, False)],
        day=2,
        teams=[1, 2, 1, 2],
    )
    played = RatingChange.objects.filter(play__ended_at__day=2, game="punto")
    before = {row.player_id: (row.mu_before, row.sigma_before) for row in played}
    expected = openskill_rate(
        [[before[ana.pk], before[chloe.pk]], [before[ben.pk], before[dev.pk]]], [1, 2]
    )
    after = {row.player_id: (row.mu_after, row.sigma_after) for row in played}
    assert [[after[ana.pk], after[chloe.pk]], [after[ben.pk], after[dev.pk]]] == expected
    assert {row.player_id: row.team for row in played} == {
        ana.pk: 1, ben.pk: 2, chloe.pk: 1, dev.pk: 2
    }  # fmt: skip
    incremental = rows()
    ratings.rebuild_club(ana.club_id)
    assert rows() == incremental


def test_partners_are_never_each_others_opponents(record, four):
    ana, ben, chloe, dev = four
    record(
        "punto",
        [(ana, 2, True), (ben, 1, False), (chloe, 2, True), (dev, 1, False)],
        teams=[1, 2, 1, 2],
    )
    rivals = {r.player: (r.plays, r.won, r.lost) for r in stats.head_to_head(ana)}
    assert rivals == {"Ben": (1, 1, 0), "Dev": (1, 1, 0)}  # each partner beat both opponents
    assert {r.player for r in stats.head_to_head(ben)} == {"Ana", "Chloé"}
    summary = stats.player_summary(chloe)
    assert (summary.plays, summary.wins, summary.current_streak) == (1, 1, 1)


def test_a_full_rebuild_leaves_postgresql_fresh_statistics(record, players):
    """Or its planner takes the rebuilt table for a small one and scans it whole (issue 19)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's planner statistics")
    ana, ben, _ = players
    for day in range(1, 4):
        record("punto", [(ana, 2, True), (ben, 0, False)], day=day, rebuild=False)
    ratings.rebuild_club(ana.club_id)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT reltuples FROM pg_class WHERE relname IN "
            "('games_ratingchange', 'games_headtohead') ORDER BY relname"
        )
        assert [row[0] for row in cursor.fetchall()] == [2, 3 * 2]


def test_a_plays_rows_follow_its_seats_not_the_order_they_were_entered(night, club, four):
    """The play page lists its rating changes in seat order (the rows' order): seats entered
    last to first are read in seat order all the same."""
    from games.models import Seat

    at = datetime.datetime(2026, 1, 1, 20, tzinfo=datetime.UTC)
    play = Play.objects.create(
        club=club, night=night, game="thricewise", status="finished", started_at=at, ended_at=at
    )
    for position, player in reversed(list(enumerate(four))):
        Seat.objects.create(
            play=play,
            position=position,
            player=player,
            score=10 - position,
            rank=position + 1,
            is_winner=position == 0,
        )
    ratings.refresh_for_play(play)
    names = [player.name for player in four]
    assert [line.player for line in stats.play_rating_changes(play)] == names
    assert [
        row.player.name for row in play.rating_changes.order_by("id").select_related("player")
    ] == names
