"""The referee's verdicts in the reader's language (games/verdicts.py): every message of every
game has a French text, is said with every parameter filled, the players' way."""

import json
import re

import pytest
from django.utils import translation
from django.utils.text import capfirst

from games.verdicts import explain, say, words_for
from referee import GAMES, judge
from referee.messages import TEXTS, Message, fields, kind
from tests.examples import EXAMPLES, illegal_example
from tests.per_game import own

#: the two ids that frame a refusal for the log; the site says where in its own words
FRAMES = {"log.move", "log.bad_setup"}


def _state(game: str):
    """The game of the public example ``<game>-1`` after its first move: a board to name cells
    on."""
    log = json.loads((EXAMPLES / f"{game}-1.json").read_text())
    return judge({**log, "moves": log["moves"][:1]}).state


#: a value of each kind of parameter the shared messages name; a game's own test module adds the
#: kinds of its messages (``SAMPLES``, tests/per_game.py)
SHARED_SAMPLES = {
    "value": {"x": [1]},
    "json": [["Ana", "Chloé"], ["Ben", "Dev"]],
    "players": ["Ana", "Ben"],
    "games": ["punto", "thricewise"],
    "names": ["Ana", "Ben", "Chloé"],
    "either": ["Ana", "Ben"],
    "player": "Zoé",
    "number": 7,
    "count": 8,
    "game": "Punto",
    "format": "gamelog/1",
    "error": "KeyError",
    "what": Message("what.move"),
    "problem": Message("game.over"),
}


def samples(game: str | None) -> dict:
    return {**SHARED_SAMPLES, **(own(game, "SAMPLES", {}) if game else {})}


def sample(game: str | None, name: str):
    return samples(game)[kind(name)]


def _messages() -> list[str]:
    list(GAMES)  # every game's module defines its messages on import
    return sorted(set(TEXTS) - FRAMES)


def _game(message_id: str) -> str | None:
    prefix = message_id.partition(".")[0]
    return prefix if prefix in GAMES else None


MESSAGES = _messages()


def test_every_referee_message_is_checked_here():
    assert len(MESSAGES) > 150
    # a game's messages name its own things; every kind they use has a sample
    for message_id in MESSAGES:
        for name in fields(TEXTS[message_id]):
            sample(_game(message_id), name)


@pytest.mark.parametrize("message_id", MESSAGES)
def test_every_message_has_a_french_text(message_id):
    template = TEXTS[message_id]
    with translation.override("fr"):
        french = translation.gettext(template)
    assert french != template, f"{message_id} has no French text"
    # the same parameters, no more, no less
    assert sorted(fields(french)) == sorted(fields(template))


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("message_id", MESSAGES)
def test_every_message_is_said_with_every_parameter_filled(message_id, language):
    game = _game(message_id)
    state = _state(game) if game else None
    params = {name: sample(game, name) for name in fields(TEXTS[message_id])}
    with translation.override(language):
        text = say(Message(message_id, **params), game, state)
        words = words_for(game, state)
        for name, value in params.items():
            assert f"{{{name}}}" not in text
            said = words(name, value)
            assert said in text or capfirst(said) in text, f"{name} is missing from {text!r}"
    assert text[0] == text[0].upper() and text.endswith(".")


def _outside_quotes(text: str) -> str:
    """French prose only: JSON examples and quoted values are not French."""
    text = re.sub(r'"[^"]*"\s*:', "", text)  # JSON keys and their colons
    return re.sub(r'"[^"]*"', "", text)


@pytest.mark.parametrize("message_id", MESSAGES)
def test_french_puts_a_space_before_colons_and_semicolons(message_id):
    with translation.override("fr"):
        french = _outside_quotes(translation.gettext(TEXTS[message_id]))
    assert not re.search(r"[^\s][:;!?]", french), french


@pytest.mark.parametrize(
    ("game", "name", "value", "english", "french"),
    [(game, *said) for game in GAMES for said in own(game, "SAYS", [])],
)
def test_each_game_says_its_things_the_players_way(game, name, value, english, french):
    state = _state(game)
    for language, said in (("en", english), ("fr", french)):
        with translation.override(language):
            assert words_for(game, state)(name, value) == said


LOG = {"format": "gamelog/1", "players": ["Ana", "Ben"]}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_refused_move_says_where_the_players_count_it_and_why(game):
    log, _move = illegal_example(game)
    refused = own(game, "REFUSED_MOVE")
    judgement = judge(log)
    for language in ("en", "fr"):
        with translation.override(language):
            assert explain(judgement) == refused[language]
    # the command line's English is untouched
    assert judgement.error["message"].startswith("move ")


@pytest.mark.parametrize(
    ("log", "english", "french"),
    [
        (
            {
                **LOG,
                "game": "punto",
                "setup": {"colours": {"Ana": ["red"], "Ben": ["blue"]}},
                "moves": [],
            },
            "The setup: with 2 players each player holds two colours (a list of colour "
            "names): Ana has 1 colour.",
            "Mise en place : à 2 joueurs, chaque joueur a deux couleurs (une liste de noms de "
            "couleurs) : Ana n'en a qu'une.",
        ),
        (
            {**LOG, "game": "chess"},
            f'Unknown game "chess": expected one of {", ".join(GAMES)}.',
            f'Jeu inconnu "chess" : on attend l\'un de ceux-ci : {", ".join(GAMES)}.',
        ),
    ],
    ids=["setup", "envelope"],
)
def test_a_refusal_says_where_the_players_count_it_and_why(log, english, french):
    judgement = judge(log)
    with translation.override("en"):
        assert explain(judgement) == english
    with translation.override("fr"):
        assert explain(judgement) == french
    # the command line's English is untouched
    assert judgement.error["message"].startswith(("move ", "bad setup: ", "unknown game"))


def test_a_setup_refusal_without_where_is_the_problem_alone():
    judgement = judge(
        {
            **LOG,
            "game": "punto",
            "setup": {"colours": {"Ana": ["red", "blue"], "Ben": ["red", "green"]}},
            "moves": [],
        }
    )
    with translation.override("fr"):
        assert explain(judgement, where=False) == (
            "Le rouge est donné deux fois (Ana et Ben) : chaque couleur appartient à un joueur "
            "au plus."
        )


def test_a_legal_log_has_nothing_to_explain():
    assert explain(judge(json.loads((EXAMPLES / "punto-1.json").read_text()))) == ""


def test_a_team_plays_refusal_names_the_teams_colours():
    log = json.loads((EXAMPLES / "punto-3.json").read_text())
    judgement = judge({**log, "moves": [{"player": "Ana", "card": "orange-2", "at": [0, 0]}]})
    with translation.override("en"):
        assert explain(judgement) == (
            "Round 1, card 1: Ana plays red and blue (their team's colours), not orange: the "
            "orange 2 is not theirs."
        )
    with translation.override("fr"):
        assert explain(judgement) == (
            "Manche 1, carte 1 : Ana joue en rouge et bleu (les couleurs de son équipe), pas en "
            "orange : le 2 orange n'est pas à sa couleur."
        )


@pytest.mark.parametrize("game", [None, *GAMES])
def test_a_word_is_said_whatever_it_is_given(game):
    """Said as the log writes it when it is not what its kind says: never an error on a page."""
    state = _state(game) if game else None
    words = words_for(game, state)
    kinds = {*samples(game), "cell", "names", "sides", "colours"}
    for what in kinds:
        for odd in (None, 7, "zzz", [1, "x"], {"a": 1}, (99, 99)):
            assert isinstance(words(what, odd), str)
