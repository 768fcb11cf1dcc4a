"""The leaderboard: each player's standing in a scope (rating and running totals after their
last play, as at a day if asked), their partners there, and the sorting of the standings."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from ..models import Club, HeadToHead, PartnerChange, Player, RatingChange, scope_column, scope_rows
from ..ratings import ordinal
from .rules import SCOPES, club_scopes, is_provisional, win_rate

SORT_KEYS = ("ordinal", "mu", "sigma", "plays", "wins", "losses", "win_rate", "player")


def end_of_day(day: datetime.date) -> datetime.datetime:
    """The first instant after ``day`` in the current time zone: "as at" ``day`` means before it."""
    return timezone.make_aware(
        datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time.min)
    )


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
        return is_provisional(self.mu, self.plays)

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
    if scope not in SCOPES and scope not in club_scopes(club.pk):
        raise ValueError(f"unknown scope {scope!r}")
    rows = RatingChange.objects.filter(scope_rows(scope), player=OuterRef("pk"))
    plays = scope_column(scope, "plays")
    # The player's last row in the scope (their record), or their last before the day (as at
    # it): one seek on rating_player_game_time or rating_player_time, however far back.
    if as_of is not None and as_of < datetime.date.max:
        # The calendar's last day (9999-12-31) has no end to compare with: "as of" it is
        # everything.
        rows = rows.filter(played_at__lt=end_of_day(as_of))
    last = Player.objects.filter(club=club).annotate(
        last=Subquery(rows.order_by("-played_at", f"-{plays}").values("id")[:1])
    )
    last_ids = [pk for pk in last.values_list("last", flat=True) if pk is not None]
    partners = _partners_in(club, scope, as_of)
    names = {
        name: scope_column(scope, name) for name in ("plays", "wins", "mu_after", "sigma_after")
    }
    standings = [
        Standing(
            player_id=row["player_id"],
            player=row["player__name"],
            plays=row[names["plays"]],
            wins=row[names["wins"]],
            mu=row[names["mu_after"]],
            sigma=row[names["sigma_after"]],
            partners=partners.get(row["player_id"], []),
        )
        for row in RatingChange.objects.filter(
            id__in=last_ids, **{f"{plays}__gte": max(min_plays, 1)}
        )
        .order_by()
        .values("player_id", "player__name", *names.values())
    ]
    return sort_standings(standings, sort)


def _partners_in(
    club: Club, scope: str, as_of: datetime.date | None
) -> dict[int, list[tuple[str, int]]]:
    """Each player's partners in the finished team plays of ``scope`` (before the end of
    ``as_of``): player id → [(partner's name, plays together)], most plays first.

    Today's are the running pair records (a few rows per pair of players, whatever the club's
    history); as of a past day, each pair's running totals after its last play together before
    it (models.PartnerChange)."""
    if as_of is None or as_of >= datetime.date.max:  # the last day has no end to compute
        rows = (
            HeadToHead.objects.filter(club=club, scope=scope, together__gt=0)
            .order_by()
            .values_list("player_id", "opponent__name", "together")
        )
        return _partner_lists(rows)
    # As at a past day: each pair's last partner row before it (one index seek per pair, on
    # partner_pair_time), for the pairs that are partners now (a pair that was is one still:
    # a partnership taken back takes its rows with it).
    as_at = (
        PartnerChange.objects.filter(
            player_id=OuterRef("player_id"),
            partner_id=OuterRef("opponent_id"),
            scope=scope,
            played_at__lt=end_of_day(as_of),
        )
        .order_by("-played_at", "-id")
        .values("together")[:1]
    )
    rows = (
        HeadToHead.objects.filter(club=club, scope=scope, together__gt=0)
        .order_by()
        .annotate(as_at=Subquery(as_at))
        .filter(as_at__isnull=False)
        .values_list("player_id", "opponent__name", "as_at")
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
