"""3-High at the table: the setup form (squares or the red/black card helper) and the move
form composed tap by tap (card, side, piece, confirm), through the Django client."""

import json

import pytest
from django.urls import reverse

from games import services
from games.models import Move, Play
from games.ui import Draft, ui_for
from games.ui.three_high import DEFAULT_SQUARES
from referee import Judgement, judge
from referee.three_high import ThreeHigh
from tests.dom import attr, dom, find, find_all, text
from tests.examples import EXAMPLES

GAME = json.loads((EXAMPLES / "three-high-1.json").read_text())

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def duo(players):
    return players[:2]


@pytest.fixture
def three_high(night, duo):
    """A 3-High play in progress on the example's setup, no move yet: Ana and Ben."""
    return services.start_play(night=night, game="three-high", players=duo, setup=GAME["setup"])


def setup_form(duo, **fields):
    data = {"game": "three-high", "seat": [str(p.pk) for p in duo]}
    for piece, square in DEFAULT_SQUARES.items():
        data[f"square-{piece}"] = square
    data.update(fields)
    return data


def tap(client, play, *, draft=None, seq=0, htmx=True, **fields):
    data = {"version": seq, "draft": json.dumps(draft) if draft else "", **fields}
    return client.post(reverse("play-move", args=[play.pk]), data, headers=HTMX if htmx else {})


def draft_of(response):
    """The draft the page carries in its hidden field."""
    import html
    import re

    match = re.search(r'name="draft" value="([^"]*)"', response.content.decode())
    raw = html.unescape(match.group(1))
    return json.loads(raw) if raw else {}


# Setup ------------------------------------------------------------------------------------------


def test_setup_page_lists_the_15_pieces_large_first_with_distinct_default_squares(
    member_client, night, duo
):
    url = reverse("play-setup", args=[night.pk])
    response = member_client.get(url, {"game": "three-high", "seat": [p.pk for p in duo]})
    body = response.content.decode()
    assert response.status_code == 200
    rows = [line.split('"')[1] for line in body.split("data-piece=")[1:]]
    assert rows[:5] == ["red-3", "yellow-3", "green-3", "blue-3", "black-3"]
    assert rows[-1] == "black-1" and len(rows) == 15
    assert len(set(DEFAULT_SQUARES.values())) == 15
    # the squares come from the cards drawn: none is proposed that would have to be undone
    assert body.count('<option value="" selected>') == 15
    # the tray and the board they are tapped on (static/js/tap-setup.js writes the lists)
    assert body.count("data-slot ") == 15 and body.count("data-cell=") == 64
    assert 'data-fields="square-green-2"' in body and 'id="square-green-2"' in body
    assert "our convention" in body and 'id="card-convention"' in body


def test_default_setup_starts_the_play_with_those_squares(member_client, night, duo):
    response = member_client.post(reverse("play-setup", args=[night.pk]), setup_form(duo))
    play = Play.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("play", args=[play.pk])
    assert play.setup["pieces"][0] == {"piece": "red-3", "square": "b2"}
    assert [e["piece"] for e in play.setup["pieces"]][5] == "red-2"


def test_red_card_gives_the_rank_and_black_card_the_file(member_client, night, duo):
    form = setup_form(duo, **{"red-red-3": "5H", "black-red-3": "3S"})
    member_client.post(reverse("play-setup", args=[night.pk]), form)
    assert Play.objects.get().setup["pieces"][0] == {"piece": "red-3", "square": "c5"}


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"red-green-2": "5H"}, "choose both a red and a black card"),
        ({"red-green-2": "5S", "black-green-2": "3S"}, "must be a heart or a diamond"),
        ({"red-green-2": "5H", "black-green-2": "9C"}, "must be a spade or a club"),
        ({"square-green-2": "i9"}, "Choose a square from a1 to h8 for the medium green piece"),
        ({"setup_json": '{"pieces": []}'}, "all 15 pieces"),
    ],
)
def test_bad_setup_shows_a_message_and_stores_nothing(member_client, night, duo, fields, message):
    response = member_client.post(reverse("play-setup", args=[night.pk]), setup_form(duo, **fields))
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Play.objects.exists()


def test_a_refused_setup_keeps_what_was_chosen(member_client, night, duo):
    form = setup_form(duo, **{"square-red-3": "h1", "red-green-2": "5H"})
    body = member_client.post(reverse("play-setup", args=[night.pk]), form).content.decode()
    assert 'id="setup-error"' in body
    assert '<option value="h1" selected>' in body and '<option value="5H" selected>' in body


# Moves ------------------------------------------------------------------------------------------


def test_play_page_draws_the_stacks_north_up_and_offers_only_top_pieces(member_client, three_high):
    body = member_client.get(reverse("play", args=[three_high.pk])).content.decode()
    squares = [chunk.split('"')[1] for chunk in body.split("data-square=")[1:]]
    assert squares[:8] == [f"{f}8" for f in "abcdefgh"] and squares[-1] == "h1"
    assert 'data-square="a1" data-stack="red-3,red-2"' in body
    assert 'name="piece" value="red-2"' in body and 'name="piece" value="red-3"' not in body
    assert 'id="th-turn">Ana<' in body
    assert 'id="th-pile">22 cards' in body
    assert "Ana 5 · Ben 5" in body


def test_each_tap_keeps_a_draft_and_stores_nothing(member_client, three_high):
    response = tap(member_client, three_high, card="6S")
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="play-main"')
    assert draft_of(response) == {"card": "6S"}
    # the card picker folds once a card is chosen: one tap opens it again
    assert 'id="th-change-card"' in body and 'name="card" value="6S"' not in body

    response = tap(member_client, three_high, draft={"card": "6S"}, side="south")
    assert draft_of(response) == {"card": "6S", "side": "south"}
    assert "red-1" in response.content.decode() and "a6 → a1" in response.content.decode()

    response = tap(member_client, three_high, draft={"card": "6S", "side": "south"}, piece="red-1")
    body = response.content.decode()
    assert draft_of(response) == {"card": "6S", "side": "south", "piece": "red-1"}
    assert "the small red piece goes from a6 to a1" in body
    assert 'id="confirm-move"' in body and 'data-square="a1"' in body
    assert "th-landing" in body
    assert Move.objects.count() == 0


def test_a_tap_without_htmx_shows_the_whole_page(member_client, three_high):
    response = tap(member_client, three_high, htmx=False, side="north")
    assert response.status_code == 200 and b"<html" in response.content
    assert draft_of(response) == {"side": "north"}


def test_confirm_stores_the_move_as_the_referee_expects(member_client, three_high):
    draft = {"card": "6S", "side": "south", "piece": "red-1"}
    response = tap(member_client, three_high, draft=draft, confirm="1")
    assert response.status_code == 200
    assert Move.objects.get().data == {
        "player": "Ana",
        "card": "6S",
        "side": "south",
        "piece": "red-1",
    }
    body = response.content.decode()
    assert 'id="th-turn">Ben<' in body
    assert 'value="6S" class="th-card" disabled' in body
    assert "th-has-tree" in body


def test_confirm_before_the_move_is_complete_asks_for_the_rest(member_client, three_high):
    response = tap(member_client, three_high, draft={"card": "6S"}, confirm="1")
    assert "Choose a card, a side and a piece" in response.content.decode()
    assert Move.objects.count() == 0


def test_illegal_move_shows_the_referees_message_and_stores_nothing(member_client, three_high):
    draft = {"card": "4S", "side": "east", "piece": "red-2"}
    response = tap(member_client, three_high, draft=draft, confirm="1")
    body = response.content.decode()
    assert 'id="move-error"' in body
    assert "Turn 1: the medium red piece cannot stop on the medium yellow piece at c1" in body
    assert Move.objects.count() == 0


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"card": "9S"}, "not a card of the 32-card deck"),
        ({"side": "up"}, "not a side of the board"),
        ({"piece": "pink-4"}, "not a piece"),
        ({"draft": '{"card": "ZZ"}'}, "The form was damaged"),
        ({"draft": "[1"}, "The form was damaged"),
    ],
)
def test_tampered_taps_get_a_message(member_client, three_high, fields, message):
    data = {"version": 0, "draft": "", **fields}
    response = member_client.post(reverse("play-move", args=[three_high.pk]), data, headers=HTMX)
    assert message in response.content.decode()
    assert Move.objects.count() == 0


def test_cannot_play_loses_the_game(member_client, three_high):
    response = tap(member_client, three_high, cannot_play="1")
    assert Move.objects.get().data == {"player": "Ana", "cannot_play": True}
    body = response.content.decode()
    assert "Lost" in body and "Ana could not play a card." in body


def test_the_move_json_fallback_still_works(member_client, three_high):
    tap(member_client, three_high, move_json=json.dumps(GAME["moves"][0]))
    assert Move.objects.get().data == GAME["moves"][0]


def test_the_sheet_after_a_won_game_shows_trees_pile_hands_and_outcome(member_client, three_high):
    for seq, move in enumerate(GAME["moves"]):
        services.record_move(play=three_high, move=move, version=seq)
    body = member_client.get(reverse("play-sheet", args=[three_high.pk])).content.decode()
    assert "Won" in body and "All five trees stand." in body
    assert "5 trees standing" in body
    assert "22 cards left to draw" in body
    assert "Ana: 2 · Ben: 3" in body
    assert "6♠" in body and "4♦" in body


def test_a_player_with_an_empty_hand_is_told_to_record_cannot_play():
    from django.template.loader import render_to_string

    from games.ui import ui_for
    from referee import Judgement
    from referee.three_high import ThreeHigh

    state = ThreeHigh.start(["Ana", "Ben"], GAME["setup"])
    state.hands[0] = 0
    judgement = Judgement(game="three-high", status="in_progress", state=state)
    context = ui_for("three-high").move_context(judgement, ["Ana", "Ben"], None)
    assert context["th_empty_hand"] is True
    html = render_to_string("plays/games/three-high/move_form.html", context)
    assert "Ana has no card left: record that they cannot play." in html


def test_the_board_letters_its_files_along_rank_1_and_numbers_its_ranks_along_file_a(
    member_client, three_high
):
    board = find(dom(member_client.get(reverse("play", args=[three_high.pk]))), None, id="th-board")

    def labels(kind):
        return [
            (attr(square, "data-square"), text(label))
            for square in find_all(board, None, class_="th-square")
            for label in find_all(square, "span", class_=kind)
        ]

    assert labels("th-file-label") == [(f"{file}1", file) for file in "abcdefgh"]
    assert labels("th-rank-label") == [(f"a{rank}", str(rank)) for rank in range(8, 0, -1)]


def test_a_side_the_referee_cannot_read_sends_no_piece_anywhere():
    """A draft's side that is no side of the board: no piece is shown landing anywhere."""
    state = ThreeHigh.start(["Ana", "Ben"], GAME["setup"])
    judgement = Judgement(game="three-high", status="in_progress", state=state)
    draft = Draft({"card": "6S", "side": "up"})
    context = ui_for("three-high").move_context(judgement, ["Ana", "Ben"], draft)
    assert len(context["th_tops"]) == len(state.top_pieces())
    assert {top["destination"] for top in context["th_tops"]} == {""}
    assert context["th_landing"] is None


def test_a_board_drawn_from_the_referees_details_alone_says_whose_turn_it_is():
    """Without the engine's state (``Judgement.state`` None), the board reads ``details``."""
    state = ThreeHigh.start(["Ana", "Ben"], GAME["setup"])
    details = Judgement(game="three-high", status="in_progress", details=state.details())
    context = ui_for("three-high").move_context(details, ["Ana", "Ben"], None)
    assert context["th_to_play"] == "Ana" and context["th_outcome"] is None
    assert context["th_tops"] and context["th_hands"][0]["player"] == "Ana"


def test_a_board_drawn_from_the_details_of_a_won_game_says_it_is_won():
    judgement = judge({"format": "gamelog/1", **GAME})
    details = Judgement(game="three-high", status="finished", details=judgement.details)
    context = ui_for("three-high").move_context(details, ["Ana", "Ben"], None)
    assert context["th_outcome"] == "won" and context["th_tree_count"] == 5


def test_a_refused_move_keeps_the_card_side_and_piece(member_client, three_high):
    """The referee refuses a move: its choices stay, so changing one is one tap."""
    move = {"card": "6S", "side": "north", "piece": "blue-2"}  # blue-2 cannot stop on blue-1
    response = None
    for key, value in move.items():
        response = tap(
            member_client, three_high, draft=response and draft_of(response), **{key: value}
        )
    refused = tap(member_client, three_high, draft=draft_of(response), confirm="1")
    assert "cannot stop on the small blue piece" in refused.content.decode()
    assert draft_of(refused) == move


def test_the_piece_moved_last_is_marked(member_client, three_high):
    services.record_move(play=three_high, move=GAME["moves"][0])
    html = member_client.get(reverse("play", args=[three_high.pk])).content.decode()
    assert html.count(" last-move") == 1


def test_change_the_card_opens_its_picker_again_and_keeps_the_side(member_client, three_high):
    response = tap(member_client, three_high, draft={"card": "6S", "side": "south"}, clear="card")
    assert draft_of(response) == {"side": "south"}
    assert 'name="card" value="6S"' in response.content.decode()


# What the tests over every game ask of this one (tests/per_game.py) ---------------------------

REFUSED_MOVE = {
    "en": "Turn 3: the large red piece is under the medium red piece at a1: only the top piece "
    "of a stack moves.",
    "fr": "Tour 3 : la grande pièce rouge est sous la pièce rouge moyenne en a1 : seule la pièce "
    "du dessus d'un empilement se déplace.",
}
REFUSED_SETUP = ({"pieces": []}, "La mise en place doit placer les 15 pièces, pas 0.")
SAMPLES = {"piece": "blue-1", "square": "g6", "card": "5D", "entry": 0}
SAYS = [
    ("piece", "blue-1", "the small blue piece", "la petite pièce bleue"),
    ("piece", "green-2", "the medium green piece", "la pièce verte moyenne"),
    ("piece", "black-3", "the large black piece", "la grande pièce noire"),
    ("card", "AS", "A♠", "A♠"),
]
