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
- **Partners** (seats sharing ``Seat.team``: Punto's team play) win or lose together: a team's
  win is a win for both, they are never each other's opponents (head-to-head, nemesis), and
  each beats both opponents when their team wins. Pages name a player's partners.
- **Nemesis and victim**, among opponents sharing at least ``NEMESIS_MIN_PLAYS`` plays: the
  nemesis is the opponent who has beaten you most often; on a tie, the one you have beaten least
  often; still tied, the first by name. The victim ("beaten most") mirrors it: the opponent you
  have beaten most often, then the one who has beaten you least often, then the first by name.
  Nobody is a nemesis who never beat you, nor a victim you never beat.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, OuterRef, Q, Subquery
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
    Seat,
)
from .ratings import COOPERATIVE_GAMES, ordinal

#: Games whose score is a points total, as the referee declares them.
POINT_GAMES = tuple(name for name, engine in GAMES.items() if engine.has_points)
COMPETITIVE_GAMES = tuple(name for name in GAMES if name not in COOPERATIVE_GAMES)
#: The scopes of a leaderboard: every game, and all (competitive) games together.
SCOPES = (ALL_GAMES, *GAMES)
#: Opponents sharing fewer plays than this are never anyone's nemesis.
NEMESIS_MIN_PLAYS = 3
#: A rating over fewer plays than this is provisional: too few results to say much, so it is
#: marked and, on a leaderboard by rating, ranked after the established ones.
PROVISIONAL_PLAYS = 5

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
    #: the partners of the player's team plays in this scope: (name, plays together)
    partners: list[tuple[str, int]] = field(default_factory=list)

    @property
    def losses(self) -> int:
        return self.plays - self.wins

    @property
    def win_rate(self) -> float | None:
        return win_rate(self.wins, self.plays)

    @property
    def ordinal(self) -> float | None:
        return None if self.mu is None else ordinal(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.mu is not None and self.plays < PROVISIONAL_PLAYS

    def as_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "plays": self.plays,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "partners": [{"player": name, "plays": plays} for name, plays in self.partners],
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
        last=Subquery(rows.order_by("-plays").values("id")[:1])
    )
    last_ids = [pk for pk in last.values_list("last", flat=True) if pk is not None]
    partners = _partners_in(club, scope, as_of)
    standings = [
        Standing(
            player_id=row["player_id"],
            player=row["player__name"],
            plays=row["plays"],
            wins=row["wins"],
            mu=row["mu_after"],
            sigma=row["sigma_after"],
            partners=partners.get(row["player_id"], []),
        )
        for row in RatingChange.objects.filter(id__in=last_ids, plays__gte=max(min_plays, 1))
        .order_by()
        .values("player_id", "player__name", "plays", "wins", "mu_after", "sigma_after")
    ]
    return sort_standings(standings, sort)


def _partners_in(
    club: Club, scope: str, as_of: datetime.date | None
) -> dict[int, list[tuple[str, int]]]:
    """Each player's partners in the finished team plays of ``scope`` (before the end of
    ``as_of``): player id → [(partner's name, plays together)], most plays first.

    Today's are the running pair records (a few rows per pair of players, whatever the club's
    history); as of a past day, they are counted from the seats of the plays before it."""
    if as_of is None or as_of >= datetime.date.max:  # the last day has no end to compute
        rows = (
            HeadToHead.objects.filter(club=club, scope=scope, together__gt=0)
            .order_by()
            .values_list("player_id", "opponent__name", "together")
        )
        return _partner_lists(rows)
    seats = Seat.objects.filter(
        # One filter, so that every condition on play__seats is about the same partner's seat.
        Q(play__seats__position__lt=F("position")) | Q(play__seats__position__gt=F("position")),
        play__seats__team=F("team"),
        play__club=club,
        play__status=Play.Status.FINISHED,
        play__game__in=COMPETITIVE_GAMES if scope == ALL_GAMES else [scope],
    )
    rows = (
        seats.filter(play__ended_at__lt=end_of_day(as_of))
        .order_by()
        .values("player_id", "play__seats__player__name")
        .annotate(plays=Count("id"))
        .values_list("player_id", "play__seats__player__name", "plays")
    )
    return _partner_lists(rows)


def _partner_lists(rows: Any) -> dict[int, list[tuple[str, int]]]:
    found: dict[int, list[tuple[str, int]]] = {}
    for player_id, name, plays in rows:
        found.setdefault(player_id, []).append((name, plays))
    for partners in found.values():
        partners.sort(key=lambda partner: (-partner[1], partner[0].casefold()))
    return found


def sort_standings(standings: list[Standing], sort: str) -> list[Standing]:
    """Sorted by ``sort``; by rating (the default), players whose rating is still provisional
    come after every established one, whichever the direction: two plays without a win must not
    outrank fifteen plays with four."""
    descending = sort.startswith("-")
    key = sort.lstrip("-")
    if key not in SORT_KEYS:
        raise ValueError(f"unknown sort {sort!r}")
    standings = sorted(standings, key=lambda s: s.player.casefold())
    if key == "player":
        return standings[::-1] if descending else standings
    apart = key in ("ordinal", "mu", "sigma")

    def value(standing: Standing) -> tuple[bool, bool, float]:
        number = getattr(standing, key)
        missing = number is None
        provisional = apart and standing.provisional
        # Provisional ratings, then missing values (unrated), go last whichever the direction.
        if descending:
            return (not provisional, not missing, number or 0.0)
        return (provisional, missing, number or 0.0)

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
    def provisional(self) -> bool:
        return self.mu is not None and self.plays < PROVISIONAL_PLAYS

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
        rating = GameRecord(
            ALL_GAMES, plays=overall["plays"], mu=overall["mu_after"], sigma=overall["sigma_after"]
        )
    records = pair_records(player)
    rivals = [record for record in records if record.plays]
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
        partners=partnerships(records),
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
            .order_by("-plays")
            .values("id")[:1]
        )
        for index, scope in enumerate(scopes or list(GAMES))
    }
    ids = Player.objects.filter(pk=player.pk).annotate(**last).values_list(*last).first() or ()
    found = [pk for pk in ids if pk is not None]
    return list(RatingChange.objects.filter(id__in=found).order_by().values(*LATEST_FIELDS))


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


@dataclass
class RatingChart:
    """A server-rendered SVG chart of one thing, the rating (μ − 3σ) after each rated play of a
    player, oldest on the left: a line with a dot per play (when there are few), a rating axis
    with round ticks and a date under the first, middle and last play."""

    width: int
    height: int
    #: the plotting area: left, right, top and bottom edges
    left: int
    right: int
    top: int
    bottom: int
    points: str  # the polyline's "x,y x,y ..."
    dots: list[tuple[float, float]]  # one per play, when there are few enough to see them
    y_ticks: list[tuple[float, float]]  # (y, rating)
    x_ticks: list[tuple[float, datetime.datetime, str]]  # (x, date, text-anchor)
    first: datetime.datetime
    last: datetime.datetime
    count: int
    latest: float
    zero_y: float | None = None


CHART_WIDTH, CHART_HEIGHT = 340, 200
#: room for the rating ticks on the left, the axis's name above them, the dates under the axis
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 40, 12, 24, 36
CHART_MAX_POINTS = 240
CHART_MAX_DOTS = 40


def _nice_step(span: float, count: int = 4) -> float:
    """A round step (1, 2 or 5 × a power of ten) giving about ``count`` ticks over ``span``."""
    raw = max(span, 1e-9) / count
    power = 10 ** math.floor(math.log10(raw))
    for multiple in (1, 2, 5, 10):
        if multiple * power >= raw:
            return multiple * power
    return 10 * power  # pragma: no cover - the loop always returns


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
    return draw_rating_chart(
        list(
            rated.filter(plays__in=wanted)
            .order_by("plays")
            .values_list("played_at", "mu_after", "sigma_after")
        )
    )


def draw_rating_chart(history: list[tuple[datetime.datetime, float, float]]) -> RatingChart:
    """The chart of these (time, μ, σ) points, oldest first."""
    values = [ordinal(mu, sigma) for _, mu, sigma in history]
    count = len(history)
    tick = _nice_step(max(values) - min(values))
    low = math.floor(min(values) / tick) * tick
    high = math.ceil(max(values) / tick) * tick
    if high == low:
        low, high = low - tick, high + tick
    left, right = CHART_LEFT, CHART_WIDTH - CHART_RIGHT
    top, bottom = CHART_TOP, CHART_HEIGHT - CHART_BOTTOM

    def x(index: int) -> float:
        return left + ((right - left) * index / (count - 1) if count > 1 else (right - left) / 2)

    def y(value: float) -> float:
        return top + (bottom - top) * (high - value) / (high - low)

    ticks = []
    value = low
    while value <= high + tick / 2:
        ticks.append((y(value), round(value, 6) + 0.0))  # + 0.0: never "-0"
        value += tick
    if count == 1:
        x_ticks = [(x(0), history[0][0], "middle")]
    else:
        middle = (count - 1) // 2
        x_ticks = [(x(0), history[0][0], "start"), (x(count - 1), history[-1][0], "end")]
        if count >= 5:
            x_ticks.insert(1, (x(middle), history[middle][0], "middle"))
    return RatingChart(
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        points=" ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values)),
        dots=[(x(i), y(v)) for i, v in enumerate(values)] if count <= CHART_MAX_DOTS else [],
        y_ticks=ticks,
        x_ticks=x_ticks,
        first=history[0][0],
        last=history[-1][0],
        count=count,
        latest=values[-1],
        zero_y=y(0.0) if low < 0 < high else None,
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
