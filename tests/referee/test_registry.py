"""The registry: every game is declared once, in its own module, and found from there."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import textwrap

import pytest

import referee
from referee import GAMES, judge
from referee.registry import DECLARATION, RegistryError, discover, module_name
from tests.referee.crashes import assert_refused


def _game_modules() -> list[str]:
    """The referee's modules that define GAME, read from the package itself."""
    return [
        info.name
        for info in pkgutil.iter_modules(referee.__path__)
        if not info.name.startswith("_")
        and hasattr(importlib.import_module(f"referee.{info.name}"), "GAME")
    ]


def test_every_module_with_a_game_is_in_the_registry_under_its_own_name():
    assert sorted(module_name(engine) for engine in GAMES.values()) == sorted(_game_modules())
    for name, engine in GAMES.items():
        assert engine.name == name == module_name(engine).replace("_", "-")


def test_every_game_declares_its_whole_declaration_itself():
    for engine in GAMES.values():
        for attribute, kind in DECLARATION.items():
            assert attribute in vars(engine), f"{engine.__name__} does not declare {attribute}"
            assert type(vars(engine)[attribute]) is kind


def test_the_kinds_of_game_are_declared_as_the_rules_say():
    """The table wins or loses together at 3-High only; Thricewise and Forget Venice count
    points, Punto and Buntherum rounds or cards."""
    for name, cooperative, has_points in [
        ("three-high", True, False),
        ("thricewise", False, True),
        ("forget-venice", False, True),
        ("punto", False, False),
        ("buntherum", False, False),
    ]:
        assert (GAMES[name].cooperative, GAMES[name].has_points) == (cooperative, has_points), name


def test_an_unknown_game_is_refused_naming_the_games_of_the_registry():
    verdict = judge({"format": "gamelog/1", "game": "chess", "players": ["Ana"], "moves": []})
    assert_refused(verdict, "log.unknown_game", move=None, value="chess", games=list(GAMES))
    assert verdict.message == (f'unknown game "chess": expected one of {", ".join(GAMES)}')


# A package of games made up for the test: what the registry says about a wrong declaration. ---


@pytest.fixture
def package(tmp_path, monkeypatch):
    """Write a package ``madeup`` from {module: source}; import it from ``tmp_path``."""
    root = tmp_path / "madeup"
    root.mkdir()
    (root / "__init__.py").write_text("")
    # Importing __main__ would run a command line: the registry must never import it.
    (root / "__main__.py").write_text("raise SystemExit('__main__ was imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(**modules: str) -> str:
        for name, source in modules.items():
            (root / f"{name}.py").write_text(textwrap.dedent(source))
        return "madeup"

    yield write
    for name in [name for name in sys.modules if name.partition(".")[0] == "madeup"]:
        del sys.modules[name]


GO = """
    from referee.base import Game

    class Go(Game):
        name = "go"
        title = "Go"
        min_players = 2
        max_players = 2
        cooperative = False
        has_points = True

    GAME = Go
"""


def test_a_made_up_game_is_found_from_its_module_alone(package):
    games = discover(package(go=GO, helpers="TABLE = {}\n"))
    assert list(games) == ["go"]
    assert games["go"].__module__ == "madeup.go"


@pytest.mark.parametrize("attribute", list(DECLARATION))
def test_a_game_missing_part_of_its_declaration_is_named(package, attribute):
    source = "\n".join(
        line for line in GO.splitlines() if not line.strip().startswith(f"{attribute} =")
    )
    with pytest.raises(RegistryError) as raised:
        discover(package(go=source))
    message = str(raised.value)
    assert f"madeup.go: Go.{attribute} must be declared" in message


def test_a_count_declared_as_a_boolean_is_refused(package):
    with pytest.raises(RegistryError, match=r"Go\.min_players must be declared, as a int"):
        discover(package(go=GO.replace("min_players = 2", "min_players = True")))


def test_a_name_that_is_not_its_module_is_refused(package):
    with pytest.raises(RegistryError, match=r"the name 'weiqi' must match its module"):
        discover(package(go=GO.replace('name = "go"', 'name = "weiqi"')))


def test_a_name_that_is_not_a_slug_is_refused(package):
    with pytest.raises(RegistryError, match=r"lower case words joined by -"):
        discover(package(go=GO.replace('name = "go"', 'name = "Go"')))


def test_player_counts_must_make_sense(package):
    with pytest.raises(RegistryError, match=r"1 <= min_players <= max_players"):
        discover(package(go=GO.replace("max_players = 2", "max_players = 1")))


def test_a_game_that_is_not_an_engine_is_refused(package):
    with pytest.raises(RegistryError, match=r"madeup\.go\.GAME must be a subclass"):
        discover(package(go="GAME = 'go'\n"))


def test_every_wrong_module_is_named_at_once(package):
    chess = GO.replace("Go", "Chess").replace('"go"', '"chess"').replace("has_points = True", "")
    with pytest.raises(RegistryError) as raised:
        discover(package(go=GO.replace("cooperative = False", ""), chess=chess))
    assert "madeup.go: Go.cooperative" in str(raised.value)
    assert "madeup.chess: Chess.has_points" in str(raised.value)
