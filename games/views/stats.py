"""History and leaderboards: player pages, leaderboards, game night summaries, exports."""

from __future__ import annotations

import csv
import datetime
import itertools
import json
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control

from referee import GAMES

from .. import results, stats
from ..access import get_club, get_night, get_player
from ..converters import LARGEST_ID
from ..gamelog import log_filename, play_to_log
from ..models import ALL_GAMES, Play, RatingChange, Seat


def _int_param(request: HttpRequest, name: str, default: int, maximum: int = LARGEST_ID) -> int:
    """A count or a year from the address; past ``maximum`` (what a row or the calendar can
    hold) as not given: a year of 10**30 or 9999 (whose next year is past the calendar) was a
    500."""
    try:
        value = max(0, int(request.GET.get(name, default)))
    except (TypeError, ValueError):
        return default
    return value if value <= maximum else default


def _date_param(request: HttpRequest, name: str) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(request.GET.get(name) or "")
    except ValueError:
        return None


def games_sentence(games: Iterable[str], known: dict | None = None) -> str:
    """The games' titles as a sentence lists them ("Forget Venice and Thricewise"); ``known``
    (stats.club_games) names a club's catalogue games too."""
    titles = [known[game].title if known and game in known else GAMES[game].title for game in games]
    if len(titles) < 2:
        return "".join(titles)
    return _("%(games)s and %(last)s") % {"games": ", ".join(titles[:-1]), "last": titles[-1]}


@login_required
def leaderboard(request: HttpRequest, club_id: int, scope: str = ALL_GAMES) -> HttpResponse:
    club = get_club(request, club_id)
    games = stats.club_games(club.pk)
    if scope != ALL_GAMES and scope not in games:
        raise Http404
    min_plays = _int_param(request, "min_plays", 1)
    as_of = _date_param(request, "as_of")
    sort = request.GET.get("sort", "")
    rated = stats.is_rated(scope, games)
    if sort.lstrip("-") not in stats.SORT_KEYS:
        sort = "-ordinal" if rated else "-wins"
    standings = stats.leaderboard(club, scope, min_plays=min_plays, as_of=as_of, sort=sort)
    query = {"min_plays": min_plays, **({"as_of": as_of.isoformat()} if as_of else {})}
    labels = [("player", _("Player")), ("ordinal", _("Rating")), ("plays", _("Plays"))]
    labels += (
        [("wins", _("Wins")), ("win_rate", _("Win rate"))]
        if rated
        else [
            ("wins", _("Team wins")),
            ("losses", _("Team losses")),
        ]
    )
    if not rated:
        labels.remove(("ordinal", _("Rating")))
    columns = []
    for key, label in labels:
        # A first click sorts names A→Z and numbers high→low; a second click reverses.
        first = key if key == "player" else f"-{key}"
        target = (key if first.startswith("-") else f"-{key}") if sort == first else first
        columns.append(
            {
                "key": key,
                "label": label,
                "url": "?" + urlencode({**query, "sort": target}),
                "current": sort.lstrip("-") == key,
                "descending": sort.startswith("-"),
            }
        )
    year = _int_param(request, "year", 0, maximum=datetime.MAXYEAR - 1) or None
    seated = _int_param(request, "players", 0) or None
    period = None
    if year is not None or seated is not None:
        period = stats.period_lines(club, scope, year=year, players=seated)
    context = {
        "club": club,
        "scope": scope,
        "years": stats.years_played(club),
        "year": year,
        "seated": seated,
        "seat_counts": range(1, 11),
        "period": period,
        "scope_title": stats.scope_title(scope, games),
        "rated": rated,
        "scopes": [(ALL_GAMES, _("All games")), *((key, g.title) for key, g in games.items())],
        "standings": standings,
        "min_plays": min_plays,
        "as_of": as_of,
        "sort": sort,
        "columns": columns,
        # by rating, provisional ratings are ranked apart, after the established ones
        "apart": sort.lstrip("-") in ("ordinal", "mu", "sigma"),
        "provisional_plays": stats.PROVISIONAL_PLAYS,
    }
    return render(request, "stats/leaderboard.html", context)


@login_required
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_player(request, player_id)
    scope = request.GET.get("scope", ALL_GAMES)
    games = stats.club_games(player.club_id)
    if scope not in games or not stats.is_rated(scope, games):
        scope = ALL_GAMES
    context = {
        "club": player.club,
        "player": player,
        "summary": stats.player_summary(player),
        "breakdown": stats.player_breakdown(player),
        "chart": stats.rating_chart(player, scope),
        "chart_scope": scope,
        "chart_scopes": [
            (ALL_GAMES, _("All games")),
            *((key, game.title) for key, game in games.items() if not game.cooperative),
        ],
        # The club's catalogue games included: its co-operative ones are counted apart too.
        "cooperative_games": games_sentence([k for k, g in games.items() if g.cooperative], games),
        "point_games": games_sentence([k for k, g in games.items() if g.has_points], games),
        "provisional_plays": stats.PROVISIONAL_PLAYS,
        "nemesis_floor": stats.NEMESIS_MIN_PLAYS,
    }
    return render(request, "stats/player.html", context)


def point_games(club_id: int) -> str:
    """The club's games scored in points (the referee's and its catalogue's), as a sentence."""
    games = stats.club_games(club_id)
    return games_sentence([key for key, game in games.items() if game.has_points], games)


@login_required
def night_summary(request: HttpRequest, night_id: int) -> HttpResponse:
    night = get_night(request, night_id)
    context = {
        "night": night,
        "club": night.club,
        "summary": stats.night_summary(night),
        "point_games": point_games(night.club_id),
    }
    return render(request, "stats/night.html", context)


class _Echo:
    def write(self, value: str) -> str:
        return value


#: A spreadsheet runs a cell that starts with one of these as a formula ("CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A cell as a spreadsheet will show it and never run it: text that would start a formula
    gets a leading single quote, as OWASP recommends. Numbers (a score of -3) stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


CSV_HEADER = [
    "play", "night", "game", "status", "started_at", "ended_at",
    "position", "player", "score", "rank", "winner",
    "mu_before", "sigma_before", "mu_after", "sigma_after", "partners",
    "kind", "game_name", "duration_minutes",
]  # fmt: skip


def _csv_rows(club_id: int) -> Iterator[list[object]]:
    yield CSV_HEADER
    games = stats.club_games(club_id)
    ratings = {
        (row[0], row[1]): row[2:]
        for row in RatingChange.objects.filter(club_id=club_id, mu_after__isnull=False)
        .order_by()
        .values_list("play_id", "player_id", "mu_before", "sigma_before", "mu_after", "sigma_after")
        .iterator(chunk_size=5000)
    }
    # The names of each team of each play (team plays only: few rows), to name a seat's partners.
    teams: dict[tuple[int, int], list[str]] = {}
    for play_id, team, name in (
        Seat.objects.filter(play__club_id=club_id, team__isnull=False)
        .order_by("play_id", "position")
        .values_list("play_id", "team", "player__name")
    ):
        teams.setdefault((play_id, team), []).append(name)
    seats = (
        Seat.objects.filter(play__club_id=club_id)
        .order_by("play__started_at", "play_id", "position")
        .values_list(
            "play_id",
            "play__night__date",
            "play__game",
            "play__status",
            "play__started_at",
            "play__ended_at",
            "position",
            "player_id",
            "player__name",
            "score",
            "rank",
            "is_winner",
            "team",
            "entered_score",
            "play__kind",
            "play__catalogue_game__name",
            "play__duration_minutes",
        )  # fmt: skip
        .iterator(chunk_size=5000)
    )
    for play_id, date, game, status, started, ended, position, player_id, name, *result in seats:
        score, rank, winner, team, entered, kind, catalogue_name, minutes = result
        finished = status == Play.Status.FINISHED
        if entered is not None:  # a result play's score as entered (maybe "12.5")
            score = results.score_text(entered)
        elif kind == Play.Kind.RESULT:
            score = ""
        partners = [other for other in teams.get((play_id, team), ()) if other != name]
        yield [
            play_id, date.isoformat(), game, status, started.isoformat(),
            ended.isoformat() if ended else "", position + 1, name,
            score, rank if finished else "", int(winner),
            *ratings.get((play_id, player_id), ("", "", "", "")),
            " & ".join(partners),
            kind, catalogue_name or stats.scope_title(game, games),
            "" if minutes is None else minutes,
        ]  # fmt: skip


@login_required
@cache_control(private=True)  # a club's data: no shared cache may keep it
def export_csv(request: HttpRequest, club_id: int) -> StreamingHttpResponse:
    """One row per player per play (every play, with its status; only finished ones have a
    rank and a rating change), naming the seat's partners in a team play."""
    club = get_club(request, club_id)
    writer = csv.writer(_Echo())
    # The byte-order mark first, so that spreadsheets read UTF-8 ("Chloé", not "ChloÃ©").
    lines = (writer.writerow([csv_cell(value) for value in row]) for row in _csv_rows(club.pk))
    response = StreamingHttpResponse(
        itertools.chain(["\ufeff"], lines), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="club-{club.pk}-plays.csv"'
    return response


@login_required
@cache_control(private=True)  # a club's data: no shared cache may keep it
def export_logs(request: HttpRequest, club_id: int) -> FileResponse:
    """A zip of the club's plays as ``gamelog/1`` files."""
    club = get_club(request, club_id)
    archive = tempfile.SpooledTemporaryFile(max_size=16 * 1024 * 1024)  # noqa: SIM115 (FileResponse closes it)
    plays = (
        # Result plays have no move log: the BG Stats export carries them.
        Play.objects.filter(club=club, kind=Play.Kind.REFEREED)
        .select_related("night")
        .prefetch_related("seats__player")
        .order_by("started_at", "id")
    )
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for play in plays.iterator(chunk_size=500):
            zipped.writestr(log_filename(play), json.dumps(play_to_log(play), ensure_ascii=False))
    archive.seek(0)
    return FileResponse(
        archive,
        as_attachment=True,
        filename=f"club-{club.pk}-logs.zip",
        content_type="application/zip",
    )
