"""What a game's table draws in Python rather than in a template (issue 32): the pieces drawn
over and over in every move's answer — a grid's cells, a deck's cards — each a few values
written into a few tags. A template spends most of such a piece's time looking values up and
escaping them one by one; here each piece is an f-string, and a piece drawn from the same
values in the same language is drawn once per process (``Pieces``).

They write what the templates write: escaped as Django escapes (games.jinja.written), a
``{% translate %}`` as its catalogue's text, a ``{% blocktranslate %}`` as its text with each
value escaped in it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.utils.translation import get_language, trans_real

from .. import jinja

#: A value written on the page, escaped as Django escapes (what a template's ``{{ value }}``
#: writes).
esc = jinja.written


def said(message: str) -> str:
    """``{% translate message %}``: the active catalogue's text, as it is (a template's own
    text is not escaped)."""
    return _now()[1](message)


def _now() -> tuple[str, Callable[[str], str]]:
    """The language and gettext of the drawing under way (games.jinja.render), or in force."""
    now = getattr(jinja.DRAWING, "now", None)
    if now is None:
        return get_language(), jinja.translated(trans_real.catalog())
    return now


def said_with(message: str, **values: Any) -> str:
    """``{% blocktranslate with name=value … %}message{% endblocktranslate %}``, ``message``
    written with ``%(name)s`` for each ``{{ name }}``: its text, each value escaped in it."""
    return said(message) % {name: esc(value) for name, value in values.items()}


def reasons(told: Any) -> str:
    """Why a move scored (games.ui.Reason's), as a list folded under its points."""
    out = ['<ul class="why-list">']
    for reason in told:
        out.append(f"<li>{esc(reason.text)}")
        if reason.lines:
            out.append("<ul>")
            out.extend(f"<li>{esc(line)}</li>" for line in reason.lines)
            out.append("</ul>")
        out.append("</li>")
    out.append("</ul>")
    return "".join(out)


class Pieces:
    """The pieces one function draws, each kept for the values it is drawn from and the
    language: drawn once per process, then looked up (at most ``size``, emptied when full)."""

    def __init__(self, draw: Callable[..., str], size: int = 4096) -> None:
        self._draw = draw
        self._kept: dict[tuple, str] = {}
        self.size = size

    def __call__(self, *values: Any) -> str:
        """The piece drawn from ``values``: hashable values that are all it reads (a card's
        name, a cell's place and state), never an object written by its address."""
        return self.in_language(_now()[0], *values)

    def in_language(self, language: str | None, *values: Any) -> str:
        """The piece drawn from ``values`` in ``language``, the drawing's (``_now``), when the
        caller has it already."""
        key = (language, *values)
        piece = self._kept.get(key)
        if piece is None or CHECK:
            made = self._draw(*values)
            if piece is not None and piece != made:
                raise AssertionError(
                    f"A piece is not drawn from {values!r} alone: it was {piece!r}, and is now "
                    f"{made!r}."
                )
            if len(self._kept) >= self.size:
                self._kept.clear()
            self._kept[key] = piece = made
        return piece

    def joined(self, many: Iterable[tuple]) -> str:
        """The pieces drawn from each of ``many`` (the values of one piece each), joined: as
        many calls, the language looked up once (a lookup costs as much as a kept piece)."""
        language = _now()[0]
        kept = self._kept
        out = []
        for values in many:
            piece = kept.get((language, *values))
            out.append(self.in_language(language, *values) if piece is None or CHECK else piece)
        return "".join(out)


#: Draw each kept piece again and check it is what was kept (the test suite: tests/conftest.py).
CHECK = False
