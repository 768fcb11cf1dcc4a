"""The play page's move log: one line per entry, in the reader's language, as a player would tell
the game ("Turn 3 — Ana reveals The Sailor, Ben The Origin; Ana places The Sailor at C4: +4"),
with who entered each and when, in the club's time zone; undone entries are kept, struck through.

The lines are told from the judgement already in hand: its plans are made again on a fresh game
(``commit`` only, no judging), so each move is told against the game as it stood, and nothing is
read from the database. An undone entry is told against the game as it stood when the entries
before it (the ones still in the log) had been made; should that no longer be possible (the
referee changed its mind), it is shown as the JSON it was.
"""

from __future__ import annotations

import contextlib
import datetime
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from referee import FORMAT, GAMES, Game, Judgement, judge
from referee.base import Plan
from referee.judge import Plans, Recalled

from .models import Move
from .parts import Lines
from .selectors import LogEntry
from .ui import GameUI, Reason, sentence, ui_for


@dataclass(frozen=True, slots=True)
class LogLine:
    seq: int
    #: the move as the players count it: "Turn 3", "Deal 2 of 12"
    name: str
    #: what happened, told in the reader's language
    text: str
    #: what it led to ("Ana wins round 2"), or ""
    outcome: str
    undone: bool
    entered_by: str | None
    entered_at: datetime.datetime
    undone_by: str | None
    undone_at: datetime.datetime | None
    #: why the move scored what it did (``games.ui.Reason``s), folded under the line
    why: tuple[Reason, ...] = ()
    #: its place among the moves still in the log (from 0; None once out of it), for
    #: "Correct this move"
    index: int | None = None
    #: why it is out of the log: "" undone, "replaced", "dropped" (games.models.Move.Struck)
    struck: str = ""

    @property
    def entered_time(self) -> str:
        # The night's date is on the page already: the time of day is enough.
        return self.entered_at.strftime("%H:%M")

    @property
    def undone_time(self) -> str:
        return self.undone_at.strftime("%H:%M") if self.undone_at else ""


def _fresh_game(judgement: Judgement) -> Game | None:
    """The game as it starts, to make the judgement's plans again (None when it cannot be)."""
    if judgement.game not in GAMES or judgement.setup is None:
        return None
    try:
        return GAMES[judgement.game].start(list(judgement.scores), judgement.setup)
    except Exception:  # the referee no longer reads this setup: tell the moves as JSON
        return None


def _every_plan(judgement: Judgement, entries: Sequence[LogEntry]) -> Sequence[Plan]:
    """The plan of every active entry: the judgement's own, or, for a judgement resumed from the
    state kept after the last move (which knows only that move's plan: referee.Plans), those of
    the log judged again (a page that tells the whole log after a move entry)."""
    plans = judgement.plans
    # A plan recalled from the kept state (the move before it was kept) cannot be told either:
    # a log of one move resumed from its state knows that move only so.
    if isinstance(plans, Plans) and (
        len(plans.known) != len(plans) or any(isinstance(plan, Recalled) for plan in plans.known)
    ):
        log = {
            "format": FORMAT,
            "game": judgement.game,
            "players": list(judgement.scores),
            "setup": judgement.setup,
            "moves": [entry.data for entry in entries if entry.undone_at is None],
        }
        return judge(log).plans
    return plans


def move_log(
    judgement: Judgement, entries: Sequence[LogEntry], zone: datetime.tzinfo
) -> list[LogLine]:
    """Every entry of the log, undone ones included, told in the reader's language; times in
    ``zone`` (the club's time zone)."""
    return _tell_all(judgement, entries, zone)[1]


def _tell_all(
    judgement: Judgement, entries: Sequence[LogEntry], zone: datetime.tzinfo
) -> tuple[Teller, list[LogLine]]:
    """``move_log``, with the teller that told it (the game after the log)."""
    teller = Teller(judgement, zone)
    plans = iter(_every_plan(judgement, entries) if teller.state is not None else ())
    told = [
        teller.tell(entry, next(plans, None) if entry.undone_at is None else None)
        for entry in entries
    ]
    return teller, told


class Teller:
    """Tells a log's entries in their order, each against the game as it stood: it keeps that
    game, so that a log that grew is told on from where it was (``Told``)."""

    def __init__(self, judgement: Judgement, zone: datetime.tzinfo) -> None:
        self.ui = ui_for(judgement.game) if judgement.game in GAMES else None
        self.zone = zone
        self.state = _fresh_game(judgement)
        self.active = 0  # entries still in the log so far: the position of the next one
        # The game as the log stood before the last correction (issue 30), and its number of
        # moves: the moves that correction dropped no longer judge legal where they now stand,
        # and are told against it, as they were played. None when there is none (or it cannot
        # be).
        self.before: Game | None = None
        self.played = 0
        self.replacement = False  # the next active entry is a correction's: not in the log before

    def plan(self, entry: LogEntry) -> Plan | None:
        """The plan of an active entry, judged on the game as it stands (a log that grew:
        its new moves were judged legal there), or None."""
        if self.state is None:
            return None
        try:
            return self.state.check(entry.data)
        except Exception:  # told as the JSON it was, as move_log does a move it cannot judge
            return None

    def tell(self, entry: LogEntry, plan: Plan | None) -> LogLine:
        """The entry's line; ``plan``: an active entry's, as judged."""
        ui, state = self.ui, self.state
        name = ui.move_name(state, self.active) if ui is not None else str(self.active + 1)
        text, outcome, why, index = entry.text, "", (), None
        if entry.undone_at is None:
            index = self.active
            self.active += 1
            if self.before is not None and not self.replacement:
                self.before, self.played = _made(self.before, entry, self.played)
            self.replacement = False
            if ui is not None and state is not None and plan is not None:
                try:
                    text, outcome, why = _told(ui, state, plan)
                except Exception:  # never lose the page over a line: the rest is told as JSON
                    self.state = None
        elif entry.struck == Move.Struck.DROPPED and ui is not None and self.before is not None:
            name = ui.move_name(self.before, self.played)
            text, self.before, self.played = _tell_dropped(ui, self.before, entry, self.played)
        elif ui is not None and state is not None:
            text = _tell_undone(ui, state, entry)
            if entry.struck == Move.Struck.REPLACED:
                self.before, self.played = _made(state.copy(), entry, self.active)
                self.replacement = True
        return _line(entry, name, text, outcome, why, self.zone, index)


@dataclass
class _Kept:
    entries: list[tuple]  # each entry told, as ``_entry`` writes it
    teller: Teller  # the game after them
    lines: Lines  # their lines, drawn


def _entry(entry: LogEntry) -> tuple:
    """What an entry's line is drawn from besides its move: undoing it changes it, and so does
    renaming who entered or undid it; the time it was entered tells two plays apart that got
    the same id (a database put back)."""
    return (
        entry.seq,
        entry.entered_at,
        entry.entered_by,
        entry.undone_at,
        entry.undone_by,
        entry.struck,
    )


class Told:
    """The logs told and drawn in this process, each kept with the game after its last entry,
    so that a log that grew is told and drawn on from there: deep in a play, telling and drawing
    every entry again for each move was most of the play's page (issue 32: 50 ms at move 1,000
    of a long Punto match, for each phone watching). ``size`` logs at most, the least used
    let go."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def lines(
        self,
        key: Hashable,
        judgement: Judgement,
        entries: Sequence[LogEntry],
        zone: datetime.tzinfo,
        draw: Callable[[list[LogLine]], list[str]],
    ) -> Lines:
        """The lines of ``entries`` told (``move_log``) and drawn (``draw``: each line's HTML),
        from those kept for ``key`` (the play, and everything its lines are drawn with: the
        language, the time zone, …) if they are the first of these entries."""
        if not judgement.legal:  # told as move_log does, up to the move it refuses: not kept
            return Lines(draw(move_log(judgement, entries, zone)))
        told = [_entry(entry) for entry in entries]
        # and the game as it starts, which its teller tells from (a play drawn before with no
        # entry yet may be another with the same id: a database put back)
        key = (key, judgement.game, tuple(judgement.scores), repr(judgement.setup))
        with self._lock:  # taken out while it is told on: the teller's game changes
            kept = self._kept.pop(key, None)
        if kept is not None and kept.entries == told[: len(kept.entries)]:
            teller, grown = kept.teller, entries[len(kept.entries) :]
            new = [
                teller.tell(entry, teller.plan(entry) if entry.undone_at is None else None)
                for entry in grown
            ]
            lines = kept.lines
            if new:
                lines = Lines([*lines.drawn, *draw(new)], grown_from=lines)
            if CHECK_TOLD and list(lines.drawn) != draw(move_log(judgement, entries, zone)):
                raise AssertionError(f"The log kept for {key!r} is not the log told anew.")
        else:
            teller, every = _tell_all(judgement, entries, zone)
            lines = Lines(draw(every))
        with self._lock:
            self._kept[key] = _Kept(told, teller, lines)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return lines


#: This process's told logs.
TOLD = Told()
#: Tell each log kept anew all the same, and check it (the test suite: tests/conftest.py).
CHECK_TOLD = False


def _made(game: Game, entry: LogEntry, played: int) -> tuple[Game | None, int]:
    """``game`` with the entry made on it, and its number of moves; None if it cannot be."""
    try:
        game.play(entry.data)
    except Exception:
        return None, played
    return game, played + 1


def _tell_dropped(
    ui: GameUI, before: Game, entry: LogEntry, played: int
) -> tuple[str, Game | None, int]:
    """A move a correction dropped, told against the game as the log stood before that
    correction, which it then makes (for the next one dropped); or its JSON."""
    try:
        plan = before.check(entry.data)
        text = sentence(ui.describe_move(before, plan))
        before.commit(plan)
    except Exception:
        return entry.text, None, played
    return text, before, played + 1


def last_line(
    before: Judgement, judgement: Judgement, entry: LogEntry, zone: datetime.tzinfo
) -> LogLine:
    """The line of ``entry``, the move just entered: told against the game as ``before`` (the
    judgement of the log without it) left it, and what it led to from ``judgement``'s game,
    instead of making every move of the log again (an entry's page sends only its new line).
    Neither game is changed: the move is not made a second time to tell it."""
    ui = ui_for(judgement.game) if judgement.game in GAMES else None
    state = before.state
    active = len(before.plans)
    name = ui.move_name(state, active) if ui is not None else str(active + 1)
    told = None
    if ui is not None and state is not None and judgement.plans:
        # As move_log: should telling it fail, the line is its JSON rather than no page.
        with contextlib.suppress(Exception):
            told = _told(ui, state, judgement.plans[-1], judgement.state)
    text, outcome, why = told if told is not None else (entry.text, "", ())
    return _line(entry, name, text, outcome, why, zone, active)


def _told(
    ui: GameUI, state: Game, plan: object, after: Game | None = None
) -> tuple[str, str, tuple[Reason, ...]]:
    """A move told against the game before it, which it then makes: (text, outcome, why).
    ``after``: the game once the move is made, when the caller has it (a move entry's
    judgement): ``state`` is then only read, and the move is not made a second time."""
    described, why = ui.tell_move(state, plan)
    text = sentence(described)
    if after is None:
        state.commit(plan)
        after = state
    return text, ui.move_outcome(after, plan) or "", tuple(why)


def _line(
    entry: LogEntry,
    name: str,
    text: str,
    outcome: str,
    why: tuple[Reason, ...],
    zone: datetime.tzinfo,
    index: int | None = None,
) -> LogLine:
    return LogLine(
        seq=entry.seq,
        name=name,
        text=text,
        outcome=outcome,
        undone=entry.undone_at is not None,
        entered_by=entry.entered_by,
        entered_at=entry.entered_at.astimezone(zone),
        undone_by=entry.undone_by,
        undone_at=entry.undone_at.astimezone(zone) if entry.undone_at else None,
        why=why,
        index=index,
        struck=entry.struck,
    )


def _tell_undone(ui: GameUI, state: Game, entry: LogEntry) -> str:
    """An undone entry told against the game as it stands (without making it), or its JSON."""
    try:
        return sentence(ui.describe_move(state, state.check(entry.data)))
    except Exception:  # no longer legal here (several undos in a row): as it was entered
        return entry.text
