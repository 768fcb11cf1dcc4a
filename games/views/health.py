"""For the operator: /healthz for load balancers, the favicon, and the page a database outage
shows instead of a crash."""

from __future__ import annotations

import logging

from django.db import Error, InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)

#: Seconds a client (or a load balancer) is asked to wait before trying again after an outage.
RETRY_AFTER = 30


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok" when the database answers a trivial query; 503 otherwise, so that the load
    balancer sends no traffic to an app server that cannot reach its database."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Error as exc:  # any database error, InterfaceError included
        logger.warning("healthz: the database does not answer: %s", exc)
        response = HttpResponse("database unreachable\n", content_type="text/plain", status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    return HttpResponse("ok\n", content_type="text/plain")


@require_GET
@cache_control(max_age=24 * 60 * 60, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and crawlers ask for /favicon.ico whatever the page says: send them to ours."""
    return HttpResponseRedirect(static("img/favicon.svg"))


class DatabaseOutageMiddleware:
    """A page that fails because the database cannot be reached answers a plain 503 with
    Retry-After (the outage is temporary and not the page's fault), not "Server Error (500)".

    Only connection-level errors (``OperationalError``, ``InterfaceError``) are turned into
    503; any other error stays a 500. The page is rendered without the request, so that it
    needs nothing from the database (no user, no session)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error("database outage on %s: %s", request.path, exception, exc_info=exception)
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
