"""A club's running totals recounted from scratch, from its seats alone, the slow and obvious way,
to check the stored ones against (the rating rows' totals and the pair records)."""

from __future__ import annotations

from games.models import ALL_GAMES, HeadToHead, RatingChange, Seat
from games.ratings import cooperative_games


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
    for row in (
        RatingChange.objects.filter(club=club)
        .order_by("played_at", "id")
        .values_list(
            "scope", "player_id", "plays", "wins", "points", "best", "worst", "streak", "longest"
        )
    ):
        records[(row[0], row[1])] = row[2:]  # the last one wins
    pairs = {
        (scope, player, other): tuple(totals)
        for scope, player, other, *totals in HeadToHead.objects.filter(club=club).values_list(
            "scope", "player_id", "opponent_id", "plays", "won", "lost", "together", "together_won"
        )
    }
    return records, pairs


#: A rating row as compared between an incremental and a full rebuild (everything but its id).
ROW = (
    "play_id", "player_id", "scope", "played_at", "is_winner", "rank", "team",
    "mu_before", "sigma_before", "mu_after", "sigma_after",
    "plays", "wins", "points", "best", "worst", "streak", "longest",
)  # fmt: skip


def rating_rows(club) -> list[tuple]:
    return list(
        RatingChange.objects.filter(club=club)
        .order_by("play__ended_at", "play__started_at", "play_id", "scope", "player_id")
        .values_list(*ROW)
    )
