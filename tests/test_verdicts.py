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
from tests.examples import EXAMPLES

#: the two ids that frame a refusal for the log; the site says where in its own words
FRAMES = {"log.move", "log.bad_setup"}


def _state(game: str):
    """The game of the public example ``<game>-1`` after its first move: a board to name cells
    on."""
    log = json.loads((EXAMPLES / f"{game}-1.json").read_text())
    return judge({**log, "moves": log["moves"][:1]}).state


#: a value of each kind of parameter, per game ("" for the shared ones)
SAMPLES = {
    "": {
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
    },
    "thricewise": {"card": "The Sailor", "cell": (2, -1), "turn": 2, "rank": "Crown"},
    "three-high": {"piece": "blue-1", "square": "g6", "card": "5D", "entry": 0},
    "buntherum": {
        "card": "pink-ball",
        "side": "4",
        "sides": ["2", "3"],
        "colour": "pink",
        "object": "ball",
    },
    "forget-venice": {
        "card": "The Sailor",
        "deal": 7,
        "pile": 0,
        "half": "2",
        "criterion": "III",
        "suit": "Wyrms",
        "suits": ["Moons", "Wyrms"],
        "points": 12,
    },
    "punto": {"card": "red-7", "cell": (1, 0), "colour": "orange", "colours": ["red", "blue"]},
}


def sample(game: str, name: str):
    values = SAMPLES.get(game, {})
    return values[kind(name)] if kind(name) in values else SAMPLES[""][kind(name)]


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
            sample(_game(message_id) or "", name)


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
    params = {name: sample(game or "", name) for name in fields(TEXTS[message_id])}
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
    ("name", "value", "english", "french"),
    [
        ("cell", (2, -1), "F4", "F4"),  # Thricewise: the setup's 3×2 grid makes (0, 0) D5
        ("turn", 2, "3", "3"),
        ("rank", "Crown", "Crown", "Couronne"),
    ],
)
def test_thricewise_says_cells_and_turns_as_its_board_and_sheet(name, value, english, french):
    state = _state("thricewise")
    for language, said in (("en", english), ("fr", french)):
        with translation.override(language):
            assert words_for("thricewise", state)(name, value) == said


@pytest.mark.parametrize(
    ("game", "name", "value", "english", "french"),
    [
        ("three-high", "piece", "blue-1", "the small blue piece", "la petite pièce bleue"),
        ("three-high", "piece", "green-2", "the medium green piece", "la pièce verte moyenne"),
        ("three-high", "piece", "black-3", "the large black piece", "la grande pièce noire"),
        ("three-high", "card", "AS", "A♠", "A♠"),
        ("buntherum", "card", "pink-ball", "the pink ball", "la balle rose"),
        ("buntherum", "card", "green-die", "the green die", "le dé vert"),
        ("punto", "card", "red-7", "the red 7", "7 rouge"),
        ("punto", "cell", (0, 0), "F6", "F6"),  # the round's first card
        ("punto", "cell", (-5, 5), "A11", "A11"),
        ("forget-venice", "pile", 0, "1", "1"),
        ("forget-venice", "card", "The Sailor", "The Sailor", "The Sailor"),
        ("forget-venice", "suits", ["Moons", "Knots"], "Moons, Knots", "Lunes, Nœuds"),
        ("buntherum", "names", ["Ana", "Ben", "Chloé"], "Ana, Ben and Chloé", "Ana, Ben et Chloé"),
        ("forget-venice", "either", ["Ana", "Ben"], "Ana or Ben", "Ana ou Ben"),
    ],
)
def test_each_game_says_its_things_the_players_way(game, name, value, english, french):
    state = _state(game)
    for language, said in (("en", english), ("fr", french)):
        with translation.override(language):
            assert words_for(game, state)(name, value) == said


LOG = {"format": "gamelog/1", "players": ["Ana", "Ben"]}


@pytest.mark.parametrize(
    ("log", "english", "french"),
    [
        (
            json.loads((EXAMPLES / "thricewise-2.json").read_text()),
            "Turn 3: Ben's The Battle was set aside this turn (a tied rank): Ben places "
            "nothing this turn.",
            "Tour 3 : The Battle, révélée par Ben, a été mise de côté à ce tour (rang égal) : "
            "Ben ne pose rien à ce tour.",
        ),
        (
            json.loads((EXAMPLES / "three-high-2.json").read_text()),
            "Turn 3: the large red piece is under the medium red piece at a1: only the top "
            "piece of a stack moves.",
            "Tour 3 : la grande pièce rouge est sous la pièce rouge moyenne en a1 : seule la "
            "pièce du dessus d'un empilement se déplace.",
        ),
        (
            json.loads((EXAMPLES / "forget-venice-2.json").read_text()),
            "Deal 2 of 12: Chloé cannot be the dealer of deal 2: the deal passes left, from "
            "Ana to Ben.",
            "Donne 2 sur 12 : ce n'est pas à Chloé de distribuer la donne 2 : la donne passe à "
            "gauche, après Ana c'est à Ben.",
        ),
        (
            json.loads((EXAMPLES / "buntherum-2.json").read_text()),
            "Card 3: Chloé cannot call: only Ana and Ben, who tied on the last card, may call "
            "this one.",
            "Carte 3 : Chloé ne peut pas annoncer : seuls Ana et Ben, à égalité sur la carte "
            "précédente, peuvent annoncer celle-ci.",
        ),
        (
            json.loads((EXAMPLES / "punto-2.json").read_text()),
            "Round 1, card 3: the green 3 cannot cover the orange 3 at G6: a card covers only "
            "a card of strictly lower value.",
            "Manche 1, carte 3 : le 3 vert ne peut pas recouvrir le 3 orange en G6 : une carte "
            "ne recouvre qu'une carte de valeur strictement inférieure.",
        ),
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
            'Unknown game "chess": expected one of buntherum, forget-venice, punto, '
            "three-high, thricewise.",
            'Jeu inconnu "chess" : on attend l\'un de ceux-ci : buntherum, forget-venice, '
            "punto, three-high, thricewise.",
        ),
    ],
    ids=["thricewise", "three-high", "forget-venice", "buntherum", "punto", "setup", "envelope"],
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
    kinds = {*SAMPLES[""], *SAMPLES.get(game or "", {}), "cell", "names", "sides", "colours"}
    for what in kinds:
        for odd in (None, 7, "zzz", [1, "x"], {"a": 1}, (99, 99)):
            assert isinstance(words(what, odd), str)
