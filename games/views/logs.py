"""Game logs: a play's gamelog/1 file to download, and an uploaded one made a play once the
referee has judged it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_POST

from .. import services, userjson
from ..access import get_night, get_play
from ..gamelog import log_filename, play_to_log
from ..models import GameNight
from ..uploads import UploadRefused, read_json_upload, too_big_message, upload_too_big
from .clubs import night_detail


@login_required
@require_GET
@cache_control(private=True)
def play_download(request: HttpRequest, play_id: int) -> HttpResponse:
    play = get_play(request, play_id)
    if play.is_result:  # no move log to give (BG Stats' file holds its result)
        raise Http404
    body = userjson.readable(play_to_log(play), indent=2) + "\n"
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{log_filename(play)}"'
    return response


@csrf_exempt  # so that nothing reads the body before its size is checked: see _log_upload
@login_required
@require_POST
def log_upload(request: HttpRequest, night_id: int) -> HttpResponse:
    """Create a play from an uploaded gamelog/1 file; the referee judges it first.

    A body announced bigger than a game log can be is refused before anything reads it (the
    CSRF check would otherwise parse the whole form first); only then is the form read, by the
    capped upload handler, and the CSRF token checked.
    """
    night = get_night(request, night_id)
    if upload_too_big(request):
        messages.error(request, too_big_message())
        return redirect("night", night_id=night.pk)
    return _log_upload(request, night)


@csrf_protect
def _log_upload(request: HttpRequest, night: GameNight) -> HttpResponse:
    try:
        log = read_json_upload(request, "log")
        play = services.import_log(club=night.club, log=log, night=night, by=request.user)
    except UploadRefused as exc:
        problem = exc.message
        if exc.status == 429:
            # Throttled: the night's page again, saying so, with the status a client reads.
            messages.error(request, problem)
            response = night_detail(request, night.pk)
            response.status_code = 429
            return response
    except services.ServiceError as exc:
        problem = _("The referee refused this log. %(reason)s") % {"reason": exc.message}
    else:
        messages.success(request, _("The game log was imported."))
        return redirect("play", play_id=play.pk)
    messages.error(request, problem)
    return redirect("night", night_id=night.pk)
