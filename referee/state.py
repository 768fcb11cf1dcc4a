"""A game's state as plain JSON, and back (issue 32).

Every engine keeps its state in plain Python values (numbers, strings, lists, tuples, dicts,
sets) in its instance's attributes: that is what lets the site keep the judged state after a
play's last move and judge the next move from it (referee.judge.keep, which writes those values
as pickle's bytes), instead of judging the whole log again. ``dump`` writes them as JSON, tagging
what JSON lacks (tuples, sets, dicts keyed by something other than a string) with a one-key
object, the same state always the same JSON (a set's members in order): the form in which two
states are compared; ``load`` makes the same values again, in new containers. An engine that
kept anything else would make ``dump`` raise (TypeError), never write a state that loads
differently.

A kept state is only good for the referee that kept it: ``REVISION`` (a digest of the referee's
own source) goes with it, and a state of another revision is judged again from the log.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

#: The referee's revision: a digest of its source files. Any change to a rule, a state's shape
#: or this encoding changes it, so a state kept by an older referee is never read back.
REVISION = hashlib.blake2s(
    b"".join(
        path.name.encode() + b"\0" + path.read_bytes()
        for path in sorted(Path(__file__).parent.glob("*.py"))
    ),
    digest_size=8,
).hexdigest()

# The tags of what JSON has no word for: each is the only key of the object that carries it.
_TUPLE, _SET, _FROZENSET, _PAIRS = "(", "{", "}", ":"
_TAGS = frozenset((_TUPLE, _SET, _FROZENSET, _PAIRS))
_STR = frozenset((str,))


#: The values JSON writes as they are.
_PLAIN = frozenset((str, int, bool, float, type(None)))


def encode(value: Any) -> Any:
    """``value`` as JSON (see the module's docstring); TypeError for anything else."""
    # The plain values in a container are taken as they are, without a call each: most of a
    # state's values are (issue 32: a move entry encodes its state every time).
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list:
        return [item if type(item) in _PLAIN else encode(item) for item in value]
    if kind is tuple:
        return {_TUPLE: [item if type(item) in _PLAIN else encode(item) for item in value]}
    if kind is dict:
        if set(map(type, value)) <= _STR and not (len(value) == 1 and _TAGS & value.keys()):
            return {
                key: item if type(item) in _PLAIN else encode(item) for key, item in value.items()
            }
        return {_PAIRS: [[encode(key), encode(item)] for key, item in value.items()]}
    # A set's members in a fixed order: the same state always dumps the same.
    if kind is set:
        return {_SET: [encode(item) for item in sorted(value, key=repr)]}
    if kind is frozenset:
        return {_FROZENSET: [encode(item) for item in sorted(value, key=repr)]}
    raise TypeError(f"a game's state holds a {kind.__name__}, which has no JSON form")


def decode(value: Any) -> Any:
    """The value ``encode`` wrote, in new containers."""
    kind = type(value)
    if kind is list:
        return [decode(item) for item in value]
    if kind is not dict:
        return value
    if len(value) == 1:
        ((tag, items),) = value.items()
        if tag == _TUPLE:
            return tuple([decode(item) for item in items])
        if tag == _PAIRS:
            return {decode(key): decode(item) for key, item in items}
        if tag == _SET:
            return {decode(item) for item in items}
        if tag == _FROZENSET:
            return frozenset([decode(item) for item in items])
    return {key: decode(item) for key, item in value.items()}


def shared_containers(value: Any) -> list[str]:
    """The attributes of a state that hold the same mutable container as another one (or twice):
    ``load`` would make two copies of it, and a change to one would not show in the other. The
    tests ask that every engine's states have none (tests/referee/test_state.py)."""
    seen: dict[int, str] = {}
    shared: list[str] = []

    def walk(item: Any, where: str) -> None:
        if isinstance(item, (list, dict, set)):
            if id(item) in seen:
                shared.append(f"{where} is {seen[id(item)]}")
                return
            seen[id(item)] = where
        if isinstance(item, dict):
            for key, inner in item.items():
                walk(inner, f"{where}[{key!r}]")
        elif isinstance(item, (list, tuple, set, frozenset)):
            for index, inner in enumerate(item):
                walk(inner, f"{where}[{index}]")

    for name, item in vars(value).items():
        walk(item, name)
    return shared
