"""A club's running totals recounted from scratch, from its seats alone, the slow and obvious way,
to check the stored ones against (the rating rows' totals and the pair records)."""

from __future__ import annotations

from types import SimpleNamespace

from games.models import (
    ALL_GAMES,
    IN_EITHER_SCOPE,
    HeadToHead,
    RatingChange,
    Seat,
    scope_column,
    scope_rows,
)
from games.ratings import cooperative_games

#: A rating row's columns of the seat, the same in both its scopes.
SEAT_FIELDS = ("id", "club_id", "play_id", "player_id", "played_at", "is_winner", "rank", "team")
#: Its columns in one scope (across all games, their ``all_`` twins; no points there).
SCOPE_FIELDS = (*IN_EITHER_SCOPE, "points", "best", "worst")


def by_scope(rows) -> list[SimpleNamespace]:
    """The rating rows (a queryset; one row a seat, both scopes) as one record per seat and
    scope, in the rows' order: its game's, then all games' where it has one (not for a
    cooperative game), each with ``scope``, the seat's columns, the scope's (``mu_after``,
    ``plays``…), the player when selected, and the ordinals (μ − 3σ) before and after."""
    found = []
    for row in rows:
        for scope in (row.game, ALL_GAMES):
            if scope == ALL_GAMES and row.all_plays is None:
                continue
            seen = SimpleNamespace(scope=scope)
            for name in SEAT_FIELDS:
                setattr(seen, name, getattr(row, name))
            if "player" in row._state.fields_cache:
                seen.player = row.player
            for name in SCOPE_FIELDS:
                column = scope_column(scope, name)
                value = getattr(row, column) if column != name or scope != ALL_GAMES else None
                setattr(seen, name, value)
            seen.ordinal_before = _ordinal(seen.mu_before, seen.sigma_before)
            seen.ordinal_after = _ordinal(seen.mu_after, seen.sigma_after)
            seen.ordinal_change = (
                None
                if seen.ordinal_before is None or seen.ordinal_after is None
                else seen.ordinal_after - seen.ordinal_before
            )
            found.append(seen)
    return found


def _ordinal(mu, sigma):
    return None if mu is None else mu - 3 * sigma


def recount(club) -> tuple[dict, dict]:
    """((scope, player) → (plays, wins, points, best, worst, streak, longest),
    (scope, player, other) → (plays, won, lost, together, together_won)), counted from the
    club's finished plays (its catalogue's co-operative games counted apart, as the referee's)."""
    cooperative = cooperative_games(club.pk)
    seats = (
        Seat.objects.filter(play__club=club, play__status="finished")
        .order_by("play__ended_at", "play__started_at", "play_id", "position")
        .values_list("play_id", "play__game", "player_id", "score", "rank", "is_winner", "team")
    )
    totals: dict = {}
    plays: dict = {}
    for play, game, player, score, rank, won, team in seats:
        plays.setdefault(play, (game, []))[1].append((player, rank, team, won))
        scopes = [game] if game in cooperative else [game, ALL_GAMES]
        for scope in scopes:
            total = totals.setdefault(
                (scope, player), {"plays": 0, "wins": 0, "scores": [], "results": []}
            )
            total["plays"] += 1
            total["wins"] += won
            total["results"].append(won)
            if scope != ALL_GAMES:
                total["scores"].append(score)
    records = {}
    for key, total in totals.items():
        longest = current = 0
        for won in total["results"]:
            current = current + 1 if won else 0
            longest = max(longest, current)
        scores = total["scores"]
        records[key] = (
            total["plays"],
            total["wins"],
            sum(scores) if scores else None,
            max(scores) if scores else None,
            min(scores) if scores else None,
            current,
            longest,
        )
    pairs: dict = {}
    for game, seated in plays.values():
        if game in cooperative:
            continue
        for scope in (game, ALL_GAMES):
            for player, rank, team, won in seated:
                for other, their_rank, their_team, _ in seated:
                    if other == player:
                        continue
                    plays_, beat, lost, together, together_won = pairs.get(
                        (scope, player, other), (0, 0, 0, 0, 0)
                    )
                    if team is not None and team == their_team:  # partners, never opponents
                        together, together_won = together + 1, together_won + won
                    elif scope != ALL_GAMES:  # a game's scope keeps only partnerships
                        continue
                    else:
                        plays_, beat, lost = (
                            plays_ + 1,
                            beat + (rank < their_rank),
                            lost + (rank > their_rank),
                        )
                    pairs[(scope, player, other)] = (plays_, beat, lost, together, together_won)
    return records, pairs


def stored(club) -> tuple[dict, dict]:
    """The same, as stored: each player's last rating row per scope, and HeadToHead."""
    records = {}
    for row in by_scope(RatingChange.objects.filter(club=club).order_by("played_at", "id")):
        records[(row.scope, row.player_id)] = (  # the last one wins
            row.plays, row.wins, row.points, row.best, row.worst, row.streak, row.longest
        )  # fmt: skip
    pairs = {
        (scope, player, other): tuple(totals)
        for scope, player, other, *totals in HeadToHead.objects.filter(club=club).values_list(
            "scope", "player_id", "opponent_id", "plays", "won", "lost", "together", "together_won"
        )
    }
    return records, pairs


#: A rating row as compared between an incremental and a full rebuild (everything but its id).
ROW = tuple(f.attname for f in RatingChange._meta.concrete_fields if f.name not in ("id", "club"))


def rating_rows(club) -> list[tuple]:
    return list(
        RatingChange.objects.filter(club=club)
        .order_by("play__ended_at", "play__started_at", "play_id", "player_id")
        .values_list(*ROW)
    )


def leaderboard_as_at(club, scope: str, day) -> dict:
    """The leaderboard of ``scope`` as at ``day``, the slow and obvious way: player's name →
    (plays, wins, μ, σ, partners), counted from the seats of the club's finished plays that
    ended before the end of ``day``, the rating read from the player's rating rows of that
    scope, all of them, in play order; partners as [(name, plays together)], most first."""
    from games.stats.rules import COMPETITIVE_GAMES
    from games.stats.standings import end_of_day

    end = end_of_day(day)
    games = COMPETITIVE_GAMES if scope == ALL_GAMES else [scope]
    seats = (
        Seat.objects.filter(
            play__club=club, play__status="finished", play__game__in=games, play__ended_at__lt=end
        )
        .order_by("play_id", "position")
        .values_list("play_id", "player_id", "player__name", "is_winner", "team")
    )
    counted: dict = {}
    by_play: dict = {}
    for play, player, name, won, team in seats:
        plays, wins = counted.get(player, (0, 0))
        counted[player] = (plays + 1, wins + won)
        by_play.setdefault(play, []).append((player, name, team))
    together: dict = {}
    for seated in by_play.values():
        for player, _, team in seated:
            for other, other_name, their_team in seated:
                if other != player and team is not None and team == their_team:
                    key = (player, other_name)
                    together[key] = together.get(key, 0) + 1
    rating: dict = {}
    for player, mu, sigma in (
        RatingChange.objects.filter(scope_rows(scope), club=club, played_at__lt=end)
        .order_by("played_at", "id")
        .values_list(
            "player_id", scope_column(scope, "mu_after"), scope_column(scope, "sigma_after")
        )
    ):
        rating[player] = (mu, sigma)  # the last one wins
    names = {player: name for _, seated in by_play.items() for player, name, _ in seated}
    board = {}
    for player, (plays, wins) in counted.items():
        partners = sorted(
            ((name, count) for (who, name), count in together.items() if who == player),
            key=lambda partner: (-partner[1], partner[0].casefold()),
        )
        board[names[player]] = (plays, wins, *rating.get(player, (None, None)), partners)
    return board
