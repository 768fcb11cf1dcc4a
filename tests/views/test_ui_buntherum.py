"""Buntherum at the table: the six starting series, then each turned card and its call in two
taps (the card, then the caller and the series, "Impossible!" or a tie)."""

import json

import pytest
from django.urls import reverse

from games import services
from games.models import Move, Play, Seat
from games.ui import _drawing as drawing
from games.ui import buntherum
from games.ui.buntherum import DEFAULT_SERIES
from referee.buntherum import COLOURS, SIDES
from tests.dom import ANY, attr, chosen, classes, dom, find, find_all, text
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


def shown(page) -> dict[str, list[str]]:
    """The setup form's selects as the page comes: the values chosen in each, by name."""
    return {
        attr(select, "name"): chosen(select, attr(select, "name"))
        for select in find_all(page, "select")
    }


def draft_of(page) -> dict:
    """The draft the move form carries in its hidden field."""
    return json.loads(
        attr(find(find(page, "form", id="move-form"), "input", name="draft"), "value")
    )


def error_of(response) -> str:
    """The referee's (or the form's) message, next to the controls."""
    return text(find(find(dom(response), "div", id="verdict"), "p", id="move-error"))


def outcome_of(page):
    """The last card's outcome, in the verdict."""
    return find(find(page, "div", id="verdict"), "div", id="bh-outcome")


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
    page = dom(member_client.get(setup_url(night), query))
    fields = [
        f"s{side}_{n}_{part}"
        for side in range(1, 7)
        for n in (0, 1)
        for part in ("colour", "object")
    ]
    assert shown(page) == dict.fromkeys(fields, [""])
    # the grid the cards are tapped on: 64 cards, 12 places to fill, each writing its two lists
    taps = find(page, "div", id="bh-setup-taps")
    assert len(find_all(taps, "button", data_cell=ANY)) == 64
    slots = find_all(taps, "button", data_slot="")
    assert [attr(slot, "data-fields") for slot in slots] == [
        f"s{side}_{n}_colour s{side}_{n}_object" for side in range(1, 7) for n in (0, 1)
    ]
    assert find_all(page, "select", id="s6_1_object", name="s6_1_object")
    assert find_all(page, "script", src="/static/js/tap-setup.js")


def test_a_setup_with_a_card_missing_says_which_series(member_client, night, players):
    fields = {**setup_fields(), "s5_1_colour": "", "s5_1_object": ""}
    response = member_client.post(
        setup_url(night), {"game": "buntherum", "seat": [p.pk for p in players], **fields}
    )
    assert response.status_code == 422
    page = dom(response)
    assert "Series 5: choose a colour and an object" in text(find(page, "p", id="setup-error"))
    # what was entered is shown again: 11 cards and the empty place
    assert shown(page) == {
        name: [value]
        for name, value in {**setup_fields(), "s5_1_colour": "", "s5_1_object": ""}.items()
    }
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
    page = dom(response)
    assert "two orange cards" in text(find(page, "p", id="setup-error"))
    # the form shows what was entered, so it can be corrected
    assert shown(page) == {name: [value] for name, value in setup_fields(series).items()}
    orange = [name for name, value in shown(page).items() if value == ["orange"]]
    assert orange == ["s2_0_colour", "s2_1_colour", "s5_1_colour"]
    assert Play.objects.count() == 0


def test_the_same_card_on_two_sides_is_refused(member_client, night, players):
    series = {**DEFAULT_SERIES, "2": ["red-die", "green-cup"]}
    response = member_client.post(
        setup_url(night),
        {"game": "buntherum", "seat": [p.pk for p in players], **setup_fields(series)},
    )
    assert response.status_code == 422
    error = text(find(dom(response), "p", id="setup-error"))
    assert "The red die is in the setup twice" in error
    assert Play.objects.count() == 0


@pytest.mark.parametrize("bad", [{"s3_1_colour": ""}, {"s4_0_object": "spoon"}])
def test_a_missing_or_tampered_setup_field_gets_a_message(member_client, night, players, bad):
    fields = {**setup_fields(), **bad}
    response = member_client.post(
        setup_url(night), {"game": "buntherum", "seat": [p.pk for p in players], **fields}
    )
    assert response.status_code == 422
    error = text(find(dom(response), "p", id="setup-error"))
    assert "choose a colour and an object for both cards" in error
    assert Play.objects.count() == 0


# Tap 1: the turned card ------------------------------------------------------------------------


def test_the_card_grid_offers_only_cards_in_no_series(member_client, play):
    page = dom(member_client.get(reverse("play", args=[play.pk])))
    pick = find(page, "fieldset", id="bh-pick")
    offered = [attr(button, "value") for button in find_all(pick, "button", name="card")]
    assert len(offered) == len(set(offered)) == 64 - 12
    assert "green-die" in offered and "red-die" not in offered
    assert len(find_all(pick, "span", class_="bh-gone")) == 12  # drawn, not offered
    assert find_all(find(page, "form", id="move-form"), "textarea", name="move_json")


def test_each_row_of_the_grid_is_drawn_once_for_its_cards_states_and_the_language(
    member_client, play, monkeypatch
):
    """The 64 cards are drawn on every move (issue 32): each colour's row is drawn in Python once
    for which of its cards are offered and the language, then kept (games.ui._drawing.Pieces)."""
    monkeypatch.setattr(drawing, "CHECK", False)  # kept as the site keeps them
    drawn = []

    def row(*values):
        drawn.append(values)
        return buntherum._draw_row(*values)

    monkeypatch.setattr(buntherum, "_row", drawing.Pieces(row))
    url = reverse("play", args=[play.pk])
    member_client.get(url)
    assert [colour for colour, _, _ in drawn] == list(COLOURS)
    assert sum(sum(offered) for _, offered, _ in drawn) == 64 - 12
    member_client.get(url)
    assert len(drawn) == 8  # all kept
    member_client.cookies.load({"django_language": "fr"})
    pick = find(dom(member_client.get(url)), "fieldset", id="bh-pick")
    assert len(drawn) == 16  # drawn again in French
    gone = find_all(pick, "span", class_="bh-gone")[0]  # the red die, in series 1
    assert attr(gone, "title") == "dé rouge : déjà dans une série"
    assert attr(find(pick, "button", value="green-die"), "aria-label") == "dé vert"


def test_the_board_s_series_and_players_are_drawn_once_for_what_they_show(
    member_client, play, monkeypatch
):
    """The board's six series and its players are drawn on every move (issue 32): each in Python
    once for its cards (a player's pile, tokens and status) and the language, then kept."""
    monkeypatch.setattr(drawing, "CHECK", False)  # kept as the site keeps them
    drawn = []

    def kept(draw):
        def counted(*values):
            drawn.append(values)
            return draw(*values)

        return drawing.Pieces(counted)

    monkeypatch.setattr(buntherum, "_series", kept(buntherum._draw_series))
    monkeypatch.setattr(buntherum, "_player", kept(buntherum._draw_player))
    url = reverse("play", args=[play.pk])
    member_client.get(url)
    assert len(drawn) == 6 + 3
    member_client.get(url)
    assert len(drawn) == 6 + 3  # all kept
    member_client.cookies.load({"django_language": "fr"})
    page = dom(member_client.get(url))
    assert len(drawn) == 2 * (6 + 3)  # drawn again in French
    assert attr(find(page, "section", id="series-4"), "aria-label") == "Série 4"
    ana = find(find(page, "table", id="bh-players"), "tr", data_player="Ana")
    assert attr(find(ana, "span", class_="bh-tokens"), "aria-label") == "0 jeton Crash"
    assert text(find(ana, "td", class_="bh-status")) == "peut annoncer"


def test_an_outcome_names_only_a_card_of_the_deck():
    """The verdict draws the card of the last move logged; any other value draws nothing."""
    assert 'data-card="pink-ball"' in buntherum.draw_deck_card("pink-ball")
    for value in ("grey-die", ["pink-ball"], None):
        assert buntherum.draw_deck_card(value) == ""


def test_tapping_a_card_keeps_it_in_a_draft_fragment(member_client, play):
    response = tap(member_client, play, {"card": "green-die"})
    page = dom(response)
    assert response.status_code == 200 and page.name != "html"
    assert draft_of(page) == {"card": "green-die"}
    call = find(page, "div", id="bh-call")
    players = ["Ana", "Ben", "Chloé"]
    assert [attr(radio, "value") for radio in find_all(call, "input", name="caller")] == players
    assert [attr(box, "value") for box in find_all(call, "input", name="tied")] == players
    calls = find_all(call, "button", name="series")
    assert [attr(button, "id") for button in calls] == [
        *(f"call-{side}" for side in range(1, 7)),
        "call-impossible",
    ]
    assert not find_all(page, None, name="card")
    assert play.moves.count() == 0


def test_tapping_a_card_without_javascript_shows_the_whole_page(member_client, play):
    response = tap(member_client, play, {"card": "green-die"}, htmx=False)
    page = dom(response)
    assert response.status_code == 200 and page.name == "html"
    assert attr(find(find(page, "form", id="move-form"), "button", id="call-3"), "value") == "3"
    assert play.moves.count() == 0


def test_the_call_form_does_not_say_which_series_the_card_fits(member_client, play):
    page = dom(tap(member_client, play, {"card": "green-die"}))
    # green-die fits series 3, 4, 5 and 6: every series button looks the same
    buttons = find_all(find(page, "div", id="bh-call"), "button", name="series")[:6]
    named = ("value", "id", "aria-label", "data-value", "data-label", "data-key-text")  # its series
    looks = [{n: v for n, v in b.attributes if n not in named} for b in buttons]
    # What the phone's builder reads is the same for every series too: every call is offered.
    builds = {
        "data-set": "call.series",
        "data-offered": "calls",
        "data-needs": "call.player",
        "data-unset": "tie",
    }
    assert looks == [{"type": "submit", "name": "series", "class": "bh-series-btn", **builds}] * 6
    assert not find_all(page, None, disabled=None)  # nor is any control disabled


@pytest.mark.parametrize("card", ["red-die", "grey-die", ""])
def test_a_card_in_a_series_or_no_card_gets_a_message(member_client, play, card):
    before = db_state()
    response = tap(member_client, play, {"card": card})
    assert error_of(response)
    assert db_state() == before


# Tap 2: the call -------------------------------------------------------------------------------


def test_a_right_call_is_stored_and_the_card_joins_the_series(member_client, play):
    response = tap(
        member_client, play, {"caller": "Ana", "series": "3"}, draft={"card": "green-die"}
    )
    page = dom(response)
    assert play.moves.get().data == {"card": "green-die", "call": {"player": "Ana", "series": 3}}
    outcome = outcome_of(page)
    assert classes(outcome) == {"bh-outcome", "bh-outcome-right"}
    assert "Right! Ana called series 3" in text(outcome)
    offered = [attr(button, "value") for button in find_all(page, "button", name="card")]
    assert len(offered) == 64 - 13 and "green-die" not in offered
    series = find(find(page, "div", id="bh-board"), "section", id="series-3")
    assert find_all(series, "span", class_="bh-card", data_card="green-die")


def test_a_wrong_call_is_a_crash(member_client, play):
    page = dom(
        tap(member_client, play, {"caller": "Ben", "series": "1"}, draft={"card": "green-die"})
    )
    assert play.moves.get().data["call"] == {"player": "Ben", "series": 1}
    outcome = outcome_of(page)
    assert classes(outcome) == {"bh-outcome", "bh-outcome-wrong"}
    assert text(find(outcome, "strong")) == "Crash!"
    assert "Ben takes a Crash token (1 of 3)" in text(outcome)
    assert text(find(page, "p", id="bh-from")) == "Turned from the neutral pile."


def test_a_right_impossible_lets_the_caller_turn_from_their_pile(member_client, example_play):
    # red-ball fits no series of the example (docs/gamelog.md §6, buntherum-1 move 4)
    page = dom(
        tap(
            member_client,
            example_play,
            {"caller": "Eli", "series": "impossible"},
            draft={"card": "red-ball"},
        )
    )
    assert example_play.moves.get().data["call"] == {"player": "Eli", "series": "impossible"}
    outcome = outcome_of(page)
    assert classes(outcome) == {"bh-outcome", "bh-outcome-right"}
    assert "Eli called “Impossible!”: the card fits no series" in text(outcome)
    assert text(find(page, "p", id="bh-from")) == "Turned from Eli’s pile."


def test_a_tie_is_stored_and_only_the_tied_players_may_call_next(member_client, play):
    page = dom(
        tap(
            member_client,
            play,
            {"tied": ["Ana", "Chloé"], "tie": "1"},
            draft={"card": "blue-flower"},
        )
    )
    assert play.moves.get().data == {"card": "blue-flower", "tie": ["Ana", "Chloé"]}
    outcome = outcome_of(page)
    assert classes(outcome) == {"bh-outcome", "bh-outcome-tie"}
    assert "Tie between Ana, Chloé" in text(outcome)
    page = dom(tap(member_client, play, {"card": "pink-die"}))
    call = find(page, "div", id="bh-call")
    for field in ("caller", "tied"):
        assert [attr(box, "value") for box in find_all(call, "input", name=field)] == [
            "Ana",
            "Chloé",
        ]


def test_a_tie_needs_two_players(member_client, play):
    before = db_state()
    response = tap(member_client, play, {"tied": ["Ana"], "tie": "1"}, draft={"card": "pink-die"})
    assert "Tick at least two players" in error_of(response)
    assert db_state() == before


def test_a_call_without_a_caller_gets_a_message(member_client, play):
    before = db_state()
    response = tap(member_client, play, {"series": "2"}, draft={"card": "pink-die"})
    assert "Choose who called first" in error_of(response)
    assert db_state() == before


@pytest.mark.parametrize(
    "data", [{"caller": "Zoé", "series": "2"}, {"caller": "Ana", "series": "7"}]
)
def test_a_tampered_call_gets_a_message(member_client, play, data):
    before = db_state()
    response = tap(member_client, play, data, draft={"card": "pink-die"})
    assert error_of(response)
    assert db_state() == before


def test_a_damaged_draft_gets_a_message(member_client, play):
    response = member_client.post(
        reverse("play-move", args=[play.pk]),
        {"version": 0, "draft": "{oops", "caller": "Ana", "series": "1"},
        headers=HTMX,
    )
    assert "The form was damaged" in error_of(response)
    assert play.moves.count() == 0


def test_an_illegal_call_shows_the_referees_message_and_stores_nothing(member_client, play):
    tap(member_client, play, {"tied": ["Ana", "Chloé"], "tie": "1"}, draft={"card": "blue-flower"})
    before = db_state()
    # Ben was not in the tie: the form does not offer him, the referee refuses him
    response = tap(
        member_client, play, {"caller": "Ben", "series": "3"}, draft={"card": "pink-die"}
    )
    assert error_of(response).startswith("Card 2: Ben cannot call: only Ana and Chloé")
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


def test_the_call_s_buttons_and_chips_are_drawn_once_for_what_they_show(
    member_client, play, monkeypatch
):
    """The call's series buttons, its callers and its tie ticks are drawn on every tap (issue
    32): in Python, the buttons once for the language, each chip once for its name and whether
    it is chosen, then kept."""
    monkeypatch.setattr(drawing, "CHECK", False)  # kept as the site keeps them
    drawn = []

    def kept(draw):
        def counted(*values):
            drawn.append((draw.__name__, *values))
            return draw(*values)

        return drawing.Pieces(counted)

    for name in ("_series_buttons", "_caller", "_tied"):
        monkeypatch.setattr(buntherum, name, kept(getattr(buntherum, f"_draw{name}")))
    tap(member_client, play, {"card": "green-die"})
    assert sorted(drawn) == [
        ("_draw_caller", "Ana", False),
        ("_draw_caller", "Ben", False),
        ("_draw_caller", "Chloé", False),
        ("_draw_series_buttons", SIDES),
        ("_draw_tied", "Ana", False),
        ("_draw_tied", "Ben", False),
        ("_draw_tied", "Chloé", False),
    ]
    tap(member_client, play, {"card": "blue-flower"})
    assert len(drawn) == 7  # all kept
    page = dom(tap(member_client, play, {"tied": ["Ben"], "tie": "1"}, draft={"card": "pink-die"}))
    assert drawn[7:] == [("_draw_tied", "Ben", True)]  # the tick kept after the refusal
    assert "checked" in dict(find(page, "input", name="tied", value="Ben").attributes)


def test_the_json_fallback_still_enters_a_move(member_client, play):
    move = {"card": "green-die", "call": {"player": "Ana", "series": 3}}
    tap(member_client, play, {"move_json": json.dumps(move)})
    assert play.moves.get().data == move


def test_reset_drops_the_draft(member_client, play):
    page = dom(tap(member_client, play, {"reset": "1"}, draft={"card": "green-die"}))
    assert find_all(find(page, "fieldset", id="bh-pick"), "button", name="card")
    # The call is drawn for the phone's builder only, hidden until a card is tapped there.
    call = find(page, "div", id="bh-call", hidden=ANY)
    assert attr(call, "data-when") == "card"


# A whole game and its score sheet ---------------------------------------------------------------


def test_the_example_game_entered_tap_by_tap_finishes_with_ana_winning(member_client, example_play):
    for move in EXAMPLE["moves"]:
        assert enter(member_client, example_play, move).status_code == 200
    assert [m.data for m in example_play.moves.order_by("seq")] == EXAMPLE["moves"]
    example_play.refresh_from_db()
    assert example_play.status == "finished"
    page = dom(member_client.get(reverse("play", args=[example_play.pk])))
    won = [text(strong) for strong in find_all(outcome_of(page), "strong")]
    assert won == ["Ana has turned their last card and wins!"]
    assert not find_all(page, "form", id="move-form")


def test_the_score_sheet_shows_cards_turned_piles_crashes_and_eliminations(
    member_client, example_play
):
    for move in EXAMPLE["moves"]:
        services.record_move(play=example_play, move=move)
    page = dom(member_client.get(reverse("play-sheet", args=[example_play.pk])))
    sheet = find(page, "table", id="bh-sheet")
    rows = {
        "Ana": ("6", "0", "0", "Winner"),
        "Ben": ("0", "6", "3", "Eliminated (out no. 1)"),
        "Dev": ("1", "5", "0", "–"),
    }
    for name, figures in rows.items():
        row = find(sheet, "tr", data_player=name)
        assert classes(row) == ({"winner"} if name == "Ana" else set())
        cells = ("bh-turned-count", "bh-pile", "bh-crashes", "bh-result")
        assert tuple(text(find(row, "td", class_=cell)) for cell in cells) == figures
    assert text(find(page, "strong", id="bh-winner")) == "Winner: Ana"


def test_the_board_shows_crash_tokens_and_the_eliminated_player(member_client, example_play):
    for move in EXAMPLE["moves"][:7]:
        services.record_move(play=example_play, move=move)
    page = dom(member_client.get(reverse("play", args=[example_play.pk])))
    ben = find(find(page, "table", id="bh-players"), "tr", data_player="Ben")
    assert classes(ben) == {"bh-out"}
    tokens = find(ben, "span", class_="bh-tokens")
    assert len(find_all(tokens, "span", class_="bh-token-on")) == 3
    assert attr(tokens, "aria-label") == "3 Crash tokens"
    assert text(find(ben, "td", class_="bh-status")) == "eliminated"
    # green-die and purple-car were placed
    assert len(find_all(page, "button", name="card")) == 64 - 12 - 2


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


def test_the_sprite_s_address_is_asked_of_the_storage_once_for_its_settings(monkeypatch, settings):
    """Every card drawn asked the static files' storage for the sprite again (issue 32)."""
    from games.ui import buntherum

    asked = []

    def static(path):
        asked.append(path)
        return f"{settings.STATIC_URL}{path}"

    monkeypatch.setattr(buntherum, "static", static)
    monkeypatch.setattr(buntherum, "_SPRITE_ADDRESSES", {})
    first = buntherum.object_icon("car")
    assert buntherum.object_icon("ghost") == first.replace("#car", "#ghost")
    assert asked == [buntherum.SPRITE]
    settings.STATIC_URL = "/elsewhere/"  # another storage's address is its own
    assert buntherum.object_icon("car") == f"/elsewhere/{buntherum.SPRITE}#car"
    assert len(asked) == 2
