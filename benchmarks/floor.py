"""The yardstick of a move entry (issue 19): a logged-in view that runs one transaction with an
INSERT and two UPDATEs and renders a small template. A bare view is no fair yardstick for a
logged-in write; this one does the least such a write must (session, user, a transaction, three
statements, a page), so a move entry within 2× of it is near its floor.

Only the benchmarks mount it (``ROOT_URLCONF = "benchmarks.floor"``), next to the site's URLs.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import include, path
from django.views.decorators.http import require_POST

from games.models import AuditEntry, Play, Seat

TEMPLATE = engines["django"].from_string(
    '<div id="floor"><p>{{ request.user.get_username }}: entry {{ entry.pk }} on play '
    "{{ play_id }} (version {{ version }})</p>"
    '<form method="post">{% csrf_token %}<input type="hidden" name="version" '
    'value="{{ version }}"><button>Again</button></form></div>'
)


@login_required
@require_POST
def floor(request: HttpRequest, play_id: int) -> HttpResponse:
    with transaction.atomic():
        entry = AuditEntry.objects.create(
            club_id=request.POST["club"],
            actor=request.user,
            actor_name=request.user.get_username(),
            action=AuditEntry.Action.MOVE_ENTER,
            object_kind="play",
            object_id=play_id,
            summary="floor",
        )
        Play.objects.filter(pk=play_id).update(version=F("version") + 1)
        Seat.objects.filter(play_id=play_id, position=0).update(score=F("score"))
    context = {"entry": entry, "play_id": play_id, "version": request.POST.get("version")}
    return HttpResponse(TEMPLATE.render(context, request))


urlpatterns = [
    path("", include("config.urls")),
    path("bench/floor/<int:play_id>/", floor, name="bench-floor"),
]
