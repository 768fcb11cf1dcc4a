"""The play page and what changes it: the page (or its main fragment for htmx) with the move
being built kept in the session, a move's taps (htmx or plain forms), undo, abandon and resume."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from referee import Judgement

from .. import jinja, parts, selectors, services, stats, verdicts
from ..access import get_play, is_owner, member_play, require_owner
from ..models import Play, Seat
from ..services import playrow
from ..sqlrows import storable_key
from ..ui import Draft, FormError, ui_for
from . import drawn, loglines
from .changes import DamagedKey, damaged, posted_change, posted_version, request_key
from .drafts import forget_draft, keep_draft, position_of, saved_draft, signed_draft
from .lookback import BadStep, Correcting, Replay, judged_seats, replay_step
from .results import result_detail


def play_context(
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


@dataclass(frozen=True)
class Shown:
    """What the play page shows besides the play as it stands (each part optional)."""

    draft: Draft | None = None  # the move being built
    error: str | None = None  # why the last tap or change was refused
    stale: bool = False  # refused for being made at an older version: a 409 without htmx
    events: Sequence[str] = ()  # what the move just entered did, said next to the controls
    live_notice: str | None = None  # why a change on another phone cleared the draft
    undone: bool = False  # the last move was just undone
    appended: bool = False  # only the log's new entry is sent, for the page to append (htmx)
    # Looking back (issue 30: games.views.lookback), the page drawn from its log cut there:
    replay: Replay | None = None  # a step of the replay: nothing is entered
    correcting: Correcting | None = None  # a past move corrected: its form replaces it


def render_play(
    request: HttpRequest,
    play: Play,
    shown: Shown = Shown(),
    *,
    state: services.PlayState | None = None,
    moves: list[selectors.LogEntry] | None = None,
) -> HttpResponse:
    """The whole play page, or only its main fragment for an htmx request. ``state``: the play
    as a move entry read it (the page is drawn from memory, without reading it again);
    ``moves``: its log, when the caller has read it already."""
    if play.is_result:  # no move log, no board: its own page, saying why nothing changed
        return result_detail(request, play, error=shown.error, status=409)
    if drawn.alike(request, play, shown == Shown() and state is None):
        # The play as every member sees it at this version, drawn once for all of them (the
        # phones watching a table fetch it on each move): games.views.drawn.
        keep_draft(request, play, None)
        drawing = _as_every_member_sees_it(play, moves)
    else:
        drawing = _draw(request, play, shown, state=state, moves=moves)
    # A page that says which parts it shows gets only those that changed (games.parts); the
    # log it keeps, and the move's line is appended.
    have = parts.shown(request.headers.get(parts.HEADER)) if request.htmx else None
    answer = drawing.answer(have)
    response = HttpResponse(
        drawn.personal(answer or drawing.html, request), status=_status(request, shown)
    )
    patch_vary_headers(response, [parts.HEADER])
    if answer is not None:
        response[parts.HEADER] = "1"
    if request.method == "POST":
        response[CHANGE_HEADER] = _change(shown)
    return response


def drawn_for_members(play_id: int, user_id: int, language: str) -> drawn.Drawn | None:
    """The play's fragment as every member sees it now (games.views.drawn), in ``language``,
    for ``user_id``'s stream to push the parts that changed (games.views.live); None when
    there is nothing of the kind to push: not a member (any more), the play gone, a result, or
    a play no longer in progress (a finished play's ratings, an abandoned one's "Resume" for
    its owner: fetched as before). The one drawing per process and version that the phones'
    fetches share (``drawn.KEPT``)."""
    play = member_play(user_id, play_id)
    if play is None or play.is_result or play.status != Play.Status.IN_PROGRESS:
        return None
    with translation.override(language):
        return _as_every_member_sees_it(play)


def _as_every_member_sees_it(
    play: Play, moves: list[selectors.LogEntry] | None = None
) -> drawn.Drawn:
    """The fragment of a play in progress with nothing of any viewer's own, drawn once per
    process and version for the phones' fetches and their streams' pushes alike (drawn.KEPT);
    ``moves``: its log, when the caller has read it already."""

    def draw() -> tuple[drawn.Drawn, bool]:
        return _draw(None, play, Shown(), state=None, moves=moves), drawn.still_at(play)

    return drawn.KEPT.get_or_draw(drawn.key(play), draw)


def _draw(
    request: HttpRequest | None,
    play: Play,
    shown: Shown,
    *,
    state: services.PlayState | None,
    moves: list[selectors.LogEntry] | None,
) -> drawn.Drawn:
    """The play page (or its fragment) drawn, with markers where each viewer's answer gets its
    own token and keys (games.views.drawn.personal). ``request`` None: the fragment as every
    member sees it, for their streams to push (``drawn_for_members``): no viewer's session,
    draft or rights are read or written."""
    fragment = request is None or bool(request.htmx)
    seats = judgement = position = active_moves = None
    if state is not None:  # ``play`` is the one the entry read and brought up to date
        seats, judgement = state.seats, state.judgement
        if shown.appended and state.entered is not None:
            # A move's answer: the page keeps its log and appends the move's line, and the
            # position is the one the entry kept, so the log is not read again (issue 32).
            moves, position, active_moves = [state.entered], state.position, state.active_moves
        else:
            moves = state.log
    looking_back = shown.replay is not None or shown.correcting is not None
    if moves is None:
        moves = selectors.log_moves(play)
    if judgement is None and not looking_back:
        # The play's whole log, judged from the state kept after its last change (issue 32:
        # not the whole log judged again, for each phone that watches a move deep in a play),
        # if it is that of the log read (else the log is judged: it is the truth).
        kept = playrow.kept_judgement(play, log=moves)
        if kept is not None:
            judgement, position = kept.judgement, kept.position
    if position is None:
        position = position_of(moves)
    if active_moves is None:
        active_moves = sum(1 for m in moves if m.undone_at is None)
    context = play_context(play, moves, judgement, shown.draft, seats)
    judgement = context["judgement"]
    if looking_back:  # the scores as the log cut there makes them
        context["seats"] = judged_seats(context["seats"], judgement)
    # A correction enters its move on the board as it stood, a finished play's too.
    can_enter = (
        (play.status == Play.Status.IN_PROGRESS or shown.correcting is not None)
        and judgement.legal
        and shown.replay is None
    )
    # The live page's half-built move is kept while looking back; a stream's drawing (no
    # request) has no viewer whose draft it could be.
    if not looking_back and request is not None:
        keep_draft(request, play, shown.draft if can_enter else None)
    ui = ui_for(play.game)
    can_correct = not looking_back and play.status != Play.Status.ABANDONED and judgement.legal
    context |= {
        "moves": moves,
        # A move's answer holds only its line, which the page appends; else the whole log.
        "log": (
            loglines.appended(play, judgement, state, can_correct=can_correct)
            if shown.appended and state is not None and state.entered is not None
            else loglines.whole(play, judgement, moves, can_correct=can_correct, cut=looking_back)
        ),
        "time_zone": play.club.time_zone,
        "active_moves": active_moves,
        "draft": shown.draft,
        "draft_json": shown.draft.as_json() if shown.draft else "",
        "error": shown.error,
        # The undone move was the next one after those still in the log: "Turn 3".
        "notice": (
            _("Move undone: %(where)s.") % {"where": ui.move_name(judgement.state, active_moves)}
            if shown.undone
            else None
        ),
        "events": shown.events,
        "live_notice": shown.live_notice,
        "live_vals": _live_vals(play, position, shown.draft, request and request.user.pk),
        # What a move built on the phone was built on: kept across a refresh only if unchanged.
        "position": position,
        "can_enter": can_enter,
        # Only finished plays are rated: each player's rating after it, in its game and overall.
        "rating_changes": (
            stats.play_rating_changes(play)
            if play.status == Play.Status.FINISHED and not looking_back
            else []
        ),
        "board_template": ui.template("board"),
        "move_form_template": ui.template("move_form"),
        # A move built on the phone reads what is legal now from the referee (issue 28).
        "builder": ui.builder if can_enter else None,
        "options": judgement.state.options() if can_enter and ui.builder else None,
        # The CSRF token, and the keys made once per page for each change it may send (issue
        # 28: a form sent again is done once, services.Keyed), are each viewer's: drawn as
        # markers, filled in each answer (games.views.drawn).
        **drawn.markers(),
        # issue 30: where the move form posts (a correction's own), the replay or correction
        # shown, and whether each move of the log offers "Correct this move"
        "move_url": shown.correcting.url
        if shown.correcting
        else reverse("play-move", args=[play.pk]),
        "replay": shown.replay,
        "correcting": shown.correcting,
        "looking_back": looking_back,
        "can_correct": can_correct,
    }
    if request is not None and (not fragment or play.status == Play.Status.ABANDONED):
        context["is_owner"] = is_owner(request, play.club)
    if context["rating_changes"]:
        context["ratings_html"] = render_to_string("stats/play_ratings.html", context, request)
    context["drawing"] = drawing = parts.Drawing()
    if fragment:  # the fragment alone: Jinja's (games.jinja), as the page draws it
        html = jinja.render("plays/_main.html", context)
    else:
        html = render_to_string("plays/play.html", context, request)
    return drawn.Drawn(html, drawing, play.version)


#: What became of a change the page sent, for its outbox (static/js/outbox.js), which reads
#: it rather than the page: "done" (stored, or done already: the same request again),
#: "refused" (by the referee or the service: the page says why), "stale" (made at an older
#: version), "draft" (a step of a move built on the server, stored nothing).
CHANGE_HEADER = "X-Play-Change"


def _change(shown: Shown) -> str:
    if shown.stale:
        return "stale"
    if shown.error:
        return "refused"
    return "draft" if shown.draft else "done"


def _live_vals(play: Play, position: str, draft: Draft | None, user_id: int | None) -> str:
    """What the live refresh sends back (play_live): the page's version and, signed for this
    user, its draft with the position it was built on."""
    kept = signed_draft(play, position, draft, user_id)
    return json.dumps({"version": str(play.version), "kept": kept})


def _status(request: HttpRequest, shown: Shown) -> int:
    """htmx swaps only 2xx answers in; a whole page says a refusal in its status."""
    if request.htmx:
        return 200
    if shown.stale:
        return 409
    return 422 if shown.error else 200


@vary_on_headers("HX-Request")  # the main fragment for htmx, else the page
@login_required
@require_GET
def play_detail(request: HttpRequest, play_id: int) -> HttpResponse:
    play = get_play(request, play_id)
    if play.is_result:  # no move log: its page shows the result as entered
        return result_detail(request, play)
    try:
        step = replay_step(request)
    except BadStep:
        return HttpResponseBadRequest(_("A step of the replay is a number of moves."))
    if step is not None:  # ?at=k: the play after its first k moves (issue 30)
        moves = selectors.log_moves(play)
        replay = Replay.at(step, moves, reverse("play", args=[play.pk]))
        return render_play(request, play, Shown(replay=replay), moves=replay.cut(moves))
    return render_play(request, play, Shown(draft=saved_draft(request, play)))


def _render_stale(request: HttpRequest, play: Play) -> HttpResponse:
    """Refuse what a form made at an older version asked, and show where the play stands now
    (the draft it carried is dropped: it was built on a position that is gone)."""
    play.refresh_from_db()
    return render_play(request, play, Shown(error=services.stale_error().message, stale=True))


def play_gone(request: HttpRequest, play: Play, message: str) -> HttpResponse:
    """The play was deleted while a change was on its way: say so on its night's page."""
    messages.error(request, message)
    night = reverse("night", args=[play.night_id])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = night
        return response
    return redirect(night)


# How a change says a refusal of its own (the play page again, a message, …)
Refused = Callable[[HttpRequest, Play, services.ServiceError], HttpResponse]


def refusal_answer(
    request: HttpRequest, play: Play, exc: services.ServiceError, refused: Refused
) -> HttpResponse:
    """The one answer to a change of the play that the service refused: a form made at an older
    version is shown where the play stands now, a play deleted meanwhile is said on its night's
    page, and any other refusal (an illegal move, nothing to undo, …) gets ``refused``'s answer,
    which each change gives its own way."""
    if isinstance(exc, services.StalePlayError):
        return _render_stale(request, play)
    if isinstance(exc, services.PlayGoneError):
        return play_gone(request, play, exc.message)
    if isinstance(exc, services.KeyReusedError):
        # Not a refusal of the change itself: the page sent one key for two changes. 422 even
        # for htmx, which swaps it in (templates/base.html's htmx-config).
        play.refresh_from_db()
        response = render_play(request, play, Shown(error=exc.message))
        response.status_code = 422
        return response
    return refused(request, play, exc)


def _shown_again(request: HttpRequest, play: Play, exc: services.ServiceError) -> HttpResponse:
    """An undo refused: the page again, where the play stands, saying why."""
    play.refresh_from_db()
    return render_play(request, play, Shown(error=exc.message))


def _said_on_the_page(request: HttpRequest, play: Play, exc: services.ServiceError) -> HttpResponse:
    """Abandon and resume say why they were refused on the play page they come back to."""
    messages.error(request, exc.message)
    return redirect("play", play_id=play.pk)


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
    if "reset" in request.POST:
        return render_play(request, get_play(request, play_id))
    version, keyed = posted_change(request)
    if version is None:
        return render_play(request, get_play(request, play_id), Shown(error=damaged()))
    if not storable_key(Play, play_id):
        raise Http404
    tapped: dict[str, Any] = {}

    def compose(play: Play, current: Judgement, names: list[str]) -> Any:
        """The move the taps make, read against the play as the entry found it under its lock
        (so the play is read once): a draft or a form error stores nothing."""
        try:
            move = ui_for(play.game).read_move(request.POST, current, names)
        except FormError as exc:
            tapped["error"] = exc
            return services.NOT_COMPLETE
        if isinstance(move, Draft):
            tapped["draft"] = move
            return services.NOT_COMPLETE
        tapped["move"] = move
        return move

    def refused(request: HttpRequest, play: Play, exc: services.ServiceError) -> HttpResponse:
        """A refused move: the page as the entry read it, keeping what the game kept of it."""
        draft = kept = saved_draft(request, play)
        if exc.state is not None and "move" in tapped:
            judgement, names = exc.state.judgement, exc.state.names
            draft = ui_for(play.game).kept_after_refusal(tapped["move"], judgement, names) or kept
        return render_play(request, play, Shown(draft=draft, error=exc.message), state=exc.state)

    try:
        # The play is read once, by the entry under its lock, and only for a member of its
        # club (issue 32: get_play read it before, then the lock again). A form made at an
        # older version is refused there: a move sent again carries the version of before
        # itself, and its key decides.
        state = services.enter_move(
            play=play_id,
            member=request.user.pk,
            by=request.user,
            version=version,
            compose=compose,
            keyed=keyed,
        )
    except services.PlayGoneError:
        raise Http404  # gone, or not theirs to see: the one read says neither (as get_play)
    except services.ServiceError as exc:
        # refused as the entry read it, or before (a stale form, a key reused): read for the page
        play = exc.state.play if exc.state is not None else get_play(request, play_id)
        return refusal_answer(request, play, exc, refused)
    play = state.play
    if state.repeated:
        # Done already: answered as the first time (the page, or where it goes without htmx),
        # with the play as it stands now.
        if not request.htmx:
            return redirect("play", play_id=play.pk)
        return render_play(request, play, state=state)
    if "error" in tapped:
        # A refused tap keeps the choices made so far (fixing one costs one tap): the draft the
        # server last showed this browser, or what the game kept of the refused input.
        error = tapped["error"]
        shown = Shown(draft=error.draft or saved_draft(request, play), error=error.message)
        return render_play(request, play, shown, state=state)
    if "draft" in tapped:
        return render_play(request, play, Shown(draft=tapped["draft"]), state=state)
    if not request.htmx:
        return redirect("play", play_id=play.pk)
    # what the move changed is said next to the controls
    events = ui_for(play.game).events(state.before, state.judgement, state.names)
    # The page's log is kept and the new entry appended, unless it said "No move yet." (no
    # entry before this one, undone or not: its seq is the first)
    shown = Shown(events=events, appended=state.entered.seq > 0)
    return render_play(request, play, shown, state=state)


@vary_on_headers("HX-Request")  # the main fragment for htmx, else the page
@login_required
@require_POST
def play_undo(request: HttpRequest, play_id: int) -> HttpResponse:
    """Undo the last move: it stays in the log, marked undone, with who and when."""
    play = get_play(request, play_id)
    version = posted_version(request)
    try:
        key = request_key(request)
    except DamagedKey:
        version = None
    if version is None:
        return render_play(request, play, Shown(error=damaged()))
    try:
        undone = services.undo_last_move(play=play, by=request.user, version=version, key=key)
    except services.ServiceError as exc:
        return refusal_answer(request, play, exc, _shown_again)
    if not request.htmx:
        return redirect("play", play_id=play.pk)
    play.refresh_from_db()
    # The same undo sent again undid nothing more: the play as it stands, with no notice.
    return render_play(request, play, Shown(undone=undone is not None))


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
    return _abandon_or_resume(
        request, play, services.abandon_play, done=partial(forget_draft, request, play)
    )


@login_required
@require_POST
def play_resume(request: HttpRequest, play_id: int) -> HttpResponse:
    """The owner takes back abandoning a play."""
    play = get_play(request, play_id)
    require_owner(request, play.club)
    resumed = _("The play is resumed: moves can be entered again.")
    return _abandon_or_resume(
        request, play, services.resume_play, done=partial(messages.success, request, resumed)
    )


def _abandon_or_resume(
    request: HttpRequest, play: Play, change: Callable[..., Any], *, done: Callable[[], Any]
) -> HttpResponse:
    """Abandon or resume the play (``change``), then back to its page: ``done`` says what
    follows, and a form without its version or a refusal is said there."""
    version = posted_version(request)
    try:
        if version is None:
            raise services.ServiceError(_("The form was damaged: try again."))
        change(play=play, by=request.user, version=version)
    except services.ServiceError as exc:
        return refusal_answer(request, play, exc, _said_on_the_page)
    done()
    return redirect("play", play_id=play.pk)
