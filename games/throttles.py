"""Who the client is (its address, through the trusted proxies), and how often it may do what.

Behind a reverse proxy every request comes from the proxy's address, so REMOTE_ADDR alone would
make every visitor one client: five wrong passwords typed by anyone would lock the owner out.
``client_address`` reads the address the outermost trusted proxy saw instead, and serves both
the login lockout (django-axes, ``AXES_CLIENT_IP_CALLABLE``) and the throttles below.

The throttles count in the cache (``settings.CACHES``: a database table, so that every app
server sees the same counts), in fixed windows: an address may ask for ``limit`` password-reset
mails, or create ``limit`` accounts, per window.
"""

from __future__ import annotations

import hashlib
import ipaddress
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's IP address, as the outermost of ``TRUSTED_PROXY_COUNT`` proxies saw it.

    Each proxy appends the address it received the request from to X-Forwarded-For, so with N
    proxies in front of the app the N-th entry from the right is the client; anything left of
    it came from the client itself and may be forged. With no trusted proxy (or a header too
    short to have passed through all of them), the address of the connection is the client.
    """
    remote = request.META.get("REMOTE_ADDR", "")
    count = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return remote
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [hop for hop in hops if hop]
    if len(hops) < count:
        return remote
    try:
        return str(ipaddress.ip_address(hops[-count]))
    except ValueError:
        return remote


def allow(scope: str, key: str, *, limit: int, window: int) -> bool:
    """Count one more ``scope`` event for ``key``; False once ``limit`` were counted in this
    ``window`` (seconds). A refused event counts too, so hammering does not help."""
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    cache_key = f"throttle:{scope}:{digest}:{int(time.time()) // window}"
    cache.add(cache_key, 0, timeout=window)
    try:
        count = cache.incr(cache_key)
    except ValueError:  # expired between add() and incr()
        cache.set(cache_key, 1, timeout=window)
        count = 1
    return count <= limit


HOUR = 60 * 60


def allow_sign_up(request: HttpRequest) -> bool:
    return allow("signup", client_address(request), limit=settings.SIGNUPS_PER_HOUR, window=HOUR)


def allow_password_reset(request: HttpRequest, email: str) -> bool:
    """Reset mails: per address (one client asking for many), and per e-mail address (many
    clients flooding one mailbox). Both are counted whatever the answer."""
    by_client = allow(
        "reset", client_address(request), limit=settings.PASSWORD_RESETS_PER_HOUR, window=HOUR
    )
    by_mailbox = allow(
        "reset-mail", email.strip().casefold(), limit=settings.PASSWORD_RESETS_PER_HOUR, window=HOUR
    )
    return by_client and by_mailbox
