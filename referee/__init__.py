"""The referee: pure-Python rules engines for the five games, the judging protocol and the
``gamelog/1`` format (docs/gamelog.md). No Django import below here: ``python -m referee FILE...``
judges logs with the standard library alone.
"""

from .base import Game, IllegalMove, SetupError
from .judge import FORMAT, Judgement, judge, judge_next, keep, resume
from .registry import GAMES

__all__ = [
    "FORMAT",
    "GAMES",
    "Game",
    "IllegalMove",
    "Judgement",
    "SetupError",
    "judge",
    "judge_next",
    "keep",
    "resume",
]
