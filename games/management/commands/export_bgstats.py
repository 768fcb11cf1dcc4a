"""python manage.py export_bgstats --club CLUB [--night ID] OUT"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.bgstats.writer import export_club
from games.management.club_option import HELP as CLUB_HELP
from games.management.club_option import club_from_option
from games.models import Play


class Command(BaseCommand):
    help = (
        "Write a club's finished plays (refereed and result plays alike) as a BG Stats file "
        "(BGStatsExport.json), or only one night's with --night."
    )

    def add_arguments(self, parser):
        parser.add_argument("out", metavar="OUT", help="the file to write ('-': standard output)")
        parser.add_argument("--club", required=True, metavar="CLUB", help=CLUB_HELP)
        parser.add_argument("--night", type=int, metavar="ID", help="only this game night's")

    def handle(self, *args, out: str, club: str, night: int | None, **options) -> None:
        the_club = club_from_option(club)
        plays = Play.objects.filter(
            club=the_club, status__in=[Play.Status.FINISHED, Play.Status.IGNORED]
        )
        if night is not None:
            if not the_club.nights.filter(pk=night).exists():
                raise CommandError(f"the club has no game night {night}")
            plays = plays.filter(night_id=night)
        text = json.dumps(export_club(the_club, plays), ensure_ascii=False, indent=1)
        if out == "-":
            self.stdout.write(text)
            return
        try:
            Path(out).write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {out}: {exc.strerror or exc}")
        self.stderr.write(f"wrote {len(json.loads(text)['plays'])} play(s) to {out}")
