"""What every read of the statistics counts alike: the scopes, which of them are rated, which
games score in points, when a rating is still provisional, and a win rate."""

from __future__ import annotations

from referee import GAMES

from ..models import ALL_GAMES
from ..ratings import COOPERATIVE_GAMES

#: Games whose score is a points total, as the referee declares them.
POINT_GAMES = tuple(name for name, engine in GAMES.items() if engine.has_points)
COMPETITIVE_GAMES = tuple(name for name in GAMES if name not in COOPERATIVE_GAMES)
#: The scopes of a leaderboard: every game, and all (competitive) games together.
SCOPES = (ALL_GAMES, *GAMES)
#: A rating over fewer plays than this is provisional: too few results to say much, so it is
#: marked and, on a leaderboard by rating, ranked after the established ones.
PROVISIONAL_PLAYS = 5


def is_rated(scope: str) -> bool:
    return scope not in COOPERATIVE_GAMES


def scope_title(scope: str) -> str:
    engine = GAMES.get(scope)
    return engine.title if engine is not None else ""


def is_provisional(mu: float | None, plays: int) -> bool:
    """A rating (``mu``, none for the unrated) over fewer than PROVISIONAL_PLAYS plays."""
    return mu is not None and plays < PROVISIONAL_PLAYS


def win_rate(wins: int, plays: int) -> float | None:
    return wins / plays if plays else None
