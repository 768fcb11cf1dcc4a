"""python manage.py import_bgstats FILE --club CLUB"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.bgstats.reader import MAX_BYTES, BGStatsError, read_bytes
from games.management.club_option import HELP as CLUB_HELP
from games.management.club_option import club_from_option
from games.services import ServiceError
from games.services.bgstats import import_bgstats


class Command(BaseCommand):
    help = (
        "Bring a BG Stats file (BGStatsExport.json, a .bgsplay, or a zip holding one) into a "
        "club: players and games matched (printed), each play a result play; plays already "
        "there are not added again."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--club", required=True, metavar="CLUB", help=CLUB_HELP)

    def handle(self, *args, file: str, club: str, **options) -> None:
        the_club = club_from_option(club)
        path = Path(file)
        try:
            with path.open("rb") as opened:
                data = opened.read(MAX_BYTES + 1)  # never more than a file may hold
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror or exc}")
        try:
            export = read_bytes(data)
            summary = import_bgstats(club=the_club, export=export)
        except (BGStatsError, ServiceError) as exc:
            raise CommandError(f"{file}: refused: {exc.message}")
        for found in summary.players:
            who = found.player.name if found.player else "(new)"
            self.stdout.write(f"player {found.name!r} -> {who} [{found.how}]")
        for found in summary.games:
            self.stdout.write(f"game {found.name!r} -> {found.key or '(new)'} [{found.how}]")
        self.stdout.write(
            f"{summary.added} play(s) added ({summary.ignored} of them ignored in statistics), "
            f"{summary.already} already in the club, {summary.without_players} without players "
            f"left out; {len(summary.players_added)} player(s), {len(summary.games_added)} "
            f"game(s) and {summary.nights_added} night(s) added"
        )
