"""The referee's sentences: a refusal is a message id with parameters.

Every message has an id (``"thricewise.reveal_missing"``) and an English template in the words of
the log format (docs/gamelog.md): ``python -m referee`` prints it so, byte for byte. The site says
the same id and parameters in the reader's language and in the players' words (games/verdicts.py):
the template is its gettext msgid, which is why every template below the games' modules is wrapped
in ``gettext_noop`` — the marker the translation tools look for. It does nothing: the referee
itself never translates and never imports Django.

A parameter's name says what it is. Its *kind* is the name up to the first "_" ("cell_below" is a
cell), and the kind decides how the log's English writes it:

``value``
    a JSON value as written in the log, quoted and cut short (``describe``);
``json``
    a JSON value written in full (an example the referee makes up);
``cell``
    a cell ``(column, row)`` of a floating grid: ``"(2, -1)"``;
``players``, ``games``, ``suits``
    a list of names: "Ana, Ben, Chloé";
``names``, ``sides``, ``colours``
    a list in a sentence: "Ana, Ben and Chloé";
``either``
    a choice of names: "Ana or Ben";
``turn``, ``entry``, ``pile``
    counted from 0, as the log counts them (the site counts from 1);
a ``Message``
    a phrase of its own ("placement 2 of this turn"), written the same way.

Anything else (names, card names, counts) is written as it is.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def gettext_noop(text: str) -> str:
    """Mark ``text`` as a template the site translates (translation tools look for this name);
    return it unchanged."""
    return text


#: every message id → its English template (``str.format`` fields name the parameters)
TEXTS: dict[str, str] = {}


def define(texts: Mapping[str, str]) -> None:
    """Add a module's messages to ``TEXTS``; an id is defined once."""
    for message_id, template in texts.items():
        if message_id in TEXTS:
            raise ValueError(f"the referee message {message_id!r} is defined twice")
        TEXTS[message_id] = template


def fields(template: str) -> list[str]:
    """The parameters a template names, in order of first use."""
    names: list[str] = []
    for _text, name, _spec, _conversion in string.Formatter().parse(template):
        if name is not None and name not in names:
            names.append(name)
    return names


def kind(name: str) -> str:
    """What a parameter is, from its name: ``"cell_below"`` → ``"cell"``."""
    return name.partition("_")[0]


class Message:
    """One sentence (or phrase) of the referee: an id and its parameters.

    ``str(message)`` is the English of the log format; ``render`` says it any other way."""

    __slots__ = ("id", "params")

    def __init__(self, message_id: str, /, **params: Any) -> None:
        self.id = message_id
        self.params = params

    @property
    def template(self) -> str:
        return TEXTS[self.id]

    def render(self, say: Callable[[str, Any], str], template: str | None = None) -> str:
        """The sentence with every parameter said by ``say(name, value)``, in ``template``
        (default: the English one)."""
        words = {name: say(name, value) for name, value in self.params.items()}
        return (self.template if template is None else template).format_map(words)

    def __str__(self) -> str:
        return self.render(log_words)

    def __repr__(self) -> str:
        params = ", ".join(f"{name}={value!r}" for name, value in self.params.items())
        return f"Message({self.id!r}{', ' if params else ''}{params})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return self.id == other.id and self.params == other.params

    __hash__ = None  # type: ignore[assignment]  # the parameters are JSON values, not hashable


def describe(value: Any) -> str:
    """A short, readable rendering of a JSON value for an error message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def cell_text(cell: tuple[int, int]) -> str:
    return f"({cell[0]}, {cell[1]})"


def and_list(names: Iterable[str], conjunction: str = "and") -> str:
    """Names in a sentence: "Ana", "Ana and Ben", "Ana, Ben and Chloé"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def log_words(name: str, value: Any) -> str:
    """How the log's English writes one parameter (see the module docstring)."""
    if isinstance(value, Message):
        return str(value)
    match kind(name):
        case "value":
            return describe(value)
        case "json":
            return json.dumps(value, ensure_ascii=False)
        case "cell":
            return cell_text(value)
        case "players" | "games" | "suits":
            return ", ".join(value)
        case "names" | "sides" | "colours":
            return and_list(value)
        case "either":
            return " or ".join(value)
    return str(value)
