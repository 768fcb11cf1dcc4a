"""Buntherum at the table: the six starting series, then each turned card and its call in two
taps (the card, then the caller and the series, "Impossible!" or a tie)."""

import json

import pytest
from django.urls import reverse

from games import services
from games.models import Move, Play, Seat
from games.ui.buntherum import DEFAULT_SERIES
from tests.dom import attr, dom, find, find_all, text
from tests.examples import EXAMPLES

EXAMPLE = json.loads((EXAMPLES / "buntherum-1.json").read_text())

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def setup_fields(series=DEFAULT_SERIES):
    fields = {}
    for side, cards in series.items():
        for slot, card in enumerate(cards):
            colour, obj = card.split("-")
            fields[f"s{side}_{slot}_colour"] = colour
            fields[f"s{side}_{slot}_object"] = obj
    return fields


def db_state():
    return (
        list(Move.objects.values_list("play_id", "seq", "undone_at")),
        list(Seat.objects.values_list("score", "rank", "is_winner")),
        list(Play.objects.values_list("status", "details")),
    )


@pytest.fixture
def five(club, players):
    return players + [services.add_player(club=club, name=name) for name in ["Dev", "Eli"]]


@pytest.fixture
def example_play(night, five):
    """The public example buntherum-1 started, no move yet: Ana, Ben, Chloé, Dev and Eli."""
    return services.start_play(night=night, game="buntherum", players=five, setup=EXAMPLE["setup"])


def tap(client, play, data, *, seq=None, draft=None, htmx=True):
    body = {"version": play.moves.count() if seq is None else seq, **data}
    if draft is not None:
        body["draft"] = json.dumps(draft)
    return client.post(reverse("play-move", args=[play.pk]), body, headers=HTMX if htmx else {})


def enter(client, play, move, **kwargs):
    """Enter a complete move by its two taps, as the form does."""
    tap(client, play, {"card": move["card"]}, **kwargs)
    if "tie" in move:
        return tap(client, play, {"tied": move["tie"], "tie": "1"}, draft={"card": move["card"]})
    call = move["call"]
    return tap(
        client,
        play,
        {"caller": call["player"], "series": str(call["series"])},
        draft={"card": move["card"]},
    )


# Setup -----------------------------------------------------------------------------------------


def setup_url(night):
    return reverse("play-setup", args=[night.pk])


def test_setup_page_starts_with_no_card_chosen_and_offers_the_grid(member_client, night, players):
    """The cards are dealt at random: nothing is proposed that would have to be undone."""
    query = {"game": "buntherum", "seat": [p.pk for p in players]}
    body = member_client.get(setup_url(night), query).content.decode()
    assert 'name="s1_0_colour"' in body and 'name="s6_1_object"' in body
    assert body.count('<option value="" selected>') == 24
    assert body.count(" selected>") == 24
    # the grid the cards are tapped on: 64 cards, 12 places to fill, each writing its two lists
    assert body.count("data-cell=") == 64 and body.count("data-slot ") == 12
    assert 'data-fields="s6_1_colour s6_1_object"' in body and 'id="s6_1_object"' in body
    assert "js/tap-setup.js" in body


def test_a_setup_with_a_card_missing_says_which_series(member_client, night, players):
    fields = {**setup_fields(), "s5_1_colour": "", "s5_1_object": ""}
    response = member_client.post(
        setup_url(night), {"game": "buntherum", "seat": [p.pk for p in players], **fields}
    )
    assert response.status_code == 422
    assert "Series 5: choose a colour and an object" in response.content.decode()
    # what was entered is shown again: 11 cards and the empty place
    assert response.content.decode().count('<option value="" selected>') == 2
    assert Play.objects.count() == 0


def test_the_default_setup_starts_a_play(member_client, night, players):
    response = member_client.post(
        setup_url(night),
        {"game": "buntherum", "seat": [p.pk for p in players], **setup_fields()},
    )
    play = Play.objects.get()
    assert response["Location"] == reverse("play", args=[play.pk])
    assert play.setup == {"series": DEFAULT_SERIES}


def test_a_side_with_two_cards_of_one_colour_is_refused_by_the_referee(
    member_client, night, players
):
    series = {**DEFAULT_SERIES, "2": ["orange-ball", "orange-cup"]}
    response = member_client.post(
        setup_url(night),
        {"game": "buntherum", "seat": [p.pk for p in players], **setup_fields(series)},
    )
    assert response.status_code == 422
    body = response.content.decode()
    assert 'id="setup-error"' in body and "two orange cards" in body
    # the form shows what was entered, so it can be corrected
    assert body.count('<option value="orange" selected>') == 2 + 1
    assert Play.objects.count() == 0


def test_the_same_card_on_two_sides_is_refused(member_client, night, players):
    series = {**DEFAULT_SERIES, "2": ["red-die", "green-cup"]}
    response = member_client.post(
        setup_url(night),
        {"game": "buntherum", "seat": [p.pk for p in players], **setup_fields(series)},
    )
    assert (
        response.status_code == 422
        and "The red die is in the setup twice" in response.content.decode()
    )
    assert Play.objects.count() == 0


@pytest.mark.parametrize("bad", [{"s3_1_colour": ""}, {"s4_0_object": "spoon"}])
def test_a_missing_or_tampered_setup_field_gets_a_message(member_client, night, players, bad):
    fields = {**setup_fields(), **bad}
    response = member_client.post(
        setup_url(night), {"game": "buntherum", "seat": [p.pk for p in players], **fields}
    )
    assert response.status_code == 422
    assert "choose a colour and an object for both cards" in response.content.decode()
    assert Play.objects.count() == 0


# Tap 1: the turned card ------------------------------------------------------------------------


def test_the_card_grid_offers_only_cards_in_no_series(member_client, play):
    body = member_client.get(reverse("play", args=[play.pk])).content.decode()
    assert body.count('name="card"') == 64 - 12
    assert 'value="green-die"' in body and 'value="red-die"' not in body
    assert 'name="move_json"' in body


def test_tapping_a_card_keeps_it_in_a_draft_fragment(member_client, play):
    response = tap(member_client, play, {"card": "green-die"})
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert "&quot;card&quot;: &quot;green-die&quot;" in body
    assert body.count('name="caller"') == 3 and body.count('name="tied"') == 3
    assert 'id="call-6"' in body and 'id="call-impossible"' in body
    assert 'name="card"' not in body
    assert play.moves.count() == 0


def test_tapping_a_card_without_javascript_shows_the_whole_page(member_client, play):
    response = tap(member_client, play, {"card": "green-die"}, htmx=False)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" in body and 'id="call-3"' in body
    assert play.moves.count() == 0


def test_the_call_form_does_not_say_which_series_the_card_fits(member_client, play):
    body = tap(member_client, play, {"card": "green-die"}).content.decode()
    # green-die fits series 3, 4, 5 and 6: every series button looks the same
    assert body.count('class="bh-series-btn"') == 6
    assert "disabled" not in body


@pytest.mark.parametrize("card", ["red-die", "grey-die", ""])
def test_a_card_in_a_series_or_no_card_gets_a_message(member_client, play, card):
    before = db_state()
    response = tap(member_client, play, {"card": card})
    assert 'id="move-error"' in response.content.decode()
    assert db_state() == before


# Tap 2: the call -------------------------------------------------------------------------------


def test_a_right_call_is_stored_and_the_card_joins_the_series(member_client, play):
    response = tap(
        member_client, play, {"caller": "Ana", "series": "3"}, draft={"card": "green-die"}
    )
    body = response.content.decode()
    assert play.moves.get().data == {"card": "green-die", "call": {"player": "Ana", "series": 3}}
    assert "bh-outcome-right" in body and "Right! Ana called series 3" in body
    assert body.count('name="card"') == 64 - 13 and 'value="green-die"' not in body
    assert 'data-card="green-die"' in body


def test_a_wrong_call_is_a_crash(member_client, play):
    body = tap(
        member_client, play, {"caller": "Ben", "series": "1"}, draft={"card": "green-die"}
    ).content.decode()
    assert play.moves.get().data["call"] == {"player": "Ben", "series": 1}
    assert "Crash!" in body and "Ben takes a Crash token (1 of 3)" in body
    assert "Turned from the neutral pile." in body


def test_a_right_impossible_lets_the_caller_turn_from_their_pile(member_client, example_play):
    # red-ball fits no series of the example (docs/gamelog.md §6, buntherum-1 move 4)
    body = tap(
        member_client,
        example_play,
        {"caller": "Eli", "series": "impossible"},
        draft={"card": "red-ball"},
    ).content.decode()
    assert example_play.moves.get().data["call"] == {"player": "Eli", "series": "impossible"}
    assert "Eli called “Impossible!”: the card fits no series" in body
    assert "Turned from Eli’s pile." in body


def test_a_tie_is_stored_and_only_the_tied_players_may_call_next(member_client, play):
    body = tap(
        member_client, play, {"tied": ["Ana", "Chloé"], "tie": "1"}, draft={"card": "blue-flower"}
    ).content.decode()
    assert play.moves.get().data == {"card": "blue-flower", "tie": ["Ana", "Chloé"]}
    assert "Tie between Ana, Chloé" in body
    body = tap(member_client, play, {"card": "pink-die"}).content.decode()
    assert body.count('name="caller"') == 2 and 'value="Ben"' not in body


def test_a_tie_needs_two_players(member_client, play):
    before = db_state()
    response = tap(member_client, play, {"tied": ["Ana"], "tie": "1"}, draft={"card": "pink-die"})
    assert "Tick at least two players" in response.content.decode()
    assert db_state() == before


def test_a_call_without_a_caller_gets_a_message(member_client, play):
    before = db_state()
    response = tap(member_client, play, {"series": "2"}, draft={"card": "pink-die"})
    assert "Choose who called first" in response.content.decode()
    assert db_state() == before


@pytest.mark.parametrize(
    "data", [{"caller": "Zoé", "series": "2"}, {"caller": "Ana", "series": "7"}]
)
def test_a_tampered_call_gets_a_message(member_client, play, data):
    before = db_state()
    response = tap(member_client, play, data, draft={"card": "pink-die"})
    assert 'id="move-error"' in response.content.decode()
    assert db_state() == before


def test_a_damaged_draft_gets_a_message(member_client, play):
    response = member_client.post(
        reverse("play-move", args=[play.pk]),
        {"version": 0, "draft": "{oops", "caller": "Ana", "series": "1"},
        headers=HTMX,
    )
    assert "The form was damaged" in response.content.decode()
    assert play.moves.count() == 0


def test_an_illegal_call_shows_the_referees_message_and_stores_nothing(member_client, play):
    tap(member_client, play, {"tied": ["Ana", "Chloé"], "tie": "1"}, draft={"card": "blue-flower"})
    before = db_state()
    # Ben was not in the tie: the form does not offer him, the referee refuses him
    response = tap(
        member_client, play, {"caller": "Ben", "series": "3"}, draft={"card": "pink-die"}
    )
    body = response.content.decode()
    assert "Card 2: Ben cannot call: only Ana and Chloé" in body
    assert db_state() == before


def test_a_refused_tie_keeps_its_card_and_the_ticks_that_may_still_call(member_client, play):
    tap(member_client, play, {"tied": ["Ana", "Chloé"], "tie": "1"}, draft={"card": "blue-flower"})
    # Ben was not in the last tie: the referee refuses him, Ana's tick stays
    response = tap(
        member_client, play, {"tied": ["Ana", "Ben"], "tie": "1"}, draft={"card": "pink-die"}
    )
    page = dom(response)
    assert "Ben cannot tie" in text(find(page, None, id="move-error"))
    ticks = find_all(page, "input", name="tied")
    assert [(attr(t, "value"), "checked" in dict(t.attributes)) for t in ticks] == [
        ("Ana", True),
        ("Chloé", False),
    ]


def test_the_json_fallback_still_enters_a_move(member_client, play):
    move = {"card": "green-die", "call": {"player": "Ana", "series": 3}}
    tap(member_client, play, {"move_json": json.dumps(move)})
    assert play.moves.get().data == move


def test_reset_drops_the_draft(member_client, play):
    body = tap(member_client, play, {"reset": "1"}, draft={"card": "green-die"}).content.decode()
    assert 'name="card"' in body and 'name="caller"' not in body


# A whole game and its score sheet ---------------------------------------------------------------


def test_the_example_game_entered_tap_by_tap_finishes_with_ana_winning(member_client, example_play):
    for move in EXAMPLE["moves"]:
        assert enter(member_client, example_play, move).status_code == 200
    assert [m.data for m in example_play.moves.order_by("seq")] == EXAMPLE["moves"]
    example_play.refresh_from_db()
    assert example_play.status == "finished"
    body = member_client.get(reverse("play", args=[example_play.pk])).content.decode()
    assert "Ana has turned their last card and wins!" in body
    assert 'id="move-form"' not in body


def test_the_score_sheet_shows_cards_turned_piles_crashes_and_eliminations(
    member_client, example_play
):
    for move in EXAMPLE["moves"]:
        services.record_move(play=example_play, move=move)
    body = member_client.get(reverse("play-sheet", args=[example_play.pk])).content.decode()
    assert 'id="bh-sheet"' in body
    rows = {
        "Ana": ("6", "0", "0", "Winner"),
        "Ben": ("0", "6", "3", "Eliminated (out no. 1)"),
        "Dev": ("1", "5", "0", "–"),
    }
    for name, (turned, pile, crashes, result) in rows.items():
        assert f'<tr data-player="{name}"{' class="winner"' if name == "Ana" else ""}>' in body
        start = body.index(f'<tr data-player="{name}"')
        row = body[start : body.index("</tr>", start)]
        assert f'bh-turned-count">{turned}<' in row and f'bh-pile">{pile}<' in row
        assert f'bh-crashes">{crashes}<' in row and result in row
    assert "Winner: Ana" in body


def test_the_board_shows_crash_tokens_and_the_eliminated_player(member_client, example_play):
    for move in EXAMPLE["moves"][:7]:
        services.record_move(play=example_play, move=move)
    body = member_client.get(reverse("play", args=[example_play.pk])).content.decode()
    start = body.index('<tr data-player="Ben" class="bh-out">')
    row = body[start : body.index("</tr>", start)]
    assert row.count("bh-token-on") == 3 and "eliminated" in row
    assert body.count('name="card"') == 64 - 12 - 2  # green-die and purple-car were placed


def test_the_play_page_in_french(member_client, play):
    member_client.cookies.load({"django_language": "fr"})
    body = tap(member_client, play, {"card": "green-die"}).content.decode()
    assert "1. Touchez la carte retournée" not in body
    assert "2. Qui a annoncé le premier ?" in body and "Impossible !" in body
    assert "glace rouge" in body and "tasse verte" in body


# What the tests over every game ask of this one (tests/per_game.py) ---------------------------

REFUSED_MOVE = {
    "en": "Card 3: Chloé cannot call: only Ana and Ben, who tied on the last card, may call this "
    "one.",
    "fr": "Carte 3 : Chloé ne peut pas annoncer : seuls Ana et Ben, à égalité sur la carte "
    "précédente, peuvent annoncer celle-ci.",
}
REFUSED_SETUP = (
    {"series": {"1": ["red-die"]}},
    "La série 1 doit commencer par une liste d'exactement deux cartes.",
)
SAMPLES = {
    "card": "pink-ball",
    "side": "4",
    "sides": ["2", "3"],
    "colour": "pink",
    "object": "ball",
}
SAYS = [
    ("card", "pink-ball", "the pink ball", "la balle rose"),
    ("card", "green-die", "the green die", "le dé vert"),
    ("names", ["Ana", "Ben", "Chloé"], "Ana, Ben and Chloé", "Ana, Ben et Chloé"),
]
