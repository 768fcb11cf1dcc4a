"""make mutate: a mutation run (mutmut) over one area of the code, or all of them.

For each area it prints the kill rate and every survivor (file:line, the line before and after).
The run never touches the working tree: the tracked files are copied to a scratch directory, the
area's mutmut settings are added to the copy's pyproject.toml, and mutmut (which forks one
pytest per mutant and runs only the tests that call the mutated function) works in there.

An area is a set of path globs (fnmatch: "*" crosses "/", so games/ui/*.py holds the modules of
each game's UI package too). A full area has hundreds or thousands of mutants; by
default a fixed sample of each is run (SAMPLE per area, drawn with SEED), so that the run takes
minutes. docs/testing.md says how to run it and what it found.

    python tools/mutate.py [--sample N] [--seed S] [AREA ...]    (no AREA: every area)
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the packages mutmut copies and may mutate; everything else at the top is copied beside them
SOURCE_PATHS = ["games", "referee"]


@dataclass(frozen=True)
class Area:
    sources: tuple[str, ...]  # globs (fnmatch: "*" crosses "/", so a package's modules match)
    tests: tuple[str, ...]  # the tests mutmut may choose from (by which of them call a function)
    excluded: tuple[str, ...] = ()
    #: tests that read the area's source text: in mutmut's copy it holds every mutant at once
    deselected: tuple[str, ...] = ()


AREAS = {
    "referee": Area(
        ("referee/*.py",),
        ("tests/referee", "tests/test_registry.py", "tests/commands/test_referee_command.py"),
        deselected=(
            "tests/referee/test_messages.py"
            "::test_every_message_is_raised_with_the_parameters_its_template_names",
            # it runs python -m referee with nothing installed: mutmut's copy imports mutmut
            "tests/commands/test_referee_command.py"
            "::test_python_m_referee_runs_without_django_and_prints_the_command_lines",
        ),
    ),
    "services": Area(
        ("games/services/*.py",),
        ("tests/services", "tests/accounts", "tests/commands"),
    ),
    "stats": Area(("games/stats/*.py",), ("tests/stats",)),
    "ratings": Area(("games/ratings/*.py",), ("tests/stats",)),
    "live": Area(("games/live.py", "games/views/live.py"), ("tests/live",)),
    "ui": Area(("games/ui/*.py",), ("tests/views", "tests/test_movelog.py")),
    "views": Area(
        ("games/views/*.py", "games/compression.py"),
        # the live fragment and table screen are tested in tests/live, the CSV in tests/stats
        ("tests/views", "tests/accounts", "tests/security", "tests/live", "tests/stats"),
        excluded=("games/views/live.py",),
    ),
    "access": Area(
        ("games/access.py",), ("tests/views", "tests/accounts", "tests/security", "tests/live")
    ),
}

#: mutmut's exit codes, as this report counts them (a timeout is a mutant the tests noticed)
KILLED = {1, 3, 24, -24, 36, 152, 255}
NOT_COVERED = {5, 33}


def tracked_files() -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return [line for line in out.stdout.splitlines() if (ROOT / line).is_file()]


def area_files(area: Area, files: list[str]) -> list[str]:
    def wanted(path: str) -> bool:
        return any(fnmatch.fnmatch(path, glob) for glob in area.sources) and not any(
            fnmatch.fnmatch(path, glob) for glob in area.excluded
        )

    return sorted(path for path in files if path.endswith(".py") and wanted(path))


def copy_tree(files: list[str], into: Path) -> None:
    for path in files:
        target = into / path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / path, target)


def configure(copy: Path, mutated: list[str], tests: list[str], deselected: list[str]) -> None:
    """The area's [tool.mutmut] section, in the copy's pyproject.toml (JSON lists are TOML)."""
    also_copy = sorted(
        entry.name for entry in copy.iterdir() if entry.name not in {*SOURCE_PATHS, "mutants"}
    )
    settings = {
        "source_paths": SOURCE_PATHS,
        "only_mutate": mutated,
        "also_copy": also_copy,
        "pytest_add_cli_args_test_selection": tests,
        # one pytest per mutant, forked by mutmut: no xdist workers, no cache written
        "pytest_add_cli_args": [
            *("-p", "no:cacheprovider", "-p", "no:xdist"),
            *(f"--deselect={test}" for test in deselected),
        ],
    }
    section = "\n[tool.mutmut]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in settings.items())
    with open(copy / "pyproject.toml", "a", encoding="utf-8") as file:
        file.write(section)


def mutant_names(mutated: list[str]) -> list[str]:
    """Every mutant mutmut will make of these files (run inside the configured copy)."""
    from mutmut.mutation.file_mutation import mutate_file_contents
    from mutmut.utils.format_utils import get_mutant_name

    names = []
    for path in mutated:
        made = mutate_file_contents(path, Path(path).read_text(encoding="utf-8"))
        names += [get_mutant_name(Path(path), name) for name in made.mutant_names]
    return sorted(names)


def run_mutmut(names: list[str], children: int) -> None:
    """mutmut's own progress goes to mutants/run.log; its output is shown only if it failed."""
    mutmut = Path(sys.executable).with_name("mutmut")
    command = [str(mutmut), "run", "--max-children", str(children), *names]
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    Path("mutants", "run.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode:
        print(done.stdout[-3000:].replace("\r", "\n"), done.stderr[-3000:], sep="\n")


def exit_codes(mutated: list[str]) -> dict[str, tuple[str, int | None]]:
    """{mutant: (file, exit code)} as mutmut recorded them."""
    codes = {}
    for path in mutated:
        meta = Path("mutants") / f"{path}.meta"
        if meta.exists():
            recorded = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
            codes |= {name: (path, code) for name, code in recorded.items()}
    return codes


def function_line(path: str, mutant: str) -> int:
    """Where the mutated function starts in the original file (its first decorator or def)."""
    from mutmut.utils.format_utils import orig_function_and_class_names_from_key

    function, cls = orig_function_and_class_names_from_key(mutant)
    scope = ast.parse(Path(path).read_text(encoding="utf-8"))
    if cls is not None:
        scope = next(n for n in ast.walk(scope) if isinstance(n, ast.ClassDef) and n.name == cls)
    node = next(
        n
        for n in scope.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == function
    )
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def describe(path: str, mutant: str) -> str:
    """ "file:line  -before  +after" for a survivor, from mutmut's diff of its function."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    diff = get_diff_for_mutant(mutant, path=path).splitlines()
    line, before, after = None, [], []
    for row in diff:
        hunk = re.match(r"@@ -(\d+)", row)
        if hunk:
            offset = int(hunk.group(1)) - 1
        elif row.startswith("-") and not row.startswith("---"):
            line = line or function_line(path, mutant) + offset
            before.append(row[1:].strip())
        elif row.startswith("+") and not row.startswith("+++"):
            after.append(row[1:].strip())
        elif row.startswith(" ") and line is None:
            offset += 1
    return f"{path}:{line}  - {' / '.join(before)}\n{' ' * 8}+ {' / '.join(after)}"


def run_area(name: str, area: Area, files: list[str], sample: int, seed: int, children: int):
    mutated = area_files(area, files)
    if not mutated:
        print(f"{name}: no file matches {', '.join(area.sources)}")
        return None
    tests = [path for path in area.tests if (ROOT / path).exists()]
    started = time.monotonic()
    print(f"{name}: mutating {', '.join(mutated)}; tests from {', '.join(tests)}", flush=True)
    with tempfile.TemporaryDirectory(prefix=f"mutate-{name}-") as scratch:
        copy = Path(scratch)
        copy_tree(files, copy)
        configure(copy, mutated, tests, list(area.deselected))
        os.chdir(copy)
        try:
            every = mutant_names(mutated)
            chosen = (
                sorted(random.Random(seed).sample(every, sample))
                if 0 < sample < len(every)
                else every
            )
            run_mutmut(chosen if chosen != every else [], children)
            codes = exit_codes(mutated)
            if all(codes.get(mutant, (None, None))[1] is None for mutant in chosen):
                print(f"{name}: mutmut ran no mutant (its output is above)")
                return None
            outcome = [(mutant, *codes.get(mutant, (None, None))) for mutant in chosen]
            killed = [m for m, _, code in outcome if code in KILLED]
            survivors = [(m, path, code) for m, path, code in outcome if code not in KILLED]
            lines = [
                describe(path, m) + ("  (no test calls it)" if code in NOT_COVERED else "")
                if path
                else f"{m}: not run"
                for m, path, code in survivors
            ]
        finally:
            os.chdir(ROOT)
    minutes = (time.monotonic() - started) / 60
    drawn = (
        f"a sample of {len(chosen)} of {len(every)} (seed {seed})"
        if chosen != every
        else f"all {len(every)}"
    )
    rate = 100 * len(killed) / len(chosen) if chosen else 100.0
    print(
        f"\n{name}: {len(killed)}/{len(chosen)} killed ({rate:.0f} %), {drawn} mutants, "
        f"{minutes:.1f} min; files: {', '.join(mutated)}"
    )
    for line in lines:
        print(f"  {line}")
    sys.stdout.flush()
    return rate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("areas", nargs="*", metavar="AREA", help=f"one of {', '.join(AREAS)}")
    parser.add_argument("--sample", type=int, default=60, help="mutants per area (0: all)")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--children", type=int, default=2, help="mutants run at once")
    args = parser.parse_args()
    unknown = set(args.areas) - set(AREAS)
    if unknown:
        parser.error(f"no area {', '.join(sorted(unknown))}; the areas: {', '.join(AREAS)}")
    os.nice(10)  # the machine is shared: the suite and the other jobs come first
    files = tracked_files()
    # one test database per pytest: on PostgreSQL two at once would fight over its name
    children = 1 if os.environ.get("DATABASE_URL") else args.children
    rates = {
        name: run_area(name, AREAS[name], files, args.sample, args.seed, children)
        for name in args.areas or AREAS
    }
    print(
        "\nkill rate per area: "
        + ", ".join(f"{name} {rate:.0f} %" for name, rate in rates.items() if rate is not None)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
