"""Names people read (players, clubs, usernames): one spelling per name, and no look-alikes.

"Ana", "Ana" + a zero-width space and "Ana" + a right-to-left mark render alike, so they must
be one name: ``normalise`` folds compatibility forms (NFKC: fullwidth "Ａna" is "Ana"), drops
invisible and control characters and collapses white space, and every uniqueness check compares
normalised names. Cyrillic "Аna" is another name that renders like "Ana": ``skeleton`` maps the
Cyrillic and Greek letters drawn like Latin ones to those, and a new name whose skeleton is an
existing name's is refused (``looks_like``). This is the common part of Unicode's confusables
(UTS #39), kept small on purpose: it does not catch "l" for "I" or "0" for "O" within Latin.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

#: Letters that render as nothing although Unicode files them as letters or marks (Hangul
#: fillers, the braille blank, the combining grapheme joiner).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")


def _is_invisible(char: str) -> bool:
    # Other (C*): controls, format characters (zero-width spaces and joiners, bidi marks and
    # overrides, the BOM, soft hyphen), private use, unassigned; and variation selectors.
    if char.isspace():
        return False
    code = ord(char)
    return (
        unicodedata.category(char).startswith("C")
        or char in BLANK_LETTERS
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
        or 0x180B <= code <= 0x180F
    )


def has_lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds half of a UTF-16 pair (from JSON's "\\ud800"): not text at all,
    and no database can store it."""
    return any(0xD800 <= ord(char) <= 0xDFFF for char in text)


def normalise(text: str) -> str:
    """The one spelling of a name: NFKC, without invisible characters, single spaces."""
    text = unicodedata.normalize("NFKC", text)
    return " ".join("".join(c for c in text if not _is_invisible(c)).split())


def clean_text(text: str) -> str:
    """Free text (notes): keep what the person typed, minus control and invisible characters
    (line breaks and tabs stay; Windows line ends become plain ones)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "".join(c for c in text if c in "\n\t" or not _is_invisible(c)).strip()


# Cyrillic and Greek letters drawn like a Latin letter, and that letter.
_LOOK_ALIKES = {
    # Cyrillic capitals and small letters
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "У": "Y", "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Ԛ": "Q", "Ԝ": "W", "Ү": "Y",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j",
    "ѕ": "s", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ү": "y",
    # Greek capitals and small letters
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v", "ι": "i",
}  # fmt: skip
_SKELETON = str.maketrans(_LOOK_ALIKES)


def skeleton(name: str) -> str:
    """What a name looks like: its normal form, with look-alike letters mapped to Latin."""
    return normalise(name).translate(_SKELETON)


def looks_like(name: str, others: Iterable[str], *, casefold: bool = False) -> str | None:
    """The first of ``others`` that renders like ``name`` without being spelt the same.

    With ``casefold`` (usernames, unique whatever their case), "АNA" looks like "ana" too.
    """

    def fold(text: str) -> str:
        return text.casefold() if casefold else text

    shape = fold(skeleton(name))
    spelling = fold(normalise(name))
    for other in others:
        if fold(normalise(other)) != spelling and fold(skeleton(other)) == shape:
            return other
    return None
