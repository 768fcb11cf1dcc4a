"""manage.py referee FILE [FILE ...]: judge game logs (REFEREE.md §2), one JSON line each."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand

from games.rules import judge


def read_log(path: str) -> tuple[Any, str | None, bool]:
    """(log, error message, could not open). A file that is not JSON is judged illegal."""
    try:
        if path == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                raw = handle.read()
    except OSError as exc:
        return None, f"cannot open {path}: {exc.strerror or exc}", True
    try:
        return json.loads(raw.decode("utf-8-sig")), None, False
    except UnicodeDecodeError:
        return None, "the file is not UTF-8 text", False
    except json.JSONDecodeError as exc:
        return None, f"the file is not valid JSON (line {exc.lineno}, column {exc.colno})", False
    except RecursionError:
        return None, "the file is nested too deeply to be a game log", False


class Command(BaseCommand):
    help = "Judge gamelog/1 files and print one JSON line per file (REFEREE.md §2)."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help='log files; "-" reads stdin')

    def handle(self, *args, files: list[str], **options) -> None:
        exit_code = 0
        out = sys.stdout
        for path in files:
            log, problem, unopened = read_log(path)
            if problem is None:
                line = {"file": path, **judge(log).as_dict()}
            else:
                line = {
                    "file": path,
                    "game": None,
                    "status": "illegal",
                    "error": {"move": None, "message": problem},
                    "scores": {},
                    "winners": [],
                    "details": {},
                }
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
            if unopened:
                self.stderr.write(problem)
                exit_code = 2
            elif line["status"] == "illegal":
                exit_code = max(exit_code, 1)
        out.flush()
        if exit_code:
            sys.exit(exit_code)
