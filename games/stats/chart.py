"""The rating chart of a player's page: the points it draws, read from the running totals, and
the SVG's geometry (round ticks, dates under the axis) computed here, so that the template only
writes it out."""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable
from dataclasses import dataclass

from ..models import ALL_GAMES, Player, RatingChange, scope_column, scope_rows
from ..ratings import ordinal


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
    draws: the player's n-th row in a scope is the one whose running ``plays`` is n, found in an
    index, so that the table's rows read are the chart's points however long the history."""
    mu, sigma, plays = (scope_column(scope, name) for name in ("mu_after", "sigma_after", "plays"))
    rows = RatingChange.objects.filter(scope_rows(scope), player=player)
    count = (
        rows.filter(**{f"{mu}__isnull": False})  # a cooperative game's rows have no rating
        .order_by("-played_at", f"-{plays}")
        .values_list(plays, flat=True)
        .first()
    )
    if not count:
        return None
    wanted: Iterable[int] = range(1, count + 1)
    if count > CHART_MAX_POINTS:
        # Keep the shape on a phone: an evenly spaced sample, the last play always included.
        step = count / CHART_MAX_POINTS
        wanted = [int(i * step) + 1 for i in range(CHART_MAX_POINTS - 1)] + [count]
    # On PostgreSQL a seek each on rating_player_game_plays or rating_player_plays (every row of
    # a rated scope is rated: asking it lets the database use the game's index, which holds only
    # those). SQLite has neither (models.IndexNotOnSQLite): it walks the player's entries of the
    # time index (rating_player_game_time, rating_player_time), checks the count there, reads
    # from the table only the rows wanted and sorts those (at most CHART_MAX_POINTS).
    return draw_rating_chart(
        list(
            rows.filter(**{f"{mu}__isnull": False, f"{plays}__in": wanted})
            .order_by(plays)  # the play order: the count goes up with the time
            .values_list("played_at", mu, sigma)
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
