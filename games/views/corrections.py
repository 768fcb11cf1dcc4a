"""Correct a past move (issue 30): the play page on the board as it stood before that move, its
tap builder making the move that replaces it (services.replace_move). A plain form: each step
without a script, or the finished move built on the phone, posts to this page; once the
correction is stored, back to the play. A correction that makes a later move illegal is
refused, and the page says which and why, with a form that applies it all the same and drops
the moves from that one on."""

from __future__ import annotations

import dataclasses
import json
import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .. import movelog, selectors, services
from ..access import get_play
from ..models import Play
from ..ui import Draft, FormError, ui_for
from .changes import damaged, posted_change
from .lookback import Correcting, active_entries
from .play_page import Shown, refusal_answer, render_play


@login_required
@require_http_methods(["GET", "POST"])
def play_correct(request: HttpRequest, play_id: int, index: int) -> HttpResponse:
    play = get_play(request, play_id)
    moves = selectors.log_moves(play)
    active = active_entries(moves)
    if play.status == Play.Status.ABANDONED or index >= len(active):
        messages.error(
            request,
            _("This play was abandoned: its log cannot change.")
            if play.status == Play.Status.ABANDONED
            else _("There is no such move to correct."),
        )
        return redirect("play", play_id=play.pk)
    correcting = _correcting(play, moves, index)
    before = active[:index]  # the log as it stood before the move corrected

    def page(shown: Shown | None = None, status: int | None = None) -> HttpResponse:
        shown = shown or Shown()
        if shown.correcting is None:
            shown = dataclasses.replace(shown, correcting=correcting)
        response = render_play(request, play, shown, moves=before)
        if status is not None:
            response.status_code = status
        return response

    if request.method == "GET" or "reset" in request.POST:
        return page()
    version, keyed = posted_change(request)
    if version is None:
        return page(Shown(error=damaged()), 422)
    ui = ui_for(play.game)
    names = list(play.seats.order_by("position").values_list("player__name", flat=True))
    judgement = selectors.judge_moves(play, names, before)
    try:
        move = ui.read_move(request.POST, judgement, names)
    except FormError as exc:
        return page(Shown(draft=exc.draft, error=exc.message), 422)
    if isinstance(move, Draft):  # a step without a script: keep building
        return page(Shown(draft=move))
    try:
        done = services.replace_move(
            play=play,
            index=index,
            move=move,
            by=request.user,
            version=version,
            cut_at_refusal="cut" in request.POST,
            keyed=keyed,
        )
    except services.LaterMoveRefusedError as exc:
        refused = dataclasses.replace(
            correcting,
            broken=exc.where,
            refusal=exc.message,
            move_json=json.dumps(move, ensure_ascii=False),
            apply_key=secrets.token_hex(16),
        )
        return page(Shown(correcting=refused), 422)
    except (services.StalePlayError, services.PlayGoneError, services.KeyReusedError) as exc:
        return refusal_answer(request, play, exc, _unreachable)
    except services.ServiceError as exc:
        draft = ui.kept_after_refusal(move, judgement, names) if _is_move(move) else None
        return page(Shown(draft=draft, error=exc.message), 422)
    if not done.repeated:
        messages.success(request, _("%(name)s corrected.") % {"name": correcting.name})
    return redirect("play", play_id=play.pk)


def _is_move(move: Any) -> bool:
    return isinstance(move, dict)


def _unreachable(*_args: Any) -> HttpResponse:  # pragma: no cover - refusal_answer handles these
    raise AssertionError("a stale, gone or reused-key refusal is answered by refusal_answer")


def _correcting(play: Play, moves: list[selectors.LogEntry], index: int) -> Correcting:
    """The move at ``index`` as the log tells it ("Turn 5", "Ana plays …")."""
    judgement = selectors.judge_moves(play, selectors.seat_names(play), moves)
    line = next(
        line for line in movelog.move_log(judgement, moves, play.club.zone) if line.index == index
    )
    return Correcting(
        index=index,
        name=line.name,
        text=line.text,
        url=reverse("play-correct", args=[play.pk, index]),
        cancel=reverse("play", args=[play.pk]),
    )
