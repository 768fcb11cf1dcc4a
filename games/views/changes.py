"""What a request that changes a play carries besides what it asks: the version its page was
made at, and the key the page made for it (exactly once: services.Keyed)."""

from __future__ import annotations

import re

from django.http import HttpRequest
from django.utils.translation import gettext as _

from .. import services


def posted_version(request: HttpRequest) -> int | None:
    """The play's version a form was made at (every form that changes a play carries it)."""
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


# A key as the page makes them, and as the IETF draft's examples show them (a UUID): letters,
# digits and a few marks; the header may give it as a structured-field string, in quotes.
_KEY = re.compile(rf"[A-Za-z0-9_.:-]{{1,{services.KEY_LENGTH}}}")


class DamagedKey(ValueError):
    """A request key that no page of this site made."""


def request_key(request: HttpRequest) -> str | None:
    """The key the page made for this change (its ``Idempotency-Key`` header, or the form's
    ``idempotency_key`` field without a script), or None for a request without one."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        key = request.POST.get("idempotency_key")
    if key is None or key == "":
        return None
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]
    if not _KEY.fullmatch(key):
        raise DamagedKey(key)
    return key


#: What a form posts besides what it asks: its CSRF token may be a newer one when the same
#: request is sent again, and the key is what names the request.
_NOT_ASKED = frozenset({"csrfmiddlewaretoken", "idempotency_key"})


def keyed_request(request: HttpRequest, key: str | None) -> services.Keyed | None:
    """The change a form asked, for the service to do it once (services.Keyed)."""
    if key is None:
        return None
    asked = {name: request.POST.getlist(name) for name in request.POST if name not in _NOT_ASKED}
    return services.Keyed.of(key, asked)


def posted_change(request: HttpRequest) -> tuple[int | None, services.Keyed | None]:
    """What a form that changes a play posted besides its change: the version it was made at
    and its request, made once (keyed_request); the version is None when the form was damaged
    (no version, or a key no page made)."""
    try:
        keyed = keyed_request(request, request_key(request))
    except DamagedKey:
        return None, None
    return posted_version(request), keyed


def damaged() -> str:
    return _("The form was damaged: start the move again.")
