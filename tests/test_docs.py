"""The repository documents itself and stands alone: docs/gamelog.md has a section per game where
the code cites it, the README links it, and nothing refers to a file outside the repository."""

import re
import subprocess
from pathlib import Path

import pytest

from referee import GAMES
from referee.registry import module_name

ROOT = Path(__file__).resolve().parent.parent
GAMELOG = ROOT / "docs" / "gamelog.md"
#: "gamelog.md §3", "gamelog.md §1–2"
CITATION = re.compile(r"gamelog\.md\s+§(\d+)(?:\s*[–-]\s*(\d+))?")


def sections() -> dict[int, str]:
    """docs/gamelog.md's numbered sections: {3: "Thricewise", ...}."""
    found = re.findall(r"^## §(\d+) (.+)$", GAMELOG.read_text(encoding="utf-8"), re.MULTILINE)
    return {int(number): title.strip() for number, title in found}


def game_sections() -> dict[str, int]:
    """Each game's section number, found by its title."""
    by_title = {title: number for number, title in sections().items()}
    return {name: by_title.get(engine.title) for name, engine in GAMES.items()}


def tracked_files() -> list[Path]:
    """The repository's files: git's list in a clone, else every file outside the usual
    untracked folders."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=30
        ).stdout.decode()
        return [ROOT / name for name in listed.split("\0") if name and (ROOT / name).is_file()]
    except (OSError, subprocess.SubprocessError):
        skip = {".git", ".venv", "__pycache__", ".hypothesis", "staticfiles", "test-results"}
        return [
            path
            for path in ROOT.rglob("*")
            if path.is_file() and not skip.intersection(path.relative_to(ROOT).parts)
        ]


def test_the_log_format_and_the_command_come_first_then_one_section_per_game():
    numbered = sections()
    assert numbered[1].startswith("The log") and "gamelog/1" in numbered[1]
    assert numbered[2] == "The referee command"
    places = game_sections()
    missing = [game for game, number in places.items() if number is None]
    assert not missing, f"docs/gamelog.md has no section titled after {missing}"
    assert sorted(places.values()) == list(range(3, 3 + len(GAMES)))
    assert sorted(numbered) == list(range(1, 3 + len(GAMES)))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_games_code_and_tests_cite_its_own_section(game):
    own = {1, 2, game_sections()[game]}
    module = module_name(GAMES[game])
    for path in (ROOT / "referee" / f"{module}.py", ROOT / "tests/referee" / f"test_{module}.py"):
        cited = {int(first) for first, _ in CITATION.findall(path.read_text(encoding="utf-8"))}
        assert cited, f"{path.relative_to(ROOT)} never cites docs/gamelog.md"
        assert cited <= own, f"{path.relative_to(ROOT)} cites §{sorted(cited - own)} for {game}"


def test_every_citation_of_gamelog_md_names_a_section_that_exists():
    numbered = sections()
    wrong = []
    for path in tracked_files():
        if path.suffix not in (".py", ".md", ".html", ".txt"):
            continue
        for first, last in CITATION.findall(path.read_text(encoding="utf-8")):
            for number in range(int(first), int(last or first) + 1):
                if number not in numbered:
                    wrong.append(f"{path.relative_to(ROOT)}: §{number}")
    assert not wrong


def test_the_decktet_table_lists_every_card_with_its_rank_and_suits():
    from referee.decktet import ALL_CARDS

    text = GAMELOG.read_text(encoding="utf-8")
    for card in ALL_CARDS:
        rank = card.rank or "—"
        suits = ", ".join(card.suits) or "—"
        assert re.search(rf"^\| {re.escape(card.name)} \| {rank} \| {suits} \|", text, re.M), card


def test_the_readme_links_the_log_format_and_the_rulings_pages():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/gamelog.md)" in readme and "/rules/<game>/" in readme


def test_nothing_in_the_repository_refers_to_files_beside_it():
    outside = re.compile(r"\.\./" + "shared|/work/" + "shared|REFEREE" + r"\.md")
    found = []
    for path in tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary: the compiled translations
        found += [f"{path.relative_to(ROOT)}: {m.group()}" for m in outside.finditer(text)]
    assert not found
