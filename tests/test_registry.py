"""Every game of the referee's registry has all its parts, and the site derives the rest.

A game is declared once, in its referee module (``referee/registry.py``). Adding one means adding
its own files — those ``missing_parts`` lists — plus its French to the catalogue and its section
to docs/gamelog.md, and nothing else: this test names any that lack. The tests that run over every
game take the games from the registry, and what they need of one game from its own tests
(tests/per_game.py).
"""

from __future__ import annotations

import functools
import pkgutil
import sys
import types
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone, translation

import games.ui
from games import ratings, services, stats
from games.management.commands.load_demo import demo_logs
from games.models import Play
from games.ui import TEMPLATES, GameUI, find_uis, ui_for
from referee import GAMES, Game
from referee.registry import module_name
from tests.catalogue import PO, msgids, untranslated
from tests.dom import attr, dom, find_all, text
from tests.examples import EXAMPLES, MOVE_LOGS
from tests.test_docs import sections

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def missing_parts(engine: type[Game]) -> list[str]:
    """What the game lacks, each named where it belongs."""
    name, module = engine.name, module_name(engine)
    missing = []
    try:
        find_uis([engine])
    except ImproperlyConfigured as exc:
        missing.append(f"its UI class ({exc})")
    for template in TEMPLATES:
        _need_template(f"plays/games/{name}/{template}.html", "its template", missing)
    if finders.find(f"css/games/{name}.css") is None:
        missing.append(f"its stylesheet static/css/games/{name}.css")
    for language, _ in settings.LANGUAGES:
        _need_template(f"rules/{name}.{language}.html", "its rulings page", missing)
    logs = [p for p in EXAMPLES.glob(f"{name}-*.json") if not p.name.endswith(".expected.json")]
    if not logs:
        missing.append(f"its example logs tests/fixtures/examples/{name}-*.json")
    for log in logs:
        expected = log.with_name(log.name.removesuffix(".json") + ".expected.json")
        if not expected.exists():
            missing.append(f"the expected judgement tests/fixtures/examples/{expected.name}")
    if not demo_logs(name):
        missing.append(f"its demo plays games/demo_logs/{name}-*.json")
    for language, _ in settings.LANGUAGES:
        told = [f"{log.stem}.{language}.txt" for log in logs] or [f"{name}-*.{language}.txt"]
        missing += [
            f"its move log tests/fixtures/move_logs/{each}"
            for each in told
            if not any(MOVE_LOGS.glob(each))
        ]
    if engine.title not in sections().values():
        missing.append(f"its section of docs/gamelog.md, titled “## §<n> {engine.title}”")
    for tests in (
        f"referee/test_{module}.py",
        f"referee/test_options_{module}.py",
        f"views/test_ui_{module}.py",
        f"browser/test_{module}.py",
    ):
        if not (TESTS / tests).exists():
            missing.append(f"its tests tests/{tests}")
    words = untranslated(ui_files(name, module))
    if words:
        said = ", ".join(f"“{m}”" + (f" ({context})" if context else "") for context, m in words)
        missing.append(f"the French of its words in {PO.relative_to(ROOT)}: {said}")
    longest = Play._meta.get_field("game").max_length
    if len(name) > longest:
        missing.append(f"a name of at most {longest} characters (Play.game)")
    return missing


def ui_files(name: str, module: str) -> list[Path]:
    """The files that say the game's words on the site: its UI (a module or a package) and its
    templates."""
    ui = ROOT / "games" / "ui"
    return sorted(
        [
            *ui.glob(f"{module}.py"),
            *(ui / module).rglob("*.py"),
            *(ROOT / "templates" / "plays" / "games" / name).rglob("*.html"),
        ]
    )


def _need_template(path: str, what: str, missing: list[str]) -> None:
    try:
        get_template(path)
    except TemplateDoesNotExist:
        missing.append(f"{what} templates/{path}")


@pytest.mark.parametrize("name", list(GAMES))
def test_the_game_has_all_its_parts(name):
    engine = GAMES[name]
    missing = missing_parts(engine)
    assert not missing, f"{engine.title} lacks " + "; ".join(missing)


def test_every_ui_module_belongs_to_a_game():
    """A module of games/ui is a game's UI, or shared by them: then its name starts with "_"."""
    modules = {info.name for info in pkgutil.iter_modules(games.ui.__path__)}
    uis = {name for name in modules if not name.startswith("_")}
    assert uis == {module_name(engine) for engine in GAMES.values()}


class Chess(Game):
    """A game the referee might declare one day, with none of its parts on the site yet."""

    __module__ = "referee.chess"
    name = "chess"
    title = "Chess"
    min_players = max_players = 2
    cooperative = has_points = False


def test_a_game_without_its_parts_is_told_each_one_it_lacks():
    missing = "\n".join(missing_parts(Chess))
    for part in [
        "its UI class (Chess has no UI: games.ui.chess is missing)",
        *(f"its template templates/plays/games/chess/{name}.html" for name in TEMPLATES),
        "its stylesheet static/css/games/chess.css",
        "its rulings page templates/rules/chess.en.html",
        "its rulings page templates/rules/chess.fr.html",
        "its example logs tests/fixtures/examples/chess-*.json",
        "its tests tests/referee/test_chess.py",
        "its tests tests/views/test_ui_chess.py",
        "its tests tests/browser/test_chess.py",
        "its move log tests/fixtures/move_logs/chess-*.en.txt",
        "its move log tests/fixtures/move_logs/chess-*.fr.txt",
        "its section of docs/gamelog.md, titled “## §<n> Chess”",
        "its demo plays games/demo_logs/chess-*.json",
    ]:
        assert part in missing


def test_a_game_without_the_move_log_of_an_example_is_told_which(monkeypatch, tmp_path):
    for told in MOVE_LOGS.glob("punto-*.txt"):
        if told.name != "punto-2.fr.txt":
            (tmp_path / told.name).write_text(told.read_text())
    monkeypatch.setattr("tests.test_registry.MOVE_LOGS", tmp_path)
    assert missing_parts(GAMES["punto"]) == ["its move log tests/fixtures/move_logs/punto-2.fr.txt"]


def test_a_game_whose_words_have_no_french_is_told_which(monkeypatch, tmp_path):
    """An empty, a fuzzy and a missing translation, of a word, a template's word and a word in
    a context."""
    catalogue = PO.read_text(encoding="utf-8")
    for translated, lacking in [
        ('msgstr "Chacun pour soi"', 'msgstr ""'),
        ('#, python-format\nmsgid "Teams: %(a)s', '#, fuzzy, python-format\nmsgid "Teams: %(a)s'),
        ('msgctxt "Punto colour"\nmsgid "red"', 'msgctxt "Punto color"\nmsgid "red"'),
    ]:
        assert catalogue.count(translated) == 1
        catalogue = catalogue.replace(translated, lacking)
    (tmp_path / "django.po").write_text(catalogue, encoding="utf-8")
    from_there = functools.partial(untranslated, po=tmp_path / "django.po")
    monkeypatch.setattr("tests.test_registry.untranslated", from_there)
    assert missing_parts(GAMES["punto"]) == [
        "the French of its words in locale/fr/LC_MESSAGES/django.po: “Each for themselves”, "
        "“Teams: %(a)s & %(b)s against %(c)s & %(d)s”, “red” (Punto colour)"
    ]


def test_the_words_of_a_file_are_found_as_makemessages_finds_them(tmp_path):
    module = tmp_path / "words.py"
    module.write_text(
        "from django.utils.translation import gettext as _, ngettext, npgettext, pgettext_lazy\n"
        "_('Plain') + f'{_(\"In an f-string\")}' + _('Joined ' \"in two\")\n"
        "ngettext('%(n)s card', '%(n)s cards', n) + npgettext('Deal', 'One', 'Many', 2)\n"
        "pgettext_lazy('Punto colour', 'red'), _(name), other('Not a word')\n"
    )
    template = tmp_path / "words.html"
    template.write_text(
        '{% load i18n %}<p class="x">\n  {% translate "Here" %}\n'
        "    {% blocktranslate with a=b %}From {{ a }}{% endblocktranslate %}</p>\n"
        '{% translate "Table" context "Punto" as table %}\n'
    )
    assert msgids(module) == {
        (None, "Plain"),
        (None, "In an f-string"),
        (None, "Joined in two"),
        (None, "%(n)s card"),
        ("Deal", "One"),
        ("Punto colour", "red"),
    }
    assert msgids(template) == {(None, "Here"), (None, "From %(a)s"), ("Punto", "Table")}


def test_a_name_too_long_for_the_database_is_told():
    class Long(Chess):
        name = "a-game-with-a-very-long-name"

    assert "a name of at most 20 characters (Play.game)" in missing_parts(Long)


# The UI, found by convention, or the site does not start -----------------------------------


def _ui_module(monkeypatch, **attributes) -> None:
    """A module games.ui.chess holding ``attributes``, as if it were on disk."""
    module = types.ModuleType("games.ui.chess")
    for key, value in attributes.items():
        setattr(module, key, value)
    monkeypatch.setitem(sys.modules, "games.ui.chess", module)


def test_a_game_without_a_ui_stops_the_site_at_start_up(monkeypatch):
    monkeypatch.setattr(games.ui, "GAMES", {**GAMES, "chess": Chess})
    with pytest.raises(ImproperlyConfigured, match="Chess has no UI: games.ui.chess is missing"):
        apps.get_app_config("games").ready()
    # The site keeps the UIs it had: a failed load changes nothing.
    assert ui_for("punto").game == "punto"


def test_a_ui_module_must_name_its_ui(monkeypatch):
    _ui_module(monkeypatch, ChessUI=object)
    with pytest.raises(ImproperlyConfigured, match="games.ui.chess must name its GameUI subclass"):
        find_uis([Chess])


def test_a_ui_must_answer_every_part_of_a_game(monkeypatch):
    class ChessUI(GameUI):
        def default_setup(self, players):
            return {}

    _ui_module(monkeypatch, UI=ChessUI)
    with pytest.raises(ImproperlyConfigured) as raised:
        find_uis([Chess])
    assert str(raised.value) == (
        "Chess's UI (games.ui.chess.UI) lacks describe_move, move_context, parse_move, "
        "parse_setup, setup_context"
    )


def test_each_game_gets_its_own_ui_with_its_own_templates():
    for name, engine in GAMES.items():
        ui = ui_for(name)
        assert type(ui).__module__ == f"games.ui.{module_name(engine)}"
        assert ui.game == name
        assert ui.template("board") == f"plays/games/{name}/board.html"


# A play's game is one of the registry: no database choices, so no migration per game ------------


def test_a_play_of_an_unknown_game_is_refused_by_the_model(night):
    play = Play(club=night.club, night=night, game="chess", started_at=timezone.now())
    with pytest.raises(ValidationError) as raised:
        play.full_clean()
    assert raised.value.message_dict == {"game": ["Unknown game “chess”."]}
    play.game = "punto"
    play.full_clean()


def test_the_games_are_not_database_choices():
    assert not Play._meta.get_field("game").choices


def test_a_play_shows_its_game_title_from_the_registry(night):
    play = Play(club=night.club, night=night, game="three-high", started_at=timezone.now())
    assert play.game_title == "3-High"
    play.game = "a-game-since-removed"
    assert play.game_title == "a-game-since-removed"


# Every menu, scope and check of the site comes from the registry ------------------------------


def test_every_game_is_offered_wherever_games_are_listed(member_client, club, night):
    home = dom(member_client.get(reverse("home")))
    start = dom(member_client.get(reverse("play-start", args=[night.pk])))
    board = dom(member_client.get(reverse("leaderboard", args=[club.pk])))
    offered = [
        attr(radio, "value") for radio in find_all(start, "input", type="radio", name="game")
    ]
    assert offered == list(GAMES)
    for name, engine in GAMES.items():
        rules = find_all(home, "a", href=reverse("rules", args=[name]))
        assert [text(link) for link in rules] == [engine.title], name
        assert find_all(board, "a", href=reverse("leaderboard-game", args=[club.pk, name])), name

        for language in ("en", "fr"):
            page = member_client.get(
                reverse("rules", args=[name]), headers={"Accept-Language": language}
            )
            assert page.status_code == 200 and engine.title in page.content.decode()
    assert list(stats.SCOPES) == ["all", *GAMES]


def test_a_game_the_referee_does_not_know_is_refused_everywhere(member_client, night, players):
    with translation.override("en"), pytest.raises(services.ServiceError, match="Unknown game"):
        services.start_play(night=night, game="chess", players=players[:2], setup={})
    response = member_client.post(
        reverse("play-start", args=[night.pk]),
        {"game": "chess", "seat": [players[0].pk, players[1].pk]},
    )
    assert response.status_code == 422 and "Choose a game." in response.content.decode()
    assert not Play.objects.exists()


def test_the_rating_rules_follow_the_declared_kind_of_game():
    assert set(ratings.COOPERATIVE_GAMES) == {n for n, e in GAMES.items() if e.cooperative}
    assert set(stats.COMPETITIVE_GAMES) == {n for n, e in GAMES.items() if not e.cooperative}
    assert set(stats.POINT_GAMES) == {n for n, e in GAMES.items() if e.has_points}
    assert not any(stats.is_rated(n) for n, e in GAMES.items() if e.cooperative)
