"""What people type and send, vetted before anything is written: names and free text in their
one spelling and within their limits, values a database can store; or refused."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from .. import names as naming
from .. import userjson
from .errors import ServiceError


def limited(text: str, limit: int, message: str) -> str:
    if len(text) > limit:
        raise ServiceError(message % {"max": limit, "count": len(text)})
    return text


def vetted_name(name: str, *, limit: int, missing: str, too_long: str) -> str:
    """A name in its one spelling (``games.names.normalise``), within ``limit``; or refused."""
    if len(name) > 4 * limit:  # not worth normalising: it cannot come down to the limit
        raise ServiceError(too_long % {"max": limit})
    if naming.has_lone_surrogate(name):
        raise ServiceError(_("This name has a broken character in it: type it again."))
    name = naming.normalise(name)
    if not name:
        raise ServiceError(missing)
    return limited(name, limit, too_long)


def refuse_look_alike(name: str, others: Sequence[str]) -> None:
    other = naming.looks_like(name, others)
    if other is not None:
        raise ServiceError(
            _(
                "“%(name)s” would look just like “%(other)s”, who is already a player here: "
                "choose a name that reads differently."
            )
            % {"name": name, "other": other}
        )


def storable(value: Any) -> None:
    """Refuse a move, setup or log that nests too deeply or holds what no database stores
    (NaN, ``\\u0000``, a lone surrogate…), whoever built it (games.userjson)."""
    try:
        userjson.check(value)
    except userjson.UserJSONError as exc:
        raise ServiceError(exc.message)
