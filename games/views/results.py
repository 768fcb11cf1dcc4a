"""Any game's result, entered at the table: the game (one of the club's catalogue, or a new one
typed on the spot), then the players and their scores, places or the table's win, on one page;
and a result play's page. The service checks the result (games.services.results)."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from .. import results, services, stats
from ..access import get_night, get_play, is_owner
from ..models import CatalogueGame, GameNight, Play, Player
from ..services.results import DURATION_MAX, SeatResult, game_of, play_time


@login_required
@require_http_methods(["GET", "POST"])
def result_game(request: HttpRequest, night_id: int) -> HttpResponse:
    """Which game: one tap on a game of the catalogue, or a new one named and described."""
    night = get_night(request, night_id)
    catalogue = list(night.club.catalogue.all())
    error = None
    if request.method == "POST":
        counts = [_number(request.POST.get(f, "")) for f in ("min_players", "max_players")]
        bgg_text = request.POST.get("bgg_id", "").strip()
        try:
            if None in counts or (bgg_text and _number(bgg_text) is None):
                raise services.ServiceError(_("Player counts and a BGG id are whole numbers."))
            game = services.add_catalogue_game(
                club=night.club,
                name=request.POST.get("name", ""),
                result=request.POST.get("result", ""),
                scored=request.POST.get("scored") == "on",
                teams=request.POST.get("teams") == "on",
                min_players=counts[0],
                max_players=counts[1],
                bgg_id=_number(bgg_text) if bgg_text else None,
                by=request.user,
            )
        except services.ServiceError as exc:
            error = exc.message
        else:
            return redirect("result-new", night_id=night.pk, game=game.key)
    context = {
        "night": night,
        "club": night.club,
        "catalogue": catalogue,
        "results": CatalogueGame.Result.choices,
        "error": error,
        "posted": request.POST,
    }
    return render(request, "plays/result_game.html", context, status=422 if error else 200)


def _number(text: str) -> int | None:
    """A whole number typed (at most 9 digits), or None."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def _minutes(text: str) -> int | None:
    """A duration typed as minutes ("45") or hours and minutes ("1:30", "1h30")."""
    text = text.strip().lower().replace("h", ":")
    if not text:
        return None
    hours, _sep, minutes = text.rpartition(":")
    hours_n = _number(hours) if hours else 0
    minutes_n = _number(minutes) if minutes else 0
    if hours_n is None or minutes_n is None or (hours and minutes_n >= 60):
        raise results.ResultError(_("A duration is minutes (45) or hours and minutes (1:30)."))
    total = hours_n * 60 + minutes_n
    if total > DURATION_MAX:
        raise results.ResultError(
            _("A play lasts at most %(max)d minutes.") % {"max": DURATION_MAX}
        )
    return total


def _start(night: GameNight, text: str) -> datetime.datetime | None:
    """The start typed as the time of day on the night's date (the club's time), or None."""
    text = text.strip()
    if not text:
        return None
    try:
        clock = datetime.time.fromisoformat(text)
    except ValueError:
        raise results.ResultError(_("A start time is written 20:30.")) from None
    return datetime.datetime.combine(night.date, clock.replace(tzinfo=None), tzinfo=night.club.zone)


def seats_posted(
    data, club_players: dict[int, Player], catalogue_game: CatalogueGame
) -> list[SeatResult]:
    """The seats of the posted form, in the order the players were tapped (``player`` repeated;
    for places only, that order is the finishing order when no place is typed): each one's
    score (a sum, as on paper), place and team. Partners with one score typed share it."""
    chosen: list[Player] = []
    for value in data.getlist("player"):
        number = _number(value)
        player = club_players.get(number) if number is not None else None
        if player is None:
            raise results.ResultError(_("Choose the players among the club's."))
        if player not in chosen:
            chosen.append(player)
    if not chosen:
        raise results.ResultError(_("Tap the players who played."))
    seats = []
    for player in chosen:
        score = results.parse_score(data.get(f"score-{player.pk}", ""))
        place_text = data.get(f"place-{player.pk}", "").strip()
        place = _number(place_text)
        if place_text and place is None:
            raise results.ResultError(_("A place is a whole number: 1 for the first."))
        team_text = data.get(f"team-{player.pk}", "").strip()
        team = _number(team_text) if catalogue_game.teams else None
        if team_text and catalogue_game.teams and team is None:
            raise results.ResultError(_("A team is a whole number."))
        seats.append(SeatResult(player, score, place, team))
    if catalogue_game.result == CatalogueGame.Result.RANKS and all(
        seat.place is None for seat in seats
    ):
        # Tapped in finishing order, no place typed: first tapped, first place.
        seats = [
            SeatResult(seat.player, seat.score, index, seat.team)
            for index, seat in enumerate(seats, 1)
        ]
    if catalogue_game.cooperative and catalogue_game.scored:
        # The table's score, typed once: everyone's.
        score = results.parse_score(data.get("table-score", ""))
        seats = [SeatResult(s.player, score, s.place, s.team) for s in seats]
    team_scores: dict[int, Decimal] = {}
    for seat in seats:
        if seat.team is not None and seat.score is not None:
            team_scores.setdefault(seat.team, seat.score)
    return [
        SeatResult(
            seat.player,
            seat.score if seat.score is not None else team_scores.get(seat.team),
            seat.place,
            seat.team,
        )
        for seat in seats
    ]


@login_required
@require_http_methods(["GET", "POST"])
def result_new(request: HttpRequest, night_id: int, game: str) -> HttpResponse:
    """The result of one play of a catalogue game: the players tapped (in finishing order for
    places only), their scores typed (a sum, as on paper: "6+10-3"), or won/lost for a
    co-operative game; a start time and a duration."""
    night = get_night(request, night_id)
    try:
        key, catalogue_game = game_of(night.club, game)
    except services.ServiceError:
        raise Http404 from None
    if catalogue_game is None:
        raise Http404  # the referee's games are started as refereed plays
    club_players = {player.pk: player for player in night.club.players.all()}
    error = None
    if request.method == "POST":
        won = {"1": True, "0": False}.get(request.POST.get("won", ""))
        try:
            seats = seats_posted(request.POST, club_players, catalogue_game)
            started_at = _start(night, request.POST.get("started", ""))
            duration = _minutes(request.POST.get("duration", ""))
            play = services.enter_result(
                night=night,
                game=key,
                seats=seats,
                won=won,
                started_at=started_at,
                duration_minutes=duration,
                notes=request.POST.get("notes", ""),
                by=request.user,
            )
        except (results.ResultError, services.ServiceError) as exc:
            error = exc.message
        else:
            messages.success(request, _("The result is saved."))
            return redirect("play", play_id=play.pk)
    zone = night.club.zone
    started = request.POST.get("started") or timezone.localtime(
        play_time(night, None), zone
    ).strftime("%H:%M")
    picked = set(request.POST.getlist("player"))
    posted = request.POST
    rows = [
        {
            "pk": pk,
            "name": player.name,
            "checked": str(pk) in picked,
            "score": posted.get(f"score-{pk}", ""),
            "place": posted.get(f"place-{pk}", ""),
            "team": posted.get(f"team-{pk}", ""),
        }
        for pk, player in club_players.items()
    ]
    context = {
        "night": night,
        "club": night.club,
        "game": catalogue_game,
        "rows": rows,
        "posted": {"table_score": posted.get("table-score", ""), **posted.dict()},
        "started": started,
        "error": error,
    }
    return render(request, "plays/result_new.html", context, status=422 if error else 200)


def result_context(play: Play) -> dict:
    """What a result play's page shows: its seats in rank order with their entered scores."""
    seats = list(play.seats.select_related("player").order_by("rank", "position"))
    return {
        "play": play,
        "club": play.club,
        "night": play.night,
        "seats": seats,
        "rating_changes": (
            stats.play_rating_changes(play) if play.status == Play.Status.FINISHED else []
        ),
    }


def result_detail(
    request: HttpRequest, play: Play, *, error: str | None = None, status: int = 200
) -> HttpResponse:
    """A result play's page (the play page sends result plays here, and a change asked of one,
    which has no move log to change, with why: ``error``)."""
    context = result_context(play) | {"is_owner": is_owner(request, play.club), "error": error}
    return render(request, "plays/result.html", context, status=status)


@login_required
@require_POST
def play_duration(request: HttpRequest, play_id: int) -> HttpResponse:
    """A play's duration corrected (minutes or "1:30"; empty: back to its own), from its night's
    page or a result play's page; back to where it was asked."""
    play = get_play(request, play_id)
    try:
        minutes = _minutes(request.POST.get("duration", ""))
        services.set_duration(play=play, minutes=minutes, by=request.user)
    except (results.ResultError, services.ServiceError) as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The duration is saved."))
    if request.POST.get("back") == "night":
        return redirect("night", night_id=play.night_id)
    return redirect("play", play_id=play.pk)
