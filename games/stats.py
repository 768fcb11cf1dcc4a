"""Read-side selectors: player history, leaderboards, head-to-head, game night summaries.

Only finished plays count, anywhere; plays in progress and abandoned plays count nowhere.

- **Wins.** A seat with ``is_winner`` won: a tie for first is a win for each tied player.
- **Cooperative games** (the referee's ``cooperative``: 3-High): the table wins or loses as one
  team. Their plays are counted as team wins and team losses, apart, and never enter a
  competitive win rate, streak, head-to-head or rating.
- **Points.** Best / average / worst score is shown only for games whose score is a points total
  (the referee's ``has_points``: Thricewise and Forget Venice). Punto's score counts rounds won and
  Buntherum's counts cards turned; they measure progress toward the win, not points, and 3-High
  has no per-player score.
- **Head-to-head** (pairwise): in a play you beat everyone ranked below you.
- **Nemesis and victim**, among opponents sharing at least ``NEMESIS_MIN_PLAYS`` plays: the
  nemesis is the opponent who has beaten you most often; on a tie, the one you have beaten least
  often; still tied, the first by name. The victim ("beaten most") mirrors it: the opponent you
  have beaten most often, then the one who has beaten you least often, then the first by name.
  Nobody is a nemesis who never beat you, nor a victim you never beat.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from referee import GAMES

from .models import (
    ALL_GAMES,
    Club,
    GameNight,
    HeadToHead,
    Play,
    Player,
    RatingChange,
)
from .ratings import COOPERATIVE_GAMES, ordinal

#: Games whose score is a points total, as the referee declares them.
POINT_GAMES = tuple(name for name, engine in GAMES.items() if engine.has_points)
COMPETITIVE_GAMES = tuple(name for name in GAMES if name not in COOPERATIVE_GAMES)
#: The scopes of a leaderboard: every game, and all (competitive) games together.
SCOPES = (ALL_GAMES, *GAMES)
#: Opponents sharing fewer plays than this are never anyone's nemesis.
NEMESIS_MIN_PLAYS = 3

SORT_KEYS = ("ordinal", "mu", "sigma", "plays", "wins", "losses", "win_rate", "player")


def is_rated(scope: str) -> bool:
    return scope not in COOPERATIVE_GAMES


def scope_title(scope: str) -> str:
    engine = GAMES.get(scope)
    return engine.title if engine is not None else ""


def end_of_day(day: datetime.date) -> datetime.datetime:
    """The first instant after ``day`` in the current time zone: "as at" ``day`` means before it."""
    return timezone.make_aware(
        datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time.min)
    )


def win_rate(wins: int, plays: int) -> float | None:
    return wins / plays if plays else None


# Leaderboards -------------------------------------------------------------------------------


@dataclass
class Standing:
    player_id: int
    player: str
    plays: int
    wins: int
    mu: float | None
    sigma: float | None

    @property
    def losses(self) -> int:
        return self.plays - self.wins

    @property
    def win_rate(self) -> float | None:
        return win_rate(self.wins, self.plays)

    @property
    def ordinal(self) -> float | None:
        return None if self.mu is None else ordinal(self.mu, self.sigma)

    def as_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "plays": self.plays,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
        }


def leaderboard(
    club: Club,
    scope: str,
    *,
    min_plays: int = 1,
    as_of: datetime.date | None = None,
    sort: str = "-ordinal",
) -> list[Standing]:
    """Each player's rating and running totals in ``scope`` after their last play (before the
    end of ``as_of``), for players with at least ``min_plays`` plays, sorted by ``sort``
    (a key of SORT_KEYS, ``-`` first for descending; ties by name)."""
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}")
    rows = RatingChange.objects.filter(player=OuterRef("pk"), scope=scope)
    # The calendar's last day (9999-12-31) has no end to compare with: "as of" it is everything.
    if as_of is not None and as_of < datetime.date.max:
        rows = rows.filter(played_at__lt=end_of_day(as_of))
    last = Player.objects.filter(club=club).annotate(
        last=Subquery(rows.order_by("-played_at", "-id").values("id")[:1])
    )
    last_ids = [pk for pk in last.values_list("last", flat=True) if pk is not None]
    standings = [
        Standing(
            player_id=row["player_id"],
            player=row["player__name"],
            plays=row["plays"],
            wins=row["wins"],
            mu=row["mu_after"],
            sigma=row["sigma_after"],
        )
        for row in RatingChange.objects.filter(id__in=last_ids, plays__gte=max(min_plays, 1))
        .order_by()
        .values("player_id", "player__name", "plays", "wins", "mu_after", "sigma_after")
    ]
    return sort_standings(standings, sort)


def sort_standings(standings: list[Standing], sort: str) -> list[Standing]:
    descending = sort.startswith("-")
    key = sort.lstrip("-")
    if key not in SORT_KEYS:
        raise ValueError(f"unknown sort {sort!r}")
    standings = sorted(standings, key=lambda s: s.player.casefold())
    if key == "player":
        return standings[::-1] if descending else standings

    def value(standing: Standing) -> tuple[bool, float]:
        number = getattr(standing, key)
        missing = number is None
        # Missing values (unrated) go last whichever the direction.
        return (missing if descending else not missing, number or 0.0)

    return sorted(standings, key=value, reverse=descending)


# Player pages -------------------------------------------------------------------------------


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

    @property
    def title(self) -> str:
        return GAMES[self.game].title

    @property
    def cooperative(self) -> bool:
        return self.game in COOPERATIVE_GAMES

    @property
    def losses(self) -> int:
        return self.plays - self.wins

    @property
    def win_rate(self) -> float | None:
        return None if self.cooperative else win_rate(self.wins, self.plays)

    @property
    def has_points(self) -> bool:
        return self.game in POINT_GAMES and self.plays > 0 and self.points is not None

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

    @property
    def drawn(self) -> int:
        return self.plays - self.won - self.lost


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
    scope) and head-to-head records: a few indexed queries, however long their history."""
    latest = {row["scope"]: row for row in latest_ratings(player, scopes=list(SCOPES))}
    games = {
        scope: GameRecord(
            scope,
            plays=row["plays"],
            wins=row["wins"],
            # Points only where the score is a points total (see the module docstring).
            **(
                {"points": row["points"], "best": row["best"], "worst": row["worst"]}
                if scope in POINT_GAMES
                else {}
            ),
            mu=row["mu_after"],
            sigma=row["sigma_after"],
        )
        for scope, row in latest.items()
        if scope != ALL_GAMES
    }
    overall = latest.get(ALL_GAMES)
    rating = None
    if overall is not None:
        rating = GameRecord(ALL_GAMES, mu=overall["mu_after"], sigma=overall["sigma_after"])
    rivals = head_to_head(player)
    eligible = [r for r in rivals if r.plays >= NEMESIS_MIN_PLAYS]
    # The tie-break order of the module docstring (and of the player page's note).
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
        nemesis=nemesis if nemesis and nemesis.lost else None,
        victim=victim if victim and victim.won else None,
        rating=rating,
    )


#: What latest_ratings() reads of each row.
LATEST_FIELDS = (
    "scope", "played_at", "mu_after", "sigma_after", "plays", "wins",
    "points", "best", "worst", "streak", "longest",
)  # fmt: skip


def latest_ratings(player: Player, scopes: list[str] | None = None) -> list[dict[str, Any]]:
    """The player's last row in each scope (of ``scopes``, or every game) where they have one:
    one index lookup per scope, in two queries."""
    last = {
        f"last_{index}": Subquery(
            RatingChange.objects.filter(player=OuterRef("pk"), scope=scope)
            .order_by("-played_at", "-id")
            .values("id")[:1]
        )
        for index, scope in enumerate(scopes or list(GAMES))
    }
    ids = Player.objects.filter(pk=player.pk).annotate(**last).values_list(*last).first() or ()
    found = [pk for pk in ids if pk is not None]
    return list(RatingChange.objects.filter(id__in=found).order_by().values(*LATEST_FIELDS))


def head_to_head(player: Player) -> list[Rivalry]:
    """Pairwise results against every opponent met in a competitive finished play (in a play
    you beat everyone ranked below you), from the running head-to-head records."""
    rivals = [
        Rivalry(*row)
        for row in HeadToHead.objects.filter(player=player).values_list(
            "opponent_id", "opponent__name", "plays", "won", "lost"
        )
    ]
    return sorted(rivals, key=lambda r: (-r.plays, r.player.casefold()))


@dataclass
class RatingChart:
    """A server-rendered SVG line of the ordinal (μ − 3σ) over the player's rated plays."""

    width: int
    height: int
    points: str  # the polyline's "x,y x,y ..."
    band: str  # the polygon of μ ± σ, drawn under the line
    top: float
    bottom: float
    first: datetime.datetime
    last: datetime.datetime
    count: int
    top_y: float = 0.0
    bottom_y: float = 0.0
    zero_y: float | None = None


CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 160, 8
CHART_MAX_POINTS = 240


def rating_chart(player: Player, scope: str = ALL_GAMES) -> RatingChart | None:
    """The chart of the player's rating in ``scope`` (a rated one). Reads only the points it
    draws: the player's n-th row in a scope is the one whose running ``plays`` is n (an index
    lookup each), so a long history costs no more than a short one."""
    rated = RatingChange.objects.filter(player=player, scope=scope, mu_after__isnull=False)
    count = rated.order_by("-plays").values_list("plays", flat=True).first()
    if not count:
        return None
    wanted: Iterable[int] = range(1, count + 1)
    if count > CHART_MAX_POINTS:
        # Keep the shape on a phone: an evenly spaced sample, the last play always included.
        step = count / CHART_MAX_POINTS
        wanted = [int(i * step) + 1 for i in range(CHART_MAX_POINTS - 1)] + [count]
    history = list(
        rated.filter(plays__in=wanted)
        .order_by("plays")
        .values_list("played_at", "mu_after", "sigma_after")
    )
    first = history[0][0]
    values = [ordinal(mu, sigma) for _, mu, sigma in history]
    lows = [mu - sigma for _, mu, sigma in history]
    highs = [mu + sigma for _, mu, sigma in history]
    top, bottom = max(max(values), max(highs)), min(min(values), min(lows))
    span = (top - bottom) or 1.0
    inner_w, inner_h = CHART_WIDTH - 2 * CHART_PAD, CHART_HEIGHT - 2 * CHART_PAD
    count = len(history)

    def x(index: int) -> float:
        return CHART_PAD + (inner_w * index / (count - 1) if count > 1 else inner_w / 2)

    def y(value: float) -> float:
        return CHART_PAD + inner_h * (top - value) / span

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    upper = [f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(highs)]
    lower = [f"{x(i):.1f},{y(v):.1f}" for i, v in reversed(list(enumerate(lows)))]
    return RatingChart(
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        points=line,
        band=" ".join(upper + lower),
        top=top,
        bottom=bottom,
        first=first,
        last=history[-1][0],
        count=count,
        top_y=y(top),
        bottom_y=y(bottom),
        zero_y=y(0.0) if bottom < 0 < top else None,
    )


# Plays and game nights ----------------------------------------------------------------------


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
    changes: dict[int, SeatChange] = {}
    for row in (
        RatingChange.objects.filter(play=play, mu_after__isnull=False)
        .order_by("id")
        .values(
            "player_id",
            "player__name",
            "scope",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
        )
    ):
        change = changes.setdefault(
            row["player_id"], SeatChange(row["player_id"], row["player__name"])
        )
        before = ordinal(row["mu_before"], row["sigma_before"])
        after = ordinal(row["mu_after"], row["sigma_after"])
        if row["scope"] == ALL_GAMES:
            change.all_before, change.all_after = before, after
        else:
            change.game_before, change.game_after = before, after
    return list(changes.values())


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
        night.plays.prefetch_related("seats__player").order_by("ended_at", "started_at", "id")
    )
    lines: dict[int, NightLine] = {}
    finished = [play for play in plays if play.status == Play.Status.FINISHED]
    for play in finished:
        for seat in play.seats.all():
            line = lines.setdefault(seat.player_id, NightLine(seat.player_id, seat.player.name))
            if play.game in COOPERATIVE_GAMES:
                line.team_plays += 1
                line.team_wins += seat.is_winner
                continue
            line.plays += 1
            line.wins += seat.is_winner
            if play.game in POINT_GAMES:
                title = GAMES[play.game].title
                line.points[title] = line.points.get(title, 0) + seat.score
    for row in (
        RatingChange.objects.filter(play__night=night, scope=ALL_GAMES)
        .order_by("id")
        .values("player_id", "mu_before", "sigma_before", "mu_after", "sigma_after")
    ):
        line = lines.get(row["player_id"])
        if line is None:
            continue
        if line.all_before is None:
            line.all_before = ordinal(row["mu_before"], row["sigma_before"])
        line.all_after = ordinal(row["mu_after"], row["sigma_after"])
    return NightSummary(
        night=night,
        plays=plays,
        finished=len(finished),
        lines=sorted(lines.values(), key=lambda line: (-line.wins, line.player.casefold())),
    )
