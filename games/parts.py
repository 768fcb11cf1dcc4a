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

A part that grows by appending (the move log: ``Lines``) has a fingerprint chained over its
lines, each one's made from the one before: a page that shows it with fewer lines is sent only
the lines it lacks, appended (issue 32: deep in a play the log was most of every answer and
every push, drawn and sent whole for each move).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

#: The header of a request that says which parts the page shows: "id:fingerprint" pairs
#: separated by spaces. An answer made of parts says so in the same header ("1").
HEADER = "X-Play-Parts"

#: A part's opening tag: the element whose id names the part.
_OPENING = re.compile(r"\s*<([a-zA-Z][a-zA-Z0-9-]*)\b([^>]*)>")
_ID = re.compile(r"""\sid=(?:"([^"]+)"|'([^']+)')""")


#: Where a growing part's lines are in its drawing until they are fingerprinted: the part's
#: own fingerprint is taken with this in their place (``Lines``).
_LINES = "<!--lines-->"

#: What a part drawn inside another gives it to hold until it is fingerprinted: its name between
#: two characters no drawing holds (``Drawing.add``). The parent's fingerprint is taken with
#: ``<part name>`` there, and its HTML with the part's in place: so each part's drawing is
#: searched and copied once, not again by each part around it (issue 32).
_CHILD_OPEN, _CHILD_CLOSE = "\x00", "\x01"


def _fingerprint(text: str) -> str:
    # SHA-256 (its first 48 bits) rather than BLAKE2: the processor's own SHA instructions make
    # it twice as fast over a move's answer, whose parts are hashed on every move (issue 32).
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _chained(before: str, line: str) -> str:
    """The fingerprint of a growing part once ``line`` is appended to it (it was ``before``)."""
    return _fingerprint(f"{before}\n{line}")


class Lines:
    """What a part that grows by appending holds (the move log): its lines, each as drawn.

    Its fingerprint is a chain: the part's own (drawn with ``{{ lines }}`` where the lines go),
    then each line's made from the one before and the line. So the fingerprint of the part with
    its first k lines is known for every k, and a page that shows one of them is sent the lines
    after it, appended (``Appended``). ``grown_from``: the lines these are those of, with more
    after (the log at the version before): its chain is carried on, not made again.

    ``whole`` False: the lines follow whatever the page shows (a move's answer holds its own line
    only); the part itself is then drawn empty, and the lines go after it (the page appends them
    as htmx does, or as an ``Appended`` to the fingerprint the page says it shows)."""

    def __init__(
        self, drawn: Sequence[str], *, whole: bool = True, grown_from: Lines | None = None
    ) -> None:
        self.drawn = drawn
        self.whole = whole
        self._grown_from = grown_from
        self._seed: str | None = None
        self._chain: list[str] = []  # the fingerprint with the first k lines, k = 0…len
        self._at: dict[str, int] = {}  # and back: how many lines a fingerprint stands for

    def __html__(self) -> str:
        return _LINES

    def __bool__(self) -> bool:
        return bool(self.drawn)

    @property
    def html(self) -> str:
        return "".join(self.drawn)

    def fingerprint(self, seed: str) -> str:
        """The fingerprint of the part holding these lines, whose own fingerprint is ``seed``."""
        if self._seed != seed:
            grown, self._grown_from = self._grown_from, None  # its history is not kept alive
            if grown is not None:  # fingerprinted when it was drawn: its chain is carried on
                grown.fingerprint(seed)
                chain, at = list(grown._chain), dict(grown._at)
            else:
                chain, at = [seed], {seed: 0}
            for line in self.drawn[len(chain) - 1 :]:
                chain.append(_chained(chain[-1], line))
                at[chain[-1]] = len(chain) - 1
            self._seed, self._chain, self._at = seed, chain, at
        return self._chain[-1]

    def after(self, name: str, shown: str | None, seed: str) -> Appended | None:
        """What a page whose part shows ``shown`` lacks of these lines, or None: the part is
        sent whole (the page shows none of its fingerprints)."""
        if not self.whole:  # a move's line, after the page's own: chained from what it shows
            if not shown:
                return None
            made = shown
            for line in self.drawn:
                made = _chained(made, line)
            return Appended(name, made, self.html)
        self.fingerprint(seed)
        count = self._at.get(shown or "")
        if count is None:
            return None
        return Appended(name, self._chain[-1], "".join(self.drawn[count:]))


@dataclass(frozen=True)
class Appended:
    """The lines a page lacks of a growing part, to append to it, and its fingerprint then."""

    name: str
    fingerprint: str
    lines: str

    @property
    def template(self) -> str:
        return (
            f'<template data-part="{self.name}" data-append data-h="{self.fingerprint}">'
            f"{self.lines}</template>"
        )


@dataclass
class Part:
    name: str  # the element's id
    fingerprint: str
    html: str  # as drawn, its data-h included
    opening: str  # its opening tag, data-h included
    children: list[str] = field(default_factory=list)
    #: a part that grows by appending: its lines, and its own fingerprint (without them)
    lines: Lines | None = None
    seed: str = ""

    @property
    def template(self) -> str:
        return f'<template data-part="{self.name}">{self.html}</template>'


class Drawing:
    """The parts of one drawing of the page, collected as the template draws them."""

    def __init__(self) -> None:
        self.parts: dict[str, Part] = {}
        self._open: list[list[str]] = [[]]  # the children of each part being drawn

    def begin(self) -> None:
        self._open.append([])

    def end(self, html: str, *, inner: bool, lines: Lines | None = None) -> str:
        """A part drawn: fingerprint it, mark its opening tag, and return it as marked.
        ``inner``: the opening tag is left out of the fingerprint (the page's own element).
        ``lines``: the part grows by appending them (``Lines``; drawn ``{{ lines }}``)."""
        children = self._open.pop()
        opening = _OPENING.match(html)
        name = _ID.search(opening.group(2)) if opening else None
        if name is None:
            raise ValueError(f"a part must open with an element that has an id: {html[:80]!r}")
        own = html[opening.end() :] if inner else html
        if children:  # each stands for its name alone
            own = own.replace(_CHILD_OPEN, "<part ").replace(_CHILD_CLOSE, ">")
        fingerprint = seed = _fingerprint(own)
        if lines is not None:
            fingerprint = lines.fingerprint(seed)
        mark = f' data-h="{fingerprint}"'
        cut = opening.start(2)
        marked = html[:cut] + mark + html[cut:]
        tag = marked[opening.start(1) - 1 : opening.end() + len(mark)]
        if lines is not None and _LINES in marked:
            marked = marked.replace(_LINES, lines.html, 1)
        if children:
            marked = self._with_children(marked)
        name = name.group(1) or name.group(2)
        return self.add(Part(name, fingerprint, marked, tag, children, lines, seed))

    def _with_children(self, html: str) -> str:
        """``html`` with each part drawn inside it in its place."""
        first, *rest = html.split(_CHILD_OPEN)
        pieces = [first]
        for piece in rest:
            child, _, after = piece.partition(_CHILD_CLOSE)
            pieces += (self.parts[child].html, after)
        return "".join(pieces)

    def add(self, part: Part) -> str:
        """A part, as drawn now (``end``) or before (games.jinja's kept parts, which hold no
        part), among the parts of the drawing. What the drawing around it gets: the part's
        HTML as marked for a part drawn at the top (the page's), else what stands for it
        until the part around it ends (``_CHILD_OPEN``)."""
        if part.name in self.parts:
            raise ValueError(f"two parts of the page are named {part.name!r}")
        self.parts[part.name] = part
        self._open[-1].append(part.name)
        if len(self._open) == 1:
            return part.html
        return f"{_CHILD_OPEN}{part.name}{_CHILD_CLOSE}"

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
    drawing: Drawing, have: dict[str, str], compared: list[str] | None = None
) -> list[Part | Appended] | None:
    """The parts of ``drawing`` that differ from those the page shows (``have``), outermost
    first; None when the page itself differs (it is then sent whole). A part that grows
    (``Lines``) and that the page shows with fewer lines comes as the lines it lacks.
    ``compared``, if given, gets the names of the parts whose fingerprint in ``have`` was
    looked at: the answer depends on those alone (games.views.drawn.pushed)."""
    root = drawing.root
    if compared is not None:
        compared.append(root.name)
    if have.get(root.name) != root.fingerprint:
        return None
    differ: list[Part | Appended] = []

    def walk(part: Part) -> None:
        for name in part.children:
            child = drawing.parts[name]
            if compared is not None:
                compared.append(name)
            if have.get(name) == child.fingerprint:
                walk(child)
            elif child.lines is not None:
                differ.append(child.lines.after(name, have.get(name), child.seed) or child)
            else:
                differ.append(child)

    walk(root)
    return differ


def answer(drawing: Drawing, have: dict[str, str], compared: list[str] | None = None) -> str | None:
    """The answer that carries only what changed, or None when the page must be sent whole.

    It is the page's element as it opens now, holding one ``<template data-part>`` per part to
    put in place of the page's, and one ``<template data-part data-append>`` per part to append
    lines to. What the drawing holds after the page's element is for a page drawn whole (the
    log's new line, appended by htmx) and is not sent."""
    differ = changed(drawing, have, compared)
    if differ is None:
        return None
    root = drawing.root
    inside = "".join(part.template for part in differ)
    name = root.opening.split(None, 1)[0][1:]
    return f"{root.opening.replace(' data-h=', ' data-parts data-h=', 1)}{inside}</{name}>"
