"""What the services' tests share: the rows a refused change must leave as they were, the
Buntherum moves the ``play`` fixture takes, and a Punto log not yet begun."""

from games.models import GameNight, Move, Play, Player, Seat
from tests.conftest import BUNTHERUM_SERIES, PLAY_FIRST_MOVE

SERIES = BUNTHERUM_SERIES
GOOD = PLAY_FIRST_MOVE
TIE = {"card": "blue-ball", "tie": ["Ana", "Ben"]}
BAD = {"card": "blue-flower", "call": {"player": "Chloé", "series": 3}}
COLOURS = [["red", "blue"], ["orange", "green"], ["blue", "red"], ["green", "orange"]]


def punto_log(*players: str, **setup) -> dict:
    """A Punto log not yet begun, seating ``players`` (two to four) in that order, each with
    their colours; ``setup`` adds to them (teams, …)."""
    colours = dict(zip(players, COLOURS[: len(players)], strict=True))
    return {
        "format": "gamelog/1",
        "game": "punto",
        "players": list(players),
        "setup": {"colours": colours, **setup},
        "moves": [],
    }


def snapshot():
    return (
        list(Move.objects.values_list("play_id", "seq", "data", "undone_at")),
        list(Seat.objects.values_list("id", "score", "rank", "is_winner")),
        list(Play.objects.values_list("id", "status", "details")),
        Player.objects.count(),
        GameNight.objects.count(),
    )
