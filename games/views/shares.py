"""Read-only links to a game night: the owner makes or withdraws one (on the night's page);
whoever holds it, signed in or not, sees that night's plays live and its summary — nothing else
of the club (no player pages, no move entry, no other night). A withdrawn link is a 404."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from .. import services, stats
from ..access import get_night, get_owned_share, get_shared_night, get_shared_play, require_owner
from .sheets import table_screen
from .stats import point_games


@login_required
@require_POST
def night_share(request: HttpRequest, night_id: int) -> HttpResponse:
    night = get_night(request, night_id)
    require_owner(request, night.club)
    services.share_night(night=night, by=request.user)
    return redirect(reverse("night", args=[night.pk]) + "#share")


@login_required
@require_POST
def share_revoke(request: HttpRequest, share_id: int) -> HttpResponse:
    share = get_owned_share(request, share_id)
    services.revoke_share(share=share, by=request.user)
    messages.success(request, _("The read-only link was withdrawn: it no longer opens anything."))
    return redirect(reverse("night", args=[share.night_id]) + "#share")


def _private(response: HttpResponse) -> HttpResponse:
    # Not for search engines, nor for a shared cache: the link is the secret.
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
@never_cache
def shared_night(request: HttpRequest, token: str) -> HttpResponse:
    night = get_shared_night(token)
    summary = stats.night_summary(night)
    plays = sorted(summary.plays, key=lambda play: (play.started_at, play.pk))
    versions = [play.version for play in plays]
    context = {
        "night": night,
        "summary": summary,
        "plays": plays,
        "point_games": point_games(night.club_id),
        "share_token": token,
        # what the link's stream counts (games.access.watched_shared_night)
        "live_version": sum(versions) + len(versions),
    }
    return _private(render(request, "shares/night.html", context))


@require_GET
@never_cache
def shared_play(request: HttpRequest, token: str, play_id: int) -> HttpResponse:
    play = get_shared_play(token, play_id)
    response = table_screen(
        request,
        play,
        screen_url=lambda pk: reverse("shared-play", args=[token, pk]),
        events_url=reverse("shared-events", args=[token]),
    )
    return _private(response)
