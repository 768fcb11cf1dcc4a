"""The French catalogue as the tests read it: the msgids a file says, and those
locale/fr/LC_MESSAGES/django.po translates.

A file's msgids are found as ``makemessages`` finds them: a template is first turned into the
gettext calls Django's own ``templatize`` makes of it, then the calls of the gettext family are
read from the tokens (their first string arguments, a context first for the ``p`` ones)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"

#: a message: its context (None without one) and its msgid
Msgid = tuple[str | None, str]

#: the gettext family, as makemessages knows it: name → does a context come first
CALLS = {
    name: name.startswith(("pgettext", "npgettext"))
    for base in ("gettext", "ngettext", "pgettext", "npgettext")
    for name in (base, f"{base}_lazy", f"{base}_noop")
} | {"_": False}


def msgids(path: Path) -> set[Msgid]:
    """The messages a Python module or a template marks for translation."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        from django.utils.translation.template import templatize

        # Its lines hold one gettext call or none: their indent, which means nothing, is dropped
        # for the tokenizer.
        text = "\n".join(line.lstrip() for line in templatize(text, str(path)).splitlines())
    return _calls(text)


def _calls(source: str) -> set[Msgid]:
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT)
    ]
    found = set()
    for at, token in enumerate(tokens[:-1]):
        if token.type != tokenize.NAME or token.string not in CALLS:
            continue
        if tokens[at + 1].string != "(":
            continue
        strings = _leading_strings(tokens[at + 2 :])
        context = strings.pop(0) if CALLS[token.string] and strings else None
        if strings:
            found.add((context, strings[0]))
    return found


def _leading_strings(tokens) -> list[str]:
    """The string arguments a call opens with (adjacent literals joined, as Python does)."""
    strings: list[str] = []
    current: list[str] = []
    for token in tokens:
        if token.type == tokenize.STRING:
            current.append(ast.literal_eval(token.string))
        elif token.string == "," and current:
            strings.append("".join(current))
            current = []
        else:
            break
    if current:
        strings.append("".join(current))
    return strings


def translated(po: Path = PO) -> set[Msgid]:
    """The messages the catalogue translates: neither fuzzy nor obsolete, no empty msgstr."""
    done = set()
    for entry in po.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in entry.splitlines() if not line.startswith("#~")]
        if any(line.startswith("#,") and "fuzzy" in line for line in lines):
            continue
        fields = _fields(lines)
        texts = [value for key, value in fields.items() if key.startswith("msgstr")]
        if "msgid" in fields and texts and all(texts):
            done.add((fields.get("msgctxt"), fields["msgid"]))
    return done


def _fields(lines: list[str]) -> dict[str, str]:
    """An entry's keywords (msgctxt, msgid, msgstr[0]...) and their strings, joined."""
    fields: dict[str, str] = {}
    key = None
    for line in lines:
        opened = re.match(r"(msg\w+(?:\[\d+\])?) (\".*\")$", line)
        if opened:
            key, line = opened.groups()
            fields[key] = ""
        elif not line.startswith('"'):
            continue
        if key:
            fields[key] += ast.literal_eval(line)
    return fields


def untranslated(paths, po: Path = PO) -> list[Msgid]:
    """The messages of ``paths`` that the catalogue does not translate, in order."""
    said = set().union(*(msgids(path) for path in paths))
    return sorted(said - translated(po), key=lambda m: (m[1], m[0] or ""))
