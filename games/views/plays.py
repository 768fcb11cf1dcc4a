"""A play: its seats, derived results and move log."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..access import get_play


@login_required
def play_detail(request: HttpRequest, play_id: int) -> HttpResponse:
    play = get_play(request, play_id)
    context = {
        "play": play,
        "club": play.club,
        "seats": play.seats.select_related("player").order_by("position"),
        "moves": play.moves.select_related("entered_by", "undone_by").order_by("seq"),
    }
    return render(request, "plays/play.html", context)
