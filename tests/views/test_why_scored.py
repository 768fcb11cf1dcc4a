"""Why it scored, on the pages: a tap on a Thricewise turn's points or a Forget Venice criterion
opens how they were made, in the reader's language; the move log folds the same under each
scoring turn. The breakdown itself is checked against the hand count in
tests/referee/test_why_scored.py."""

import json

import pytest
from django.urls import reverse

from games import services
from tests.dom import attr, dom, find, find_all, text
from tests.examples import EXAMPLES


def _example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def _page(client, url: str, language: str):
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200
    page = dom(response)
    assert page.name == "html" and attr(page, "lang") == language
    return page


def _details(page, container: str) -> list[str]:
    """The text of every why-it-scored note inside the element of id ``container``."""
    return [
        text(note) for note in find_all(find(page, None, id=container), "details", class_="why")
    ]


THRICEWISE_SHEET = {
    "en": [
        "4 Turn 5: Dev scores 3 The Painter at D7: no points The Battle at E7: no points "
        "The Discovery at F7: +3 The Painter (3), The Battle (4), The Discovery (5): straight, "
        "worth 3",
        "6 Turn 6: Dev scores 6 The Market at G7: +6 The Battle (4), The Discovery (5), "
        "The Market (6): straight, worth 4 The Origin (2), The Merchant (9), The Market (6): "
        "flush (Leaves), worth 2",
        "16 Turn 6: Eli scores 16 The Betrayal at H6: +16 The Windfall (Crown), The Merchant (9), "
        "The Betrayal (8): flush (Knots) and straight, 2 × 8 = 16",
    ],
    "fr": [
        "6 Tour 6 : Dev marque 6 The Market en G7 : +6 The Battle (4), The Discovery (5), "
        "The Market (6) : suite, vaut 4 The Origin (2), The Merchant (9), The Market (6) : "
        "couleur (Feuilles), vaut 2",
        "16 Tour 6 : Eli marque 16 The Betrayal en H6 : +16 The Windfall (Couronne), "
        "The Merchant (9), The Betrayal (8) : couleur (Nœuds) et suite, 2 × 8 = 16",
    ],
}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_thricewise_turns_points_open_on_how_they_were_made(member_client, club, language):
    play = services.import_log(club=club, log=_example("thricewise-1"))
    for url in (reverse("play", args=[play.pk]), reverse("play-sheet", args=[play.pk])):
        notes = _details(_page(member_client, url, language), "tw-sheet")
        # every turn where someone placed a card: Eli's Origin, Dev's and Chloé's cards of turn
        # 5, Dev's and Eli's of turn 6
        assert len(notes) == 5, notes
        for expected in THRICEWISE_SHEET[language]:
            assert expected.split(" ", 1)[1] in " | ".join(notes), (expected, notes)
        if language == "en":
            assert notes[0] == "0 Turn 4: Eli scores 0 The Origin at G5: no points"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            [
                "Why it scored The Discovery at F7: +3 The Painter (3), The Battle (4), "
                "The Discovery (5): straight, worth 3",
                "Why it scored The Market at G7: +6 The Battle (4), The Discovery (5), "
                "The Market (6): straight, worth 4 The Origin (2), The Merchant (9), "
                "The Market (6): flush (Leaves), worth 2 The Betrayal at H6: +16 "
                "The Windfall (Crown), The Merchant (9), The Betrayal (8): flush (Knots) and "
                "straight, 2 × 8 = 16",
            ],
        ),
        (
            "fr",
            [
                "Détail des points The Discovery en F7 : +3 The Painter (3), The Battle (4), "
                "The Discovery (5) : suite, vaut 3",
                "Détail des points The Market en G7 : +6 The Battle (4), The Discovery (5), "
                "The Market (6) : suite, vaut 4 The Origin (2), The Merchant (9), "
                "The Market (6) : couleur (Feuilles), vaut 2 The Betrayal en H6 : +16 "
                "The Windfall (Couronne), The Merchant (9), The Betrayal (8) : couleur (Nœuds) "
                "et suite, 2 × 8 = 16",
            ],
        ),
    ],
)
def test_the_move_log_folds_why_each_scoring_turn_scored(member_client, club, language, expected):
    play = services.import_log(club=club, log=_example("thricewise-1"))
    page = _page(member_client, reverse("play", args=[play.pk]), language)
    # only the two turns where a card scored: turns 5 and 6
    assert _details(page, "move-log") == expected


FORGET_VENICE_SHEET = {
    "en": {
        # (half, criterion, player) → the note
        ("1", "I", "Chloé"): "7 Chloé, half 1, criterion I: 7 the smaller count: 7 "
        "Moons: 8 — The Lunatic, The Chance Meeting, The Diplomat, The Pact, The Watchman, "
        "The Harvest, The Consul, The Rite Leaves: 7 — The Market, The Chance Meeting, The Mill, "
        "The Merchant, The Harvest, The Rite, The Window",
        ("1", "II", "Chloé"): "1 Chloé, half 1, criterion II: 1 the difference of the counts: "
        "7 − 6 = 1 Suns: 7 — The Penitent, The Castle, The Diplomat, The Pact, The Light Keeper, "
        "The Harvest, The Window Waves: 6 — The Lunatic, The Cave, The Mill, The Darkness, "
        "The Light Keeper, The Consul",
        ("1", "III", "Ben"): "4 Ben, half 1, criterion III: 4 the longest run: 4 Leaves: a run "
        "of 4 — The Origin (2), The Savage (3), The Sailor (4), The Forest (5) Suns: a run of 4 "
        "— The Desert (2), The Painter (3), The Mountain (4), The Discovery (5)",
        ("2", "I", "Chloé"): "1 Chloé, half 2, criterion I: 1 the smaller count: 1 "
        "Waves: 2 — Ace of Waves, The Sea Leaves: 1 — The End",
    },
    "fr": {
        ("1", "III", "Ana"): "1 Ana, mi-temps 1, critère III : 1 la suite la plus longue : 1 "
        "Vagues : suite de 1 — Ace of Waves (As) Feuilles : suite de 1 — Ace of Leaves (As)",
        ("2", "II", "Ana"): "1 Ana, mi-temps 2, critère II : 1 la différence des nombres : "
        "8 − 7 = 1 Nœuds : 8 — The Market, The Castle, The Betrayal, The Merchant, "
        "The Watchman, The Light Keeper, The Consul, The Window Soleils : 7 — The Penitent, "
        "The Castle, The Diplomat, The Pact, The Light Keeper, The Harvest, The Window",
        ("2", "III", "Chloé"): "1 Chloé, mi-temps 2, critère III : 1 la suite la plus longue : 1 "
        "Soleils : suite de 1 — Ace of Suns (As) Wyrms : suite de 1 — Ace of Wyrms (As)",
    },
}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_forget_venice_criterion_opens_on_the_suits_and_cards_that_made_it(
    member_client, club, language
):
    play = services.import_log(club=club, log=_example("forget-venice-1"))
    for url in (reverse("play", args=[play.pk]), reverse("play-sheet", args=[play.pk])):
        notes = _details(_page(member_client, url, language), "fv-sheet")
        # 2 halves × 3 criteria × 3 players
        assert len(notes) == 18
        players = ["Ana", "Ben", "Chloé"]
        for (half, criterion, player), note in FORGET_VENICE_SHEET[language].items():
            index = (int(half) - 1) * 9 + ["I", "II", "III"].index(criterion) * 3
            assert notes[index + players.index(player)] == note


def test_a_half_not_yet_played_has_nothing_to_open(member_client, club):
    log = _example("forget-venice-1")
    play = services.import_log(club=club, log={**log, "moves": log["moves"][:3]})
    notes = _details(_page(member_client, reverse("play", args=[play.pk]), "en"), "fv-sheet")
    assert len(notes) == 9  # the first half only, as far as it has been played


def test_criterion_ii_says_the_larger_count_first_whichever_suit_it_is():
    from django.utils import translation

    from games.ui.forget_venice.why import criterion_reason
    from referee.decktet import BY_NAME
    from referee.forget_venice import half_breakdown

    cards = [BY_NAME[name] for name in ("The Author", "The Painter", "The Journey")]
    # II on (Wyrms, Knots): Wyrms 0, Knots 2 (Author, Painter): the second suit is the larger.
    two = half_breakdown(cards, (("Moons", "Leaves"), ("Wyrms", "Knots"), ("Suns", "Waves")))[1]
    with translation.override("en"):
        reason = criterion_reason(two)
    assert reason.text == "the difference of the counts: 2 − 0 = 2"
    assert reason.lines == ("Wyrms: no card", "Knots: 2 — The Author, The Painter")
