"""The referee's messages: every refusal is a message id with parameters (referee.messages), the
log's English of each is what the command line prints, and each id is raised with exactly the
parameters its template names."""

import ast
from pathlib import Path

import pytest

from referee import GAMES, judge
from referee.messages import TEXTS, Message, fields, kind, log_words

REFEREE = Path(__file__).resolve().parents[2] / "referee"
SOURCES = sorted(REFEREE.glob("*.py"))


def _ids(node: ast.expr) -> list[str]:
    """The message ids an argument can be: a string, or either branch of a conditional."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _ids(node.body) + _ids(node.orelse)
    return []


def _message_calls() -> list[tuple[str, str, set[str]]]:
    """(where, id, keyword names) of every call in the referee whose first argument is a
    message id: ``IllegalMove("punto.no_card")``, ``Message(...)``, ``error(...)``..."""
    list(GAMES)  # every game's module defines its messages on import
    calls = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            ids = [i for i in _ids(node.args[0]) if i in TEXTS]
            keywords = {k.arg for k in node.keywords if k.arg is not None}
            calls += [(f"{path.name}:{node.lineno}", i, keywords) for i in ids]
    return calls


def test_every_message_is_raised_with_the_parameters_its_template_names():
    calls = _message_calls()
    assert len(calls) > 150
    wrong = [
        f"{where}: {message_id} takes {sorted(fields(TEXTS[message_id]))}, not {sorted(kw)}"
        for where, message_id, kw in calls
        if set(fields(TEXTS[message_id])) != kw
    ]
    assert not wrong, "\n".join(wrong)


def test_every_message_is_used():
    used = {message_id for _where, message_id, _kw in _message_calls()}
    # The two ids that frame a refusal are made by the judge with a variable problem.
    source = "\n".join(path.read_text() for path in SOURCES)
    unused = [i for i in TEXTS if i not in used and source.count(f'"{i}"') < 2]
    assert not unused


def test_every_message_belongs_to_a_game_or_to_the_shared_ones():
    shared = {"game", "json", "what", "log"}
    for message_id in TEXTS:
        prefix = message_id.partition(".")[0]
        assert prefix in GAMES or prefix in shared, message_id


@pytest.mark.parametrize(
    ("name", "value", "english"),
    [
        ("value", {"a": [1, 2]}, '{"a": [1, 2]}'),
        ("value_card", "x" * 70, '"' + "x" * 56 + "..."),
        ("cell", (2, -1), "(2, -1)"),
        ("cell_next", (0, 0), "(0, 0)"),
        ("players", ["Ana", "Ben", "Chloé"], "Ana, Ben, Chloé"),
        ("names", ["Ana", "Ben", "Chloé"], "Ana, Ben and Chloé"),
        ("names", ["Ana"], "Ana"),
        ("either", ["Ana", "Ben"], "Ana or Ben"),
        ("turn", 0, "0"),
        ("player", "Ana", "Ana"),
    ],
)
def test_the_log_english_writes_each_kind_of_parameter(name, value, english):
    assert log_words(name, value) == english


def test_a_phrase_is_written_inside_its_sentence():
    message = Message("log.move", number=3, problem=Message("json.list", what=Message("what.move")))
    assert str(message) == "move 3: a move must be a list"


def test_a_parameters_kind_is_its_name_up_to_the_first_underscore():
    assert kind("cell_below") == "cell"
    assert kind("player") == "player"


LOG = {"format": "gamelog/1", "players": ["Ana", "Ben"]}


@pytest.mark.parametrize(
    ("log", "message"),
    [
        # The English of the log format, as the command line printed it before messages had ids.
        (
            {**LOG, "game": "chess", "moves": []},
            f'unknown game "chess": expected one of {", ".join(GAMES)}',
        ),
        (
            {
                **LOG,
                "game": "punto",
                "setup": {"colours": {"Ana": ["red"], "Ben": ["blue"]}},
                "moves": [],
            },
            "bad setup: with 2 players each player holds two colours (a list of colour names): "
            "Ana has 1 colour",
        ),
        (
            {
                **LOG,
                "game": "punto",
                "setup": {"colours": {"Ana": ["red", "blue"], "Ben": ["orange", "green"]}},
                "moves": [
                    {"player": "Ana", "card": "red-1", "at": [0, 0]},
                    {"player": "Ben", "card": "orange-3", "at": [7, 0]},
                ],
            },
            "move 1: orange-3 cannot go at (7, 0): it must touch a card on the table "
            "(orthogonally or diagonally) or cover one",
        ),
        (
            {
                **LOG,
                "players": ["Ana", "Ben", "Chloé"],
                "game": "forget-venice",
                "moves": [{"dealer": "Ben", "piles": [], "first": 0, "second": 1}],
            },
            "move 0: Ben cannot be the dealer of deal 1: Player 1, Ana, deals first",
        ),
        (
            {
                **LOG,
                "game": "thricewise",
                "setup": {
                    "grid": [
                        {"card": "The Author", "at": [0, 0]},
                        {"card": "The Desert", "at": [1, 0]},
                        {"card": "The Origin", "at": [0, 1]},
                        {"card": "The Journey", "at": [1, 1]},
                    ]
                },
                "moves": [{"reveal": {"Ana": "The Sailor", "Ben": "The Mill"}, "place": [7]}],
            },
            'move 0: placement 1 of this turn must be an object {"player", "card", "at"}, not 7',
        ),
        (
            {
                **LOG,
                "game": "buntherum",
                "setup": {"series": {"1": ["red-die", "blue-car"]}},
                "moves": [],
            },
            "bad setup: the setup must give all six sides 1 to 6; side 2, 3, 4, 5 and 6 are "
            "missing",
        ),
        (
            {
                **LOG,
                "game": "three-high",
                "setup": {"pieces": [{"piece": "red-3"}] * 15},
                "moves": [],
            },
            "bad setup: setup entry 0: null is not a square of the board (a1 to h8) for red-3",
        ),
    ],
)
def test_the_command_lines_english_is_the_log_formats(log, message):
    verdict = judge(log)
    assert verdict.message == message
    assert str(verdict.verdict) == message
