"""What every read of the statistics counts alike: the scopes, which of them are rated, which
games score in points, when a rating is still provisional, and a win rate."""

from __future__ import annotations

from dataclasses import dataclass

from referee import GAMES

from ..models import ALL_GAMES, CatalogueGame, is_catalogue_key
from ..ratings import COOPERATIVE_GAMES

#: Games whose score is a points total, as the referee declares them.
POINT_GAMES = tuple(name for name, engine in GAMES.items() if engine.has_points)
COMPETITIVE_GAMES = tuple(name for name in GAMES if name not in COOPERATIVE_GAMES)
#: The scopes of a leaderboard: every game, and all (competitive) games together.
SCOPES = (ALL_GAMES, *GAMES)
#: A rating over fewer plays than this is provisional: too few results to say much, so it is
#: marked and, on a leaderboard by rating, ranked after the established ones.
PROVISIONAL_PLAYS = 5


@dataclass(frozen=True)
class GameInfo:
    """What the statistics need to know of a game, refereed or of a club's catalogue."""

    key: str  # its scope: "punto", "game-12"
    title: str
    cooperative: bool
    has_points: bool
    lowest_wins: bool = False
    refereed: bool = True


def club_games(club_id: int) -> dict[str, GameInfo]:
    """Every game a club's statistics may name: the referee's (in the registry's order), then
    its catalogue's (by name). One query."""
    games = {
        name: GameInfo(name, engine.title, engine.cooperative, engine.has_points)
        for name, engine in GAMES.items()
    }
    for game in CatalogueGame.objects.filter(club_id=club_id).order_by("name", "id"):
        games[game.key] = GameInfo(
            game.key,
            game.name,
            game.cooperative,
            game.has_scores,
            lowest_wins=game.result == CatalogueGame.Result.LOWEST,
            refereed=False,
        )
    return games


def club_scopes(club_id: int) -> tuple[str, ...]:
    """The scopes of a club's leaderboards: all games, every refereed game, its catalogue's."""
    return (ALL_GAMES, *club_games(club_id))


def is_rated(scope: str, games: dict[str, GameInfo] | None = None) -> bool:
    if games is not None and scope in games:
        return not games[scope].cooperative
    return scope not in COOPERATIVE_GAMES


def scope_title(scope: str, games: dict[str, GameInfo] | None = None) -> str:
    if games is not None and scope in games:
        return games[scope].title
    engine = GAMES.get(scope)
    if engine is not None:
        return engine.title
    if is_catalogue_key(scope):
        found = CatalogueGame.objects.filter(pk=int(scope.split("-", 1)[1])).first()
        return found.name if found is not None else scope
    return ""


def is_provisional(mu: float | None, plays: int) -> bool:
    """A rating (``mu``, none for the unrated) over fewer than PROVISIONAL_PLAYS plays."""
    return mu is not None and plays < PROVISIONAL_PLAYS


def win_rate(wins: int, plays: int) -> float | None:
    return wins / plays if plays else None
