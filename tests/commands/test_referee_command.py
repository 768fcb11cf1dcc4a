"""manage.py referee: JSON lines, statuses, the first illegal move, exit codes (gamelog.md §2)."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from referee import cli
from tests.examples import NOT_YET, assert_judged_as_expected, example_paths

ROOT = Path(__file__).resolve().parents[2]
CASES = example_paths("")


def run_referee(*args: str, stdin: bytes = b"") -> tuple[int, list[dict], str]:
    """The command's exit status, lines and standard error. It runs in this process, so that a
    mutation run (which maps each test to the code it calls) sees the code these tests reach;
    test_python_m_referee_runs_without_django_and_prints_the_command_lines runs it as a process."""
    out, err = io.StringIO(), io.StringIO()
    streams = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.TextIOWrapper(io.BytesIO(stdin)), out
    try:
        call_command("referee", *args, stderr=err)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    finally:
        sys.stdin, sys.stdout = streams
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return code, lines, err.getvalue()


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(
            p,
            id=p.stem,
            marks=[pytest.mark.xfail(reason=NOT_YET[p.stem], strict=True)]
            if p.stem in NOT_YET
            else [],
        )
        for p in CASES
    ],
)
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


def test_python_m_referee_help_says_a_dash_reads_standard_input(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--help"])
    assert exit_.value.code == 0
    assert 'log files; "-" reads stdin' in capsys.readouterr().out


def test_python_m_referee_help_says_what_it_does(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "Judge gamelog/1 files and print one JSON line per file." in capsys.readouterr().out


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


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory) -> str:
    """A virtual environment with the standard library only: no Django, nothing installed."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    probe = subprocess.run([python, "-c", "import django"], capture_output=True)
    assert probe.returncode != 0, "the bare environment must not see Django"
    return python


def test_python_m_referee_runs_without_django_and_prints_the_command_lines(bare_python):
    files = [str(p.relative_to(ROOT)) for p in CASES]
    alone = subprocess.run(
        [bare_python, "-m", "referee", *files], cwd=ROOT, capture_output=True, check=False
    )
    assert alone.stderr == b""
    code, lines, _ = run_referee(*files)
    assert alone.returncode == code == 1  # the illegal examples
    assert [json.loads(line) for line in alone.stdout.decode().splitlines()] == lines


def test_nothing_under_referee_imports_django():
    for path in (ROOT / "referee").rglob("*.py"):
        text = path.read_text()
        assert "import django" not in text and "from django" not in text, path
