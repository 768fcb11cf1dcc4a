"""Running totals (issue 19): each player's plays, wins, points, streaks per scope and their
head-to-head records are kept with the results they come from, in the same transaction, and
always equal a recount from scratch, whatever happens to the history and in whatever order;
the rating rows always equal a full rebuild's."""

import datetime
import json
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from games import ratings, services, stats
from games.models import Club, GameNight, HeadToHead, Play, RatingChange, Seat
from games.ratings import bulk
from games.services import moves
from games.stats.rules import SCOPES
from referee import GAMES
from tests.examples import EXAMPLES
from tests.stats.recount import leaderboard_as_at, rating_rows, recount, stored

NAMES = ["Ana", "Ben", "Chloé", "Dev", "Eli"]


def results(scores: list[int], game: str, teams: list[int | None]) -> list[tuple]:
    """(score, rank, won) per seat, as the referee derives them: the best score wins, the others
    rank by score, ties share a rank; a cooperative table wins or loses together; partners
    share their team's result (its first seat's score)."""
    if GAMES[game].cooperative:
        return [(scores[0], 1, scores[0] % 2 == 0)] * len(scores)
    sides = [("team", team) if team is not None else ("seat", i) for i, team in enumerate(teams)]
    side_score: dict = {}
    for side, score in zip(sides, scores, strict=True):
        side_score.setdefault(side, score)
    best = max(side_score.values())
    return [
        (
            side_score[side],
            1 + sum(1 for other in side_score.values() if other > side_score[side]),
            side_score[side] == best,
        )
        for side in sides
    ]


class RunningTotalsEqualARecount(TestCase):
    def setUp(self):
        self.user = get_user_model().objects.create_user("olivia")
        self.club = services.create_club(name="Les Joueurs", owner=self.user)
        self.players = [services.add_player(club=self.club, name=name) for name in NAMES]
        self.night = GameNight.objects.create(club=self.club, date=datetime.date(2026, 1, 1))

    def write(self, play, seats, scores, teams, *, finished, at):
        """Rewrite a play's results as services.refresh_results does, then its history (saying,
        as it does, whether the play was rated before: a play finished after every other is
        then rated on its own)."""
        was_finished = play.status == "finished"
        play.status = "finished" if finished else "in_progress"
        play.ended_at = at if finished else None
        play.save(update_fields=["status", "ended_at"])
        for seat, (score, rank, won), team in zip(
            seats, results(scores, play.game, teams), teams, strict=True
        ):
            seat.score, seat.team = score, team
            seat.rank, seat.is_winner = (rank, won) if finished else (None, False)
        Seat.objects.bulk_update(seats, ["score", "rank", "is_winner", "team"])
        ratings.refresh_for_play(play, rated=was_finished, seats=seats)

    def check(self):
        self.assertEqual(stored(self.club), recount(self.club))
        # The leaderboard as at every day of the history (and the day before it), in every
        # scope, is what the plays before that day's end give (issue 32).
        for day in range(0, 5):
            as_at = datetime.date(2026, 1, 1) + datetime.timedelta(days=day - 1)
            for scope in SCOPES:
                board = stats.leaderboard(self.club, scope, as_of=as_at)
                self.assertEqual(
                    {s.player: (s.plays, s.wins, s.mu, s.sigma, s.partners) for s in board},
                    leaderboard_as_at(self.club, scope, as_at),
                )
        incremental = rating_rows(self.club)
        ratings.rebuild_club(self.club.pk)
        self.assertEqual(rating_rows(self.club), incremental)
        self.assertEqual(stored(self.club), recount(self.club))

    @settings(
        max_examples=40,
        deadline=None,
        # differing_executors: a run of the suite twice in one process (mutmut's first runs)
        # calls the test on a second TestCase instance, built by the same setUp.
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.differing_executors,
        ],
    )
    @given(st.data())
    def test_any_history(self, data):
        plays: list[tuple[Play, list[Seat]]] = []
        moment = st.builds(
            lambda day, minute: datetime.datetime(2026, 1, day, 20, minute, tzinfo=datetime.UTC),
            st.integers(1, 4),
            st.sampled_from([0, 0, 1, 2]),  # plays often end at the same instant
        )
        for _ in range(data.draw(st.integers(1, 14), label="steps")):
            action = data.draw(
                st.sampled_from(["add", "add", "add", "change", "unfinish", "delete"]),
                label="action",
            )
            if action == "add" or not plays:
                game = data.draw(st.sampled_from(list(GAMES)), label="game")
                seated = data.draw(
                    st.lists(st.sampled_from(self.players), min_size=2, max_size=4, unique=True),
                    label="players",
                )
                at = data.draw(moment, label="ended at")
                play = Play.objects.create(
                    club=self.club,
                    night=self.night,
                    game=game,
                    started_at=at - datetime.timedelta(minutes=data.draw(st.integers(0, 2))),
                )
                seats = Seat.objects.bulk_create(
                    Seat(play=play, position=i, player=player) for i, player in enumerate(seated)
                )
                plays.append((play, seats))
            else:
                play, seats = data.draw(st.sampled_from(plays), label="play")
                at = data.draw(moment, label="ended at")
            if action == "delete":
                services.delete_play(play=play, by=self.user)
                plays.remove((play, seats))
                continue
            teams = [None] * len(seats)
            if len(seats) == 4 and play.game == "punto" and data.draw(st.booleans(), "teams"):
                teams = [1, 2, 1, 2]  # partners seated opposite (issue 18)
            scores = data.draw(
                st.lists(st.integers(0, 3), min_size=len(seats), max_size=len(seats)),
                label="scores",
            )
            self.write(play, seats, scores, teams, finished=action != "unfinish", at=at)
            self.assertEqual(stored(self.club), recount(self.club))
        self.check()


# Every service that changes a result keeps the totals -----------------------------------------


def example(game):
    return json.loads((EXAMPLES / f"{game}-1.json").read_text())


def equals_a_recount(club):
    assert stored(club) == recount(club)
    incremental = rating_rows(club)
    ratings.rebuild_club(club.pk)
    assert rating_rows(club) == incremental
    assert stored(club) == recount(club)
    return True


@pytest.fixture
def history(club, night):
    """Three finished plays through the services, one of them dated in the past."""
    services.import_log(club=club, log=example("forget-venice"), night_date=night.date)
    with mock.patch("django.utils.timezone.now", return_value=PAST):
        services.import_log(club=club, log=example("thricewise"), night_date=night.date)
    services.import_log(club=club, log=example("buntherum"), night_date=night.date)
    return club


PAST = datetime.datetime(2020, 1, 1, 20, 0, tzinfo=datetime.UTC)


def test_the_move_that_finishes_a_play(history, night, owner):
    log = example("thricewise")
    last = log["moves"].pop()
    play = services.import_log(club=history, log=log, night=night)
    assert play.status == "in_progress"
    services.record_move(play=play, move=last, by=owner)
    assert play.status == "finished"
    assert HeadToHead.objects.filter(club=history, player__name="Ana").exists()
    assert equals_a_recount(history)


def test_undo_of_a_finished_play(history, owner):
    play = Play.objects.filter(club=history, game="thricewise").get()  # the one in the past
    services.undo_last_move(play=play, by=owner)
    play.refresh_from_db()
    assert play.status == "in_progress"
    assert equals_a_recount(history)


def test_import_into_the_past(history, night):
    with mock.patch("django.utils.timezone.now", return_value=PAST - datetime.timedelta(days=1)):
        services.import_log(club=history, log=example("punto"), night_date=night.date)
    assert equals_a_recount(history)


def test_deletion_of_a_finished_play(history, owner):
    ana_before = dict(stored(history)[1])
    play = Play.objects.filter(club=history, game="thricewise").get()
    services.delete_play(play=play, by=owner)
    assert stored(history)[1] != ana_before
    assert equals_a_recount(history)


def test_abandoning_a_play_counts_nothing(history, night, owner):
    log = example("punto")
    log["moves"] = log["moves"][:5]
    play = services.import_log(club=history, log=log, night=night)
    before = stored(history)
    services.abandon_play(play=play, by=owner)
    assert stored(history) == before
    assert equals_a_recount(history)


@pytest.mark.django_db(transaction=True)
def test_the_totals_are_kept_in_the_results_transaction(history, night, owner):
    """A finishing move that fails after the ratings were updated leaves no trace in them
    (real transactions here, committed or rolled back)."""
    log = example("thricewise")
    last = log["moves"].pop()
    play = services.import_log(club=history, log=log, night=night)
    before, rows_before = stored(history), rating_rows(history)
    failing = mock.patch.object(moves, "audit_play", side_effect=RuntimeError("disk full"))
    with failing, pytest.raises(RuntimeError):
        services.record_move(play=play, move=last, by=owner)
    assert (stored(history), rating_rows(history)) == (before, rows_before)


# Their cost does not grow with the history ----------------------------------------------------


def test_finishing_the_newest_play_costs_the_same_however_long_the_history(record, players):
    """One index lookup per player and scope, whatever the history (no GROUP BY over it)."""
    ana, ben, _ = players
    counts = []
    for day, earlier in [(2, 3), (9, 40)]:
        for _ in range(earlier):
            record("punto", [(ana, 2, True), (ben, 0, False)], day=day - 1)
        play = record("punto", [(ana, 0, False), (ben, 2, True)], day=day, rebuild=False)
        with CaptureQueriesContext(connection) as queries:
            ratings.refresh_for_play(play)
        counts.append(len(queries))
        assert not any("GROUP BY" in q["sql"] for q in queries.captured_queries)
    assert counts[0] == counts[1]
    assert equals_a_recount(ana.club)


def test_the_player_page_costs_the_same_however_long_the_history(record, players, member_client):
    ana, ben, chloe = players
    counts = []
    for plays in (3, 300):  # more than the chart's 240 points
        while RatingChange.objects.filter(player=ana).count() < plays:
            won = len(counts) % 2 == 0
            record("thricewise", [(ana, 9, won), (ben, 7, not won), (chloe, 8, False)])
        with CaptureQueriesContext(connection) as queries:
            response = member_client.get(reverse("player", args=[ana.pk]))
        assert response.status_code == 200
        counts.append(len(queries))
        chart = response.context["chart"]
        assert chart.count == min(plays, stats.CHART_MAX_POINTS)
    assert counts[0] == counts[1]


def test_the_chart_samples_the_same_points_as_the_whole_history_would(record, players):
    ana, ben, _ = players
    for index in range(500):
        won = index % 3 == 0
        record("punto", [(ana, 2 * won, won), (ben, 2 * (not won), not won)], rebuild=False)
    ratings.rebuild_club(ana.club_id)
    history = list(
        RatingChange.objects.filter(player=ana)
        .order_by("played_at", "id")
        .values_list("played_at", "all_mu_after", "all_sigma_after")
    )
    step = len(history) / stats.CHART_MAX_POINTS
    sample = [history[int(i * step)] for i in range(stats.CHART_MAX_POINTS - 1)] + [history[-1]]
    assert stats.rating_chart(ana) == stats.draw_rating_chart(sample)
    assert stats.rating_chart(ana).count == 240


# A full rebuild: loaded like a table when the club has it alone -------------------------------


def index_definitions():
    """The rating table's secondary indexes as the database defines them."""
    table = RatingChange._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s "
                "AND indexname NOT LIKE %s ORDER BY indexname",
                [table, "%pkey"],
            )
        else:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = %s "
                "AND sql IS NOT NULL ORDER BY name",
                [table],
            )
        return cursor.fetchall()


def test_a_full_rebuild_of_the_only_club_keeps_every_index(history):
    before = index_definitions()
    assert {name for name, _ in before} >= {"rating_player_game_time", "rating_club_time"}
    rows = rating_rows(history)
    with mock.patch.object(bulk, "load", wraps=bulk.load) as load:
        ratings.rebuild_club(history.pk)
    assert load.called
    assert index_definitions() == before
    assert rating_rows(history) == rows
    assert stored(history) == recount(history)


def test_a_full_rebuild_of_one_club_leaves_the_others_rows(history, night, owner):
    other = services.create_club(name="Les Autres", owner=owner)
    services.import_log(club=other, log=example("punto"), night_date=night.date)
    theirs = rating_rows(other)
    assert theirs
    mine = rating_rows(history)
    with mock.patch.object(bulk, "load", wraps=bulk.load) as load:
        ratings.rebuild_club(history.pk)
    assert not load.called  # the table is shared: the club's rows are rewritten one by one
    assert (rating_rows(history), rating_rows(other)) == (mine, theirs)
    assert stored(other) == recount(other) and stored(history) == recount(history)


def test_a_rebuild_first_locks_its_clubs_row(history):
    """One rebuild per club at a time: a club's rows must be written in play order."""
    with CaptureQueriesContext(connection) as queries:
        ratings.rebuild_club(history.pk)
    club = Club._meta.db_table
    (lock,) = [query["sql"] for query in queries if f'FROM "{club}"' in query["sql"]]
    assert f'WHERE "{club}"."id" = {history.pk}' in lock
    assert ("FOR UPDATE" in lock) == connection.features.has_select_for_update


def test_a_full_rebuild_refreshes_the_statistics_of_both_tables(history):
    """bulk.analyze does it on PostgreSQL only (test_ratings.py checks the planner's numbers
    there); the rebuild asks for it on every database."""
    with mock.patch.object(bulk, "analyze") as analyze:
        ratings.rebuild_club(history.pk)
    analyze.assert_called_once_with(RatingChange, HeadToHead)


def test_a_rebuilds_commit_leaves_the_wal_to_the_checkpointer(history):
    """A rebuild's transaction runs inside bulk.checkpoint_left_to_checkpointer: on SQLite its
    commit leaves the rewritten table's pages in the log for the checkpointer thread
    (tests/test_checkpoints.py), 1.3 s of a full rebuild at 1,000,000 plays."""
    left = bulk.checkpoint_left_to_checkpointer
    with mock.patch.object(bulk, "checkpoint_left_to_checkpointer", wraps=left) as watched:
        ratings.rebuild_club(history.pk)
    watched.assert_called_once_with()


@pytest.mark.django_db
def test_sqlite_keeps_no_sequence_for_the_rating_rows():
    """AUTOINCREMENT would update SQLite's sequence table on every row a rebuild writes."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's AUTOINCREMENT")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT sql FROM sqlite_master WHERE name = %s", [RatingChange._meta.db_table]
        )
        (table,) = cursor.fetchone()
    assert '"id" integer NOT NULL PRIMARY KEY' in table and "AUTOINCREMENT" not in table


def test_the_charts_points_are_sought_by_their_play_count_on_postgresql(record, players):
    """On PostgreSQL each point is one seek of its play count in rating_player_game_plays or
    rating_player_plays, not a walk over the player's whole history on the time index (2.2 s
    for the busiest player at 1,000,000 plays). The tables here are tiny: sequential scans off,
    the planner still chooses between the indexes. Fails if the chart does not ask for rated
    rows (rating_player_game_plays holds only those)."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's query plans")
    ana, ben, _ = players
    record("punto", [(ana, 2, True), (ben, 0, False)])
    record("punto", [(ana, 0, False), (ben, 2, True)], day=2)
    for scope, index in (("all", "rating_player_plays"), ("punto", "rating_player_game_plays")):
        with CaptureQueriesContext(connection) as queries:
            assert stats.rating_chart(ana, scope).count == 2
        sample = queries.captured_queries[-1]["sql"]
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(f"EXPLAIN {sample}")
            plan = " ".join(row[0] for row in cursor.fetchall())
        assert f"Index Scan using {index}" in plan or f"Bitmap Index Scan on {index}" in plan, plan


def test_the_charts_points_are_read_from_the_time_index_on_sqlite(record, players):
    """SQLite has no play-count index (models.IndexNotOnSQLite): the chart's points are read
    from the time index, its count checked in the index, and only the rows wanted are read
    from the table: no scan of the player's rows in the table, and no other index (the game's
    time index, rating_player_game_time, would read every row of the player's from the table to
    know its count across all games). What it sorts is the points read, at most
    CHART_MAX_POINTS, however long the history."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's query plans")
    ana, ben, _ = players
    record("punto", [(ana, 2, True), (ben, 0, False)])
    record("punto", [(ana, 0, False), (ben, 2, True)], day=2)
    for scope, index, sought in (
        ("all", "rating_player_time", "player_id=?"),
        ("punto", "rating_player_game_time", "player_id=? AND game=?"),
    ):
        with CaptureQueriesContext(connection) as queries:
            assert stats.rating_chart(ana, scope).count == 2
        sample = queries.captured_queries[-1]["sql"]
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN QUERY PLAN {sample}")
            plan = " ".join(row[3] for row in cursor.fetchall())
        assert plan.replace(" USE TEMP B-TREE FOR ORDER BY", "") == (
            f"SEARCH games_ratingchange USING INDEX {index} ({sought})"
        ), plan


def _index_definitions(names):
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY(%s)", [names]
            )
        else:
            cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index'")
        return {name: sql for name, sql in cursor.fetchall() if name in names}


def test_the_rating_indexes_leave_out_the_rows_their_scope_does_not_count(record, players):
    """rating_player_time and rating_player_plays hold only the rows counted across all games,
    rating_player_game_plays (the chart's, PostgreSQL's only) only the rated ones: a cooperative
    game's rows are in none of them, entries a full rebuild neither sorts nor writes. Every
    query of the "all" scope asks ``all_plays IS NOT NULL`` (scope_rows), the chart
    ``mu_after IS NOT NULL``, so they can use them; and a full rebuild, which drops them and
    makes them again from their definitions (bulk.load), keeps them so."""
    ana, ben, _ = players
    record("punto", [(ana, 2, True), (ben, 0, False)], day=1)
    record("three-high", [(ana, 4, True), (ben, 4, True)], day=2)
    conditions = {"rating_player_time": "all_plays"}
    if connection.vendor != "sqlite":  # the play-count ones (models.IndexNotOnSQLite)
        conditions |= {"rating_player_plays": "all_plays", "rating_player_game_plays": "mu_after"}
    before = _index_definitions(list(conditions))
    assert sorted(before) == sorted(conditions)
    for name, column in conditions.items():  # as SQLite, and as PostgreSQL, spell it
        assert before[name].endswith(
            (f'WHERE "{column}" IS NOT NULL', f"WHERE ({column} IS NOT NULL)")
        ), before[name]
    ratings.rebuild_club(ana.club_id)
    assert _index_definitions(list(conditions)) == before
    if connection.vendor == "sqlite":  # the leaderboard across games reads by the index
        with CaptureQueriesContext(connection) as queries:
            stats.leaderboard(Club.objects.get(pk=ana.club_id), "all")
        plans = []
        for query in queries.captured_queries:
            if RatingChange._meta.db_table in query["sql"]:
                with connection.cursor() as cursor:
                    cursor.execute(f"EXPLAIN QUERY PLAN {query['sql']}")
                    plans += [row[3] for row in cursor.fetchall()]
        assert any("rating_player_time" in plan for plan in plans), plans


#: The rating chart's indexes by play count, which only PostgreSQL's planner needs.
PLAY_COUNT_INDEXES = ["rating_player_game_plays", "rating_player_plays"]


def test_the_play_count_indexes_are_postgresql_s_only(record, players):
    """PostgreSQL reads the chart's points by seeking their play counts in
    rating_player_game_plays and rating_player_plays (without them its planner filters the
    player's rows on the table: 2.2 s at 1,000,000 plays); SQLite reads them from the time
    indexes, and would only sort their entries at every full rebuild (4.6 s of its CPU at 1M).
    Neither kind of database loses or gains them: not by the migrations that made this
    database, not by a full rebuild (which makes the indexes it found again), and not when
    Django creates or remakes the table (SQLite's way of changing a column)."""
    ana, ben, _ = players
    record("punto", [(ana, 2, True), (ben, 0, False)])
    expected = [] if connection.vendor == "sqlite" else PLAY_COUNT_INDEXES
    assert sorted(_index_definitions(PLAY_COUNT_INDEXES)) == expected
    ratings.rebuild_club(ana.club_id)
    assert sorted(_index_definitions(PLAY_COUNT_INDEXES)) == expected
    editor = connection.schema_editor(collect_sql=True)
    made = " ".join(str(sql) for sql in editor._model_indexes_sql(RatingChange))
    assert "rating_player_game_time" in made  # the other indexes, as ever
    assert sorted(name for name in PLAY_COUNT_INDEXES if f'"{name}"' in made) == expected


@pytest.mark.parametrize("seats_in_c", [False, True])
def test_a_rebuild_reads_the_seats_in_play_order_without_sorting_them(record, players, seats_in_c):
    """The rebuild's read of the seats: the plays in order on play_club_status_ended (end,
    start, then the play's own id) and each play's seats on their (play, position) key; no
    temporary b-tree (it sorted a million plays' seats in groups, 1 s of a 1M rebuild). The
    same query whether the sqlite3 module runs it or the C module (bulk.seat_reader)."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's query plans")
    if seats_in_c and not bulk.seats_from_c(len(ratings.rebuild.COLUMNS)):
        pytest.skip("the seats read into C (games/ratings/_native.c, built with SQLite's header)")
    ana, ben, chloe = players
    record("punto", [(ana, 2, True), (ben, 0, False), (chloe, 1, False)], day=1)
    record("punto", [(chloe, 2, True), (ana, 0, False)], day=2)
    reader = mock.patch.object(bulk, "seat_reader", wraps=bulk.seat_reader)
    if not seats_in_c:
        reader = mock.patch.object(bulk, "seats_from_c", return_value=False)
    with CaptureQueriesContext(connection) as queries, reader as watched:
        ratings.rebuild_club(ana.club_id)
    if seats_in_c:
        ((queryset,), _) = watched.call_args
        read, params = queryset.query.sql_with_params()
    else:
        (read,) = [q["sql"] for q in queries.captured_queries if "games_seat" in q["sql"]]
        params = ()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {read}", params)
        plan = " ".join(row[3] for row in cursor.fetchall())
    assert "play_club_status_ended" in plan, plan
    assert "TEMP B-TREE" not in plan, plan
