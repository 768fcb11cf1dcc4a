"""python manage.py export_logs --club CLUB DIR"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import userjson
from games.gamelog import log_filename, play_to_log
from games.management.club_option import HELP as CLUB_HELP
from games.management.club_option import club_from_option


class Command(BaseCommand):
    help = "Write every play of a club as a gamelog/1 file into DIR."

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, metavar="CLUB", help=CLUB_HELP)
        parser.add_argument("directory", metavar="DIR")

    def handle(self, *args, club: str, directory: str, **options) -> None:
        the_club = club_from_option(club)
        target = Path(directory)
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CommandError(f"cannot create {target}: {exc.strerror or exc}")
        # Result plays have no move log: BG Stats' export (export_bgstats) carries them.
        plays = (
            the_club.plays.filter(kind="refereed")
            .select_related("night")
            .prefetch_related("seats__player")
        )
        count = 0
        for play in plays.order_by("started_at", "id"):
            path = target / log_filename(play)
            path.write_text(userjson.readable(play_to_log(play), indent=2) + "\n")
            count += 1
        self.stdout.write(f"wrote {count} log(s) to {target}")
