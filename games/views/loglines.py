"""The play page's move log (games.movelog), drawn a line at a time (plays/_log_lines.html) for
the log to grow by appending them (games.parts.Lines): a page that shows the log gets only the
lines it lacks, and the lines of a log that grew are told and drawn on from those kept
(movelog.TOLD), not all again (issue 32)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import get_language

from referee import Judgement

from .. import jinja, movelog, selectors, services
from ..models import Play
from ..parts import Lines


def whole(
    play: Play,
    judgement: Judgement,
    moves: list[selectors.LogEntry],
    *,
    can_correct: bool,
    cut: bool = False,
) -> Lines:
    """Every line of the play's log. ``cut``: the log as a replay step or a correction cuts it,
    told for that page alone (the play's own log is what is kept)."""
    zone, draw = play.club.zone, _drawer(play.pk, can_correct)
    if cut:
        return Lines(draw(movelog.move_log(judgement, moves, zone)))
    key = (play.pk, play.started_at, play.club.time_zone, get_language(), can_correct)
    return movelog.TOLD.lines(key, judgement, moves, zone, draw)


def appended(
    play: Play, judgement: Judgement, entry: services.PlayState, *, can_correct: bool
) -> Lines:
    """The line of the move ``entry`` has just entered, to append to the page's log (a move's
    answer): told against the game before it (movelog.last_line)."""
    line = movelog.last_line(entry.before, judgement, entry.entered, play.club.zone)
    return Lines(_drawer(play.pk, can_correct)([line]), whole=False)


def _drawer(play_id: int, can_correct: bool) -> Callable[[list[movelog.LogLine]], list[str]]:
    """What draws lines of the play's log: each one's HTML."""

    def draw(lines: list[movelog.LogLine]) -> list[str]:
        if not lines:
            return []
        out: list[str] = []
        context = {"lines": lines, "out": out, "play_id": play_id, "can_correct": can_correct}
        jinja.render("plays/_log_lines.html", context)
        return [jinja.as_django_writes(str(line)) for line in out]

    return draw
