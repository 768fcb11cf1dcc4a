"""Read-side helpers for plays: the judged state of a play's log, for the pages."""

from __future__ import annotations

from .models import Move, Play
from .rules import Judgement, judge
from .rules.referee import FORMAT


def seat_names(play: Play) -> list[str]:
    return list(play.seats.order_by("position").values_list("player__name", flat=True))


def log_moves(play: Play) -> list[Move]:
    """Every entry of the play's move log, undone ones included, in order."""
    return list(play.moves.select_related("entered_by", "undone_by").order_by("seq"))


def judge_moves(play: Play, players: list[str], moves: list[Move]) -> Judgement:
    """The referee's judgement of the play's active log (moves not undone)."""
    return judge(
        {
            "format": FORMAT,
            "game": play.game,
            "players": players,
            "setup": play.setup,
            "moves": [move.data for move in moves if move.undone_at is None],
        }
    )


def next_seq(moves: list[Move]) -> int:
    """The sequence number the next entry will take (the form carries it)."""
    return moves[-1].seq + 1 if moves else 0
