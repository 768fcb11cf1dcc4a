"""Every game the referee knows, found from its own modules: no list of names is kept anywhere.

A game is a module of this package that defines ``GAME``, its engine: a ``Game`` subclass that
declares, once, everything the rest of the project needs to know about the game — its ``name``
(the slug of logs and URLs: the module's name with ``-`` for ``_``), ``title``, ``min_players``,
``max_players``, whether it is ``cooperative`` (the table wins or loses together) and whether its
scores are points (``has_points``). Adding a game is adding its module.

``GAMES`` maps each name to its engine, in name order. It is filled on first use, not on import,
so that the referee's own modules (``judge``, ``cli``) may import this one.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator, Mapping
from types import ModuleType

from .base import Game

#: what a game's declaration holds, and the type of each entry
DECLARATION: dict[str, type] = {
    "name": str,
    "title": str,
    "min_players": int,
    "max_players": int,
    "cooperative": bool,
    "has_points": bool,
}

_SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


class RegistryError(Exception):
    """A game module whose declaration is missing or wrong: a programming error, named."""


def module_name(engine: type[Game]) -> str:
    """The game's module in this package (``three_high`` for ``three-high``): the other parts
    of a game (its UI, its tests) are found under the same name."""
    return engine.__module__.rpartition(".")[2]


def declaration_problems(module: ModuleType) -> list[str]:
    """What is wrong with a game module's ``GAME`` declaration (empty when nothing is)."""
    where = module.__name__
    engine = getattr(module, "GAME", None)
    if not (isinstance(engine, type) and issubclass(engine, Game)):
        return [f"{where}.GAME must be a subclass of referee.base.Game"]
    problems = []
    for attribute, kind in DECLARATION.items():
        value = getattr(engine, attribute, None)
        # bool is an int: a count declared True is as wrong as a missing one.
        if type(value) is not kind:
            problems.append(
                f"{where}: {engine.__name__}.{attribute} must be declared, as a {kind.__name__}"
            )
    if problems:
        return problems
    if not _SLUG.fullmatch(engine.name):
        problems.append(f"{where}: the name {engine.name!r} must be lower case words joined by -")
    elif engine.name.replace("-", "_") != module.__name__.rpartition(".")[2]:
        problems.append(
            f"{where}: the name {engine.name!r} must match its module "
            f"({engine.name.replace('-', '_')}.py)"
        )
    if not 1 <= engine.min_players <= engine.max_players:
        problems.append(f"{where}: {engine.__name__} needs 1 <= min_players <= max_players")
    return problems


def discover(package: str = __package__) -> dict[str, type[Game]]:
    """Import every public module of ``package`` and collect the games among them, by name.

    Raise ``RegistryError`` naming every module whose declaration is wrong."""
    found: dict[str, type[Game]] = {}
    problems: list[str] = []
    root = importlib.import_module(package)
    for info in pkgutil.iter_modules(root.__path__):
        if info.name.startswith("_"):  # __main__ runs the command line when imported
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        if not hasattr(module, "GAME"):
            continue
        wrong = declaration_problems(module)
        if wrong:
            problems += wrong
            continue
        found[module.GAME.name] = module.GAME
    if problems:
        raise RegistryError("; ".join(problems))
    return dict(sorted(found.items()))


class Registry(Mapping[str, type[Game]]):
    """A read-only mapping name → engine, discovered the first time it is read."""

    def __init__(self, package: str):
        self._package = package
        self._games: dict[str, type[Game]] | None = None

    def _all(self) -> dict[str, type[Game]]:
        if self._games is None:
            self._games = discover(self._package)
        return self._games

    def __getitem__(self, name: str) -> type[Game]:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return f"<games: {', '.join(self)}>"


#: every game: name → engine
GAMES: Mapping[str, type[Game]] = Registry(__package__)
