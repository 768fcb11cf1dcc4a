"""Thricewise at the table: the starting grid form, the reveal, placements tap by tap."""

import json

import pytest
from django.urls import reverse
from django.utils import translation

from games import jinja, services
from games.models import Move, Play
from games.ui import _drawing as drawing
from games.ui import ui_for
from games.ui.thricewise import grid_cells, table
from games.ui.thricewise.board import card_info
from referee import judge
from referee.thricewise import CARD_NAMES
from tests.dom import attr, chosen, classes, dom, find, find_all, text
from tests.examples import EXAMPLES

GAME_2 = json.loads((EXAMPLES / "thricewise-2.json").read_text())

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
GRID = {"grid": [
    {"card": "The Huntress", "at": [0, 0]},
    {"card": "The Bard", "at": [1, 0]},
    {"card": "The Sea", "at": [0, 1]},
    {"card": "The End", "at": [1, 1]},
]}  # fmt: skip


@pytest.fixture
def duel(night, players):
    """Ana and Ben on a 2×2 grid of Crowns (columns 0–1, rows 0–1)."""
    return services.start_play(night=night, game="thricewise", players=players[:2], setup=GRID)


def setup_url(night, players):
    seats = "&".join(f"seat={p.pk}" for p in players)
    return f"{reverse('play-setup', args=[night.pk])}?game=thricewise&{seats}"


def tap(client, play, data, *, draft=None, htmx=True):
    body = {"version": play.moves.count(), "draft": json.dumps(draft) if draft else ""}
    body.update(data)
    return client.post(reverse("play-move", args=[play.pk]), body, headers=HTMX if htmx else {})


def hidden(node) -> bool:
    return "hidden" in dict(node.attributes)


def draft_of(response) -> dict:
    """The draft the page carries in its hidden field."""
    raw = attr(find(find(dom(response), "form", id="move-form"), "input", name="draft"), "value")
    return json.loads(raw) if raw else {}


# --- Setup ----------------------------------------------------------------------------------


def test_setup_offers_an_empty_2x2_grid_and_the_deck_to_tap(member_client, night, players):
    response = member_client.get(setup_url(night, players[:2]))
    page = dom(response)
    assert response.status_code == 200
    cells = [attr(select, "name") for select in find_all(page, "select")]
    assert cells == ["cell_0", "cell_1", "cell_2", "cell_3"]
    # The cards drawn are tapped in: no grid is prefilled that would have to be undone first.
    assert [c["chosen"] for c in response.context["setup_cells"]] == ["", "", "", ""]
    assert (
        response.context["deck"][0]["name"] == "Ace of Moons"
        and len(response.context["deck"]) == 36
    )
    taps = find(page, "div", id="tw-setup-taps")
    deck = [attr(button, "data-cell") for button in find_all(taps, "button", class_="tw-pick")]
    assert len(deck) == 36 and deck[0] == "Ace of Moons"
    assert find_all(page, "script", src="/static/js/tap-setup.js")
    assert len(find_all(taps, "button", data_slot="")) == 4


def test_the_setup_page_opens_with_an_empty_json_box(member_client, night, players):
    page = dom(member_client.get(setup_url(night, players[:2])))
    assert find(page, "textarea", id="setup-json").children == []


@pytest.mark.parametrize("seats", [2, 3])
def test_the_default_setup_is_a_grid_the_referee_accepts(seats):
    names = ["Ana", "Ben", "Chloé"][:seats]
    setup = ui_for("thricewise").default_setup(names)
    log = {"format": "gamelog/1", "game": "thricewise", "players": names, "setup": setup}
    assert judge({**log, "moves": []}).status == "in_progress"
    assert [entry["at"] for entry in setup["grid"]] == [list(cell) for cell in grid_cells(names)]


def test_setup_offers_a_3x2_grid_for_three_players(member_client, night, players):
    response = member_client.get(setup_url(night, players))
    assert [(c["x"], c["y"]) for c in response.context["setup_cells"]] == [
        (0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1),
    ]  # fmt: skip


def test_setup_cards_become_the_setup_json(member_client, night, players):
    cards = ["The Huntress", "The Bard", "The Sea", "The End"]
    data = {"game": "thricewise", "seat": [p.pk for p in players[:2]]}
    data.update({f"cell_{i}": card for i, card in enumerate(cards)})
    response = member_client.post(reverse("play-setup", args=[night.pk]), data)
    play = Play.objects.get()
    assert response.status_code == 302
    assert play.setup == GRID


@pytest.mark.parametrize(
    "cells, message",
    [
        (["The Huntress", "The Huntress", "The Sea", "The End"], "The Huntress is chosen for"),
        (["The Huntress", "The Bard", "The Sea", "The Excuse"], "Cell 4: choose a card of"),
        (["The Huntress", "The Bard", "The Sea", ""], "Choose the card of cell 4"),
    ],
)  # fmt: skip
def test_a_bad_setup_grid_gets_a_message_and_stores_nothing(
    member_client, night, players, cells, message
):
    data = {"game": "thricewise", "seat": [p.pk for p in players[:2]]}
    data.update({f"cell_{i}": card for i, card in enumerate(cells)})
    response = member_client.post(reverse("play-setup", args=[night.pk]), data)
    assert response.status_code == 422
    page = dom(response)
    assert message in text(find(page, "p", id="setup-error"))
    assert not Play.objects.exists()
    # The form comes back with the cards as chosen.
    assert [c["chosen"] for c in response.context["setup_cells"]] == cells
    # (as the selects show them: the first three, a card each of the deck)
    assert [chosen(page, f"cell_{n}") for n in range(3)] == [[card] for card in cells[:3]]


def test_a_setup_cell_in_a_refusal_is_said_as_the_referee_gives_it(member_client, night, players):
    """A setup has no grid yet to letter its cells: the cell stays as the log writes it."""
    grid = [{"card": card, "at": [0, 0]} for card in ("The Huntress", "The Bard")]
    grid += [{"card": "The Sea", "at": [0, 1]}, {"card": "The End", "at": [1, 1]}]
    data = {"game": "thricewise", "seat": [p.pk for p in players[:2]]}
    response = member_client.post(
        reverse("play-setup", args=[night.pk]), {**data, "setup_json": json.dumps({"grid": grid})}
    )
    assert response.status_code == 422
    error = text(find(dom(response), None, id="setup-error"))
    assert "The Bard and The Huntress are both at [0, 0] in the setup grid." in error


def test_the_setup_json_fallback_is_judged_by_the_referee(member_client, night, players):
    data = {"game": "thricewise", "seat": [p.pk for p in players[:2]], "setup_json": '{"grid": []}'}
    response = member_client.post(reverse("play-setup", args=[night.pk]), data)
    assert response.status_code == 422
    assert "holds 4 cards" in text(find(dom(response), "p", id="setup-error"))
    assert not Play.objects.exists()


# --- The board ------------------------------------------------------------------------------


def test_the_board_shows_the_grid_and_offers_only_unseen_cards(member_client, duel):
    response = member_client.get(reverse("play", args=[duel.pk]))
    page = dom(response)
    assert find_all(find(page, "head"), "link", href="/static/css/games/thricewise.css")
    grid = find(page, "div", id="tw-grid")
    huntress = find(grid, "div", data_card="The Huntress")
    assert classes(huntress) == {"tw-cell", "tw-card", "suit-moons", "tw-setup-card"}
    unseen = response.context["tw_reveal"]["cards"]
    assert len(unseen) == 32 and "The Huntress" not in [c["name"] for c in unseen]
    picks = [attr(button, "value") for button in find_all(page, "button", name="pick")]
    assert picks == [c["name"] for c in unseen] and "The Sailor" in picks
    assert response.context["tw_reveal"]["next"] == "Ana"
    # No cell to tap before the reveal: the cells a card of this turn may reach (within 6 of
    # the cards) are drawn for the phone to offer (games.ui.Builder), all disabled, and those
    # beyond the cards hidden as before.
    cells = find_all(grid, "button")
    assert len(cells) == 10 * 10 - 4
    assert cells == find_all(grid, "button", type="button", disabled=None, hidden=None)


def test_a_tapped_card_goes_to_the_next_player_and_a_second_tap_takes_it_back(member_client, duel):
    response = tap(member_client, duel, {"pick": "The Sailor"})
    assert draft_of(response) == {"picked": {"0": "The Sailor"}}
    assert response.context["tw_reveal"]["next"] == "Ben"
    sailor = find(dom(response), "button", name="pick", value="The Sailor")
    assert attr(sailor, "aria-pressed") == "true" and "tw-picked" in classes(sailor)
    # named by its hidden words, which say who revealed it (its face is hidden from them)
    name = next(span for span in find_all(sailor, "span") if "tw-sr" in classes(span))
    assert text(name).startswith("The Sailor") and "revealed by Ana" in text(name)
    assert attr(sailor, "aria-label") is None
    assert find_all(dom(response), "button", name="pick", aria_pressed="true") == [sailor]
    response = tap(member_client, duel, {"pick": "The Sailor"}, draft=draft_of(response))
    assert draft_of(response) == {"picked": {}}
    assert response.context["tw_reveal"]["next"] == "Ana"
    assert not Move.objects.exists()


def test_the_last_card_revealed_moves_on_to_the_placements(member_client, duel):
    response = tap(member_client, duel, {"pick": "The Sailor"}, draft={"picked": {"1": "The Mill"}})
    assert draft_of(response) == {
        "reveal": {"Ana": "The Sailor", "Ben": "The Mill"},
        "place": [],
        "done": [],
    }
    assert response.context["tw_draft"]["placer"] == "Ana"  # the Sailor (4) before the Mill (6)
    assert response.context["tw_draft"]["ready"] == "The Sailor"
    # A card taken back from the reveal: back to the picker, the other card kept.
    response = tap(member_client, duel, {"unreveal": "0"}, draft=draft_of(response))
    assert draft_of(response) == {"picked": {"1": "The Mill"}}
    assert not Move.objects.exists()


@pytest.mark.parametrize(
    "draft, pick, message",
    [
        ({}, "The Huntress", "The Huntress cannot be revealed: it has already been seen."),
        ({"picked": {"0": "The Sea"}}, "The Mill", "The form was damaged"),
        ({"picked": {"0": "The Mill", "1": "The Mill"}}, "The Pact", "The form was damaged"),
        ({"picked": {"7": "The Mill"}}, "The Pact", "The form was damaged"),
    ],
)
def test_a_bad_pick_gets_a_message_and_stores_nothing(member_client, duel, draft, pick, message):
    response = tap(member_client, duel, {"pick": pick}, draft=draft)
    assert message in text(find(dom(response), "p", id="move-error"))
    assert not Move.objects.exists()


def test_the_board_says_what_each_player_scored_in_the_last_turn(member_client, night, players):
    play = services.start_play(
        night=night, game="thricewise", players=players[:2], setup=GAME_2["setup"]
    )
    for move in GAME_2["moves"][:2]:  # the second turn places cards (the first: all tied)
        services.record_move(play=play, move=move)
    gained = judge({**GAME_2, "moves": GAME_2["moves"][:2]}).state.turn_points[-1]
    page = dom(member_client.get(reverse("play", args=[play.pk])))
    said = [text(span) for span in find_all(find(page, "p", id="tw-last-turn"), "span")]
    assert said == [f"{player} +{points}" for player, points in gained.items()]


# --- A turn, tap by tap ---------------------------------------------------------------------


def test_the_reveal_starts_a_draft_with_the_first_placer(member_client, duel):
    response = tap(member_client, duel, {"reveal_0": "The Sailor", "reveal_1": "The Author"})
    assert response.status_code == 200
    page = dom(response)
    assert page.name == "div" and attr(page, "id") == "play-main"  # the fragment, not the page
    assert draft_of(response) == {
        "reveal": {"Ana": "The Sailor", "Ben": "The Author"},
        "place": [],
        "done": [],
    }
    assert response.context["tw_draft"]["placer"] == "Ben"  # the 2 goes before the 4
    corner = find(find(page, "div", id="tw-grid"), "button", name="at", value="-1,-1")
    assert attr(corner, "form") == "move-form" and attr(corner, "type") == "submit"
    assert not Move.objects.exists()


def test_a_full_page_draft_step_works_without_javascript(member_client, duel):
    response = tap(
        member_client, duel, {"reveal_0": "The Sailor", "reveal_1": "The Author"}, htmx=False
    )
    assert response.status_code == 200 and dom(response).name == "html"
    assert response.context["tw_draft"]["placer"] == "Ben"


def test_a_placement_updates_the_legal_cells(member_client, duel):
    draft = {"reveal": {"Ana": "The Sailor", "Ben": "The Author"}, "place": [], "done": []}
    response = tap(member_client, duel, {"card": "The Author", "at": "2,0"}, draft=draft)
    assert draft_of(response)["place"] == [{"player": "Ben", "card": "The Author", "at": [2, 0]}]
    assert draft_of(response)["done"] == ["Ben"]
    assert response.context["tw_draft"]["placer"] == "Ana"
    grid = find(dom(response), "div", id="tw-grid")
    assert find_all(grid, "button", name="at", value="3,0")  # next to the pending card
    (pending,) = find_all(grid, "div", class_="tw-pending")
    assert (attr(pending, "data-at"), attr(pending, "data-card")) == ("2,0", "The Author")
    assert not Move.objects.exists()


def test_the_reveal_says_who_is_placing_now_and_who_has_placed(member_client, duel):
    draft = {"reveal": {"Ana": "The Sailor", "Ben": "The Author"}, "place": [], "done": []}
    page = dom(tap(member_client, duel, {"card": "The Author", "at": "2,0"}, draft=draft))
    reveals = find(page, "ul", id="tw-reveals")
    assert [(attr(li, "data-player"), attr(li, "class")) for li in find_all(reveals, "li")] == [
        ("Ana", "tw-current"),
        ("Ben", "tw-done"),
    ]
    assert text(find(reveals, "li", data_player="Ana")).endswith("placing now")
    assert text(find(reveals, "span", class_="tw-placed")) == "placed: The Author"


def test_the_last_placement_waits_for_the_turn_to_be_entered(member_client, duel):
    draft = {
        "reveal": {"Ana": "The Sailor", "Ben": "The Author"},
        "place": [{"player": "Ben", "card": "The Author", "at": [2, 0]}],
        "done": ["Ben"],
    }
    response = tap(member_client, duel, {"card": "The Sailor", "at": "3,0"}, draft=draft)
    assert response.status_code == 200
    assert not Move.objects.exists()
    enter = find(find(dom(response), "form", id="move-form"), "button", id="enter-turn")
    assert text(enter) == "Enter turn 1"
    assert (attr(enter, "name"), attr(enter, "value")) == ("enter", "1")
    response = tap(member_client, duel, {"enter": "1"}, draft=draft_of(response))
    move = Move.objects.get()
    assert move.data == {
        "reveal": {"Ana": "The Sailor", "Ben": "The Author"},
        "place": [
            {"player": "Ben", "card": "The Author", "at": [2, 0]},
            {"player": "Ana", "card": "The Sailor", "at": [3, 0]},
        ],
    }
    assert draft_of(response) == {}
    assert response.context["tw_sheet"]["rows"][0]["played"]


def test_a_tied_reveal_with_nobody_placing_is_entered_in_one_tap(member_client, duel):
    response = tap(member_client, duel, {"reveal_0": "The Sailor", "reveal_1": "The Mountain"})
    assert response.context["tw_draft"]["placer"] is None
    assert response.context["tw_draft"]["may_enter"]
    tap(member_client, duel, {"enter": "1"}, draft=draft_of(response))
    move = Move.objects.get()
    assert move.data == {"reveal": {"Ana": "The Sailor", "Ben": "The Mountain"}, "place": []}
    response = member_client.get(reverse("play", args=[duel.pk]))
    aside = response.context["tw_set_aside"]
    assert [c["name"] for c in aside[0]["cards"]] == ["The Sailor"]


def test_set_aside_cards_are_offered_beside_the_next_players_card(member_client, duel):
    response = tap(member_client, duel, {"reveal_0": "The Sailor", "reveal_1": "The Mountain"})
    tap(member_client, duel, {"enter": "1"}, draft=draft_of(response))
    draft = {"reveal": {"Ana": "The Author", "Ben": "The Castle"}, "place": [], "done": []}
    response = tap(member_client, duel, {"at": "2,0"}, draft=draft)  # the card ready: the Author
    # Ana placed her revealed card and still holds The Sailor aside: she may go on, but the
    # card ready for the next cell is Ben's (most players keep their set-aside cards).
    assert response.context["tw_draft"]["placer"] == "Ana"
    assert [c["name"] for c in response.context["tw_draft"]["cards"]] == [
        "The Sailor",
        "The Castle",
    ]
    assert response.context["tw_draft"]["ready"] == "The Castle"
    assert chosen(find(dom(response), "fieldset", id="tw-place"), "card") == ["The Castle"]
    response = tap(
        member_client, duel, {"card": "The Castle", "at": "-1,0"}, draft=draft_of(response)
    )
    # Ana is done; Ben, the last, keeps The Mountain aside for later: "Enter turn 2".
    assert draft_of(response)["done"] == ["Ana"]
    assert [c["name"] for c in response.context["tw_draft"]["cards"]] == ["The Mountain"]
    assert response.context["tw_draft"]["may_enter"]
    assert Move.objects.count() == 1
    tap(member_client, duel, {"enter": "1"}, draft=draft_of(response))
    assert Move.objects.count() == 2
    assert Move.objects.last().data["place"] == [
        {"player": "Ana", "card": "The Author", "at": [2, 0]},
        {"player": "Ben", "card": "The Castle", "at": [-1, 0]},
    ]


def test_a_set_aside_card_can_be_placed_before_the_revealed_one(member_client, duel):
    response = tap(member_client, duel, {"reveal_0": "The Sailor", "reveal_1": "The Mountain"})
    tap(member_client, duel, {"enter": "1"}, draft=draft_of(response))
    draft = {"reveal": {"Ana": "The Author", "Ben": "The Castle"}, "place": [], "done": []}
    response = tap(member_client, duel, {"card": "The Sailor", "at": "2,0"}, draft=draft)
    # the Author must go down first: Ben's card is not offered yet
    assert [c["name"] for c in response.context["tw_draft"]["cards"]] == ["The Author"]
    response = tap(
        member_client, duel, {"card": "The Author", "at": "2,1"}, draft=draft_of(response)
    )
    assert response.context["tw_draft"]["placer"] == "Ben"  # nothing left: Ana is done


# --- Bad taps -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, message",
    [
        ({"reveal_0": "The Sailor"}, "Choose the card Ben revealed."),
        ({"reveal_0": "The Sea", "reveal_1": "The Author"}, "Ana cannot reveal The Sea"),
        ({"reveal_0": "The Author", "reveal_1": "The Author"}, "cannot both reveal The Author"),
    ],
)
def test_a_bad_reveal_gets_a_message_and_stores_nothing(member_client, duel, data, message):
    response = tap(member_client, duel, data)
    assert message in text(find(find(dom(response), "div", id="verdict"), "p", id="move-error"))
    assert not Move.objects.exists()


@pytest.mark.parametrize(
    "data, message",
    [
        ({"card": "The Author", "at": "5,5"}, "A card cannot go there"),
        ({"card": "The Author", "at": "x"}, "Tap one of the highlighted cells"),
        ({"card": "The Sailor", "at": "2,0"}, "Ben cannot place that card now"),
    ],
)
def test_a_bad_placement_gets_a_message_and_stores_nothing(member_client, duel, data, message):
    draft = {"reveal": {"Ana": "The Sailor", "Ben": "The Author"}, "place": [], "done": []}
    response = tap(member_client, duel, data, draft=draft)
    assert message in text(find(dom(response), "p", id="move-error"))
    assert not Move.objects.exists()


@pytest.mark.parametrize(
    "draft",
    [
        {"reveal": {"Ana": "The Sea", "Ben": "The Author"}, "place": []},
        {"reveal": {"Ana": "The Sailor", "Ben": "The Author"}, "place": "nope"},
        {"reveal": {"Ana": "The Sailor", "Ben": "The Author"}, "place": [{"player": "Zoé"}]},
        {"reveal": {"Ana": "The Sailor", "Ben": "The Author"}, "place": ["The Sailor"]},
        {
            "reveal": {"Ana": "The Sailor", "Ben": "The Author"},
            "place": [{"player": "Zoé", "card": "The Sailor", "at": [2, 0]}],
        },
        {"reveal": ["The Sailor"]},
    ],
)
def test_a_tampered_draft_is_refused(member_client, duel, draft):
    response = tap(member_client, duel, {"card": "The Author", "at": "2,0"}, draft=draft)
    assert "The form was damaged" in text(find(dom(response), "p", id="move-error"))
    assert not Move.objects.exists()


def test_the_referee_refuses_an_illegal_json_move_and_nothing_is_stored(member_client, duel):
    move = {"reveal": {"Ana": "The Sailor", "Ben": "The Author"}, "place": []}
    response = tap(member_client, duel, {"move_json": json.dumps(move)})
    assert "Ben must place The Author this turn" in text(find(dom(response), "p", id="move-error"))
    assert not Move.objects.exists()


def test_a_cell_in_a_refused_move_is_said_as_the_board_labels_it(member_client, duel):
    place = [
        {"player": "Ben", "card": "The Author", "at": [1, 1]},  # The End is at F6
        {"player": "Ana", "card": "The Sailor", "at": [2, 0]},
    ]
    move = {"reveal": {"Ana": "The Sailor", "Ben": "The Author"}, "place": place}
    page = dom(tap(member_client, duel, {"move_json": json.dumps(move)}))
    assert "The Author cannot go at F6: The End is already there" in text(
        find(page, None, id="move-error")
    )


def test_start_over_drops_the_draft(member_client, duel):
    draft = {"reveal": {"Ana": "The Sailor", "Ben": "The Author"}, "place": [], "done": []}
    response = tap(member_client, duel, {"reset": "1"}, draft=draft)
    assert draft_of(response) == {} and "tw_reveal" in response.context


# --- The score sheet ------------------------------------------------------------------------


def test_the_sheet_shows_points_turn_by_turn_with_totals(member_client, night, players):
    # The first two turns of tests/fixtures/examples/thricewise-2 (its third turn is illegal).
    play = services.start_play(
        night=night, game="thricewise", players=players[:2], setup=GAME_2["setup"]
    )
    for move in GAME_2["moves"][:2]:
        services.record_move(play=play, move=move)
    response = member_client.get(reverse("play-sheet", args=[play.pk]))
    assert response.status_code == 200
    sheet = response.context["tw_sheet"]
    assert sheet["totals"] == {"Ana": 2, "Ben": 7}
    assert len(sheet["rows"]) == 16 and [r["played"] for r in sheet["rows"][:3]] == [
        True,
        True,
        False,
    ]
    turn_2 = sheet["rows"][1]["cells"]
    assert [{"points": c["points"], "cards": c["cards"]} for c in turn_2] == [
        {"points": 2, "cards": ["The Sailor", "The Forest"]},
        {"points": 7, "cards": ["The Castle"]},
    ]
    # why it scored, card by card (tests/views/test_why_scored.py shows it on the pages)
    assert [reason.text for reason in turn_2[0]["why"]] == [
        "The Sailor at G6: no points",
        "The Forest at G5: +2",
    ]
    sheet = find(dom(response), None, id="tw-sheet")
    assert "The Sailor, The Forest" in text(sheet)


def test_a_refused_reveal_keeps_the_cards_picked(member_client, duel):
    """Two players revealing one card: the message, and the first pick kept; Ben's card is the
    one tap left to make."""
    response = tap(member_client, duel, {"reveal_0": "The Sailor", "reveal_1": "The Sailor"})
    error = text(find(dom(response), "p", id="move-error"))
    assert "Ana and Ben cannot both reveal The Sailor." in error
    assert draft_of(response) == {"picked": {"0": "The Sailor"}}
    assert response.context["tw_reveal"]["next"] == "Ben"
    response = tap(member_client, duel, {"pick": "The Mill"}, draft=draft_of(response))
    assert draft_of(response)["reveal"] == {"Ana": "The Sailor", "Ben": "The Mill"}


def test_a_turn_scored_is_said_next_to_the_controls(member_client, duel):
    response = tap(member_client, duel, {"reveal_0": "The Sailor", "reveal_1": "The Author"})
    draft = draft_of(response)
    while True:
        page = dom(response)
        said = find_all(find(page, "div", id="verdict"), "p", class_="event")
        if said:
            break
        if find_all(page, "button", id="enter-turn"):
            response = tap(member_client, duel, {"enter": "1"}, draft=draft)
            continue
        cell = attr(find_all(find(page, "div", id="tw-grid"), "button", name="at")[0], "value")
        response = tap(member_client, duel, {"at": cell}, draft=draft)
        draft = draft_of(response)
    (event,) = said
    assert classes(event) == {"notice", "event"} and attr(event, "role") == "status"
    assert text(event).startswith("Turn 1 scored:")


# --- The board's labels -----------------------------------------------------------------------


def test_the_board_labels_its_columns_and_rows_as_messages_name_cells(member_client, duel):
    """A 2×2 grid at columns 0–1, rows 0–1: the grid may grow 4 columns left of it and 4 rows
    above it, so its cards are E5, F5, E6, F6 for the whole game."""
    response = member_client.get(reverse("play", args=[duel.pk]))
    grid = find(dom(response), "div", id="tw-grid")
    heads = response.context["tw_column_heads"]
    assert [head["letter"] for head in heads if not head["hidden"]] == ["E", "F"]
    assert [row["label"] for row in response.context["tw_rows"] if not row["hidden"]] == [5, 6]
    # the labels of the rows and columns the phone may show this turn are there, hidden
    shown = [label for label in find_all(grid, "span", class_="tw-label") if not hidden(label)]
    columns = [label for label in shown if "tw-column-label" in classes(label)]
    rows = [label for label in shown if "tw-row-label" in classes(label)]
    assert len(find_all(grid, "span", class_="tw-column-label", hidden=None)) == 10 - 2
    assert [text(label) for label in columns] == ["E", "F"]
    assert [text(label) for label in rows] == ["5", "6"]
    assert all(attr(label, "aria-hidden") == "true" for label in columns + rows)
    the_end = find(grid, "div", data_at="1,1")
    assert (attr(the_end, "data-cell"), attr(the_end, "data-card")) == ("F6", "The End")


def test_a_free_cell_is_offered_by_its_label(member_client, duel):
    page = dom(tap(member_client, duel, {"reveal_0": "The Sailor", "reveal_1": "The Author"}))
    # the cell up and left of the grid, (-1, -1)
    corner = find(find(page, "div", id="tw-grid"), "button", name="at", value="-1,-1")
    assert attr(corner, "aria-label") == "Place here: D4"
    assert (attr(corner, "data-at"), attr(corner, "data-cell")) == ("-1,-1", "D4")


def test_entering_a_turn_before_everybody_placed_is_refused_and_keeps_the_turn(member_client, duel):
    draft = {
        "reveal": {"Ana": "The Sailor", "Ben": "The Author"},
        "place": [{"player": "Ben", "card": "The Author", "at": [2, 0]}],
        "done": ["Ben"],
    }
    response = tap(member_client, duel, {"enter": "1"}, draft=draft)
    assert "Ana must first place The Sailor, the card revealed this turn." in text(
        find(dom(response), "p", id="move-error")
    )
    assert not Move.objects.exists()
    draft = {"reveal": {"Ana": "The Sailor", "Ben": "The Author"}, "place": [], "done": []}
    response = tap(member_client, duel, {"card": "The Sailor", "at": "2,0"}, draft=draft)
    # Ana's card before Ben has placed his (the Author, a 2, goes first)
    assert "Ben cannot place that card now" in text(find(dom(response), "p", id="move-error"))

    assert not Move.objects.exists()


# What the tests over every game ask of this one (tests/per_game.py) ---------------------------

REFUSED_MOVE = {
    "en": "Turn 3: Ben's The Battle was set aside this turn (a tied rank): Ben places nothing "
    "this turn.",
    "fr": "Tour 3 : The Battle, révélée par Ben, a été mise de côté à ce tour (rang égal) : Ben "
    "ne pose rien à ce tour.",
}
REFUSED_SETUP = (
    {"grid": []},
    "À 3 joueurs, la grille de départ compte 6 cartes (un rectangle de 3×2 ou 2×3), pas 0.",
)
SAMPLES = {"card": "The Sailor", "cell": (2, -1), "turn": 2, "rank": "Crown"}
SAYS = [
    ("cell", (2, -1), "F4", "F4"),  # the setup's 3×2 grid makes (0, 0) D5
    ("turn", 2, "3", "3"),
    ("rank", "Crown", "Crown", "Couronne"),
]


def first_tap(log: dict) -> dict:
    """The reveal: every player's card."""
    reveal = log["moves"][0]["reveal"]
    return {**{f"reveal_{n}": reveal[p] for n, p in enumerate(log["players"])}, "reveal": "1"}


def test_a_turn_whose_cards_all_tied_is_said_as_such_not_as_plus_zero(
    member_client, club, night, players
):
    """thricewise-1's turn 3: the five revealed cards all tie, all are set aside."""
    game = json.loads((EXAMPLES / "thricewise-1.json").read_text())
    five = players + [services.add_player(club=club, name=name) for name in ["Dev", "Eli"]]
    play = services.start_play(night=night, game="thricewise", players=five, setup=game["setup"])
    for move in game["moves"][:2]:
        services.record_move(play=play, move=move)
    answer = member_client.post(
        reverse("play-move", args=[play.pk]),
        {"json": "1", "move_json": json.dumps(game["moves"][2]), "version": play.version},
        HTTP_HX_REQUEST="true",
    )
    said = "Turn 3: every card tied and was set aside — nobody scores."
    assert said in [text(p) for p in find_all(dom(answer), "p", class_="event")]
    page = dom(member_client.get(reverse("play", args=[play.pk])))
    assert text(find(page, "p", id="tw-last-turn")) == said
    # a turn that placed cards is still told player by player
    services.record_move(play=play, move=game["moves"][3])
    page = dom(member_client.get(reverse("play", args=[play.pk])))
    assert "+" in text(find(page, "p", id="tw-last-turn"))


# --- The table drawn in Python (games.ui.thricewise.table, issue 32) --------------------------


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_cards_face_on_the_board_is_the_one_the_setup_page_draws(language):
    """The setup page draws a card's face with plays/games/thricewise/_card.html; the grid, the
    deck and the set-aside cards draw it in Python: the same face, every card of the deck."""
    with translation.override(language):
        for name in CARD_NAMES:
            card = card_info(name)
            assert str(table.face(card)) == jinja.render(
                "plays/games/thricewise/_card.html", {"card": card}
            )


def test_the_grid_and_the_deck_are_drawn_once_for_their_values(member_client, duel, monkeypatch):
    """A cell of the grid or a card of the deck drawn once is looked up when the same cell or
    card is drawn again: the second drawing of a board draws nothing anew, and is the same."""
    monkeypatch.setattr(drawing, "CHECK", False)  # as the site keeps them (tests/conftest.py)
    drawn = []
    for pieces in (table._card_cell, table._free_cell, table._pick, table._face):

        def draw(*values, _draw=pieces._draw):
            drawn.append(values)
            return _draw(*values)

        monkeypatch.setattr(pieces, "_draw", draw)
        monkeypatch.setattr(pieces, "_kept", {})
    first = member_client.get(reverse("play", args=[duel.pk])).content
    # the 96 cells the phone may reach, the 4 cards of the grid, the 32 unseen cards, and
    # the 36 cards' faces
    assert len(drawn) == 96 + 4 + 32 + 36
    drawn.clear()
    again = member_client.get(reverse("play", args=[duel.pk])).content
    assert drawn == []
    for start, end in ((b'<div class="tw-grid', b"\n</div>"), (b'<div class="tw-deck', b"</div>")):
        assert between(again, start, end) == between(first, start, end)


def between(page: bytes, start: bytes, end: bytes) -> bytes:
    """What a page holds from ``start`` to the first ``end`` after it."""
    at = page.index(start)
    return page[at : page.index(end, at)]
