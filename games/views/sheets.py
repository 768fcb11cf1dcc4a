"""A play's score sheet, as a clean printable page, and its table screen: a read-only page
for a laptop or TV at the table, for members or through a night's read-only link."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from .. import movelog, selectors
from ..access import get_play
from ..models import Play
from ..ui import ui_for
from .lookback import BadStep, Replay, judged_seats, replay_step
from .play_page import play_context
from .results import result_context


@login_required
@require_GET
def play_sheet(request: HttpRequest, play_id: int) -> HttpResponse:
    """The score sheet alone, as a clean printable page."""
    play = get_play(request, play_id)
    if play.is_result:  # its page is its sheet
        return redirect("play", play_id=play.pk)
    context = play_context(play, selectors.log_moves(play), None, None)
    return render(request, "plays/sheet.html", context)


@login_required
@require_GET
def play_table(request: HttpRequest, play_id: int) -> HttpResponse:
    """The table screen: a read-only page for a laptop or TV at the table — big board, scores,
    the score sheet, the last move — that follows the play live."""
    play = get_play(request, play_id)
    return table_screen(
        request,
        play,
        screen_url=lambda pk: reverse("play-table", args=[pk]),
        events_url=reverse("night-events", args=[play.night_id]),
    )


def table_screen(
    request: HttpRequest, play: Play, *, screen_url: Callable[[int], str], events_url: str
) -> HttpResponse:
    """A play's table screen, for members or through a night's read-only link (games.views.
    shares): it follows its night's stream, so that it also hears of the next play. Once the
    play is over and the night has a newer play in progress, it moves on to that play's screen
    (``screen_url`` of its id)."""
    night = play.night
    try:
        step = replay_step(request)  # ?at=k: the replay's step (issue 30), the same screen
    except BadStep:
        return HttpResponseBadRequest(_("A step of the replay is a number of moves."))
    if play.status != Play.Status.IN_PROGRESS and step is None:
        following = (
            night.plays.filter(status=Play.Status.IN_PROGRESS, started_at__gte=play.started_at)
            .exclude(pk=play.pk)
            .order_by("started_at", "id")
            .first()
        )
        if following is not None:
            url = screen_url(following.pk)
            if request.htmx:
                response = HttpResponse(status=204)
                response["HX-Redirect"] = url
                return response
            return redirect(url)
    versions = list(night.plays.values_list("version", flat=True))
    if play.is_result:  # no board, no move log: the result as entered
        context = result_context(play) | {
            "table_screen": True,
            "screen_url": screen_url(play.pk),
            "events_url": events_url,
            "live_version": sum(versions) + len(versions),
        }
        return render(request, "plays/result.html", context)
    moves = selectors.log_moves(play)
    replay = None
    if step is not None:
        replay = Replay.at(step, moves, screen_url(play.pk))
        moves = replay.cut(moves)
    context = play_context(play, moves, None, None)
    if replay is not None:  # the scores as the log cut there makes them
        context["seats"] = judged_seats(context["seats"], context["judgement"])
    told = movelog.move_log(context["judgement"], moves, play.club.zone)
    told = [line for line in told if not line.undone]
    context |= {
        "night": night,
        "last_move": told[-1] if told else None,
        "board_template": ui_for(play.game).template("board"),
        "screen_url": screen_url(play.pk),
        "replay": replay,
        "events_url": events_url,
        # what the night's stream counts (games.access.watched_night): the page is at this one
        "live_version": sum(versions) + len(versions),
    }
    return render(request, "plays/table.html", context)
