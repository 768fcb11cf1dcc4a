"""Starting a play: the game and the players in seat order (a guest can be added on the spot),
then the game's setup, which the referee validates."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from referee import GAMES

from .. import services
from ..access import get_night
from ..converters import LARGEST_ID
from ..models import Player, game_menu
from ..ui import FormError, ui_for

# The start page offers a seat for each player of the game that seats the most.
MAX_SEATS = max(engine.max_players for engine in GAMES.values())


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
    if not all(0 < pk <= LARGEST_ID for pk in ids):  # no row has it; the database cannot hold it
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
