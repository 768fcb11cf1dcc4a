"""python manage.py import_logs FILE... --club CLUB [--night YYYY-MM-DD]"""

from __future__ import annotations

import datetime

from django.core.management.base import BaseCommand, CommandError

from games.management.club_option import HELP as CLUB_HELP
from games.management.club_option import club_from_option
from games.services import IllegalMoveError, ServiceError, import_log
from referee.cli import read_log


class Command(BaseCommand):
    help = "Create plays from gamelog/1 files, judging each; an illegal log is refused whole."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--club", required=True, metavar="CLUB", help=CLUB_HELP)
        parser.add_argument("--night", help="the game night's date, YYYY-MM-DD (default: today)")

    def handle(self, *args, files: list[str], club: str, night: str | None, **options) -> None:
        the_club = club_from_option(club)
        night_date = None
        if night:
            try:
                night_date = datetime.date.fromisoformat(night)
            except ValueError:
                raise CommandError(f"--night must be a date YYYY-MM-DD, not {night!r}")
        refused = 0
        for path in files:
            log, problem, _unopened = read_log(path)
            if problem is None:
                try:
                    play = import_log(club=the_club, log=log, night_date=night_date)
                except IllegalMoveError as exc:
                    # Said as the referee command says it: "move 7: ...", the place in the file.
                    problem = exc.judgement.message
                except ServiceError as exc:
                    problem = exc.message
            if problem is not None:
                refused += 1
                self.stderr.write(f"{path}: refused: {problem}")
            else:
                self.stdout.write(
                    f"{path}: imported as play {play.pk} ({play.get_status_display()})"
                )
        if refused:
            raise CommandError(
                f"{refused} of {len(files)} file(s) refused; the others were imported"
            )
