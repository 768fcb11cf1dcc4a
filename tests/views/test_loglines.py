"""games.views.loglines: the move log drawn a line at a time."""

from __future__ import annotations

import datetime

import pytest
from django.utils.translation import trans_real

from games.movelog import LogLine
from games.views import loglines

AT = datetime.datetime(2026, 11, 20, 20, 5, tzinfo=datetime.UTC)


def a_line(seq: int, *, undone: bool = False, struck: str = "") -> LogLine:
    return LogLine(
        seq=seq,
        name=f"Move {seq + 1}",
        text="Ana plays",
        outcome="",
        undone=undone,
        entered_by="mahmoud",
        entered_at=AT,
        undone_by="olivia" if undone else None,
        undone_at=AT if undone else None,
        index=None if undone else seq,
        struck=struck,
    )


@pytest.fixture
def looked_up(monkeypatch) -> list[str]:
    """The words the catalogue is asked for while drawing (games.jinja.render asks it)."""
    asked: list[str] = []
    catalog = trans_real.catalog

    class Counting:
        def __init__(self, inner):
            self.inner = inner

        def gettext(self, message):
            asked.append(message)
            return self.inner.gettext(message)

    monkeypatch.setattr(trans_real, "catalog", lambda: Counting(catalog()))
    return asked


def test_a_moves_new_line_looks_up_only_the_words_it_may_need(looked_up):
    """A move's answer draws one line, neither undone nor struck: the words of undone, replaced
    and dropped lines are not looked up for it (issue 32: each lookup was ~2 µs of 60)."""
    (drawn,) = loglines._drawer(1, True)([a_line(4)])
    assert looked_up == ["entered by", "Correct this move"]
    assert "entered by mahmoud" in drawn and "Correct this move" in drawn


@pytest.mark.parametrize(
    ("struck", "says", "by"),
    [("", "Undone:", "undone by"), ("replaced", "Replaced:", "replaced by")],
)
def test_an_undone_line_drawn_alone_or_among_others_says_so(looked_up, struck, says, by):
    undone = a_line(2, undone=True, struck=struck)
    (alone,) = loglines._drawer(1, False)([undone])
    among = loglines._drawer(1, True)([a_line(1), undone, a_line(3)])
    for drawn in (alone, among[1]):
        assert f"{says} </span><del>" in drawn and f"{by} olivia" in drawn
    assert "Correct this move" in among[0] and "Correct this move" not in among[1]
