"""The running totals, kept as the rebuild rates: each player's state per scope and the changes
to the pair records.

Each rating row also carries the player's totals in its scope after that play (plays, wins,
points, best and worst score, current and longest win streak), and ``HeadToHead`` keeps each
pair's record per scope (as opponents, and as partners), so that a player's page reads their
last row per scope and their pair records instead of their whole history.
"""

from __future__ import annotations

import datetime
from itertools import combinations, groupby
from operator import itemgetter
from typing import Any

from django.db import connection

from ..models import ALL_GAMES
from . import bulk
from .update import INITIAL_MU, INITIAL_SIGMA, play_teams

#: The columns of a head-to-head record, and their PostgreSQL types.
PAIR_TOTALS = ("plays", "won", "lost", "together", "together_won")
H2H_COLUMNS = ("club_id", "player_id", "opponent_id", "scope", *PAIR_TOTALS)
H2H_COPY_TYPES = ("int8", "int8", "int8", "text", "int4", "int4", "int4", "int4", "int4")

#: A player's state in a scope, as the rebuild keeps it:
#: [μ, σ, plays, wins, points, best, worst, streak, longest] (points, best, worst None in "all").
_State = list
_STATE_COLUMNS = (
    "mu_after", "sigma_after", "plays", "wins", "points", "best", "worst", "streak", "longest",
)  # fmt: skip
#: The same read from a row's "all games" columns (no points there).
_ALL_STATE_COLUMNS = (
    "all_mu_after", "all_sigma_after", "all_plays", "all_wins", None, None, None,
    "all_streak", "all_longest",
)  # fmt: skip


def _last_row_sql(table: str, scope: str) -> tuple[str, list[Any]]:
    """The SELECT of a player's state in ``scope`` from their last row before a time, and the
    scope's parameters, to bind between the player's and the time's: one seek on
    rating_player_game_time or rating_player_time."""
    quote = connection.ops.quote_name
    if scope == ALL_GAMES:
        # Typed: PostgreSQL makes text of a column that is NULL in the first two parts of the
        # UNION (fetch) and then cannot match it with the next part's integers.
        columns = ", ".join(quote(c) if c else "CAST(NULL AS integer)" for c in _ALL_STATE_COLUMNS)
        where = f"{quote('all_plays')} IS NOT NULL"
        order = f"{quote('played_at')} DESC, {quote('all_plays')} DESC"
        params: list[Any] = []
    else:
        columns = ", ".join(quote(c) for c in _STATE_COLUMNS)
        where = f"{quote('game')} = %s"
        order = f"{quote('played_at')} DESC, {quote('plays')} DESC"
        params = [scope]
    sql = (
        f"SELECT {columns} FROM {quote(table)} WHERE {quote('player_id')} = %s AND {where}"
        f" AND {quote('played_at')} < %s ORDER BY {order} LIMIT 1"
    )
    return sql, params


class States(dict):
    """Each player's state per (scope, player), fetched when first needed: their last row before
    ``since`` in that scope (one index seek), or a new player's state."""

    def __init__(self, rows: Any, since: datetime.datetime | None):
        super().__init__()
        self.rows, self.since = rows, since

    def __missing__(self, key: tuple[str, int]) -> _State:
        scope, player = key
        last = None
        if self.since is not None:  # a full rebuild starts everyone afresh
            # The statement ``fetch`` reads many of at once (_last_row_sql), for one.
            sql, params = _last_row_sql(self.rows._meta.db_table, scope)
            since = self.rows._meta.get_field("played_at").get_db_prep_value(self.since, connection)
            with connection.cursor() as cursor:
                cursor.execute(sql, [player, *params, since])
                last = cursor.fetchone()
        return self._keep(key, last)

    def _keep(self, key: tuple[str, int], last: Any) -> _State:
        """The state of ``key`` from its last row (None: a new player's)."""
        if last is None:
            state = [INITIAL_MU, INITIAL_SIGMA, 0, 0, 0, None, None, 0, 0]
        else:
            state = list(last)
            if state[0] is None:  # a cooperative game's rows carry no rating
                state[0], state[1] = INITIAL_MU, INITIAL_SIGMA
        if key[0] == ALL_GAMES:
            state[4] = None
        self[key] = state
        return state

    def fetch(self, keys: list[tuple[str, int]], *, club_id: int, played_at: Any) -> bool:
        """The states of ``keys``, each from its last row before ``since``, read by one
        statement (one index seek each), which also counts the club's rows at ``played_at``
        (``since`` as the database stores it) or later: False, reading no state, when there is
        any (``since`` is not after every rated play)."""
        table = self.rows._meta.db_table
        quote = connection.ops.quote_name
        nulls = ", ".join(["NULL"] * (len(_STATE_COLUMNS) - 1))
        parts = [
            f"SELECT -1, COUNT(*), {nulls} FROM {quote(table)}"
            f" WHERE {quote('club_id')} = %s AND {quote('played_at')} >= %s"
        ]
        params: list[Any] = [club_id, played_at]
        for index, (scope, player) in enumerate(keys):
            sql, scope_params = _last_row_sql(table, scope)
            sql = sql.replace("SELECT ", f"SELECT {index:d}, ", 1)
            parts.append(f"SELECT * FROM ({sql}) AS last{index:d}")
            params += [player, *scope_params, played_at]
        with connection.cursor() as cursor:
            cursor.execute(" UNION ALL ".join(parts), params)
            found = {row[0]: row[1:] for row in cursor.fetchall()}
        if found[-1][0]:
            return False
        for index, key in enumerate(keys):
            self._keep(key, found.get(index))
        return True


#: The columns of a partner row (models.PartnerChange), and their PostgreSQL types.
PARTNER_COLUMNS = (
    "club_id", "play_id", "player_id", "partner_id", "scope", "played_at",
    "together", "together_won",
)  # fmt: skip
PARTNER_COPY_TYPES = ("int8", "int8", "int8", "int8", "text", "timestamptz", "int4", "int4")


class Partners(dict):
    """Each pair of partners' running totals per (scope, player, partner) — [together,
    together_won] — fetched when first needed (their last row before ``since``, one index seek
    on partner_pair_time), and the partner rows of the team plays rated since (``rows``)."""

    def __init__(self, model: Any, since: datetime.datetime | None):
        super().__init__()
        self.model, self.since = model, since
        self.rows: list[tuple] = []

    def __missing__(self, key: tuple[str, int, int]) -> list[int]:
        scope, player, partner = key
        last = None
        if self.since is not None and self.model is not None:
            last = (
                self.model.objects.filter(
                    player_id=player, scope=scope, partner_id=partner, played_at__lt=self.since
                )
                .order_by("-played_at", "-id")
                .values_list("together", "together_won")
                .first()
            )
        state = self[key] = list(last) if last is not None else [0, 0]
        return state

    def count(
        self,
        club_id: int,
        play_id: int,
        scope: str,
        played_at: Any,
        teams: list[list[int]],
        wins: list[bool],
    ) -> None:
        """One team play in ``scope``: each partner of each team (its players) one play more
        together, and a win more if the team won; a row each."""
        for team, won in zip(teams, wins, strict=True):
            for player in team:
                for partner in team:
                    if partner == player:
                        continue
                    state = self[(scope, player, partner)]
                    state[0] += 1
                    state[1] += 1 if won else 0
                    self.rows.append(
                        (club_id, play_id, player, partner, scope, played_at, state[0], state[1])
                    )

    def fetch(self, keys: list[tuple[str, int, int]], played_at: Any) -> None:
        """The states of ``keys``, each from its last row before ``played_at`` (``since`` as
        the database stores it), read by one statement."""
        if not keys:
            return
        table = connection.ops.quote_name(self.model._meta.db_table)
        quote = connection.ops.quote_name
        parts, params = [], []
        for index, (scope, player, partner) in enumerate(keys):
            parts.append(
                f"SELECT * FROM (SELECT {index:d}, {quote('together')}, {quote('together_won')}"
                f" FROM {table} WHERE {quote('player_id')} = %s AND {quote('scope')} = %s"
                f" AND {quote('partner_id')} = %s AND {quote('played_at')} < %s"
                f" ORDER BY {quote('played_at')} DESC, {quote('id')} DESC LIMIT 1) AS pair{index:d}"
            )
            params += [player, scope, partner, played_at]
        with connection.cursor() as cursor:
            cursor.execute(" UNION ALL ".join(parts), params)
            found = {row[0]: list(row[1:]) for row in cursor.fetchall()}
        for index, key in enumerate(keys):
            self[key] = found.get(index, [0, 0])


class Pairs:
    """Changes to the pair records: (scope, player, other) → [plays, won, lost, together,
    together_won], the first three as opponents, the last two as partners. The "all" scope
    counts both; a game's scope counts only partners (that game's leaderboard names them), so a
    full rebuild holds one record per pair of players met, not one per pair and game."""

    def __init__(self) -> None:
        self.pairs: dict[tuple[str, int, int], list[int]] = {}
        # The plays where everyone played for themselves (count_alone), counted once per pair
        # of players until folded into ``pairs`` (_fold): (winner, loser) → plays where the
        # first ranked above the second; (player, other), the lower id first → plays they tied.
        self.beaten: dict[tuple[int, int], int] = {}
        self.tied: dict[tuple[int, int], int] = {}

    def count(
        self,
        game: str,
        players: list[list[int]],
        ranks: list[int],
        wins: list[bool],
        sign: int = 1,
    ) -> None:
        """Count one play of ``game`` with partners, given as its teams' players, ranks and
        wins: in "all" as opponents and partners, in the game's scope as partners only
        (``sign`` -1 takes it back)."""
        pairs = self.pairs
        scopes = (game, ALL_GAMES)
        for scope in scopes:
            for mine, rank, won_together in zip(players, ranks, wins, strict=True):
                for theirs, their_rank in zip(players, ranks, strict=True):
                    if theirs is mine:
                        change = (0, 0, 0, sign, sign if won_together else 0)
                    elif scope != ALL_GAMES:
                        continue
                    else:
                        won = sign if rank < their_rank else 0
                        lost = sign if rank > their_rank else 0
                        change = (sign, won, lost, 0, 0)
                    for player in mine:
                        for other in theirs:
                            if other == player:
                                continue
                            record = pairs.get((scope, player, other))
                            if record is None:
                                pairs[(scope, player, other)] = list(change)
                            else:
                                for index, value in enumerate(change):
                                    record[index] += value

    def count_alone(self, players: list[int], ranks: list[int]) -> None:
        """count() for a play where everyone plays for themselves (most plays): opponents only,
        in the "all" scope. The hot path of a rebuild: each pair of the play is counted once,
        the players in rank order (their ids breaking ties), so that every pair of a play
        without ties is a winner and a loser (the pairs' both records come from it in _fold)."""
        ranked = sorted(zip(ranks, players, strict=True))
        if len(set(ranks)) == len(ranks):
            beaten = self.beaten
            for pair in combinations([player for _, player in ranked], 2):
                beaten[pair] = beaten.get(pair, 0) + 1
            return
        for (rank, player), (their_rank, other) in combinations(ranked, 2):
            counts = self.beaten if rank < their_rank else self.tied
            counts[player, other] = counts.get((player, other), 0) + 1

    def _fold(self) -> None:
        """Add the pairs counted by count_alone to ``pairs``, both ways round."""
        pairs = self.pairs
        changes = []
        for (player, other), count in self.beaten.items():
            changes += [(player, other, count, count, 0), (other, player, count, 0, count)]
        for (player, other), count in self.tied.items():
            changes += [(player, other, count, 0, 0), (other, player, count, 0, 0)]
        for player, other, plays, won, lost in changes:
            record = pairs.get((ALL_GAMES, player, other))
            if record is None:
                pairs[(ALL_GAMES, player, other)] = [plays, won, lost, 0, 0]
            else:
                record[0] += plays
                record[1] += won
                record[2] += lost
        self.beaten.clear()
        self.tied.clear()

    def uncount(self, rows: Any) -> None:
        """Take back what the competitive plays of these rating rows counted (the rows counted
        across all games: a play's were written together)."""
        seats = (
            rows.filter(all_plays__isnull=False)
            .order_by("id")
            .values_list("play_id", "game", "player_id", "rank", "team", "is_winner")
            .iterator(chunk_size=bulk.BATCH_SIZE)
        )
        for (_, game), group in groupby(seats, key=itemgetter(0, 1)):
            rated = list(group)
            teams = play_teams([seat[4] for seat in rated])
            self.count(
                game,
                [[rated[i][2] for i in team] for team in teams],
                [rated[team[0]][3] for team in teams],
                [rated[team[0]][5] for team in teams],
                sign=-1,
            )

    def save(self, club_id: int, model: Any, *, full: bool) -> None:
        """Write the changes: after a full rebuild (the club's records deleted first) they are
        the records; otherwise they are added to the stored ones, and a record left with no
        play is deleted."""
        self._fold()
        changes = {pair: record for pair, record in self.pairs.items() if any(record)}
        gone = []
        if not full and changes:
            stored = model.objects.filter(
                club_id=club_id,
                player_id__in={player for _, player, _ in changes},
                opponent_id__in={other for _, _, other in changes},
            ).values_list("pk", "scope", "player_id", "opponent_id", *PAIR_TOTALS)
            for pk, scope, player, other, *totals in stored:
                record = changes.get((scope, player, other))
                if record is not None:
                    for index, value in enumerate(totals):
                        record[index] += value
                    if not record[0] and not record[3]:
                        gone.append(pk)
        if gone:
            model.objects.filter(pk__in=gone).delete()
        kept = [
            (club_id, player, other, scope, *record)
            for (scope, player, other), record in changes.items()
            if record[0] or record[3]
        ]
        if full:  # a club's every pair: straight to the table
            bulk.insert(model, H2H_COLUMNS, H2H_COPY_TYPES, [kept])
        elif kept:
            model.objects.bulk_create(
                [model(**dict(zip(H2H_COLUMNS, row, strict=True))) for row in kept],
                update_conflicts=True,
                unique_fields=["player", "opponent", "scope"],
                update_fields=list(PAIR_TOTALS),
                batch_size=2000,
            )

    def add(self, club_id: int, model: Any) -> None:
        """Add the counted plays to the stored records, in one statement (an upsert that adds
        to a record already there): for plays rated after every other, which take nothing
        back, so no record is left empty."""
        self._fold()
        changes = [
            (club_id, player, other, scope, *record)
            for (scope, player, other), record in self.pairs.items()
            if any(record)
        ]
        if not changes:
            return
        quote = connection.ops.quote_name
        table = quote(model._meta.db_table)
        names = [model._meta.get_field(c.removesuffix("_id")).column for c in H2H_COLUMNS]
        row = f"({', '.join(['%s'] * len(names))})"
        added = ", ".join(
            f"{quote(name)} = {table}.{quote(name)} + excluded.{quote(name)}"
            for name in PAIR_TOTALS
        )
        keys = ", ".join(
            quote(model._meta.get_field(f).column) for f in ("player", "opponent", "scope")
        )
        sql = (
            f"INSERT INTO {table} ({', '.join(quote(n) for n in names)})"
            f" VALUES {', '.join([row] * len(changes))}"
            f" ON CONFLICT ({keys}) DO UPDATE SET {added}"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [value for change in changes for value in change])


def count(state: _State, won: bool, score: int) -> None:
    """Add one play to a player's running totals in a scope."""
    state[2] += 1
    if won:
        state[3] += 1
        state[7] += 1
        if state[7] > state[8]:
            state[8] = state[7]
    else:
        state[7] = 0
    if state[4] is not None:  # a game's scope: points
        state[4] += score
        if state[5] is None or score > state[5]:
            state[5] = score
        if state[6] is None or score < state[6]:
            state[6] = score
