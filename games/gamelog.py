"""A play in the database *is* a game log: turn a Play into a ``gamelog/1`` document."""

from __future__ import annotations

from typing import Any

from referee import FORMAT

from .models import Move, Play


def play_to_log(play: Play) -> dict[str, Any]:
    """The play's ``gamelog/1`` document: seats in order, its setup and its active moves."""
    seats = sorted(play.seats.all(), key=lambda seat: seat.position)
    return {
        "format": FORMAT,
        "game": play.game,
        "players": [seat.player.name for seat in seats],
        "setup": play.setup,
        "moves": [move.data for move in Move.objects.filter(play=play).active()],
    }


def log_filename(play: Play) -> str:
    return f"{play.night.date.isoformat()}-{play.game}-{play.pk}.json"
