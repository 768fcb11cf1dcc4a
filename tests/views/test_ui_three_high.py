"""3-High at the table: the setup form (squares or the red/black card helper) and the move
form composed tap by tap (card, side, piece, confirm), through the Django client."""

import json

import pytest
from django.http import QueryDict
from django.urls import reverse

from games import services, verdicts
from games.models import Move, Play
from games.ui import Draft, FormError, ui_for
from games.ui.three_high import DEFAULT_SQUARES
from referee import IllegalMove, Judgement, judge
from referee.three_high import ThreeHigh
from tests.dom import ANY, attr, chosen, classes, dom, find, find_all, text
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
    raw = attr(find(find(dom(response), "form", id="move-form"), "input", name="draft"), "value")
    return json.loads(raw) if raw else {}


def error_of(response) -> str:
    """The referee's (or the form's) message, next to the controls."""
    return text(find(find(dom(response), "div", id="verdict"), "p", id="move-error"))


def squares(page, **attrs) -> list[str]:
    """The board's squares (with ``attrs``), north to south, west to east."""
    board = find(page, "div", id="th-board")
    return [attr(square, "data-square") for square in find_all(board, None, **attrs)]


# Setup ------------------------------------------------------------------------------------------


def test_setup_page_lists_the_15_pieces_large_first_with_distinct_default_squares(
    member_client, night, duo
):
    url = reverse("play-setup", args=[night.pk])
    response = member_client.get(url, {"game": "three-high", "seat": [p.pk for p in duo]})
    page = dom(response)
    assert response.status_code == 200
    rows = [attr(row, "data-piece") for row in find_all(page, "div", class_="th-setup-row")]
    assert rows[:5] == ["red-3", "yellow-3", "green-3", "blue-3", "black-3"]
    assert find(page, "textarea", id="setup-json").children == []  # nothing typed yet
    assert rows[-1] == "black-1" and len(rows) == 15
    assert len(set(DEFAULT_SQUARES.values())) == 15
    # the squares come from the cards drawn: none is proposed that would have to be undone
    assert [chosen(page, f"square-{piece}") for piece in rows] == [[""]] * 15
    cards = [chosen(page, f"{colour}-{piece}") for piece in rows for colour in ("red", "black")]
    assert cards == [[]] * 30
    # the tray and the board they are tapped on (static/js/tap-setup.js writes the lists)
    taps = find(page, "div", id="th-setup-taps")
    slots = find_all(taps, "button", data_slot="")
    assert [attr(slot, "data-fields") for slot in slots] == [f"square-{piece}" for piece in rows]
    assert len(find_all(taps, "button", data_cell=ANY)) == 64
    assert find_all(page, "select", id="square-green-2", name="square-green-2")
    assert "our convention" in text(find(page, "div", id="card-convention"))


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
    assert message in text(find(dom(response), "p", id="setup-error"))
    assert not Play.objects.exists()


def test_a_refused_setup_keeps_what_was_chosen(member_client, night, duo):
    form = setup_form(duo, **{"square-red-3": "h1", "red-green-2": "5H"})
    page = dom(member_client.post(reverse("play-setup", args=[night.pk]), form))
    assert text(find(page, "p", id="setup-error"))
    assert chosen(page, "square-red-3") == ["h1"] and chosen(page, "red-green-2") == ["5H"]
    # the JSON box was not used: it comes back empty, as it was
    assert text(find(page, "textarea", name="setup_json")) == ""


# Moves ------------------------------------------------------------------------------------------


def test_play_page_draws_the_stacks_north_up_and_offers_only_top_pieces(member_client, three_high):
    page = dom(member_client.get(reverse("play", args=[three_high.pk])))
    assert squares(page, class_="th-square") == [
        f"{file}{rank}" for rank in range(8, 0, -1) for file in "abcdefgh"
    ]
    a1 = find(find(page, "div", id="th-board"), None, data_square="a1")
    assert attr(a1, "data-stack") == "red-3,red-2"
    # only the top piece of a stack is offered: on the board, and in the list beside it
    assert (a1.name, attr(a1, "name"), attr(a1, "value")) == ("button", "piece", "red-2")
    pieces = {attr(button, "value") for button in find_all(page, "button", name="piece")}
    assert "red-2" in pieces and "red-3" not in pieces
    assert text(find(page, "dd", id="th-turn")) == "Ana"
    assert text(find(page, "dd", id="th-pile")) == "22 cards"
    assert text(find(page, "dd", id="th-hands")) == "Ana 5 · Ben 5"


def test_each_tap_keeps_a_draft_and_stores_nothing(member_client, three_high):
    response = tap(member_client, three_high, card="6S")
    page = dom(response)
    assert page.name == "div" and attr(page, "id") == "play-main"  # the fragment, not the page
    assert draft_of(response) == {"card": "6S"}
    # the card picker folds once a card is chosen: one tap opens it again
    change = find(find(page, "div", id="th-choice"), "button", id="th-change-card")
    assert (attr(change, "name"), attr(change, "value")) == ("clear", "card")
    assert not find_all(page, None, name="card")

    response = tap(member_client, three_high, draft={"card": "6S"}, side="south")
    assert draft_of(response) == {"card": "6S", "side": "south"}
    red_1 = find(dom(response), "button", class_="th-piece-choice", data_piece="red-1")
    assert text(find(red_1, "span", class_="th-where")) == "a6 → a1"

    response = tap(member_client, three_high, draft={"card": "6S", "side": "south"}, piece="red-1")
    page = dom(response)
    assert draft_of(response) == {"card": "6S", "side": "south", "piece": "red-1"}
    preview = find(page, "div", id="th-preview")
    assert "the small red piece goes from a6 to a1" in text(preview)
    assert find_all(preview, "button", id="confirm-move", name="confirm")
    assert squares(page, class_="th-landing") == ["a1"]
    assert Move.objects.count() == 0


def test_a_tap_without_htmx_shows_the_whole_page(member_client, three_high):
    response = tap(member_client, three_high, htmx=False, side="north")
    assert response.status_code == 200 and dom(response).name == "html"
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
    page = dom(response)
    assert text(find(page, "dd", id="th-turn")) == "Ben"
    played = find(page, "button", name="card", value="6S")
    assert find_all(page, "button", name="card", disabled=None) == [played]
    assert classes(played) == {"th-card"}
    assert squares(page, class_="th-has-tree") == ["a1"]  # red-1 on red-2 on red-3


def test_confirm_before_the_move_is_complete_asks_for_the_rest(member_client, three_high):
    response = tap(member_client, three_high, draft={"card": "6S"}, confirm="1")
    assert "Choose a card, a side and a piece" in error_of(response)
    assert Move.objects.count() == 0


def test_illegal_move_shows_the_referees_message_and_stores_nothing(member_client, three_high):
    draft = {"card": "4S", "side": "east", "piece": "red-2"}
    response = tap(member_client, three_high, draft=draft, confirm="1")
    assert error_of(response).startswith(
        "Turn 1: the medium red piece cannot stop on the medium yellow piece at c1"
    )
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
    assert message in error_of(response)
    assert Move.objects.count() == 0


def test_cannot_play_loses_the_game_on_a_second_tap(member_client, three_high):
    # The first tap stores nothing: the button changes, and asks for a second (issue 30).
    response = tap(member_client, three_high, cannot_play="ask")
    assert not Move.objects.exists()
    page = dom(response)
    assert not find_all(page, "button", id="cannot-play")
    confirm = find(page, "button", id="cannot-play-confirm")
    assert (attr(confirm, "name"), attr(confirm, "value")) == ("cannot_play", "confirm")
    assert text(confirm) == "Tap again: Ana cannot play — game lost"
    assert find(page, "button", id="cannot-play-cancel")
    response = tap(member_client, three_high, draft=draft_of(response), cannot_play="confirm")
    assert Move.objects.get().data == {"player": "Ana", "cannot_play": True}
    outcome = find(find(dom(response), "dl", id="th-facts"), "div", id="th-outcome")
    assert classes(outcome) == {"th-outcome", "th-outcome-lost"}
    assert text(find(outcome, "dd")) == "Lost — Ana could not play a card."
    # said as bad news, not in the green of good news (issue 33)
    (said,) = find_all(dom(response), "p", class_="event")
    assert text(said) == "The game is lost." and "bad-news" in classes(said)


def test_the_move_json_fallback_still_works(member_client, three_high):
    tap(member_client, three_high, move_json=json.dumps(GAME["moves"][0]))
    assert Move.objects.get().data == GAME["moves"][0]


def test_the_sheet_after_a_won_game_shows_trees_pile_hands_and_outcome(member_client, three_high):
    for seq, move in enumerate(GAME["moves"]):
        services.record_move(play=three_high, move=move, version=seq)
    page = dom(member_client.get(reverse("play-sheet", args=[three_high.pk])))
    sheet = find(page, "table", id="th-sheet")
    outcome = find(sheet, "td", id="th-sheet-outcome")
    assert text(outcome) == "Won — All five trees stand." and text(find(outcome, "strong")) == "Won"
    trees = find(sheet, "td", id="th-sheet-trees")
    assert len(find_all(trees, "li", class_="th-standing")) == 5
    assert text(trees).endswith("5 trees standing")
    assert text(find(sheet, "td", id="th-sheet-pile")) == "22 cards left to draw"
    assert text(find(sheet, "td", id="th-sheet-hands")) == "Ana: 2 · Ben: 3"
    played = [text(card) for card in find_all(find(sheet, "td", id="th-sheet-played"), "span")]
    assert "6♠" in played and "4♦" in played


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
    said = text(find(dom(html), "div", id="th-empty-hand"))
    assert said == "Ana has no card left: record that they cannot play."


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


def test_a_board_drawn_from_the_referees_details_alone_counts_the_pile_and_says_why_it_ended():
    state = ThreeHigh.start(["Ana", "Ben"], GAME["setup"])
    details = Judgement(game="three-high", status="in_progress", details=state.details())
    context = ui_for("three-high").move_context(details, ["Ana", "Ben"], None)
    assert context["th_pile"] == state.details()["pile"] and context["th_pile"] > 0
    won = judge({"format": "gamelog/1", **GAME})
    details = Judgement(game="three-high", status="finished", details=won.details)
    context = ui_for("three-high").move_context(details, ["Ana", "Ben"], None)
    assert context["th_reason"] == "All five trees stand."


def test_no_move_is_read_once_the_game_is_over():
    won = judge({"format": "gamelog/1", **GAME})
    with pytest.raises(FormError) as refused:
        ui_for("three-high").parse_move(QueryDict("card=6S"), won, ["Ana", "Ben"])
    assert refused.value.message == "No move can be entered: the game is over."


def test_a_card_in_a_refusal_is_said_as_the_card_shows():
    first = GAME["moves"][0]
    log = {"format": "gamelog/1", **GAME, "moves": [first, {**GAME["moves"][1], "card": "6s"}]}
    said = verdicts.explain(judge(log), where=False)
    assert said == "6♠ has already been played: no card is played twice."


def test_a_refused_move_keeps_the_card_side_and_piece(member_client, three_high):
    """The referee refuses a move: its choices stay, so changing one is one tap."""
    move = {"card": "6S", "side": "north", "piece": "blue-2"}  # blue-2 cannot stop on blue-1
    response = None
    for key, value in move.items():
        response = tap(
            member_client, three_high, draft=response and draft_of(response), **{key: value}
        )
    refused = tap(member_client, three_high, draft=draft_of(response), confirm="1")
    assert "cannot stop on the small blue piece" in error_of(refused)
    assert draft_of(refused) == move


def test_the_piece_moved_last_is_marked(member_client, three_high):
    services.record_move(play=three_high, move=GAME["moves"][0])
    page = dom(member_client.get(reverse("play", args=[three_high.pk])))
    # the first move: the small red piece, from a6 onto the stack at a1
    assert squares(page, class_="last-move") == ["a1"]


def test_change_the_card_opens_its_picker_again_and_keeps_the_side(member_client, three_high):
    response = tap(member_client, three_high, draft={"card": "6S", "side": "south"}, clear="card")
    assert draft_of(response) == {"side": "south"}
    assert find_all(find(dom(response), "fieldset", class_="th-cards"), "button", value="6S")


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


def test_a_piece_that_is_no_piece_is_refused_saying_so(member_client, three_high):
    response = tap(member_client, three_high, piece="zebra-9")
    assert text(find(dom(response), "p", id="move-error")) == "That is not a piece."
    assert not Move.objects.exists()


def test_a_move_off_the_board_is_told_as_leaving_it(three_high):
    """Where the referee's options say a piece would leave the board (null), the move log says
    it leaves the board, by the side named as the board names it."""
    log = {"format": "gamelog/1", "game": "three-high", "players": ["Ana", "Ben"]}
    state = judge({**log, "setup": three_high.setup, "moves": []}).state
    card, sides = next(
        (card, sides)
        for card, sides in state.options()["cards"].items()
        if any(None in pieces.values() for pieces in sides.values())
    )
    side, piece = next(
        (side, piece)
        for side, pieces in sides.items()
        for piece, to in pieces.items()
        if to is None
    )
    ui = ui_for("three-high")
    plan = state.check({"player": "Ana", "card": card, "side": side, "piece": piece})
    told = ui.describe_move(state, plan)
    assert (
        told.endswith("leaves the board") and f"by the {ui.word('side', side, state)} side" in told
    )
    assert ui.word("side", side, state) == side  # in English the side's own name


def test_taking_back_cannot_play_keeps_playing(member_client, three_high):
    asked = tap(member_client, three_high, cannot_play="ask")
    response = tap(member_client, three_high, draft=draft_of(asked), reset="1")
    assert find(dom(response), "button", id="cannot-play") and not Move.objects.exists()


def a_blocked_move(state: ThreeHigh) -> dict:
    """The first card, side and top piece that would stop the piece on one it may not."""
    for card in state.options()["cards"]:
        for side in ("north", "south", "east", "west"):
            for piece in state.top_pieces().values():
                try:
                    state.check({"player": "Ana", "card": card, "side": side, "piece": piece})
                except IllegalMove as exc:
                    if exc.verdict.id == "three-high.cannot_stop":
                        return {"card": card, "side": side, "piece": piece}
    raise LookupError("no blocked move")


def test_the_preview_says_illegal_when_the_referee_would_refuse(member_client, three_high):
    """The issue's case: a piece that would stop on a piece it may not stop on is previewed as
    illegal, with the referee's reason, and offers nothing to enter (issue 30)."""
    draft = a_blocked_move(judge({**GAME, "moves": []}).state)
    for language, word in (("en", "Illegal:"), ("fr", "Illégal :")):
        member_client.cookies["django_language"] = language
        preview = find(dom(tap(member_client, three_high, draft=draft)), "div", id="th-preview")
        assert text(preview).startswith(word), text(preview)
        assert "cannot stop" in text(preview) or "ne peut pas" in text(preview)
        assert not find_all(preview, "button", id="confirm-move")


def test_each_square_card_and_top_piece_is_drawn_once_for_its_values_and_the_language(
    monkeypatch,
):
    """The board's squares, the card picker's cards and the top pieces are drawn in Python
    (games.ui.three_high.drawn, issue 32): a second move form on the same board draws none of
    them again, a move form in French draws each again."""
    from django.utils import translation

    from games.ui import _drawing as drawing
    from games.ui.three_high import drawn

    monkeypatch.setattr(drawing, "CHECK", False)  # kept as the site keeps them
    drawings = []
    for kept in (drawn._square, drawn._card, drawn._top):
        kept._kept.clear()
        monkeypatch.setattr(
            kept, "_draw", lambda *values, draw=kept._draw: drawings.append(values) or draw(*values)
        )
    judgement = judge({**GAME, "moves": GAME["moves"][:3]})
    draft = Draft({"card": GAME["moves"][3]["card"], "side": GAME["moves"][3]["side"]})

    def move_form():
        context = ui_for("three-high").move_context(judgement, ["Ana", "Ben"], draft)
        board = str(drawn.draw_board(context["th_ranks"], True, None))
        cards = str(drawn.draw_cards(context["th_card_columns"], None))
        tops = str(drawn.draw_tops(context["th_tops"], None))
        return board, cards, tops, len(context["th_tops"])

    board, cards, tops, top_count = move_form()
    pieces = 64 + 32 + top_count
    assert len(drawings) == pieces
    assert move_form() == (board, cards, tops, top_count) and len(drawings) == pieces
    with translation.override("fr"):
        french = move_form()
    assert len(drawings) == 2 * pieces
    # each in the page's language, looked up once a rank of the board, once for the cards and
    # once for the pieces (drawn outside a page: inside one, its drawing's is taken, _drawing._now)
    looked_up = []
    monkeypatch.setattr(drawing, "get_language", lambda: looked_up.append(1) or "en")
    move_form()
    assert len(looked_up) == 8 + 1 + 1
    # each in the page's language: the cards already played say so
    assert cards.count('title="already played"') == 3
    assert french[1].count('title="déjà jouée"') == 3


def test_the_words_drawn_in_python_are_in_the_catalogue():
    """makemessages reads no ``said(...)``: the words the squares, cards and pieces say are
    marked where they are written, so the French catalogue keeps them for that file."""
    from pathlib import Path

    from django.conf import settings

    from games.ui.three_high import drawn

    catalogue = (Path(settings.BASE_DIR) / "locale/fr/LC_MESSAGES/django.po").read_text()
    for entry in catalogue.split("\n\n"):
        if "#: games/ui/three_high/drawn.py" in entry:
            assert 'msgstr ""' not in entry.splitlines()[-1:]
    for message in (drawn.OFF_THE_BOARD, drawn.ALREADY_PLAYED):
        entries = [e for e in catalogue.split("\n\n") if f'\nmsgid "{message}"\n' in f"\n{e}\n"]
        assert len(entries) == 1 and "#: games/ui/three_high/drawn.py" in entries[0], message


def test_the_board_asks_for_trees_only_where_one_may_stand_and_says_the_deck_once(monkeypatch):
    """Issue 32: of the 64 squares, only a stack of three or more, with a tree standing, is
    looked through for a tree; and the card picker's 32 cards are said once for the language,
    not once a move."""
    from games.ui.three_high import board, words

    judgement = judge({**GAME, "moves": []})
    assert not judgement.state.trees()
    asked = []
    tree_in = board._tree_in
    monkeypatch.setattr(board, "_tree_in", lambda *args: asked.append(args) or tree_in(*args))
    card_info = words.Words.card_info
    monkeypatch.setattr(
        words.Words, "card_info", lambda self, code: asked.append(code) or card_info(self, code)
    )
    ui_for("three-high").move_context(judgement, ["Ana", "Ben"], None)  # the deck said once
    asked.clear()
    context = ui_for("three-high").move_context(judgement, ["Ana", "Ben"], None)
    assert asked == []
    assert [card["code"] for card in context["th_card_columns"][0]["cards"]][:2] == ["AS", "2S"]
    assert sum(cell["tree"] for rank in context["th_ranks"] for cell in rank) == 0
