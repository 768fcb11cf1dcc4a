"""``python -m referee FILE [FILE ...]``: judge ``gamelog/1`` files, one JSON line each.

The output is the referee's contract (docs/gamelog.md): ``file``, ``game``, ``status``, ``error``,
``scores``, ``winners``, ``details``. Exit status 0 when every log is legal, 1 when one is illegal,
2 when a file cannot be opened. ``manage.py referee`` is a thin wrapper around :func:`run`, so both
print exactly the same lines. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from .judge import judge


def read_log(path: str, stdin: IO[bytes] | None = None) -> tuple[Any, str | None, bool]:
    """(log, error message, could not open). A file that is not JSON is judged illegal."""
    try:
        if path == "-":
            raw = (stdin or sys.stdin.buffer).read()
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


def judge_file(path: str) -> tuple[dict[str, Any], str | None]:
    """The output line for one file, and the reason it could not be opened (if so)."""
    log, problem, unopened = read_log(path)
    if problem is None:
        return {"file": path, **judge(log).as_dict()}, None
    line = {
        "file": path,
        "game": None,
        "status": "illegal",
        "error": {"move": None, "message": problem},
        "scores": {},
        "winners": [],
        "details": {},
    }
    return line, problem if unopened else None


def run(files: list[str], out: IO[str], err: IO[str]) -> int:
    """Judge every file, print one line each to ``out``; return the exit status."""
    exit_code = 0
    for path in files:
        line, unopened = judge_file(path)
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
        if unopened:
            err.write(unopened + "\n")
            exit_code = 2
        elif line["status"] == "illegal":
            exit_code = max(exit_code, 1)
    out.flush()
    return exit_code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m referee",
        description="Judge gamelog/1 files and print one JSON line per file.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help='log files; "-" reads stdin')
    args = parser.parse_args(argv)
    return run(args.files, sys.stdout, sys.stderr)
