"""French that reads right, over the whole catalogue (locale/fr/LC_MESSAGES/django.mo) and on
the pages where it went wrong: a space before ":" ";" "?" "!", "Cote" for the rating number,
counts in the plural, inclusive forms written one way, no "et son 0 coup ?"."""

import gettext
import json
import re

import pytest
from django.conf import settings
from django.urls import reverse

from games import services
from tests.dom import dom, find, find_all
from tests.dom import text as visible
from tests.examples import EXAMPLES

FRENCH = {"Accept-Language": "fr"}


def _catalogue() -> dict[str, str]:
    """msgid (its singular, for a plural) → every French text of it, joined."""
    path = settings.BASE_DIR / "locale" / "fr" / "LC_MESSAGES" / "django.mo"
    with path.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)._catalog
    texts: dict[str, str] = {}
    for key, text in catalogue.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if msgid:  # the header
            texts[msgid] = texts.get(msgid, "") + "\n" + text if msgid in texts else text
    return texts


CATALOGUE = _catalogue()


def _prose(text: str) -> str:
    """The text without what is not French prose: JSON written as the log format spells it,
    times (20:05) and web addresses."""
    text = re.sub(r"https?://\S+", "", text)
    text = re.sub(r"\d:\d", "", text)
    text = re.sub(r'"[^"]*"(?:\s*:)?', '""', text)  # a JSON key and its colon, or a string
    return re.sub(r"\{\{.*?\}\}", "", text)


def _unspaced(text: str) -> bool:
    """A ":", ";", "?" or "!" of the prose with no space before it."""
    return re.search(r"(?:^|[^ \u00a0\u202f])[:;?!]", _prose(text)) is not None


def test_every_french_text_has_a_space_before_colons_semicolons_and_marks():
    assert [(msgid, text) for msgid, text in CATALOGUE.items() if _unspaced(text)] == []


def test_the_spacing_check_catches_a_missing_space():
    assert _unspaced("Gagnants: Ana") and _unspaced("Vraiment?") and _unspaced("a; b")
    assert not _unspaced('comme "card": "red-7" à 20:05 ; voir https://example.org')


def test_the_rating_number_is_the_cote_never_the_classement():
    rating = {m: t for m, t in CATALOGUE.items() if re.search(r"\brating", m, re.I)}
    assert len(rating) >= 8
    assert [m for m, t in rating.items() if "classement" in t.lower()] == []
    assert CATALOGUE["Rating"] == "Cote"


#: the words the catalogue says of one person whose gender it does not know: with "·e"
INCLUSIVE = ("battu", "éliminé", "invité", "supprimé", "nommé", "choisi")


def test_inclusive_forms_are_written_one_way():
    """Of a person, "éliminé·e", "battu·e": never "éliminé(e)" or "éliminé.e", and never the
    bare form beside the inclusive one in the same text."""
    wrong = []
    for msgid, text in CATALOGUE.items():
        if re.search(r"\w\((e|s|es)\)|\w\.e\b|\w·s\b", text):
            wrong.append((msgid, text))
        if "·" in text:
            for word in INCLUSIVE:
                if re.search(rf"\b{word}\b(?!·)", text):
                    wrong.append((msgid, text))
    assert wrong == []


@pytest.mark.parametrize(
    ("moves", "french"),
    [
        (0, "Supprimer cette partie de Punto ({date}) ? Aucun coup n'y a encore été saisi."),
        (2, "Supprimer cette partie de Punto ({date}) et ses 2 coups ?"),
    ],
)
def test_deleting_a_play_counts_its_moves_as_french_does(owner_client, club, night, moves, french):
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    play = services.import_log(club=club, log={**log, "moves": log["moves"][:moves]}, night=night)
    response = owner_client.get(reverse("play-delete", args=[play.pk]), headers=FRENCH)
    page = dom(response)
    assert response.status_code == 200
    assert "0 coup" not in visible(page)
    asked = "Supprimer cette partie de Punto ("
    (said,) = [
        visible(p) for p in find_all(find(page, "main"), "p") if visible(p).startswith(asked)
    ]
    date = said[len(asked) :].split(")")[0]
    assert french.format(date=date) in said


def test_a_label_and_its_value_are_spaced_as_french_does(member_client, club, night):
    log = json.loads((EXAMPLES / "thricewise-2.json").read_text())
    play = services.import_log(club=club, log={**log, "moves": log["moves"][:1]}, night=night)

    def labels(response) -> list[list[str]]:
        """The set-aside cards' labels, as written (their spaces kept, not collapsed)."""
        aside = find(dom(response), "section", id="tw-aside")
        return [strong.children for strong in find_all(aside, "strong")]

    french = labels(member_client.get(reverse("play", args=[play.pk]), headers=FRENCH))
    assert french == [["Ana :"], ["Ben :"]]
    assert labels(member_client.get(reverse("play", args=[play.pk]))) == [["Ana:"], ["Ben:"]]


@pytest.mark.parametrize(
    "name, said",
    [
        ("Ana", "d'Ana"),
        ("Éloïse", "d'Éloïse"),
        ("Hugo", "d'Hugo"),
        ("Ben", "de Ben"),
        ("Chloé", "de Chloé"),
    ],
)
def test_whose_elides_de_before_a_vowel_as_french_does(name, said):
    from django.utils import translation

    from games.ui import whose

    with translation.override("fr"):
        assert whose(name) == said
    with translation.override("en"):
        assert whose(name) == f"{name}'s"


def test_forget_venice_says_the_cards_d_ana_not_de_ana(member_client, club, night, players):
    play = services.start_play(night=night, game="forget-venice", players=players, setup={})
    member_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    page = dom(member_client.get(reverse("play", args=[play.pk])))
    legends = " ".join(visible(legend) for legend in find_all(page, "legend"))
    assert "Les 7 cartes d'Ana en 3 paquets" in legends, legends
    assert "de Ana" not in legends


def _said_in_python() -> list[tuple[str, str, bool]]:
    """Every message a table drawn in Python says (games.ui._drawing's said, said_with,
    the words of ``{% translate %}`` and ``{% blocktranslate %}``): its file, its text, and
    whether it is said inside an f-string."""
    import ast

    found = []
    for path in sorted((settings.BASE_DIR / "games").rglob("*.py")):
        tree = ast.parse(path.read_text())
        in_fstring = {
            id(node) for joined in ast.walk(tree) if isinstance(joined, ast.JoinedStr)
            for node in ast.walk(joined)
        }  # fmt: skip
        for node in ast.walk(tree):
            name = getattr(node, "func", None)
            name = getattr(name, "id", getattr(name, "attr", None))
            if isinstance(node, ast.Call) and name in ("said", "said_with"):
                message = node.args[0]
                if isinstance(message, ast.Constant):
                    found.append((path.name, message.value, id(node) in in_fstring))
    return found


def test_every_message_of_a_table_drawn_in_python_is_in_the_catalogue():
    """makemessages finds them (games/management/commands/makemessages.py), but not inside an
    f-string: there xgettext does not look, and the next catalogue would drop them."""
    said = _said_in_python()
    assert said, "no table is drawn in Python any more: this test has nothing to check"
    assert [(path, text) for path, text, in_fstring in said if in_fstring] == []
    assert [(path, text) for path, text, _ in said if text not in CATALOGUE] == []
