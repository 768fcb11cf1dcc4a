"""The play page's fragment again, after its stream said the play changed (games.views.live):
the move being built is kept if the play is still at the position it was built on, else it is
cleared and the page says why."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from .. import selectors
from ..access import get_play
from ..models import Play
from ..ui import Draft
from .drafts import kept_draft, position_of
from .play_page import Shown, render_play


def _what_changed(play: Play, moves: list[selectors.LogEntry], position: str) -> str:
    """Why a half-built move was cleared, in the players' words."""
    if play.status == Play.Status.ABANDONED:
        return _("This play was abandoned on another phone — your choices were cleared.")
    before, _sep, _digest = position.partition("-")
    active = [m for m in moves if m.undone_at is None]
    if before.isdigit() and len(active) > int(before):
        data = active[-1].data
        player = data.get("player") if isinstance(data, dict) else None
        if isinstance(player, str):
            return _(
                "%(player)s's move was entered on another phone — your choices were cleared."
            ) % {"player": player}
        return _("A move was entered on another phone — your choices were cleared.")
    return _("A move was undone on another phone — your choices were cleared.")


@login_required
@require_GET
def play_live(request: HttpRequest, play_id: int) -> HttpResponse:
    """The play page's fragment again, after its stream said the play changed (htmx only).

    The page sends its version and, signed, its half-built move (draft) with the position it
    was built on; or, for a move built on the phone, that position alone (``drafting``).
    Nothing changed since: 204, the page stays as it is. Otherwise the fresh fragment, keeping
    the draft if the play is still at that position (a move, then its undo), else without it
    and saying why next to the move form.
    """
    play = get_play(request, play_id)
    if request.GET.get("version") == str(play.version):
        return HttpResponse(status=204)
    drafting = request.GET.get("drafting", "")
    kept = None if drafting else kept_draft(request.GET.get("kept", ""), play, request.user.pk)
    if not drafting and kept is None:
        # Nothing of this phone's own: the play as every member sees it, drawn once for all
        # the phones that fetch it (games.views.drawn), its log read only to draw it.
        return render_play(request, play)
    moves = selectors.log_moves(play)
    if drafting:
        # A move half-built on the phone (static/js/move-builder.js), on the position the page
        # showed: the page keeps it if that position still stands, else says why it is gone.
        if play.status == Play.Status.IN_PROGRESS and drafting == position_of(moves):
            return render_play(request, play, moves=moves)
        live_notice = _what_changed(play, moves, drafting)
        return render_play(request, play, Shown(live_notice=live_notice), moves=moves)
    position = kept["position"]
    if play.status == Play.Status.IN_PROGRESS and position == position_of(moves):
        return render_play(request, play, Shown(draft=Draft(kept["draft"])), moves=moves)
    live_notice = _what_changed(play, moves, position)
    return render_play(request, play, Shown(live_notice=live_notice), moves=moves)
