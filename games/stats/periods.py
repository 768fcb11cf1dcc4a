"""Statistics over a period (a year, in the club's time) and by player count: plays, wins, points
and time played, counted from the finished plays' seats when asked. The running totals
(RatingChange) hold a player's whole history; these are the slices of it a club asks for ("this
year", "at four players"), read with one query over the slice's seats."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Max, Min, OuterRef, Q, Subquery

from ..models import ALL_GAMES, Club, Play, Player, Seat
from .rules import club_games, win_rate


class _Record:
    """What a record of plays, wins and minutes says of itself (PeriodLine, Slice)."""

    plays: int
    wins: int
    minutes: int

    @property
    def win_rate(self) -> float | None:
        return win_rate(self.wins, self.plays)

    @property
    def hours(self) -> str:
        return f"{self.minutes // 60}:{self.minutes % 60:02d}"


@dataclass
class PeriodLine(_Record):
    """A player's record over a slice of the club's plays."""

    player_id: int
    player: str
    plays: int = 0  # competitive
    wins: int = 0
    team_plays: int = 0  # co-operative
    team_wins: int = 0
    points: int | None = None  # in one game's scope, when it scores in points
    minutes: int = 0  # time played, where known


def year_bounds(club: Club, year: int) -> tuple[datetime.datetime, datetime.datetime]:
    """The year's first instant and the next year's, in the club's time zone."""
    zone = club.zone
    return (
        datetime.datetime(year, 1, 1, tzinfo=zone),
        datetime.datetime(year + 1, 1, 1, tzinfo=zone),
    )


def years_played(club: Club) -> list[int]:
    """The years (in the club's time) of its first and last finished play, and all between,
    latest first."""
    span = Play.objects.filter(club=club, status=Play.Status.FINISHED).aggregate(
        first=Min("ended_at"), last=Max("ended_at")
    )
    if span["first"] is None:
        return []
    zone = club.zone
    first, last = span["first"].astimezone(zone).year, span["last"].astimezone(zone).year
    return list(range(last, first - 1, -1))


def _seats(club: Club, scope: str, year: int | None, players: int | None):
    seats = Seat.objects.filter(play__club=club, play__status=Play.Status.FINISHED)
    if scope != ALL_GAMES:
        seats = seats.filter(play__game=scope)
    if year is not None:
        start, end = year_bounds(club, year)
        seats = seats.filter(play__ended_at__gte=start, play__ended_at__lt=end)
    if players is not None:
        seats = seats.annotate(seated=_seated_at_play()).filter(seated=players)
    return seats


def _seated_at_play() -> Subquery:
    """How many players sat at a seat's play: a subquery on the seat's play."""
    return Subquery(
        Seat.objects.filter(play=OuterRef("play"))
        .order_by()
        .values("play")
        .annotate(n=Count("id"))
        .values("n")
    )


def _minutes_of(
    duration: int | None, first: datetime.datetime | None, last: datetime.datetime | None
) -> int:
    if duration is not None:
        return duration
    if first is None or last is None or last <= first:
        return 0
    return round((last - first).total_seconds() / 60)


def period_lines(
    club: Club,
    scope: str = ALL_GAMES,
    *,
    year: int | None = None,
    players: int | None = None,
    player: Player | None = None,
) -> list[PeriodLine]:
    """Each player's record over the club's finished plays of ``scope`` (a game, or all games),
    in ``year`` (the club's time) and at ``players`` seats when given, most wins first."""
    games = club_games(club.pk)
    seats = _seats(club, scope, year, players)
    if player is not None:
        seats = seats.filter(player=player)
    kept = Q(play__moves__undone_at__isnull=True)
    rows = (
        seats.order_by()
        .values(
            "id",  # one row per seat, however alike two seats are
            "player_id",
            "player__name",
            "play__game",
            "is_winner",
            "score",
            "play__duration_minutes",
        )
        .annotate(
            first=Min("play__moves__entered_at", filter=kept),
            last=Max("play__moves__entered_at", filter=kept),
        )
    )
    lines: dict[int, PeriodLine] = {}
    scored = scope != ALL_GAMES and scope in games and games[scope].has_points
    for row in rows:
        line = lines.setdefault(row["player_id"], PeriodLine(row["player_id"], row["player__name"]))
        game = games.get(row["play__game"])
        if game is not None and game.cooperative:
            line.team_plays += 1
            line.team_wins += row["is_winner"]
        else:
            line.plays += 1
            line.wins += row["is_winner"]
        if scored:
            line.points = (line.points or 0) + row["score"]
        line.minutes += _minutes_of(row["play__duration_minutes"], row["first"], row["last"])
    return sorted(
        lines.values(),
        key=lambda line: (-line.wins, -line.team_wins, -line.plays, line.player.casefold()),
    )


@dataclass
class Slice(_Record):
    """One row of a player's page's breakdown: a year, or a player count."""

    label: int
    plays: int
    wins: int
    team_plays: int
    team_wins: int
    minutes: int


def player_breakdown(player: Player) -> dict[str, list[Slice]]:
    """A player's plays by year (the club's time) and by player count, latest year and fewest
    players first: one query over their seats."""
    club = player.club
    games = club_games(club.pk)
    kept = Q(play__moves__undone_at__isnull=True)
    rows = (
        Seat.objects.filter(player=player, play__status=Play.Status.FINISHED)
        .order_by()
        .annotate(
            seated=_seated_at_play(),
            first=Min("play__moves__entered_at", filter=kept),
            last=Max("play__moves__entered_at", filter=kept),
        )
        .values_list(
            "play__game",
            "is_winner",
            "play__ended_at",
            "play__duration_minutes",
            "seated",
            "first",
            "last",
        )  # fmt: skip
    )
    by_year: dict[int, list[int]] = {}
    by_count: dict[int, list[int]] = {}
    zone = club.zone
    for game_key, won, ended, duration, seated, first, last in rows:
        game = games.get(game_key)
        apart = game is not None and game.cooperative
        minutes = _minutes_of(duration, first, last)
        for table, label in ((by_year, ended.astimezone(zone).year), (by_count, seated)):
            totals = table.setdefault(label, [0, 0, 0, 0, 0])
            totals[2 if apart else 0] += 1
            totals[3 if apart else 1] += won
            totals[4] += minutes
    return {
        "years": [Slice(year, *by_year[year]) for year in sorted(by_year, reverse=True)],
        "counts": [Slice(count, *by_count[count]) for count in sorted(by_count)],
    }
