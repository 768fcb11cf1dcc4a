"""The play page's move log (games.movelog), drawn a line at a time (in Python) for
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
from ..ui._drawing import esc, reasons, said


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
    """What draws lines of the play's log: each one's HTML. Drawn in Python (games.ui._drawing):
    a move's answer draws one line, and a template's drawing of it cost more than telling it
    (issue 32); a whole log draws hundreds."""

    def draw(lines: list[movelog.LogLine]) -> list[str]:
        if not lines:
            return []
        entered_by = said("entered by")
        correct = said("Correct this move") if can_correct else ""
        return [_line(line, entered_by, play_id, correct) for line in lines]

    return draw


def _line(line: movelog.LogLine, entered_by: str, play_id: int, correct: str) -> str:
    """A line of the log: the move, what it led to, who entered it and when, and why it
    scored, folded; for a move out of the log, struck through, with who took it out and why;
    ``correct``: "Correct this move", for a move still in the log that may be corrected."""
    if line.undone:
        struck = f" {esc(line.struck)}" if line.struck else ""
        if line.struck == "replaced":
            out, out_by = said("Replaced:"), said("replaced by")
        elif line.struck == "dropped":
            out, out_by = said("Dropped by a correction:"), said("dropped by a correction of")
        else:
            out, out_by = said("Undone:"), said("undone by")
        opening = f'<li class="undone{struck}" data-seq="{esc(line.seq)}"><span class="sr-only">'
        opening += f"{out} </span><del>"
    else:
        opening = f'<li data-seq="{esc(line.seq)}">'
    outcome = f' <span class="move-outcome">{esc(line.outcome)}</span>' if line.outcome else ""
    told = (
        f'<strong class="move-name">{esc(line.name)}</strong> — <span class="move-text">'
        f"{esc(line.text)}</span>{outcome}"
    )
    if line.undone:
        told += "</del>"
    entered = (
        f"<small>{entered_by} {esc(line.entered_by or '—')}, <time"
        f' datetime="{esc(line.entered_at.isoformat())}">{esc(line.entered_time)}</time>'
    )
    if line.undone:
        entered += (
            f" · {out_by} {esc(line.undone_by or '—')}, <time"
            f' datetime="{esc(line.undone_at.isoformat())}">{esc(line.undone_time)}</time>'
        )
    elif correct and line.index is not None:
        href = jinja.url("play-correct", play_id, line.index)
        entered += f' · <a href="{esc(href)}" class="correct-move" rel="nofollow">{correct}</a>'
    why = ""
    if line.why:
        why_it_scored = said("Why it scored")
        why = (
            f'<details class="why why-inline"><summary>{why_it_scored}</summary>'
            f'<div class="why-body" role="note">{reasons(line.why)}</div></details>'
        )
    return f"{opening}{told}\n          {entered}</small>\n          {why}</li>"
