"""The parts of the play page, so that an answer carries only what changed (issue 28).

The play page marks the pieces that a move may change — its head, the table (board, move panel
and the referee's options), each row of the scores and of the game's score sheet, the log, … —
with ``{% part %}`` (games.templatetags.parts). Drawing the page gives each part a fingerprint
of what it shows, in a ``data-h`` attribute. A phone that sends a move also sends the
fingerprints of the parts it shows (the ``X-Play-Parts`` header, static/js/play-parts.js), and
the answer holds only the parts whose fingerprint differs: a Punto card laid answers with the
table, the head and the row of the score that moved, not the whole play.

A part's fingerprint covers what it shows itself, with each part inside it standing for only
its name: a row that changes does not change the table around it, so the row alone is sent. A
part that appears or goes changes its parent's fingerprint, so the parent is sent whole. The
page's own element (#play-main) is fingerprinted without its opening tag, whose version and
position change with every move: the answer carries that tag as it is now.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

#: The header of a request that says which parts the page shows: "id:fingerprint" pairs
#: separated by spaces. An answer made of parts says so in the same header ("1").
HEADER = "X-Play-Parts"

#: A part's opening tag: the element whose id names the part.
_OPENING = re.compile(r"\s*<([a-zA-Z][a-zA-Z0-9-]*)\b([^>]*)>")
_ID = re.compile(r"""\sid=(?:"([^"]+)"|'([^']+)')""")


@dataclass
class Part:
    name: str  # the element's id
    fingerprint: str
    html: str  # as drawn, its data-h included
    opening: str  # its opening tag, data-h included
    children: list[str] = field(default_factory=list)


class Drawing:
    """The parts of one drawing of the page, collected as the template draws them."""

    def __init__(self) -> None:
        self.parts: dict[str, Part] = {}
        self._open: list[list[str]] = [[]]  # the children of each part being drawn

    def begin(self) -> None:
        self._open.append([])

    def end(self, html: str, *, inner: bool) -> str:
        """A part drawn: fingerprint it, mark its opening tag, and return it as marked.
        ``inner``: the opening tag is left out of the fingerprint (the page's own element)."""
        children = self._open.pop()
        opening = _OPENING.match(html)
        name = _ID.search(opening.group(2)) if opening else None
        if name is None:
            raise ValueError(f"a part must open with an element that has an id: {html[:80]!r}")
        own = html[opening.end() :] if inner else html
        if children:  # each stands for its name alone; they come in the order they were drawn
            pieces, at = [], 0
            for child in children:
                drawn = self.parts[child].html
                found = own.find(drawn, at)
                if found >= 0:
                    pieces += (own[at:found], f"<part {child}>")
                    at = found + len(drawn)
            own = "".join(pieces) + own[at:]
        fingerprint = hashlib.blake2b(own.encode(), digest_size=6).hexdigest()
        mark = f' data-h="{fingerprint}"'
        cut = opening.start(2)
        marked = html[:cut] + mark + html[cut:]
        tag = marked[opening.start(1) - 1 : opening.end() + len(mark)]
        return self.add(Part(name.group(1) or name.group(2), fingerprint, marked, tag, children))

    def add(self, part: Part) -> str:
        """A part, as drawn now (``end``) or before (games.jinja's kept parts, which hold no
        part), among the parts of the drawing; its HTML as marked."""
        if part.name in self.parts:
            raise ValueError(f"two parts of the page are named {part.name!r}")
        self.parts[part.name] = part
        self._open[-1].append(part.name)
        return part.html

    @property
    def last(self) -> str:
        """The name of the part drawn last at this depth."""
        return self._open[-1][-1]

    @property
    def root(self) -> Part:
        return self.parts[self._open[0][0]]


def shown(header: str | None) -> dict[str, str] | None:
    """The parts a page shows, from its request's header (None: it did not say)."""
    if not header:
        return None
    pairs = (pair.partition(":") for pair in header.split())
    return {name: fingerprint for name, _, fingerprint in pairs if name and fingerprint}


def changed(
    drawing: Drawing,
    have: dict[str, str],
    kept: frozenset[str] = frozenset(),
    compared: list[str] | None = None,
) -> list[Part] | None:
    """The parts of ``drawing`` that differ from those the page shows (``have``), outermost
    first; None when the page itself differs (it is then sent whole). ``kept``: parts the page
    keeps as they are whatever this drawing holds (the log, which a move's answer appends to).
    ``compared``, if given, gets the names of the parts whose fingerprint in ``have`` was
    looked at: the answer depends on those alone (games.views.drawn.pushed)."""
    root = drawing.root
    if compared is not None:
        compared.append(root.name)
    if have.get(root.name) != root.fingerprint:
        return None
    differ: list[Part] = []

    def walk(part: Part) -> None:
        for name in part.children:
            child = drawing.parts[name]
            if name in kept:
                continue
            if compared is not None:
                compared.append(name)
            if have.get(name) == child.fingerprint:
                walk(child)
            else:
                differ.append(child)

    walk(root)
    return differ


def answer(
    drawing: Drawing,
    html: str,
    have: dict[str, str],
    kept: frozenset[str] = frozenset(),
    compared: list[str] | None = None,
) -> str | None:
    """The answer that carries only what changed, or None when the page must be sent whole.

    It is the page's element as it opens now, holding one ``<template data-part>`` per part to
    put in place of the page's, followed by whatever the drawing holds after the page's element
    (the log's new line, to append)."""
    differ = changed(drawing, have, kept, compared)
    if differ is None:
        return None
    root = drawing.root
    start = html.find(root.html)
    after = html[start + len(root.html) :] if start >= 0 else ""
    inside = "".join(f'<template data-part="{part.name}">{part.html}</template>' for part in differ)
    name = root.opening.split(None, 1)[0][1:]
    return f"{root.opening.replace(' data-h=', ' data-parts data-h=', 1)}{inside}</{name}>{after}"
