"""manage.py referee FILE [FILE ...]: the same lines as ``python -m referee`` (docs/gamelog.md)."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from referee.cli import run


class Command(BaseCommand):
    help = "Judge gamelog/1 files and print one JSON line per file (docs/gamelog.md)."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help='log files; "-" reads stdin')

    def handle(self, *args, files: list[str], **options) -> None:
        exit_code = run(files, sys.stdout, self.stderr)
        if exit_code:
            sys.exit(exit_code)
