"""manage.py referee: JSON lines, statuses, the first illegal move, exit codes (REFEREE.md §2)."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.rules.conftest import assert_judged_as_expected

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT.parent / "shared" / "examples"
CASES = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


def run_referee(*args: str, stdin: bytes | None = None) -> tuple[int, list[dict], str]:
    result = subprocess.run(
        [sys.executable, "manage.py", "referee", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
    )
    lines = [json.loads(line) for line in result.stdout.decode().splitlines()]
    return result.returncode, lines, result.stderr.decode()


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_public_example_judged_as_expected(path):
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    out = io.StringIO()
    sys_stdout = sys.stdout
    try:
        sys.stdout = out
        try:
            call_command("referee", str(path))
        except SystemExit as exit_:
            assert exit_.code == (1 if expected["status"] == "illegal" else 0)
    finally:
        sys.stdout = sys_stdout
    line = json.loads(out.getvalue())
    assert line["file"] == str(path)
    assert_judged_as_expected(line, expected)


def test_one_line_per_file_in_order_and_exit_1_when_any_is_illegal():
    code, lines, _ = run_referee(*map(str, CASES))
    assert code == 1
    assert [line["file"] for line in lines] == list(map(str, CASES))
    assert list(lines[0]) == ["file", "game", "status", "error", "scores", "winners", "details"]


def test_exit_0_when_every_log_is_legal():
    finished = [str(p) for p in CASES if p.stem.endswith("-1")]
    code, lines, _ = run_referee(*finished)
    assert code == 0
    assert {line["status"] for line in lines} == {"finished"}


def test_exit_2_when_a_file_cannot_be_opened(tmp_path):
    code, lines, stderr = run_referee(str(CASES[0]), str(tmp_path / "missing.json"))
    assert code == 2
    assert len(lines) == 2 and lines[1]["status"] == "illegal"
    assert lines[1]["error"]["move"] is None and "cannot open" in lines[1]["error"]["message"]
    assert "missing.json" in stderr


def test_dash_reads_one_log_from_standard_input():
    code, lines, _ = run_referee("-", stdin=CASES[0].read_bytes())
    assert code == 0 and lines[0]["file"] == "-" and lines[0]["status"] == "finished"


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (b"[]", "JSON object"),
        (b'{"format": "gamelog/2", "game": "punto", "players": ["a"], "moves": []}', "format"),
        (b'{"format": "gamelog/1", "game": "chess", "players": ["a"], "moves": []}', "unknown"),
        (b'{"format": "gamelog/1", "game": "punto", "players": ["a", "b"], "moves": {}}', "list"),
        (b'{"format": "gamelog/1", "game": "punto", "players": ["a"], "moves": []}', "players"),
    ],
)
def test_unreadable_log_is_illegal_with_no_move_index(tmp_path, content, fragment):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, [line], _ = run_referee(str(path))
    assert code == 1
    assert line["status"] == "illegal" and line["error"]["move"] is None
    assert fragment in line["error"]["message"]
    assert (line["scores"], line["winners"], line["details"]) == ({}, [], {})
