"""JSON that people send — a move or a setup typed in an "Advanced" box, a move's draft, an
uploaded game log — read with a size cap and a depth cap, and only as values every database
stores.

The real thing is small and shallow: a whole game log of a long play is a few kilobytes and six
levels deep, a move a few hundred characters. Without caps, one request of a few kilobytes nested
thousands of levels deep crashes the worker (``RecursionError``) or, stored, makes every page and
download that shows it grow far faster than what was sent. Some values JSON allows cannot be
stored at all: PostgreSQL refuses ``\\u0000`` in text and a lone surrogate (``\\ud800``) is not
UTF-8; NaN and Infinity are not JSON to anyone but Python. The rules are those of I-JSON
(RFC 7493), which says what interoperable JSON is: finite numbers, integers a double holds
exactly, text that is Unicode.

``parse`` reads text; ``check`` vets a value built some other way (the services check every move
and setup they store, whoever built it).
"""

from __future__ import annotations

import json
import math
import re
from array import array
from itertools import accumulate
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

#: The deepest nesting accepted anywhere (the deepest game log in use is 6 levels deep).
MAX_DEPTH = 20

#: The longest move, setup or draft accepted as text, in characters (real ones are under 1,000).
MAX_FIELD_CHARS = 10_000

#: The most lists and objects accepted in one text: building each costs the parser, so 1 MB of
#: empty lists (300,000 of them) cost half a second. A long play's whole log holds a few hundred.
MAX_CONTAINERS = 50_000

#: The largest integer (either sign) a double holds exactly, so every JSON reader agrees on it.
MAX_INTEGER = 2**53 - 1


class UserJSONError(ValueError):
    """The JSON cannot be accepted: ``message`` says why, in words for the person who sent it."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def too_long(limit: int) -> UserJSONError:
    return UserJSONError(
        _("That is far too long (at most %(limit)s characters).")
        % {"limit": number_format(limit, force_grouping=True)}
    )


def _too_deep() -> UserJSONError:
    return UserJSONError(
        _("That JSON is nested too deeply (at most %(depth)s levels).") % {"depth": MAX_DEPTH}
    )


def _not_a_number(constant: str) -> Any:
    raise UserJSONError(
        _("%(constant)s is not a number JSON allows: write an ordinary number.")
        % {"constant": constant}
    )


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400 reads as infinity
        raise UserJSONError(_("The number %(number)s is too big.") % {"number": text[:40]})
    return value


def _int(text: str) -> int:
    # Read only what can be small: a 4,000-digit integer costs time before being refused.
    value = int(text) if len(text.lstrip("-")) <= 16 else MAX_INTEGER + 1
    if abs(value) > MAX_INTEGER:
        raise UserJSONError(_("The number %(number)s is too big.") % {"number": text[:40]})
    return value


def parse(
    raw: str, *, max_chars: int = MAX_FIELD_CHARS, max_containers: int = MAX_CONTAINERS
) -> Any:
    """The JSON value in ``raw``, or UserJSONError saying what is wrong with it.

    Refused: more than ``max_chars`` characters or ``max_containers`` lists and objects,
    nesting deeper than ``MAX_DEPTH``, NaN and
    Infinity, numbers beyond ``MAX_INTEGER`` or a double's range, ``\\u0000`` and lone
    surrogates in text, and anything that is not JSON.

    Its cost is bounded by the text's size whatever its shape: every check runs on the text, at
    the speed of ``re`` and ``json`` (C), and the value is never walked in Python (a 1 MB upload
    of nested empty arrays took a second of CPU per walk, and was walked twice; issue 29). The
    numbers are checked as the parser reads them.
    """
    # Depth first, within the size cap: nesting is what deep input is about, so say that.
    depth, containers, long_numbers = _shape(raw[:max_chars])
    if depth > MAX_DEPTH:
        raise _too_deep()
    if len(raw) > max_chars:
        raise too_long(max_chars)
    if containers > max_containers:
        raise UserJSONError(
            _("That JSON holds far too many lists and objects (at most %(count)s).")
            % {"count": number_format(max_containers, force_grouping=True)}
        )
    # Integers are read by the parser itself (a call of Python per number cost 0.3 s for 1 MB of
    # them), unless one is long enough to pass the limit: then each is checked as it is read.
    parse_int = _int if long_numbers or len(raw) > max_chars else None
    try:
        value = json.loads(
            raw, parse_constant=_not_a_number, parse_float=_float, parse_int=parse_int
        )
    except UserJSONError:
        raise
    except RecursionError:  # only if MAX_DEPTH were raised past what the parser can nest
        raise _too_deep()
    except ValueError as exc:
        raise UserJSONError(_("That is not valid JSON: %(error)s") % {"error": exc})
    # A NUL or a lone surrogate comes from an escape in the text (the parser refuses raw control
    # characters), or for a surrogate from the text itself: without one, nothing to look for.
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        _check_text("\ud800")
    if "\\u0000" in raw and _NUL_ESCAPE.search(raw):
        _check_text("\x00")
    if "\\u" in raw and _SURROGATE_ESCAPE.search(raw):
        try:  # a lone surrogate cannot be encoded; a pair (an emoji) was joined by the parser
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            _check_text("\ud800")
    return value


# An escape, not an escaped backslash followed by the same letters ("\\\\u0000" is text).
_NUL_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")
_SURROGATE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F]")
# A string of JSON text, its escapes included.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)


def _shape(raw: str) -> tuple[int, int, bool]:
    """How deep brackets outside strings nest in ``raw``, how many lists and objects it opens,
    and whether a number of 16 digits or more is written in it: at the speed of C whatever the
    shape (so that deep or swarming input is refused before the parser builds it). The strings
    are dropped (``re``), then every byte but the brackets; each bracket becomes a step of +1
    or -1, and the deepest point is the largest running sum."""
    outside = _STRING.sub("", raw).encode("utf-8", "surrogatepass")
    steps = outside.translate(_STEPS, _NOT_BRACKETS)
    depth = max(accumulate(array("b", steps)), default=0)
    return depth, steps.count(1), _LONG_NUMBER.search(outside) is not None


_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")
# Only such a number may pass MAX_INTEGER (2**53 - 1 has 16 digits).
_LONG_NUMBER = re.compile(rb"[0-9]{16}")


def check(value: Any) -> None:
    """Refuse (UserJSONError) a value that nests deeper than ``MAX_DEPTH`` or holds what cannot
    be stored: NaN or an infinity, an integer beyond ``MAX_INTEGER``, ``\\u0000`` or a lone
    surrogate in a text or a key, or anything that is not a JSON value."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:  # no recursion: the value may come from anywhere, however deep
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if abs(item) > MAX_INTEGER:
                raise UserJSONError(_("The number %(number)s is too big.") % {"number": item})
        elif isinstance(item, float):
            if not math.isfinite(item):
                _not_a_number(repr(item))
        elif isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise _too_deep()
            if isinstance(item, dict):
                for key, child in item.items():
                    if not isinstance(key, str):
                        raise UserJSONError(_("That is not a JSON value."))
                    _check_text(key)
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in item)
        else:
            raise UserJSONError(_("That is not a JSON value."))


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise UserJSONError(
            _("A text in that JSON holds a null character (\\u0000), which cannot be stored.")
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UserJSONError(
            _(
                "A text in that JSON holds half of a character (a lone surrogate such as "
                "\\ud800), which cannot be stored."
            )
        )


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests more than ``limit`` levels, without recursion (a stored value may
    predate the caps)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def readable(value: Any, *, indent: int) -> str:
    """``value`` as JSON for people to read: indented when it is as shallow as anything the site
    accepts today, compact otherwise. Indentation repeats each level's prefix on every line below
    it, so a value stored before the caps, nested thousands of levels deep, would come out
    thousands of times larger; compact, the text stays as long as what was stored."""
    if not _deeper_than(value, MAX_DEPTH):
        return json.dumps(value, ensure_ascii=False, indent=indent)
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except RecursionError:
        return json.dumps(_("(nested too deeply to show)"), ensure_ascii=False)
