"""Plays at the table: start a play, the play page, move entry (htmx or plain forms), undo,
the printable score sheet, and game-log download and upload."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from referee import GAMES, Judgement

from .. import movelog, selectors, services, stats, userjson, verdicts
from ..access import get_night, get_play, is_owner, require_owner
from ..gamelog import log_filename, play_to_log
from ..models import GameNight, Play, Player, Seat, game_menu
from ..ui import Draft, FormError, ui_for
from ..uploads import upload_too_big

MAX_SEATS = 5


# Starting a play ----------------------------------------------------------------------------


def _seat_ids(data: QueryDict) -> list[str]:
    return [value for value in data.getlist("seat") if value]


def _chosen_players(night, seat_ids: list[str]) -> list[Player]:
    """The chosen players in seat order, or FormError."""
    if len(set(seat_ids)) != len(seat_ids):
        raise FormError(_("A player can take only one seat."))
    try:
        ids = [int(value) for value in seat_ids]
    except ValueError:
        raise FormError(_("Choose the players from the list."))
    found = {p.pk: p for p in Player.objects.filter(club=night.club, pk__in=ids)}
    if len(found) != len(ids):
        raise FormError(_("Choose the players from the list."))
    return [found[pk] for pk in ids]


def _check_game_and_count(game: str, count: int) -> None:
    engine = GAMES.get(game)
    if engine is None:
        raise FormError(_("Choose a game."))
    if not engine.min_players <= count <= engine.max_players:
        if engine.min_players == engine.max_players:
            wanted = str(engine.min_players)
        else:
            wanted = f"{engine.min_players}–{engine.max_players}"
        raise FormError(
            _("%(game)s is played by %(wanted)s players; you chose %(count)s.")
            % {"game": engine.title, "wanted": wanted, "count": count}
        )


@login_required
@require_http_methods(["GET", "POST"])
def play_start(request: HttpRequest, night_id: int) -> HttpResponse:
    """Step 1: the game and the players in seat order (a guest can be added on the spot)."""
    night = get_night(request, night_id)
    data = request.POST if request.method == "POST" else request.GET
    game = data.get("game", "")
    seats = _seat_ids(data)
    error = None
    if request.method == "POST":
        try:
            if "add_guest" in request.POST:
                guest = services.add_player(
                    club=night.club, name=request.POST.get("guest", ""), guest=True
                )
                seats.append(str(guest.pk))
                messages.success(request, _("%(name)s joins the table.") % {"name": guest.name})
            else:
                players = _chosen_players(night, seats)
                _check_game_and_count(game, len(players))
                query = QueryDict(mutable=True)
                query["game"] = game
                query.setlist("seat", [str(p.pk) for p in players])
                return redirect(f"{reverse('play-setup', args=[night.pk])}?{query.urlencode()}")
        except (FormError, services.ServiceError) as exc:
            error = exc.message
    players = list(night.club.players.all())
    seat_rows = [seats[i] if i < len(seats) else "" for i in range(MAX_SEATS)]
    context = {
        "night": night,
        "club": night.club,
        "games": game_menu(),
        "game": game,
        "players": players,
        "seat_rows": seat_rows,
        "error": error,
    }
    return render(request, "plays/start.html", context, status=422 if error else 200)


@login_required
@require_http_methods(["GET", "POST"])
def play_setup(request: HttpRequest, night_id: int) -> HttpResponse:
    """Step 2: the game's setup, prefilled with sensible defaults; the referee validates it."""
    night = get_night(request, night_id)
    data = request.POST if request.method == "POST" else request.GET
    game = data.get("game", "")
    try:
        players = _chosen_players(night, _seat_ids(data))
        _check_game_and_count(game, len(players))
    except FormError as exc:
        messages.error(request, exc.message)
        return redirect("play-start", night_id=night.pk)
    names = [p.name for p in players]
    ui = ui_for(game)
    error = None
    if request.method == "POST":
        try:
            setup = ui.read_setup(request.POST, names)
            play = services.start_play(
                night=night, game=game, players=players, setup=setup, by=request.user
            )
        except (FormError, services.ServiceError) as exc:
            error = exc.message
        else:
            return redirect("play", play_id=play.pk)
    context = {
        "night": night,
        "club": night.club,
        "game": game,
        "game_title": GAMES[game].title,
        "players": players,
        "names": names,
        "setup_template": ui.template("setup"),
        "error": error,
        **ui.setup_context(names, request.POST if request.method == "POST" else None),
    }
    return render(request, "plays/setup.html", context, status=422 if error else 200)


# The play page --------------------------------------------------------------------------------


def _play_context(
    play: Play,
    moves: list[selectors.LogEntry],
    judgement: Judgement | None,
    draft: Draft | None,
    seats: list[Seat] | None = None,
) -> dict:
    """What the play page and the printable sheet share: seats, the judged log, the sheet.
    ``seats`` (their players joined), when the caller has them already."""
    if seats is None:
        seats = list(play.seats.select_related("player").order_by("position"))
    names = [seat.player.name for seat in seats]
    if judgement is None:
        judgement = selectors.judge_moves(play, names, moves)
    ui = ui_for(play.game)
    return {
        "play": play,
        "club": play.club,
        "seats": seats,
        "names": names,
        "judgement": judgement,
        # why the referee cannot judge the stored log any more (it should never happen)
        "refusal": verdicts.explain(judgement),
        "details": judgement.details,
        "state": judgement.state,
        "sheet_template": ui.template("sheet"),
        **ui.move_context(judgement, names, draft),
    }


def _draft_key(play: Play) -> str:
    return f"play-draft-{play.pk}"


def _saved_draft(request: HttpRequest, play: Play) -> Draft | None:
    """The move this browser was building on the play, kept on the server so that it survives
    a reload or a dropped connection. Only drafts the server made are kept (never what a form
    posted), and only for the version they were built on: a move entered since makes it moot."""
    saved = request.session.get(_draft_key(play))
    if isinstance(saved, dict) and saved.get("version") == play.version:
        data = saved.get("data")
        if isinstance(data, dict) and data:
            return Draft(data)
    return None


def _keep_draft(request: HttpRequest, play: Play, draft: Draft | None) -> None:
    key = _draft_key(play)
    wanted = {"version": play.version, "data": draft.data} if draft and draft.data else None
    if request.session.get(key) != wanted:  # a session write only when the draft changed
        if wanted is None:
            request.session.pop(key, None)
        else:
            request.session[key] = wanted


def _forget_draft(request: HttpRequest, play: Play) -> None:
    _keep_draft(request, play, None)


def _render_play(
    request: HttpRequest,
    play: Play,
    *,
    judgement: Judgement | None = None,
    draft: Draft | None = None,
    error: str | None = None,
    notice: str | None = None,
    events: list[str] | None = None,
    live_notice: str | None = None,
    undone: bool = False,
    status: int = 200,
    moves: list[selectors.LogEntry] | None = None,
    state: services.PlayState | None = None,
    appended: bool = False,
) -> HttpResponse:
    """The whole play page, or only its main fragment for an htmx request; ``undone`` says that
    the last move was just undone. ``state``: the play as a move entry read it (rendered from
    memory, without reading it again). ``appended``: the fragment carries only the log's new
    last entry (``state.entered``), to be appended to the log the page shows (an htmx entry)."""
    seats = None
    if state is not None:  # ``play`` is the view's, which enter_move brought up to date
        moves, seats = state.log, state.seats
        judgement = judgement or state.judgement
    if moves is None:
        moves = selectors.log_moves(play)
    context = _play_context(play, moves, judgement, draft, seats)
    ui = ui_for(play.game)
    judgement = context["judgement"]
    can_enter = play.status == Play.Status.IN_PROGRESS and judgement.legal
    _keep_draft(request, play, draft if can_enter else None)
    context |= {
        "moves": moves,
        # After an htmx entry the page keeps its log: only the new line is told and sent.
        "log_lines": [] if appended else movelog.move_log(judgement, moves, play.club.zone),
        "log_appended": (
            movelog.last_line(state.before, judgement, state.entered, play.club.zone)
            if appended
            else None
        ),
        "time_zone": play.club.time_zone,
        "active_moves": sum(1 for m in moves if m.undone_at is None),
        "draft": draft,
        "draft_json": draft.as_json() if draft else "",
        "error": error,
        "notice": notice,
        "events": events or [],
        "live_notice": live_notice,
        # What the live refresh sends back (play_live): the page's version and, signed, its
        # draft with the position it was built on.
        "live_vals": json.dumps(
            {
                "version": str(play.version),
                "kept": _signed_draft(play, moves, draft),
            }
        ),
        "can_enter": can_enter,
        # Only finished plays are rated: each player's rating after it, in its game and overall.
        "rating_changes": (
            stats.play_rating_changes(play) if play.status == Play.Status.FINISHED else []
        ),
        "board_template": ui.template("board"),
        "move_form_template": ui.template("move_form"),
    }
    if undone:
        # The undone move was the next one after those still in the log: "Turn 3".
        where = ui.move_name(judgement.state, context["active_moves"])
        context["notice"] = _("Move undone: %(where)s.") % {"where": where}
    if not request.htmx or play.status == Play.Status.ABANDONED:
        context["is_owner"] = is_owner(request, play.club)
    template = "plays/play.html#main" if request.htmx else "plays/play.html"
    if not request.htmx and status == 200 and error:
        status = 422
    return render(request, template, context, status=status)


@vary_on_headers("HX-Request")  # the main fragment for htmx, else the page
@login_required
@require_GET
def play_detail(request: HttpRequest, play_id: int) -> HttpResponse:
    play = get_play(request, play_id)
    return _render_play(request, play, draft=_saved_draft(request, play))


def posted_version(request: HttpRequest) -> int | None:
    """The play's version a form was made at (every form that changes a play carries it)."""
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


def _damaged() -> str:
    return _("The form was damaged: start the move again.")


def _render_stale(request: HttpRequest, play: Play) -> HttpResponse:
    """Refuse what a form made at an older version asked, and show where the play stands now
    (the draft it carried is dropped: it was built on a position that is gone)."""
    play.refresh_from_db()
    status = 200 if request.htmx else 409  # htmx swaps only 2xx answers in
    return _render_play(request, play, error=services.stale_error().message, status=status)


def play_gone(request: HttpRequest, play: Play, message: str) -> HttpResponse:
    """The play was deleted while a change was on its way: say so on its night's page."""
    messages.error(request, message)
    night = reverse("night", args=[play.night_id])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = night
        return response
    return redirect(night)


@vary_on_headers("HX-Request")  # the main fragment for htmx, else the page
@login_required
@require_POST
def play_move(request: HttpRequest, play_id: int) -> HttpResponse:
    """One tap of a move form: keep composing (a draft), or judge and store the complete move.

    Every tap carries the play's version its page was made at. A tap made at an older version
    is refused, whichever step it is: the draft was built on a position that is gone (phone B
    still shows "Kofi drew:" after phone A entered Kofi's move), and reading it against the
    new position would make it someone else's move.
    """
    play = get_play(request, play_id)
    if "reset" in request.POST:
        return _render_play(request, play)
    version = posted_version(request)
    if version is None:
        return _render_play(request, play, error=_damaged())
    if version != play.version:
        return _render_stale(request, play)
    ui = ui_for(play.game)
    # A refused tap keeps the choices made so far (fixing one costs one tap): the draft the
    # server last showed this browser, or what the game kept of the refused input.
    kept = _saved_draft(request, play)
    tapped: dict[str, Any] = {}

    def compose(current: Judgement, names: list[str]) -> Any:
        """The move the taps make, read against the play as the entry found it under its lock
        (so the play is read once): a draft or a form error stores nothing."""
        try:
            move = ui.read_move(request.POST, current, names)
        except FormError as exc:
            tapped["error"] = exc
            return services.NOT_COMPLETE
        if isinstance(move, Draft):
            tapped["draft"] = move
            return services.NOT_COMPLETE
        tapped["move"] = move
        return move

    try:
        state = services.enter_move(play=play, by=request.user, version=version, compose=compose)
    except services.StalePlayError:
        return _render_stale(request, play)
    except services.PlayGoneError as exc:
        return play_gone(request, play, exc.message)
    except services.ServiceError as exc:
        if exc.state is not None and "move" in tapped:
            refused = ui.kept_after_refusal(tapped["move"], exc.state.judgement, exc.state.names)
            kept = refused or kept
        return _render_play(request, play, state=exc.state, draft=kept, error=exc.message)
    if "error" in tapped:
        error = tapped["error"]
        draft = error.draft or kept
        return _render_play(request, play, state=state, draft=draft, error=error.message)
    if "draft" in tapped:
        return _render_play(request, play, state=state, draft=tapped["draft"])
    if not request.htmx:
        return redirect("play", play_id=play.pk)
    # enter_move updated ``play``; what the move changed is said next to the controls
    events = ui.events(state.before, state.judgement, state.names)
    # The page's log is kept and the new entry appended, unless it said "No move yet."
    appended = len(state.log) > 1 and request.htmx
    return _render_play(request, play, state=state, events=events, appended=appended)


@vary_on_headers("HX-Request")  # the main fragment for htmx, else the page
@login_required
@require_POST
def play_undo(request: HttpRequest, play_id: int) -> HttpResponse:
    """Undo the last move: it stays in the log, marked undone, with who and when."""
    play = get_play(request, play_id)
    version = posted_version(request)
    if version is None:
        return _render_play(request, play, error=_damaged())
    try:
        services.undo_last_move(play=play, by=request.user, version=version)
    except services.StalePlayError:
        return _render_stale(request, play)
    except services.PlayGoneError as exc:
        return play_gone(request, play, exc.message)
    except services.ServiceError as exc:
        play.refresh_from_db()
        return _render_play(request, play, error=exc.message)
    if not request.htmx:
        return redirect("play", play_id=play.pk)
    play.refresh_from_db()
    return _render_play(request, play, undone=True)


@login_required
@require_http_methods(["GET", "POST"])
def play_abandon(request: HttpRequest, play_id: int) -> HttpResponse:
    """Abandoning asks first (a page of its own: no script is needed to confirm), then stops
    the play; its owner can resume it."""
    play = get_play(request, play_id)
    if request.method == "GET":
        if play.status != Play.Status.IN_PROGRESS:
            return redirect("play", play_id=play.pk)
        context = {"play": play, "club": play.club, "move_count": len(selectors.log_moves(play))}
        return render(request, "plays/confirm_abandon.html", context)
    version = posted_version(request)
    if version is None:
        messages.error(request, _("The form was damaged: try again."))
        return redirect("play", play_id=play.pk)
    try:
        services.abandon_play(play=play, by=request.user, version=version)
    except services.StalePlayError:
        return _render_stale(request, play)
    except services.PlayGoneError as exc:
        return play_gone(request, play, exc.message)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        _forget_draft(request, play)
    return redirect("play", play_id=play.pk)


@login_required
@require_POST
def play_resume(request: HttpRequest, play_id: int) -> HttpResponse:
    """The owner takes back abandoning a play."""
    play = get_play(request, play_id)
    require_owner(request, play.club)
    version = posted_version(request)
    if version is None:
        messages.error(request, _("The form was damaged: try again."))
        return redirect("play", play_id=play.pk)
    try:
        services.resume_play(play=play, by=request.user, version=version)
    except services.StalePlayError:
        return _render_stale(request, play)
    except services.PlayGoneError as exc:
        return play_gone(request, play, exc.message)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The play is resumed: moves can be entered again."))
    return redirect("play", play_id=play.pk)


LIVE_SALT = "games.play_live.draft"


def _signed_draft(play: Play, moves: list[selectors.LogEntry], draft: Draft | None) -> str:
    """The half-built move and the position it was built on, signed: only a draft this site
    made is ever kept, so it need not be judged again."""
    if not draft or not draft.data:
        return ""
    return signing.dumps(
        {"play": play.pk, "position": position_of(moves), "draft": draft.data}, salt=LIVE_SALT
    )


def position_of(moves: list[selectors.LogEntry]) -> str:
    """A short fingerprint of the position a page shows: its active moves (an undo then a new
    move gives a different position, even with as many moves)."""
    active = [m.seq for m in moves if m.undone_at is None]
    digest = hashlib.blake2s(",".join(map(str, active)).encode(), digest_size=6).hexdigest()
    return f"{len(active)}-{digest}"


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
    was built on. Nothing changed since: 204, the page stays as it is. Otherwise the fresh fragment,
    keeping the draft if the play is still at that position (a move, then its undo), else
    without it and saying why next to the move form.
    """
    play = get_play(request, play_id)
    if request.GET.get("version") == str(play.version):
        return HttpResponse(status=204)
    moves = selectors.log_moves(play)
    try:
        kept = signing.loads(request.GET.get("kept", ""), salt=LIVE_SALT)
    except signing.BadSignature:
        kept = None
    if not isinstance(kept, dict) or kept.get("play") != play.pk:
        return _render_play(request, play, moves=moves)
    position = kept["position"]
    if play.status == Play.Status.IN_PROGRESS and position == position_of(moves):
        return _render_play(request, play, moves=moves, draft=Draft(kept["draft"]))
    live_notice = _what_changed(play, moves, position)
    return _render_play(request, play, moves=moves, live_notice=live_notice)


@login_required
@require_GET
def play_sheet(request: HttpRequest, play_id: int) -> HttpResponse:
    """The score sheet alone, as a clean printable page."""
    play = get_play(request, play_id)
    context = _play_context(play, selectors.log_moves(play), None, None)
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
    if play.status != Play.Status.IN_PROGRESS:
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
    moves = selectors.log_moves(play)
    context = _play_context(play, moves, None, None)
    told = movelog.move_log(context["judgement"], moves, play.club.zone)
    told = [line for line in told if not line.undone]
    versions = list(night.plays.values_list("version", flat=True))
    context |= {
        "night": night,
        "last_move": told[-1] if told else None,
        "board_template": ui_for(play.game).template("board"),
        "screen_url": screen_url(play.pk),
        "events_url": events_url,
        # what the night's stream counts (games.access.watched_night): the page is at this one
        "live_version": sum(versions) + len(versions),
    }
    return render(request, "plays/table.html", context)


# Game logs --------------------------------------------------------------------------------------


@login_required
@require_GET
@cache_control(private=True)
def play_download(request: HttpRequest, play_id: int) -> HttpResponse:
    play = get_play(request, play_id)
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
        messages.error(request, _too_big())
        return redirect("night", night_id=night.pk)
    return _log_upload(request, night)


def _too_big() -> str:
    return _("That file is too big for a game log (at most %(kb)s KB).") % {
        "kb": settings.MAX_UPLOAD_BYTES // 1024
    }


@csrf_protect
def _log_upload(request: HttpRequest, night: GameNight) -> HttpResponse:
    upload = request.FILES.get("log")
    problem = None
    if upload_too_big(request):
        problem = _too_big()
    elif upload is None:
        problem = _("Choose a game log file to upload.")
    else:
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            problem = _("That file is not a text file.")
        else:
            try:
                log = userjson.parse(text, max_chars=settings.MAX_UPLOAD_BYTES)
            except userjson.UserJSONError as exc:
                problem = exc.message
    if problem is None:
        try:
            play = services.import_log(club=night.club, log=log, night=night, by=request.user)
        except services.ServiceError as exc:
            problem = _("The referee refused this log. %(reason)s") % {"reason": exc.message}
        else:
            messages.success(request, _("The game log was imported."))
            return redirect("play", play_id=play.pk)
    messages.error(request, problem)
    return redirect("night", night_id=night.pk)
