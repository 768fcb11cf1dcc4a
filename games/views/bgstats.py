"""BG Stats on the club's pages: a file uploaded, its matches shown for the owner to change, then
brought in; the club's or a night's plays downloaded as a BG Stats file."""

from __future__ import annotations

import json
import secrets
import zlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_POST

from ..access import get_club, get_night, require_owner
from ..bgstats.matching import match, plays_already_in
from ..bgstats.reader import BGStatsError, read_bytes
from ..bgstats.writer import export_club
from ..models import Club, Play
from ..services import ServiceError
from ..services.bgstats import import_bgstats
from ..uploads import UploadRefused, throttle_upload, upload_too_big
from .clubs import club_detail

#: How long an uploaded file waits for the owner to confirm its matches.
PENDING_SECONDS = 3600


def _pending_key(request: HttpRequest, club: Club, token: str) -> str:
    return f"bgstats:{club.pk}:{request.user.pk}:{token}"


def _too_big() -> str:
    return _("That file is too big to upload (at most %(kb)s KB: zip a bigger export).") % {
        "kb": settings.MAX_UPLOAD_BYTES // 1024
    }


@csrf_exempt  # nothing reads the body before its size is checked (as games.views.logs)
@login_required
@require_POST
def bgstats_upload(request: HttpRequest, club_id: int) -> HttpResponse:
    """A BG Stats file uploaded by an owner: read, matched, and shown for confirmation."""
    club = get_club(request, club_id)
    require_owner(request, club)
    if upload_too_big(request):
        messages.error(request, _too_big())
        return redirect("club", club_id=club.pk)
    return _bgstats_upload(request, club)


@csrf_protect
def _bgstats_upload(request: HttpRequest, club: Club) -> HttpResponse:
    if throttled := _throttled(request, club):
        return throttled
    upload = request.FILES.get("file")
    if upload_too_big(request):
        messages.error(request, _too_big())
        return redirect("club", club_id=club.pk)
    if upload is None:
        messages.error(request, _("Choose a BG Stats file to upload."))
        return redirect("club", club_id=club.pk)
    data = upload.read()
    try:
        export = read_bytes(data)
    except BGStatsError as exc:
        messages.error(request, exc.message)
        return redirect("club", club_id=club.pk)
    token = secrets.token_urlsafe(16)
    # The file as sent (at most the upload limit), compressed, until the owner confirms.
    cache.set(_pending_key(request, club, token), zlib.compress(data), PENDING_SECONDS)
    return _preview(request, club, export, token)


def _throttled(request: HttpRequest, club: Club) -> HttpResponse | None:
    """The club's page saying so, with a 429, once the account has uploaded its fill this hour.
    An upload and each confirmation count (issue 29: uploads are throttled; a confirmation
    reads the kept file again, up to 8 MB of JSON, and a refused one keeps it)."""
    try:
        throttle_upload(request)
    except UploadRefused as exc:
        messages.error(request, exc.message)
        response = club_detail(request, club.pk)
        response.status_code = exc.status
        return response
    return None


def _preview(request, club, export, token, error=None, status=200) -> HttpResponse:
    players, games = match(club, export)
    already = plays_already_in(club, export)
    context = {
        "club": club,
        "token": token,
        "players": players,
        "games": games,
        "club_players": list(club.players.all()),
        "plays": len(export.plays),
        "already": already,
        "to_add": len(export.plays) - already,
        "error": error,
    }
    return render(request, "clubs/bgstats_preview.html", context, status=status)


@login_required
@require_POST
def bgstats_confirm(request: HttpRequest, club_id: int) -> HttpResponse:
    """The owner's say on the matches, then the file brought in (or refused whole)."""
    club = get_club(request, club_id)
    require_owner(request, club)
    if throttled := _throttled(request, club):
        return throttled
    token = request.POST.get("token", "")
    key = _pending_key(request, club, token)
    stored = cache.get(key) if token.replace("-", "").replace("_", "").isalnum() else None
    if stored is None:
        messages.error(request, _("That upload has expired: upload the file again."))
        return redirect("club", club_id=club.pk)
    export = read_bytes(zlib.decompress(stored, bufsize=settings.MAX_UPLOAD_BYTES))
    choices: dict[int, int | None] = {}
    for name, value in request.POST.items():
        if name.startswith("player-") and name[7:].isdigit():
            value = value.strip()
            choices[int(name[7:])] = int(value) if value.isdigit() and len(value) < 19 else None
    try:
        summary = import_bgstats(club=club, export=export, choices=choices, by=request.user)
    except ServiceError as exc:
        return _preview(request, club, export, token, error=exc.message, status=422)
    cache.delete(key)
    messages.success(
        request,
        _(
            "BG Stats: %(added)d plays added, %(already)d already here; %(players)d players "
            "and %(games)d games added."
        )
        % {
            "added": summary.added,
            "already": summary.already,
            "players": len(summary.players_added),
            "games": len(summary.games_added),
        },
    )
    return redirect("club", club_id=club.pk)


def _download(document: dict, filename: str) -> HttpResponse:
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
@cache_control(private=True)
def bgstats_download(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_club(request, club_id)
    return _download(export_club(club), f"club-{club.pk}-BGStatsExport.json")


@login_required
@require_GET
@cache_control(private=True)
def night_bgstats_download(request: HttpRequest, night_id: int) -> HttpResponse:
    night = get_night(request, night_id)
    plays = night.plays.filter(status__in=[Play.Status.FINISHED, Play.Status.IGNORED])
    return _download(
        export_club(night.club, plays), f"night-{night.date.isoformat()}-BGStatsExport.json"
    )
