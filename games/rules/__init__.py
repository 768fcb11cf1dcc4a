"""The referee: pure-Python rules engines for the five games. No Django import below here."""

from .base import Game, IllegalMove, SetupError
from .referee import FORMAT, GAME_MODULES, Judgement, game_class, judge

__all__ = [
    "FORMAT",
    "GAME_MODULES",
    "Game",
    "IllegalMove",
    "Judgement",
    "SetupError",
    "game_class",
    "judge",
]
