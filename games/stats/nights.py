"""A game night's summary (each player's results, points and rating change over the night) and
a play's rating changes (each rated player's, in its game and across games)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..models import GameNight, Play, RatingChange
from ..ratings import ordinal
from .rules import club_games


def _change(before: float | None, after: float | None) -> float | None:
    return None if before is None or after is None else after - before


@dataclass
class SeatChange:
    """One player's rating (μ − 3σ) before and after a play, in its game and across games."""

    player_id: int
    player: str
    game_before: float | None = None
    game_after: float | None = None
    all_before: float | None = None
    all_after: float | None = None

    @property
    def game_change(self) -> float | None:
        return _change(self.game_before, self.game_after)

    @property
    def all_change(self) -> float | None:
        return _change(self.all_before, self.all_after)


def play_rating_changes(play: Play) -> list[SeatChange]:
    """The play page's rating changes: one line per rated player (in seat order), with both
    scopes side by side, so that a phone shows two columns rather than a row per scope."""
    changes = []
    for row in (
        RatingChange.objects.filter(play=play, mu_after__isnull=False)
        .order_by("id")
        .values(
            "player_id",
            "player__name",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "all_mu_before",
            "all_sigma_before",
            "all_mu_after",
            "all_sigma_after",
        )
    ):
        change = SeatChange(row["player_id"], row["player__name"])
        change.game_before = ordinal(row["mu_before"], row["sigma_before"])
        change.game_after = ordinal(row["mu_after"], row["sigma_after"])
        change.all_before = ordinal(row["all_mu_before"], row["all_sigma_before"])
        change.all_after = ordinal(row["all_mu_after"], row["all_sigma_after"])
        changes.append(change)
    return changes


@dataclass
class NightLine:
    player_id: int
    player: str
    plays: int = 0
    wins: int = 0
    team_plays: int = 0
    team_wins: int = 0
    points: dict[str, int] = field(default_factory=dict)  # game title -> total points
    all_before: float | None = None
    all_after: float | None = None

    @property
    def all_change(self) -> float | None:
        return _change(self.all_before, self.all_after)


@dataclass
class NightSummary:
    night: GameNight
    plays: list[Play]  # every play of the night, in order, seats prefetched
    finished: int
    lines: list[NightLine]


def night_summary(night: GameNight) -> NightSummary:
    plays = list(
        night.plays.with_durations()
        .select_related("catalogue_game")
        .prefetch_related("seats__player")
        .order_by("ended_at", "started_at", "id")
    )
    lines: dict[int, NightLine] = {}
    finished = [play for play in plays if play.status == Play.Status.FINISHED]
    known = club_games(night.club_id)
    for play in finished:
        game = known.get(play.game)
        for seat in play.seats.all():
            line = lines.setdefault(seat.player_id, NightLine(seat.player_id, seat.player.name))
            if game is not None and game.cooperative:
                line.team_plays += 1
                line.team_wins += seat.is_winner
                continue
            line.plays += 1
            line.wins += seat.is_winner
            if game is not None and game.has_points:
                line.points[game.title] = line.points.get(game.title, 0) + seat.score
    for row in (
        RatingChange.objects.filter(play__night=night, all_mu_after__isnull=False)
        .order_by("id")
        .values("player_id", "all_mu_before", "all_sigma_before", "all_mu_after", "all_sigma_after")
    ):
        line = lines.get(row["player_id"])
        if line is None:
            continue
        if line.all_before is None:
            line.all_before = ordinal(row["all_mu_before"], row["all_sigma_before"])
        line.all_after = ordinal(row["all_mu_after"], row["all_sigma_after"])
    return NightSummary(
        night=night,
        plays=plays,
        finished=len(finished),
        lines=sorted(lines.values(), key=lambda line: (-line.wins, line.player.casefold())),
    )
