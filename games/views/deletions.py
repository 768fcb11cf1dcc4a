"""Deleting a play or a player: a confirmation page (GET), then the deletion (POST). Owners only.

Members get 404, as for the other owner-only pages: the links are not shown to them either.
The audit keeps what was deleted (a play's whole log).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .. import services
from ..access import get_play, get_player, require_owner
from .changes import posted_version


@login_required
@require_http_methods(["GET", "POST"])
def play_delete(request: HttpRequest, play_id: int) -> HttpResponse:
    play = get_play(request, play_id)
    require_owner(request, play.club)
    refusal = None
    if request.method == "POST":
        night_id = play.night_id
        version = posted_version(request)
        try:
            if version is None:
                raise services.ServiceError(_("The form was damaged: try again."))
            # The confirmation carries the version it showed: a play that changed since (a
            # move entered at the table meanwhile) is shown again, not deleted unseen.
            services.delete_play(play=play, by=request.user, version=version)
        except services.PlayGoneError:
            pass  # deleted meanwhile by another owner: what was asked is done
        except services.ServiceError as exc:
            refusal = exc.message
            play.refresh_from_db()
        if refusal is None:
            messages.success(request, _("The play was deleted. The audit keeps its log."))
            return redirect("night", night_id=night_id)
    context = {
        "play": play,
        "club": play.club,
        "seats": play.seats.select_related("player").order_by("position"),
        "move_count": play.moves.active().count(),
        "refusal": refusal,
    }
    return render(request, "plays/confirm_delete.html", context, status=409 if refusal else 200)


@login_required
@require_http_methods(["GET", "POST"])
def player_delete(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_player(request, player_id)
    require_owner(request, player.club)
    refusal = None
    if request.method == "POST":
        try:
            services.delete_player(player=player, by=request.user)
        except services.ServiceError as exc:
            refusal = exc.message
        else:
            messages.success(request, _("%(name)s was deleted.") % {"name": player.name})
            return redirect("club", club_id=player.club_id)
    seat_count = player.seats.count()
    return render(
        request,
        "clubs/confirm_delete_player.html",
        {"player": player, "club": player.club, "seat_count": seat_count, "refusal": refusal},
        status=409 if refusal else 200,
    )
