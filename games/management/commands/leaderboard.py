"""python manage.py leaderboard GAME --club CLUB [--json] [--min-plays N] [--as-of DATE]"""

from __future__ import annotations

import datetime
import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import ratings, stats
from games.management.club_option import HELP as CLUB_HELP
from games.management.club_option import club_from_option


class Command(BaseCommand):
    help = (
        "Print a club's leaderboard for GAME (or 'all' for every competitive game), sorted by "
        "rating (the ordinal μ − 3σ) descending."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "game",
            metavar="GAME",
            help=f"one of: {', '.join(stats.SCOPES)}, or a game of the club's catalogue (its "
            "name, or its key game-ID)",
        )
        parser.add_argument("--club", required=True, metavar="CLUB", help=CLUB_HELP)
        parser.add_argument("--json", action="store_true", help="print a JSON list")
        parser.add_argument("--min-plays", type=int, default=1, help="fewest plays to appear")
        parser.add_argument("--as-of", help="the leaderboard at the end of this day (YYYY-MM-DD)")
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="rebuild the club's ratings from all its plays first",
        )

    def handle(self, *args, game: str, club: str, **options) -> None:
        the_club = club_from_option(club)
        games = stats.club_games(the_club.pk)
        by_name = {info.title.casefold(): key for key, info in games.items() if not info.refereed}
        game = by_name.get(game.casefold(), game)
        if game != stats.ALL_GAMES and game not in games:
            known = ", ".join([stats.ALL_GAMES, *games])
            raise CommandError(f"unknown game {game!r}: use one of {known}")
        if options["min_plays"] < 0:
            raise CommandError("--min-plays must be 0 or more")
        as_of = None
        if options["as_of"]:
            try:
                as_of = datetime.date.fromisoformat(options["as_of"])
            except ValueError:
                raise CommandError(f"--as-of must be a date YYYY-MM-DD, not {options['as_of']!r}")
        if options["rebuild"]:
            ratings.rebuild_club(the_club.pk)
        sort = "-ordinal" if stats.is_rated(game, games) else "-wins"
        standings = stats.leaderboard(
            the_club, game, min_plays=options["min_plays"], as_of=as_of, sort=sort
        )
        if options["json"]:
            self.stdout.write(json.dumps([s.as_json() for s in standings], ensure_ascii=False))
            return
        for place, s in enumerate(standings, 1):
            rating = "–" if s.ordinal is None else f"{s.ordinal:6.2f} ±{s.sigma:.2f}"
            partners = ", ".join(f"{name} ×{plays}" for name, plays in s.partners)
            self.stdout.write(
                f"{place:3d}. {s.player:<30} {rating:>14} {s.plays:5d} plays {s.wins:5d} wins"
                + (f"  (partners: {partners})" if partners else "")
            )
