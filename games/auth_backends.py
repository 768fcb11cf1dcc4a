"""Failed-login throttling: django-axes' standalone backend, for logins made over HTTP."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest


class LoginThrottleBackend(AxesStandaloneBackend):
    """Refuse a locked-out login attempt; leave the password check to the next backend.

    Throttling is about attempts over HTTP. A call to ``authenticate()`` without a request
    (the shell, a management command, the test client's ``login()``) has no address to count
    against, so it is left to the other backends instead of failing outright.
    """

    def authenticate(self, request: HttpRequest | None, *args: Any, **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, *args, **kwargs)
