"""Home, clubs, players and game nights."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .. import services
from ..access import get_club, get_night, is_owner, require_owner
from ..forms import ClubForm, ClubSettingsForm, GameNightForm, PlayerForm
from ..models import Club, game_menu


def _form_errors(form) -> str:
    """A refused form's errors as one message, each named by its field ("Notes: …")."""
    parts = []
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else None
        parts += [f"{label}: {error}" if label else error for error in errors]
    return " ".join(parts)


def home(request: HttpRequest) -> HttpResponse:
    clubs = (
        Club.objects.filter(memberships__user=request.user) if request.user.is_authenticated else []
    )
    return render(request, "clubs/home.html", {"clubs": clubs, "games": game_menu()})


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(name=form.cleaned_data["name"], owner=request.user)
        except services.ServiceError as exc:
            form.add_error("name", exc.message)
        else:
            return redirect("club", club_id=club.pk)
    return render(request, "clubs/club_form.html", {"form": form})


@login_required
def club_detail(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_club(request, club_id)
    context = {
        "club": club,
        "nights": club.nights.all()[:50],
        "players": club.players.all(),
        "is_owner": is_owner(request, club),
        "night_form": GameNightForm(initial={"date": timezone.localdate(timezone=club.zone)}),
        "player_form": PlayerForm(),
    }
    return render(request, "clubs/club.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def club_settings(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's settings (its time zone). Owners only."""
    club = get_club(request, club_id)
    require_owner(request, club)
    form = ClubSettingsForm(request.POST or None, initial={"time_zone": club.time_zone})
    if request.method == "POST" and form.is_valid():
        try:
            services.update_club_settings(
                club=club, time_zone=form.cleaned_data["time_zone"], by=request.user
            )
        except ValidationError as exc:
            form.add_error("time_zone", exc)
        else:
            messages.success(request, _("The club's settings are saved."))
            return redirect("club", club_id=club.pk)
    status = 422 if form.errors else 200
    return render(request, "clubs/settings.html", {"club": club, "form": form}, status=status)


@login_required
@require_http_methods(["POST"])
def player_create(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_club(request, club_id)
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            services.add_player(club=club, name=form.cleaned_data["name"])
        except services.ServiceError as exc:
            messages.error(request, exc.message)
    else:
        messages.error(request, _form_errors(form))
    return redirect("club", club_id=club.pk)


@login_required
@require_http_methods(["POST"])
def night_create(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_club(request, club_id)
    form = GameNightForm(request.POST)
    if form.is_valid():
        try:
            night = services.create_game_night(club=club, **form.cleaned_data)
        except services.ServiceError as exc:
            messages.error(request, exc.message)
        else:
            return redirect("night", night_id=night.pk)
    else:
        messages.error(request, _form_errors(form))
    return redirect("club", club_id=club.pk)


@login_required
@require_http_methods(["POST"])
def night_edit(request: HttpRequest, night_id: int) -> HttpResponse:
    night = get_night(request, night_id)
    form = GameNightForm(request.POST)
    if form.is_valid():
        try:
            services.update_game_night(night=night, by=request.user, **form.cleaned_data)
        except services.ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The game night was saved."))
    else:
        messages.error(request, _form_errors(form))
    return redirect("night", night_id=night.pk)


@login_required
def night_detail(request: HttpRequest, night_id: int) -> HttpResponse:
    night = get_night(request, night_id)
    plays = list(
        night.plays.with_durations()
        .select_related("catalogue_game")
        .prefetch_related("seats__player")
        .order_by("started_at", "id")
    )
    context = {
        "night": night,
        "club": night.club,
        "plays": plays,
        # What its stream counts (games.access.watched_night_version): the page is at this one.
        "live_version": sum(play.version for play in plays) + len(plays),
        "night_form": GameNightForm(instance=night),
        # One tap from here to a catalogue game's result page.
        "catalogue": list(night.club.catalogue.all()),
    }
    if is_owner(request, night.club):
        share = night.shares.active().first()
        context |= {
            "is_owner": True,
            "share": share,
            "share_url": share
            and request.build_absolute_uri(reverse("shared-night", args=[share.token])),
        }
    return render(request, "clubs/night.html", context)
