"""A player's page: their record in each game and across games (read from their running
totals), their record with every player they met (head-to-head, partnerships) and, among those,
their nemesis and victim."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Subquery

from referee import GAMES

from ..models import (
    ALL_GAMES,
    IN_EITHER_SCOPE,
    HeadToHead,
    Player,
    RatingChange,
    scope_column,
    scope_rows,
)
from ..ratings import COOPERATIVE_GAMES, ordinal
from .rules import POINT_GAMES, GameInfo, club_games, is_provisional, win_rate

#: Opponents sharing fewer plays than this are never anyone's nemesis.
NEMESIS_MIN_PLAYS = 3


@dataclass
class GameRecord:
    game: str
    plays: int = 0
    wins: int = 0
    points: int | None = None  # the sum of the player's scores
    best: int | None = None
    worst: int | None = None
    mu: float | None = None
    sigma: float | None = None
    #: the game as the club's statistics know it (club_games); None: one of the referee's
    info: GameInfo | None = None

    @property
    def provisional(self) -> bool:
        return is_provisional(self.mu, self.plays)

    @property
    def title(self) -> str:
        return self.info.title if self.info is not None else GAMES[self.game].title

    @property
    def cooperative(self) -> bool:
        if self.info is not None:
            return self.info.cooperative
        return self.game in COOPERATIVE_GAMES

    @property
    def losses(self) -> int:
        return self.plays - self.wins

    @property
    def win_rate(self) -> float | None:
        return None if self.cooperative else win_rate(self.wins, self.plays)

    @property
    def has_points(self) -> bool:
        scored = self.info.has_points if self.info is not None else self.game in POINT_GAMES
        return scored and self.plays > 0 and self.points is not None

    @property
    def average(self) -> float | None:
        return self.points / self.plays if self.has_points else None

    @property
    def ordinal(self) -> float | None:
        return None if self.mu is None else ordinal(self.mu, self.sigma)


@dataclass
class Rivalry:
    player_id: int
    player: str
    plays: int = 0
    won: int = 0  # plays where our player ranked above this opponent
    lost: int = 0  # plays where this opponent ranked above our player
    together: int = 0  # plays as partners (team play)
    together_won: int = 0

    @property
    def drawn(self) -> int:
        return self.plays - self.won - self.lost


@dataclass
class Partnership:
    """A partner of a player's team plays (finished ones): plays together, wins together."""

    player_id: int
    player: str
    plays: int = 0
    wins: int = 0


@dataclass
class PlayerSummary:
    player: Player
    games: list[GameRecord]  # most played first
    plays: int  # competitive
    wins: int  # competitive
    team_plays: int  # cooperative
    team_wins: int
    current_streak: int
    longest_streak: int
    last_played: datetime.datetime | None
    rivals: list[Rivalry]  # most shared plays first
    partners: list[Partnership]  # most plays together first
    nemesis: Rivalry | None
    victim: Rivalry | None
    rating: GameRecord | None  # across all games: mu, sigma

    @property
    def win_rate(self) -> float | None:
        return win_rate(self.wins, self.plays)

    @property
    def team_losses(self) -> int:
        return self.team_plays - self.team_wins


def player_summary(player: Player) -> PlayerSummary:
    """The player's record, read from their running totals (their last rating row in each
    scope) and pair records: a few indexed queries, however long their history."""
    known = club_games(player.club_id)
    latest = {row["scope"]: row for row in latest_ratings(player, scopes=[ALL_GAMES, *known])}
    games = {
        scope: GameRecord(
            scope,
            plays=row["plays"],
            wins=row["wins"],
            # Points only where the score is a points total (see the package docstring); where
            # the lowest score wins, the best is the lowest.
            **(
                {
                    "points": row["points"],
                    "best": row["worst"] if known[scope].lowest_wins else row["best"],
                    "worst": row["best"] if known[scope].lowest_wins else row["worst"],
                }
                if known[scope].has_points
                else {}
            ),
            mu=row["mu_after"],
            sigma=row["sigma_after"],
            info=known[scope],
        )
        for scope, row in latest.items()
        if scope != ALL_GAMES and scope in known
    }
    overall = latest.get(ALL_GAMES)
    rating = None
    if overall is not None:
        rating = GameRecord(
            ALL_GAMES, plays=overall["plays"], mu=overall["mu_after"], sigma=overall["sigma_after"]
        )
    records = pair_records(player)
    rivals = [record for record in records if record.plays]
    eligible = [r for r in rivals if r.plays >= NEMESIS_MIN_PLAYS]
    # The tie-break order of the package docstring (and of the player page's note).
    nemesis = min(eligible, key=lambda r: (-r.lost, r.won, r.player.casefold()), default=None)
    victim = min(eligible, key=lambda r: (-r.won, r.lost, r.player.casefold()), default=None)
    cooperative = [g for g in games.values() if g.cooperative]
    return PlayerSummary(
        player=player,
        games=sorted(games.values(), key=lambda g: (-g.plays, g.title)),
        # Competitive plays and wins are counted once each in the "all" scope.
        plays=overall["plays"] if overall else 0,
        wins=overall["wins"] if overall else 0,
        team_plays=sum(g.plays for g in cooperative),
        team_wins=sum(g.wins for g in cooperative),
        current_streak=overall["streak"] if overall else 0,
        longest_streak=overall["longest"] if overall else 0,
        last_played=max((row["played_at"] for row in latest.values()), default=None),
        rivals=rivals,
        partners=partnerships(records),
        nemesis=nemesis if nemesis and nemesis.lost else None,
        victim=victim if victim and victim.won else None,
        rating=rating,
    )


#: What latest_ratings() gives of each scope's last row.
LATEST_FIELDS = (
    "played_at", "mu_after", "sigma_after", "plays", "wins",
    "points", "best", "worst", "streak", "longest",
)  # fmt: skip


def latest_ratings(player: Player, scopes: list[str] | None = None) -> list[dict[str, Any]]:
    """The player's last row in each scope (of ``scopes``, or every game) where they have one,
    as a dict of LATEST_FIELDS and its ``scope`` (across all games the row's ``all_`` columns,
    and no points): one index seek per scope, in two queries."""
    scopes = scopes or list(GAMES)
    last = {
        f"last_{index}": Subquery(
            RatingChange.objects.filter(scope_rows(scope), player=OuterRef("pk"))
            .order_by("-played_at", f"-{scope_column(scope, 'plays')}")
            .values("id")[:1]
        )
        for index, scope in enumerate(scopes)
    }
    ids = Player.objects.filter(pk=player.pk).annotate(**last).values_list(*last).first()
    if ids is None:
        return []
    rows = {
        row["id"]: row
        for row in RatingChange.objects.filter(id__in=[pk for pk in ids if pk is not None])
        .order_by()
        .values("id", *LATEST_FIELDS, *(f"all_{name}" for name in IN_EITHER_SCOPE))
    }
    found = []
    for scope, pk in zip(scopes, ids, strict=True):
        if pk is not None:
            row = rows[pk]
            if scope == ALL_GAMES:  # no points across games
                row = row | {"points": None, "best": None, "worst": None}
            found.append({"scope": scope} | {n: row[scope_column(scope, n)] for n in LATEST_FIELDS})
    return found


def pair_records(player: Player) -> list[Rivalry]:
    """The player's record with every other player they met in a finished competitive play,
    as an opponent (you beat everyone ranked below you) and as a partner, from the running pair
    records (HeadToHead): one row per player met, however many plays. Most plays against first."""
    records = [
        Rivalry(*row)
        for row in HeadToHead.objects.filter(player=player, scope=ALL_GAMES).values_list(
            "opponent_id", "opponent__name", "plays", "won", "lost", "together", "together_won"
        )
    ]
    return sorted(records, key=lambda r: (-r.plays, r.player.casefold()))


def head_to_head(player: Player) -> list[Rivalry]:
    """Pairwise results against every opponent met in a competitive finished play: in a play
    you beat everyone ranked below you; a partner is no opponent."""
    return [record for record in pair_records(player) if record.plays]


def partnerships(records: list[Rivalry]) -> list[Partnership]:
    """The partners among a player's pair records, with the plays and the wins they shared,
    most plays together first."""
    partners = [
        Partnership(r.player_id, r.player, r.together, r.together_won)
        for r in records
        if r.together
    ]
    return sorted(partners, key=lambda p: (-p.plays, p.player.casefold()))
