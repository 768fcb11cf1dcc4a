"""A club's rating rows and pair records, rebuilt deterministically from its finished plays.

**Order of play.** A club's finished plays are rated in the order of ``Play.ended_at`` (when the
result became final), then ``Play.started_at``, then ``Play.id``: every finished play has an end
time, two plays ending at the same instant are ordered by when they began, and the id makes the
order total, so the same plays always give the same ratings.

**Scopes.** Each competitive play updates two ratings of each seated player: the one for its game
and the one across all games (``"all"``), both in the seat's one row (its columns without a
prefix, and its ``all_`` columns). Winners share rank 1, so a tie for first is a win for each
tied player. A cooperative game (3-High) is never rated: the whole table wins or loses together,
there is no opponent to beat. Its rows carry only the team's running totals, in the game's own
scope, and it never enters ``"all"`` nor head-to-head. In head-to-head you beat every player of
each team ranked below yours: partners are never each other's opponents.

**Rebuilding.** Rows of a club are written in play order. When a play's result changes
(finished, undone, imported, edited, deleted), every row from the earliest time it affects
onward is deleted and rewritten, starting from each affected player's last row before that time
(one index lookup per player and scope); head-to-head records lose what the deleted rows counted
and gain what the new ones count. Finishing the newest play therefore rates just that play.
Everything happens in the caller's transaction, with the club's row locked.
"""

from __future__ import annotations

import datetime
from collections.abc import Generator, Iterable, Iterator
from types import SimpleNamespace
from typing import Any

from django.db import connection, transaction
from django.db.models import Min, TextField
from django.db.models.functions import Cast

from referee import GAMES

from ..models import (
    ALL_GAMES,
    CATALOGUE_PREFIX,
    CatalogueGame,
    Club,
    HeadToHead,
    PartnerChange,
    Play,
    RatingChange,
    Seat,
)
from . import bulk, totals, update

try:  # the rebuild's hot loop in C, built by `make` (games/ratings/_native.c); else Python's
    from . import _native
except ImportError:  # pragma: no cover - a clone not built by make
    _native = None

#: Games played as one team against the game (as the referee declares them): counted apart,
#: never rated.
COOPERATIVE_GAMES = tuple(name for name, engine in GAMES.items() if engine.cooperative)

_MODELS = SimpleNamespace(
    Club=Club,
    Play=Play,
    Seat=Seat,
    RatingChange=RatingChange,
    HeadToHead=HeadToHead,
    CatalogueGame=CatalogueGame,
    PartnerChange=PartnerChange,
)


def cooperative_games(club_id: int, models: Any = _MODELS) -> frozenset[str]:
    """The club's games played as one team against the game: the referee's, and its catalogue's
    co-operative games (their keys, "game-<id>"), counted apart and never rated alike."""
    catalogue = getattr(models, "CatalogueGame", None)  # a migration's models may predate it
    if catalogue is None:
        return frozenset(COOPERATIVE_GAMES)
    ids = catalogue.objects.filter(club_id=club_id, result="cooperative").values_list(
        "pk", flat=True
    )
    return frozenset(COOPERATIVE_GAMES) | {f"{CATALOGUE_PREFIX}{pk}" for pk in ids}


def refresh_for_play(
    play: Play, *, rated: bool | None = None, seats: list[Seat] | None = None
) -> None:
    """Rebuild the club's ratings after ``play``'s result was rewritten (called by services).

    Rebuilds from the earlier of the play's old rated time and its new one; a play that was not
    and is not finished changes nothing and costs one indexed query. ``rated`` False: the caller
    knows the play had no rating rows (it was not finished), which saves that query; then a
    play just finished after every other play of the club (the move that finishes a play
    tonight) is rated on its own (``_append``), from ``seats`` (with their results) when given.
    """
    new = play.ended_at if play.status == Play.Status.FINISHED else None
    if rated is False:
        if new is not None and not _append(play, seats):
            rebuild_club(play.club_id, since=new)
        return
    old = RatingChange.objects.filter(play=play).aggregate(at=Min("played_at"))["at"]
    times = [at for at in (old, new) if at is not None]
    if times:
        rebuild_club(play.club_id, since=min(times))


def _append(play: Play, seats: list[Seat] | None) -> bool:
    """Rate ``play``, just finished and not rated before, when it ended after every rated play
    of its club: its rows follow every other, so nothing else is rewritten. One statement reads
    its players' last rows in each scope and whether any row of the club is as late (then False:
    the caller rebuilds from the play's time), one writes its rows, one adds to its pairs'
    records. In the caller's transaction, with the club's row locked (on SQLite the transaction
    holds the database's write lock already)."""
    if connection.features.has_select_for_update:
        list(Club.objects.select_for_update().filter(pk=play.club_id).values_list("pk"))
    if seats is None:
        seats = list(play.seats.order_by("position"))
    played_at = RatingChange._meta.get_field("played_at").get_db_prep_value(
        play.ended_at, connection
    )
    # A catalogue game's co-operative rule is the club's (one query, only for those games).
    cooperative = (
        cooperative_games(play.club_id)
        if play.game.startswith(CATALOGUE_PREFIX)
        else frozenset(COOPERATIVE_GAMES)
    )
    scopes = (play.game,) if play.game in cooperative else (play.game, ALL_GAMES)
    keys = [(scope, seat.player_id) for scope in scopes for seat in seats]
    states = totals.States(RatingChange, play.ended_at)
    if not states.fetch(keys, club_id=play.club_id, played_at=played_at):
        return False
    tally = totals.Pairs()
    partners = totals.Partners(PartnerChange, play.ended_at)
    partnered = [seat.player_id for seat in seats if seat.team is not None]
    if partnered and play.game not in cooperative:
        teams = {seat.player_id: seat.team for seat in seats}
        partners.fetch(
            [
                (scope, player, other)
                for scope in scopes
                for player in partnered
                for other in partnered
                if other != player and teams[other] == teams[player]
            ],
            played_at,
        )
    stream = [
        (play.pk, play.game, played_at, seat.player_id, seat.rank, seat.is_winner, seat.score,
         seat.team)
        for seat in sorted(seats, key=lambda seat: seat.position)
    ]  # fmt: skip
    rated = _rate(play.club_id, [stream], states, tally, partners, cooperative)
    rows = [row for rows_of_play in rated for row in rows_of_play]
    bulk.insert_few(RatingChange, COLUMNS, rows)
    bulk.insert_few(PartnerChange, totals.PARTNER_COLUMNS, partners.rows)
    tally.add(play.club_id, HeadToHead)
    return True


def rebuild_club(
    club_id: int,
    *,
    since: datetime.datetime | None = None,
    excluding: int | None = None,
    models: Any = _MODELS,
) -> int:
    """Rewrite the club's rating rows (and head-to-head records) of every finished play that
    ended at ``since`` or later (all of them when ``since`` is None), leaving out the play
    ``excluding`` (one about to be deleted). Returns the number of rows written.

    ``models`` lets a data migration pass its historical models.
    """
    # Whether this transaction is the outermost one, in autocommit (not a transaction the caller
    # opened by turning autocommit off): then nothing of the caller's is uncommitted (see beside
    # below).
    outermost = not connection.in_atomic_block and connection.get_autocommit()
    with bulk.checkpoint_left_to_checkpointer(), transaction.atomic():
        # One rebuild per club at a time: rows must be written in play order.
        list(models.Club.objects.select_for_update().filter(pk=club_id).values_list("pk"))
        rows = models.RatingChange.objects.filter(club_id=club_id)
        # The plays joined to their seats (not a subquery of plays), ordered by the play's own
        # columns, id included (SQLite does not take the seat's play_id for it): the database
        # walks the plays in order on play_club_status_ended and each play's seats on their
        # (play, position) key, sorting nothing.
        seats = models.Play.objects.filter(club_id=club_id, status="finished", seats__isnull=False)
        if since is not None:
            rows = rows.filter(played_at__gte=since)
            seats = seats.filter(ended_at__gte=since)
        if excluding is not None:
            seats = seats.exclude(pk=excluding)
        tally = totals.Pairs()
        # The partner rows (none before the migration that made them: 0015 rebuilds without).
        partner_model = getattr(models, "PartnerChange", None)
        partners = totals.Partners(partner_model, since)
        # The club's whole history, and no other club's in the table: load it the way one loads
        # a table, emptied at once and indexed after (see bulk.load).
        every = models.RatingChange.objects
        as_a_table = since is None and not (
            # Two ranges of rating_club_time, not a scan for "any other club".
            every.filter(club_id__lt=club_id).exists() or every.filter(club_id__gt=club_id).exists()
        )
        if since is None:
            models.HeadToHead.objects.filter(club_id=club_id).delete()
        else:
            tally.uncount(rows)  # what the rows about to be rewritten had counted
        if connection.vendor == "sqlite":
            # The play's time as the text SQLite stores it: the sqlite3 module would parse
            # every seat's and the rows would turn it back into the same text (bulk.raw_batches).
            seats = seats.annotate(played_at=Cast("ended_at", TextField()))
            columns = tuple("played_at" if c == "ended_at" else c for c in _SEAT_COLUMNS)
        else:
            columns = _SEAT_COLUMNS
        seats = seats.order_by("ended_at", "started_at", "pk", "seats__position").values_list(
            *columns
        )
        states = totals.States(models.RatingChange, since)
        cooperative = cooperative_games(club_id, models)
        # A full rebuild on SQLite reads its seats into C, rates them there and inserts its rows
        # from there, no Python value between (_rate_in_c); otherwise the seats come as tuples.
        in_c = as_a_table and _native is not None and bulk.seats_from_c(len(COLUMNS))
        with (
            bulk.load(models.RatingChange) if as_a_table else bulk.sqlite_page_cache(),
            bulk.gc_paused(),
        ):
            if not as_a_table:
                rows.delete()
            # A full rebuild in C reads and rates its seats in a thread of its own, on a second
            # connection, while this one inserts the rows before (bulk.made_beside): on SQLite
            # only (in_c), and only where that connection sees what this one would read. It sees
            # what is committed, and this transaction, the outermost one, began IMMEDIATE
            # (config/settings.py) before it was opened (bulk.reader_beside): nothing can commit
            # meanwhile, and nothing this transaction wrote (rating rows, head-to-head) is read.
            # In an outer transaction (a migration, an import that wrote the plays it rebuilds,
            # a test case) the caller's changes are not committed: one thread, as before.
            beside = bulk.reader_beside() if in_c and outermost else None
            if beside is not None:
                read = bulk.seat_reader(seats, on=beside)

                # Batches of half the size: up to four are alive at once, not one (bulk.AHEAD).
                sizes = {
                    "batch_size": max(1, bulk.BATCH_SIZE // 2),
                    "rows_size": max(1, bulk.COPY_BATCH_SIZE // 2),
                }

                def make() -> Iterator[Any]:
                    return _rate_in_c(club_id, read, states, tally, partners, cooperative, **sizes)

                with bulk.made_beside(beside, make) as rated:
                    written = bulk.insert_from_c(models.RatingChange, COLUMNS, rated)
            elif in_c:
                rated = _rate_in_c(
                    club_id, bulk.seat_reader(seats), states, tally, partners, cooperative
                )
                written = bulk.insert_from_c(models.RatingChange, COLUMNS, rated)
            else:
                written = bulk.insert(
                    models.RatingChange,
                    COLUMNS,
                    COPY_TYPES,
                    _rate(club_id, bulk.raw_batches(seats), states, tally, partners, cooperative),
                    load=as_a_table,
                )
        if partner_model is not None:
            rewritten = partner_model.objects.filter(club_id=club_id)
            if since is not None:
                rewritten = rewritten.filter(played_at__gte=since)
            rewritten.delete()
            bulk.insert(
                partner_model, totals.PARTNER_COLUMNS, totals.PARTNER_COPY_TYPES, [partners.rows]
            )
        tally.save(club_id, models.HeadToHead, full=since is None)
        if since is None:
            bulk.analyze(models.RatingChange, models.HeadToHead)
        return written


#: What the rebuild reads of each seat (from its play), in play order.
_SEAT_COLUMNS = (
    "pk", "game", "ended_at", "seats__player_id", "seats__rank", "seats__is_winner",
    "seats__score", "seats__team",
)  # fmt: skip

#: The columns of a rating row, in the order _rate() yields them: the seat, then its game's
#: scope, then all games' (one row a seat, both scopes: models.RatingChange).
COLUMNS = (
    "club_id", "play_id", "player_id", "game", "played_at", "is_winner", "rank", "team",
    "mu_before", "sigma_before", "mu_after", "sigma_after",
    "plays", "wins", "points", "best", "worst", "streak", "longest",
    "all_mu_before", "all_sigma_before", "all_mu_after", "all_sigma_after",
    "all_plays", "all_wins", "all_streak", "all_longest",
)  # fmt: skip

#: Their PostgreSQL types, for a binary COPY (cheaper to encode and to parse than text).
COPY_TYPES = (
    "int8", "int8", "int8", "text", "timestamptz", "bool", "int2", "int2",
    "float8", "float8", "float8", "float8",
    "int4", "int4", "int4", "int4", "int4", "int4", "int4",
    "float8", "float8", "float8", "float8",
    "int4", "int4", "int4", "int4",
)  # fmt: skip

#: The "all games" part of a cooperative game's row: it is not rated nor counted there.
_NOT_IN_ALL = (None,) * 8


def _rate(
    club_id: int,
    batches: Iterable[list[tuple]],
    states: totals.States,
    tally: totals.Pairs,
    partners: totals.Partners,
    cooperative: frozenset[str] = frozenset(COOPERATIVE_GAMES),
    *,
    native: Any = "built",
) -> Iterator[list[tuple]]:
    """The rating rows of the seats, given in play order in lists (a play's seats together, or
    split over two lists), a row a seat, in lists. Counts each competitive play's head-to-head
    in ``tally``, and each team play's partners in ``partners``. ``cooperative``: the club's
    co-operative games (cooperative_games).

    The plays where everyone plays for themselves (most plays: the rebuild's hot path) are
    rated by the C loop of ``native`` (games/ratings/_native.c, built by ``make``) when it is
    there (the default, "built"), to the same rows as _rate_play's (tests/stats/test_native.py);
    None: all in Python.
    """
    if native == "built":
        native = _native
    pending: list[tuple] = []
    for batch in batches:
        seats = pending + batch if pending else batch
        done = yield from _rate_seats(
            club_id, seats, states, tally, partners, cooperative, native, final=False
        )
        pending = seats[done:]
    if pending:
        yield from _rate_seats(
            club_id, pending, states, tally, partners, cooperative, native, final=True
        )


def _rate_in_c(
    club_id: int,
    read: Any,
    states: totals.States,
    tally: totals.Pairs,
    partners: totals.Partners,
    cooperative: frozenset[str] = frozenset(COOPERATIVE_GAMES),
    *,
    native: Any = "built",
    batch_size: int | None = None,
    rows_size: int | None = None,
) -> Iterator[Any]:
    """_rate on SQLite with the C module, the seats never Python values: ``read(token, n)``
    (bulk.seat_reader) reads up to ``n`` seats more, in play order, into the C module's
    SQLiteSeats of that token, which rates them into SQLiteRows (the rows' C copy that
    referee_rows inserts), the players' states and the pair counts kept in C meanwhile (written
    back to ``states`` and ``tally`` before a play it leaves to _rate_play, as tuples:
    partners, …, and when it is closed, at the end). Yields the rows in batches of about
    ``rows_size``: SQLiteRows, or a list of tuples where one of _rate_play's rows is not one
    SQLiteRows takes (for executemany). The same rows, states, pair counts and partner rows as
    _rate (tests/stats/test_native.py).
    ``batch_size``, ``rows_size``: bulk.BATCH_SIZE and COPY_BATCH_SIZE unless given."""
    if native == "built":
        native = _native
    batch_size = batch_size or bulk.BATCH_SIZE
    rows_size = rows_size or bulk.COPY_BATCH_SIZE
    model = update.MODEL
    width = len(COLUMNS)
    # Each batch of rows in one block (no regrowth): at most rows_size - 1 rows, then the seats
    # read (a batch, and a play's from the batch before).
    capacity = rows_size + batch_size + 64
    seats = native.SQLiteSeats()
    rows = native.SQLiteRows(width, capacity)
    try:
        final = False
        while not final:
            final = read(seats.token, batch_size) < batch_size
            while True:
                play = seats.rate(
                    final, states, cooperative, tally.beaten, tally.tied, club_id, ALL_GAMES,
                    model.beta, model.kappa, model.tau, model.limit_sigma, rows,
                )  # fmt: skip
                if play is None:
                    break
                rated = _rate_play(club_id, play, states, tally, partners, cooperative)
                try:
                    rows.extend(rated)
                except (ValueError, OverflowError):  # not SQLite's values as the copy takes them
                    if len(rows):
                        yield rows
                        rows = native.SQLiteRows(width, capacity)
                    yield rated
            if len(rows) >= rows_size:
                yield rows
                rows = native.SQLiteRows(width, capacity)
        if len(rows):
            yield rows
    finally:
        seats.close()


def _rate_seats(
    club_id: int,
    seats: list[tuple],
    states: totals.States,
    tally: totals.Pairs,
    partners: totals.Partners,
    cooperative: frozenset[str],
    native: Any,
    *,
    final: bool,
) -> Generator[list[tuple], None, int]:
    """_rate for one list of seats: yields their plays' rows; returns the index of the first
    seat not rated (the last play's, unless ``final``: its seats may go on in the next list)."""
    start, size = 0, len(seats)
    while start < size:
        if native is not None:
            rows: list[tuple] = []
            start = native.rate_plays(
                seats, start, final, states, cooperative, tally.beaten, tally.tied, club_id,
                ALL_GAMES, update.MODEL.beta, update.MODEL.kappa, update.MODEL.tau,
                update.MODEL.limit_sigma, rows,
            )  # fmt: skip
            if rows:
                yield rows
            if start == size:
                break
        # A play left to Python (or every play, without the C loop): its seats.
        play_id = seats[start][0]
        end = start + 1
        while end < size and seats[end][0] == play_id:
            end += 1
        if end == size and not final:
            break
        yield _rate_play(club_id, seats[start:end], states, tally, partners, cooperative)
        start = end
    return start


def _rate_play(
    club_id: int,
    seats: list[tuple],
    states: totals.States,
    tally: totals.Pairs,
    partners: totals.Partners,
    cooperative: frozenset[str],
) -> list[tuple]:
    """The rating rows of one play's seats (the reference of the C loop, and its fallback)."""
    play_id, game, played_at = seats[0][:3]
    rows: list[tuple] = []
    append = rows.append
    if game in cooperative:
        for _, _, _, player, rank, won, score, team in seats:
            state = states[(game, player)]
            totals.count(state, won, score)
            append(
                (club_id, play_id, player, game, played_at, won, rank, team,
                 None, None, None, None, *state[2:], *_NOT_IN_ALL)
            )  # fmt: skip
        return rows
    numbers = [seat[7] for seat in seats]
    if numbers.count(None) != len(numbers):
        _rate_teams(
            rows, club_id, play_id, game, played_at, seats, numbers, states, tally, partners
        )
        return rows
    # Everyone for themselves (most plays: the rebuild's hot path, totals.count inlined).
    players = [seat[3] for seat in seats]
    ranks = [seat[4] for seat in seats]
    tally.count_alone(players, ranks)
    mine = [states[(game, player)] for player in players]
    every = [states[(ALL_GAMES, player)] for player in players]
    mus = [state[0] for state in mine]
    sigmas = [state[1] for state in mine]
    all_mus = [state[0] for state in every]
    all_sigmas = [state[1] for state in every]
    if len(seats) > 1:
        new_mus, new_sigmas = update.plackett_luce(mus, sigmas, ranks)
        all_new_mus, all_new_sigmas = update.plackett_luce(all_mus, all_sigmas, ranks)
    else:
        new_mus, new_sigmas, all_new_mus, all_new_sigmas = mus, sigmas, all_mus, all_sigmas
    for index, seat in enumerate(seats):
        state = mine[index]
        total = every[index]
        state[0] = mu_after = new_mus[index]
        state[1] = sigma_after = new_sigmas[index]
        total[0] = all_mu_after = all_new_mus[index]
        total[1] = all_sigma_after = all_new_sigmas[index]
        won = seat[5]
        state[2] += 1
        total[2] += 1
        if won:
            state[3] += 1
            total[3] += 1
            state[7] += 1
            total[7] += 1
            if state[7] > state[8]:
                state[8] = state[7]
            if total[7] > total[8]:
                total[8] = total[7]
        else:
            state[7] = 0
            total[7] = 0
        score = seat[6]
        state[4] += score
        if state[5] is None or score > state[5]:
            state[5] = score
        if state[6] is None or score < state[6]:
            state[6] = score
        append(
            (club_id, play_id, seat[3], game, played_at, won, seat[4], None,
             mus[index], sigmas[index], mu_after, sigma_after,
             state[2], state[3], state[4], state[5], state[6], state[7], state[8],
             all_mus[index], all_sigmas[index], all_mu_after, all_sigma_after,
             total[2], total[3], total[7], total[8])
        )  # fmt: skip
    return rows


def _rate_teams(
    rows: list[tuple],
    club_id: int,
    play_id: int,
    game: str,
    played_at: Any,
    seats: list[tuple],
    numbers: list[int | None],
    states: totals.States,
    tally: totals.Pairs,
    partners: totals.Partners,
) -> None:
    """_rate for a play with partners: its seats rated as teams, into ``rows``."""
    teams = update.play_teams(numbers)
    ranks = [min(seats[i][4] for i in team) for team in teams]
    players = [[seats[i][3] for i in team] for team in teams]
    wins = [seats[team[0]][5] for team in teams]
    tally.count(game, players, ranks, wins)
    parts: list[list[tuple]] = []  # each seat's part of its row, per scope
    for scope in (game, ALL_GAMES):
        partners.count(club_id, play_id, scope, played_at, players, wins)
        current = [states[(scope, seat[3])] for seat in seats]
        ratings = [[(current[i][0], current[i][1]) for i in team] for team in teams]
        if len(teams) > 1:
            ratings = update.rate_teams(ratings, ranks)
        after = [(0.0, 0.0)] * len(seats)
        for team, rated in zip(teams, ratings, strict=True):
            for i, rating in zip(team, rated, strict=True):
                after[i] = rating
        part = []
        for seat, state, (mu_after, sigma_after) in zip(seats, current, after, strict=True):
            mu, sigma = state[0], state[1]
            state[0], state[1] = mu_after, sigma_after
            totals.count(state, seat[5], seat[6])
            if scope == ALL_GAMES:  # no points across games
                part.append((mu, sigma, mu_after, sigma_after, *state[2:4], *state[7:]))
            else:
                part.append((mu, sigma, mu_after, sigma_after, *state[2:]))
        parts.append(part)
    for seat, in_game, in_all in zip(seats, *parts, strict=True):
        rows.append(
            (club_id, play_id, seat[3], game, played_at, seat[5], seat[4], seat[7],
             *in_game, *in_all)
        )  # fmt: skip
