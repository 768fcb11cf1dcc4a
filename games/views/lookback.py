"""Looking back at a play (issue 30): a step of its replay, or a past move being corrected. Both
are the play page itself (render_play, the same templates) drawn from its log cut at that move
and judged up to there: there is no second renderer of a board, a sheet or a log."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from django.http import HttpRequest
from django.utils.translation import gettext as _

from referee import Judgement

from .. import selectors
from ..models import Seat


class BadStep(ValueError):
    """A replay step (``?at=``) that is no number."""


def replay_step(request: HttpRequest) -> int | None:
    """The step a replay URL asks for (``?at=k``: the play after its first k moves), or None
    for the play as it stands. A number past either end is the nearest end (a link kept from
    before an undo still opens); anything else is refused (BadStep)."""
    raw = request.GET.get("at")
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        raise BadStep(raw) from None


def active_entries(moves: list[selectors.LogEntry]) -> list[selectors.LogEntry]:
    """The entries of the log as it stands (none undone, replaced or dropped), in order."""
    return [entry for entry in moves if entry.undone_at is None]


@dataclass(frozen=True)
class Replay:
    """A step of a play's replay: the play after its first ``step`` moves of ``last``, each
    step a URL of its own (``url`` + ``?at=k``) to share."""

    step: int
    last: int
    url: str

    @classmethod
    def at(cls, step: int, moves: list[selectors.LogEntry], url: str) -> Replay:
        last = len(active_entries(moves))
        return cls(max(0, min(step, last)), last, url)

    def cut(self, moves: list[selectors.LogEntry]) -> list[selectors.LogEntry]:
        """The log as it stood after this step: its first moves, as the referee judges them."""
        return active_entries(moves)[: self.step]

    def link(self, step: int) -> str:
        return f"{self.url}?at={step}"

    @property
    def first(self) -> str:
        return self.link(0)

    @property
    def back(self) -> str | None:
        return self.link(self.step - 1) if self.step > 0 else None

    @property
    def forward(self) -> str | None:
        return self.link(self.step + 1) if self.step < self.last else None

    @property
    def final(self) -> str:
        return self.link(self.last)

    @property
    def said(self) -> str:
        if self.step == 0:
            return _("Before the first move (%(last)s moves in all)") % {"last": self.last}
        return _("After move %(step)s of %(last)s") % {"step": self.step, "last": self.last}


@dataclass(frozen=True)
class Correcting:
    """A past move being corrected: its place among the active moves (``index``), its name and
    how it reads ("Turn 5", "Ana plays …"), the page's form ``url``; once a correction was
    refused for breaking a later move, that refusal (``broken``: "Turn 8", ``refusal``: why)
    and the move, for the form that applies it all the same (``move_json``, ``apply_key``)."""

    index: int
    name: str
    text: str
    url: str
    cancel: str
    broken: str = ""
    refusal: str = ""
    move_json: str = ""
    apply_key: str = ""


def judged_seats(seats: list[Seat], judgement: Judgement) -> list[Seat]:
    """The seats as the log cut there scores them: copies (the stored seats hold the play as it
    stands), each with the referee's score and, once the cut log is finished, its winners."""
    finished = judgement.status == "finished"
    shown = []
    for seat in seats:
        name = seat.player.name
        step = copy.copy(seat)
        step.score = int(judgement.scores.get(name, 0))
        step.is_winner = finished and name in judgement.winners
        shown.append(step)
    return shown
