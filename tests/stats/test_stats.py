"""Statistics on hand-built histories: wins and ties, the cooperative 3-High, points, streaks,
head-to-head and the nemesis floor, leaderboards as at a date."""

import datetime

import pytest

from games import stats


def test_a_tie_for_first_is_a_win_for_each_tied_player(record, players):
    ana, ben, chloe = players
    record("thricewise", [(ana, 10, True), (ben, 10, True), (chloe, 4, False)])
    for player, wins in [(ana, 1), (ben, 1), (chloe, 0)]:
        summary = stats.player_summary(player)
        assert (summary.plays, summary.wins) == (1, wins)
    board = {s.player: s for s in stats.leaderboard(ana.club, "thricewise")}
    assert board["Ana"].wins == board["Ben"].wins == 1
    assert board["Ana"].mu == pytest.approx(board["Ben"].mu)


def test_unfinished_and_abandoned_plays_count_nowhere(record, players):
    ana, ben, _ = players
    record("punto", [(ana, 2, True), (ben, 0, False)])
    record("punto", [(ana, 0, False), (ben, 1, False)], status="in_progress")
    record("punto", [(ana, 0, False), (ben, 1, False)], status="abandoned")
    summary = stats.player_summary(ben)
    assert (summary.plays, summary.wins, summary.longest_streak) == (1, 0, 0)
    assert [s.plays for s in stats.leaderboard(ana.club, "all")] == [1, 1]
    assert [(r.player, r.plays, r.lost) for r in stats.head_to_head(ben)] == [("Ana", 1, 1)]


def test_three_high_counts_team_wins_and_losses_apart_and_is_never_rated(record, players):
    ana, ben, _ = players
    record("three-high", [(ana, 5, True), (ben, 5, True)])
    record("three-high", [(ana, 2, False), (ben, 2, False)])
    record("punto", [(ana, 0, False), (ben, 2, True)])
    summary = stats.player_summary(ana)
    assert (summary.team_plays, summary.team_wins, summary.team_losses) == (2, 1, 1)
    assert (summary.plays, summary.wins, summary.win_rate) == (1, 0, 0.0)
    assert summary.current_streak == 0  # the team win does not make a competitive streak
    three_high = stats.leaderboard(ana.club, "three-high")
    assert [(s.plays, s.wins, s.losses, s.mu) for s in three_high] == [(2, 1, 1, None)] * 2
    assert [s.plays for s in stats.leaderboard(ana.club, "all")] == [1, 1]
    assert summary.rivals[0].plays == 1  # only the Punto play is head-to-head


def test_best_average_and_worst_points_only_for_games_scored_in_points(record, players):
    ana, ben, _ = players
    record("thricewise", [(ana, 12, True), (ben, 3, False)])
    record("thricewise", [(ana, 7, False), (ben, 9, True)])
    record("punto", [(ana, 2, True), (ben, 1, False)])
    games = {g.game: g for g in stats.player_summary(ana).games}
    thricewise = games["thricewise"]
    # (12 + 7) / 2: an average is not truncated to a whole number of points
    assert (thricewise.best, thricewise.average, thricewise.worst) == (12, 9.5, 7)
    assert not games["punto"].has_points and games["punto"].best is None


def test_current_and_longest_win_streaks_follow_play_time(record, players):
    ana, ben, _ = players
    for won in [True, True, True, False, True, True]:
        record("punto", [(ana, 2 if won else 0, won), (ben, 0 if won else 2, not won)])
    summary = stats.player_summary(ana)
    assert (summary.current_streak, summary.longest_streak) == (2, 3)
    assert summary.last_played.minute == 5


def test_cooperative_plays_neither_make_nor_break_a_competitive_streak(record, players):
    ana, ben, _ = players

    def punto(won):
        record("punto", [(ana, 2 if won else 0, won), (ben, 0 if won else 2, not won)])

    def three_high(won):
        record("three-high", [(ana, 5 if won else 2, won), (ben, 5 if won else 2, won)])

    # Ana's competitive results are W, L, W, W; the team wins and loss between them count for
    # neither streak. Read as results, they would make W W W L W L W: current 1, longest 3.
    punto(True)
    three_high(True)
    three_high(True)
    punto(False)
    punto(True)
    three_high(False)
    punto(True)
    summary = stats.player_summary(ana)
    assert (summary.current_streak, summary.longest_streak) == (2, 2)
    assert (summary.team_plays, summary.team_wins) == (3, 2)


def test_head_to_head_beats_everyone_ranked_below(record, four):
    ana, ben, chloe, dev = four
    record("thricewise", [(ana, 10, True), (ben, 8, False), (chloe, 8, False), (dev, 1, False)])
    rivals = {r.player: r for r in stats.player_summary(ben).rivals}
    assert (rivals["Ana"].won, rivals["Ana"].lost) == (0, 1)
    assert (rivals["Chloé"].won, rivals["Chloé"].lost, rivals["Chloé"].drawn) == (0, 0, 1)
    assert (rivals["Dev"].won, rivals["Dev"].lost) == (1, 0)


def test_nemesis_needs_three_shared_plays(record, four):
    ana, ben, chloe, dev = four
    # Chloé beats Ana twice in two plays: not enough to be her nemesis.
    for _ in range(2):
        record("punto", [(ana, 0, False), (chloe, 2, True)])
    # Ben beats Ana twice in three plays; Ana beats Dev three times in three.
    for ana_wins in [False, False, True]:
        record("punto", [(ana, 2 * ana_wins, ana_wins), (ben, 2 * (not ana_wins), not ana_wins)])
    for _ in range(3):
        record("punto", [(ana, 2, True), (dev, 0, False)])
    summary = stats.player_summary(ana)
    assert summary.nemesis.player == "Ben" and summary.nemesis.lost == 2
    assert summary.victim.player == "Dev" and summary.victim.won == 3
    record("punto", [(ana, 0, False), (chloe, 2, True)])
    assert stats.player_summary(ana).nemesis.player == "Chloé"


def test_nemesis_ties_go_to_the_one_you_beat_least_then_by_name(record, four, club):
    """The documented order (games/stats/__init__.py, the player page's note): most often beaten by,
    then least often beaten, then the first by name (whoever joined the club first or last)."""
    from games import services

    ana, ben, chloe, dev = four

    def duel(opponent, *results):  # Ana "won", "lost" or "drew" one Punto play per result
        for result in results:
            won, lost = result == "won", result == "lost"
            record("punto", [(ana, 2 * won, won), (opponent, 2 * lost, lost)])

    def nemesis():
        return stats.player_summary(ana).nemesis.player

    duel(ben, "lost", "lost", "won")
    duel(dev, "lost", "lost", "drew")
    assert nemesis() == "Dev"  # both beat Ana twice; she beat Ben once, Dev never
    duel(chloe, "drew", "lost", "lost")
    assert nemesis() == "Chloé"  # level with Dev in every count: by name (joined before him)
    abe = services.add_player(club=club, name="Abe")
    duel(abe, "lost", "drew", "lost")
    assert nemesis() == "Abe"  # level with both: by name (joined after them)
    duel(ben, "lost")
    assert nemesis() == "Ben"  # now beat Ana most often


def test_victim_ties_go_to_the_one_who_beat_you_least_then_by_name(record, four, club):
    from games import services

    ana, ben, chloe, dev = four

    def duel(opponent, *results):
        for result in results:
            won, lost = result == "won", result == "lost"
            record("punto", [(ana, 2 * won, won), (opponent, 2 * lost, lost)])

    def victim():
        return stats.player_summary(ana).victim.player

    duel(ben, "won", "won", "lost")
    duel(dev, "won", "won", "drew")
    assert victim() == "Dev"
    duel(chloe, "drew", "won", "won")
    assert victim() == "Chloé"
    abe = services.add_player(club=club, name="Abe")
    duel(abe, "won", "drew", "won")
    assert victim() == "Abe"
    duel(ben, "won")
    assert victim() == "Ben"


def test_nobody_is_a_nemesis_without_beating_them(record, players):
    ana, ben, _ = players
    for _ in range(3):
        record("punto", [(ana, 2, True), (ben, 0, False)])
    summary = stats.player_summary(ana)
    assert summary.nemesis is None and summary.victim.player == "Ben"
    assert stats.player_summary(ben).victim is None


def test_leaderboard_as_at_a_past_date(record, players):
    ana, ben, _ = players
    record("punto", [(ana, 2, True), (ben, 0, False)], day=1)
    record("punto", [(ana, 0, False), (ben, 2, True)], day=2)
    record("punto", [(ana, 0, False), (ben, 2, True)], day=3)
    club = ana.club
    as_at = {s.player: s for s in stats.leaderboard(club, "punto", as_of=datetime.date(2026, 1, 1))}
    assert (as_at["Ana"].plays, as_at["Ana"].wins, as_at["Ben"].wins) == (1, 1, 0)
    assert as_at["Ana"].ordinal > as_at["Ben"].ordinal
    now = stats.leaderboard(club, "punto")
    assert [s.player for s in now] == ["Ben", "Ana"]
    assert stats.leaderboard(club, "punto", as_of=datetime.date(2025, 12, 31)) == []


def test_leaderboard_minimum_plays_and_sorting(record, players):
    ana, ben, chloe = players
    record("punto", [(ana, 2, True), (ben, 0, False)])
    record("punto", [(ana, 2, True), (chloe, 0, False)])
    club = ana.club
    assert [s.player for s in stats.leaderboard(club, "all", min_plays=2)] == ["Ana"]
    by_name = stats.leaderboard(club, "all", sort="player")
    assert [s.player for s in by_name] == ["Ana", "Ben", "Chloé"]
    by_plays = stats.leaderboard(club, "all", sort="-plays")
    assert by_plays[0].player == "Ana"
    assert [s.player for s in stats.leaderboard(club, "all", sort="win_rate")][-1] == "Ana"
    with pytest.raises(ValueError):
        stats.leaderboard(club, "all", sort="shoe-size")


def test_night_summary_points_winners_and_rating_change(record, players, night):
    ana, ben, chloe = players
    record("thricewise", [(ana, 12, True), (ben, 3, False)])
    record("forget-venice", [(ana, 10, False), (ben, 8, False), (chloe, 16, True)])
    record("three-high", [(ana, 5, True), (ben, 5, True)])
    summary = stats.night_summary(night)
    assert summary.finished == 3
    lines = {line.player: line for line in summary.lines}
    assert lines["Ana"].points == {"Thricewise": 12, "Forget Venice": 10}
    assert (lines["Ana"].plays, lines["Ana"].wins, lines["Ana"].team_wins) == (2, 1, 1)
    assert lines["Chloé"].all_change > 0 and lines["Ben"].all_change < 0


def test_night_summary_counts_every_seat_of_a_cooperative_play(record, players, night):
    ana, ben, chloe = players
    record("three-high", [(ana, 5, True), (ben, 5, True), (chloe, 5, True)])
    lines = stats.night_summary(night).lines
    assert [(line.player, line.team_plays, line.team_wins) for line in lines] == [
        ("Ana", 1, 1),
        ("Ben", 1, 1),
        ("Chloé", 1, 1),
    ]


def test_a_rating_change_is_the_rating_after_less_the_rating_before(record, players, night):
    """On a player's second play, their rating before it is no longer the newcomer's 0."""
    ana, ben, _ = players
    record("thricewise", [(ana, 12, True), (ben, 3, False)])
    second = record("thricewise", [(ana, 12, True), (ben, 3, False)])
    for change in stats.play_rating_changes(second):
        assert change.game_before != 0 and change.all_before != 0
        assert change.game_change == change.game_after - change.game_before
        assert change.all_change == change.all_after - change.all_before
