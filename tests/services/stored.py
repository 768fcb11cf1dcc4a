"""What the services' tests share: the rows a refused change must leave as they were, and the
Buntherum moves the ``play`` fixture takes."""

from games.models import GameNight, Move, Play, Player, Seat
from tests.conftest import BUNTHERUM_SERIES, PLAY_FIRST_MOVE

SERIES = BUNTHERUM_SERIES
GOOD = PLAY_FIRST_MOVE
TIE = {"card": "blue-ball", "tie": ["Ana", "Ben"]}
BAD = {"card": "blue-flower", "call": {"player": "Chloé", "series": 3}}


def snapshot():
    return (
        list(Move.objects.values_list("play_id", "seq", "data", "undone_at")),
        list(Seat.objects.values_list("id", "score", "rank", "is_winner")),
        list(Play.objects.values_list("id", "status", "details")),
        Player.objects.count(),
        GameNight.objects.count(),
    )
