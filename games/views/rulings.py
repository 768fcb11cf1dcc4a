"""The referee's rulings for each game, in the page's language (public: no club data)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from referee import GAMES

from ..models import game_menu


@require_GET
def rules(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAMES:
        raise Http404
    language = "fr" if (get_language() or "en").startswith("fr") else "en"
    context = {
        "game": game,
        "title": GAMES[game].title,
        "games": game_menu(),
        "rulings_template": f"rules/{game}.{language}.html",
    }
    return render(request, "rules/page.html", context)
