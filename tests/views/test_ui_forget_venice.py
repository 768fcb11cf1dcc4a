"""Forget Venice at the table: the score-sheet setup, a deal tapped in card by card, the sheet."""

import json

import pytest
from django.urls import reverse

from games import services
from games.models import Move, Play, Seat
from games.ui import ui_for
from referee.forget_venice import CRITERIA, DEFAULT_SHEETS
from tests.dom import ANY, attr, chosen, dom, find, find_all, text
from tests.examples import EXAMPLES

GAME = json.loads((EXAMPLES / "forget-venice-1.json").read_text())
FIRST = GAME["moves"][0]  # Ana deals; Ben takes pile 1, Chloé pile 2, Ana keeps pile 0

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def venice(night, players):
    """A Forget Venice play in progress on the default sheets, no deal yet: Ana, Ben, Chloé."""
    return services.start_play(night=night, game="forget-venice", players=players, setup={})


def setup_url(night, players):
    seats = "&".join(f"seat={p.pk}" for p in players)
    return f"{reverse('play-setup', args=[night.pk])}?game=forget-venice&{seats}"


def default_form(players):
    data = {"game": "forget-venice", "seat": [str(p.pk) for p in players]}
    for seat in range(3):
        for half in ("1", "2"):
            for criterion, pair in zip(CRITERIA, DEFAULT_SHEETS[seat][half], strict=True):
                for suit in pair:
                    data[f"sheet-{seat}-{half}-{suit}"] = criterion
    return data


def tap(client, play, draft, *, seq=0, htmx=True, **fields):
    data = {"version": seq, "draft": json.dumps(draft) if draft is not None else ""}
    data.update(fields)
    return client.post(reverse("play-move", args=[play.pk]), data, headers=HTMX if htmx else {})


def draft_of(response) -> dict:
    """The draft the page carries in its hidden field."""
    raw = attr(find(find(dom(response), "form", id="move-form"), "input", name="draft"), "value")
    return json.loads(raw) if raw else {}


def error_of(response) -> str:
    """The referee's (or the form's) message, next to the controls."""
    return text(find(find(dom(response), "div", id="verdict"), "p", id="move-error"))


def is_hidden(element) -> bool:
    return "hidden" in dict(element.attributes)


def is_open(details) -> bool:
    return "open" in dict(details.attributes)


def offered(page) -> list[str]:
    """The cards the deal form offers to lay."""
    return [attr(button, "value") for button in find_all(page, "button", name="card")]


def db_state():
    return (
        list(Move.objects.values_list("play_id", "seq", "undone_at")),
        list(Seat.objects.values_list("score", "rank", "is_winner")),
        list(Play.objects.values_list("status", "details")),
    )


# Setup ------------------------------------------------------------------------------------------


def test_setup_page_prefills_each_seats_default_sheet(member_client, night, players):
    response = member_client.get(setup_url(night, players))
    assert response.status_code == 200
    page = dom(response)
    # Player 2, first half, criterion II: Moons against Wyrms (docs/gamelog.md §4).
    assert chosen(page, "sheet-1-1-Moons") == ["II"] and chosen(page, "sheet-1-1-Wyrms") == ["II"]
    moons = find_all(page, "input", type="radio", name="sheet-1-1-Moons")
    assert [(attr(radio, "value"), attr(radio, "id")) for radio in moons] == [
        (criterion, f"id-sheet-1-1-Moons-{criterion}") for criterion in CRITERIA
    ]
    assert attr(moons[0], "aria-label") == "Ben, half 1: Moons in criterion I"
    form = response.context["fv_sheets"]

    def checked(seat, half, row):
        cells = form[seat]["halves"][half]["rows"][row]["cells"]
        return [c["name"] for c in cells if c["checked"]]

    assert checked(1, 0, 1) == ["Moons", "Wyrms"]
    assert checked(2, 1, 2) == ["Suns", "Wyrms"]
    # The default sheets take one tap: the grids are folded away, the start button near.
    assert not is_open(find(page, "details", id="fv-edit", class_="fv-edit"))
    assert len(find_all(page, "input", type="radio", class_="fv-pick")) == 3 * 2 * 3 * 6


def test_default_sheets_start_a_play_without_sheets(member_client, night, players):
    response = member_client.post(setup_url(night, players), default_form(players))
    play = Play.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("play", args=[play.pk])
    assert play.setup in ({}, None)


def test_edited_sheets_are_stored_in_the_setup(member_client, night, players):
    data = default_form(players)
    # Ana swaps Moons and Suns between criteria I and II of her first half: two taps.
    data["sheet-0-1-Suns"], data["sheet-0-1-Moons"] = "I", "II"
    member_client.post(setup_url(night, players), data)
    sheets = Play.objects.get().setup["sheets"]
    assert sheets["Ana"]["1"] == {
        "I": ["Suns", "Knots"],
        "II": ["Moons", "Wyrms"],
        "III": ["Waves", "Leaves"],
    }
    assert sheets["Ben"]["2"]["I"] == ["Moons", "Suns"]


def test_a_criterion_with_three_suits_gets_a_message_and_the_grid_back(
    member_client, night, players
):
    data = default_form(players)
    data["sheet-2-2-Suns"] = "I"  # Chloé's second half: Suns moved from III to I
    response = member_client.post(setup_url(night, players), data)
    assert response.status_code == 422
    page = dom(response)
    assert text(find(page, "p", id="setup-error")) == (
        "Chloé's sheet, half 2: criterion I has 3 suits (Suns, Waves, Leaves); each criterion "
        "takes two."
    )
    # The grids come back open, as they were sent: moving one suit back is the one tap left.
    assert is_open(find(page, "details", id="fv-edit"))
    assert chosen(page, "sheet-2-2-Suns") == ["I"]
    cells = response.context["fv_sheets"][2]["halves"][1]["rows"][0]["cells"]
    assert [c["name"] for c in cells if c["checked"]] == ["Suns", "Waves", "Leaves"]
    assert Play.objects.count() == 0
    # Chloé's sheet, the one changed, is the one open (one at a time): no tap to find it.
    assert [sheet["open"] for sheet in response.context["fv_sheets"]] == [False, False, True]
    sheets = find_all(page, "details", class_="fv-sheet", name="fv-sheets")
    assert [attr(sheet, "data-player") for sheet in sheets if is_open(sheet)] == ["Chloé"]


def test_one_sheet_is_open_at_a_time_the_first_unless_another_was_changed(
    member_client, night, players
):
    """On a phone one whole sheet fits the screen: the first is open, the others a tap away."""
    page = dom(member_client.get(setup_url(night, players)))
    sheets = find_all(page, "details", name="fv-sheets")
    assert [attr(sheet, "data-player") for sheet in sheets] == ["Ana", "Ben", "Chloé"]
    # Ana's alone is open; the sheets' editor itself starts folded
    assert find_all(page, None, open=None) == [sheets[0]]
    data = default_form(players)
    data["sheet-1-1-Moons"], data["sheet-1-1-Waves"] = "I", "III"  # Ben's: refused
    response = member_client.post(setup_url(night, players), data)
    assert [sheet["open"] for sheet in response.context["fv_sheets"]] == [False, True, False]


@pytest.mark.parametrize("value", ["", "IV"])
def test_a_missing_or_unknown_criterion_gets_a_message(member_client, night, players, value):
    data = default_form(players)
    data["sheet-1-2-Knots"] = value
    response = member_client.post(setup_url(night, players), data)
    assert response.status_code == 422
    error = text(find(dom(response), "p", id="setup-error"))
    assert error == "Ben's sheet, half 2: tap the criterion of Knots."
    assert Play.objects.count() == 0


# The deal, tap by tap ---------------------------------------------------------------------------


def test_play_page_offers_every_card_and_names_the_dealer(member_client, venice):
    page = dom(member_client.get(reverse("play", args=[venice.pk])))
    where = text(find(page, "p", id="fv-where"))
    assert where.endswith("Dealer: Ana · First Chooser: Ben · Second Chooser: Chloé")
    assert len(find_all(find(page, "div", id="fv-deck"), "button", name="card")) == 42
    # the JSON fallback stays
    assert find_all(find(page, "form", id="move-form"), "textarea", name="move_json")


def test_the_first_step_carries_the_whole_deal_for_the_phones_builder(member_client, venice):
    """With a script the deal is built on the phone (static/js/move-builder.js) from the first
    step's markup and the referee's options; the parts not called for yet are hidden."""
    page = dom(member_client.get(reverse("play", args=[venice.pk])))
    root = find(page, "div", data_builder=ANY)
    assert attr(root, "data-complete") == "dealer piles first second"
    options = json.loads(text(find(root, "script", id="play-options")))
    assert options["dealers"] == [
        {"dealer": "Ana", "first_chooser": "Ben", "second_chooser": "Chloé"}
    ]
    # Before any tap: the one dealer the rotation allows (tapped when several may deal, or
    # anyone while deals wait to be sent), no card laid, pile 1 takes them
    assert json.loads(attr(root, "data-base")) == {"dealer": "dealers.*.dealer"}
    start = json.loads(attr(find(page, "div", id="fv-form"), "data-start"))
    assert start == {"_pile": 0, "piles": [[], [], []]}
    who = find(page, "fieldset", id="fv-dealer", hidden=None, data_when="!dealer")
    dealers = find_all(who, "button", name="dealer")
    assert [(attr(b, "data-value"), attr(b, "data-offered")) for b in dealers] == [
        ("Ana", "dealers.*.dealer"),
        ("Ben", "dealers.*.dealer"),
        ("Chloé", "dealers.*.dealer"),
    ]
    # what names the choosers, for each dealer: Ana's shown
    legends = find_all(find(page, "fieldset", id="fv-piles"), "span", data_when_value=ANY)
    assert [(json.loads(attr(span, "data-when-value")), is_hidden(span)) for span in legends] == [
        ({"dealer": "Ana"}, False),
        ({"dealer": "Ben"}, True),
        ({"dealer": "Chloé"}, True),
    ]
    heads = [find(page, "button", id=f"fv-pile-{n}") for n in (1, 2, 3)]
    assert [
        (attr(h, "data-set"), attr(h, "data-value"), attr(h, "aria-pressed")) for h in heads
    ] == [
        ("_pile", "0", "true"),
        ("_pile", "1", "false"),
        ("_pile", "2", "false"),
    ]
    # Each card offered as the referee's options offer it, tapped into the pile marked; the
    # piles hold the cards tapped into them, and say "empty" until then.
    cards = find_all(find(page, "div", id="fv-deck"), "button", name="card")
    assert [attr(card, "data-value") for card in cards] == options["cards"]
    assert {
        (attr(c, "data-toggle"), attr(c, "data-offered"), attr(c, "data-unset")) for c in cards
    } == {("piles.{_pile}", "cards", "first")}
    assert [attr(pile, "data-list") for pile in find_all(page, "div", data_list=ANY)] == [
        "piles.0",
        "piles.1",
        "piles.2",
    ]
    assert attr(find(page, "div", id="fv-deck"), "data-when") == "!piles#cards_per_deal"
    uneven = find(find(page, "fieldset", id="fv-piles"), "p", class_="error", hidden=None)
    assert attr(uneven, "data-when") == (
        "piles#cards_per_deal !piles.0|piles#cards_per_deal !piles.1|piles#cards_per_deal !piles.2"
    )
    assert "0 of 7 laid out" in text(find(page, "fieldset", id="fv-piles"))
    assert {text(count) for count in find_all(page, "span", data_count="piles")} == {"0"}
    # Who took which, once the 7 cards lie in 3 piles; the First Chooser's pile is not offered
    # to the Second.
    choices = find(page, "fieldset", id="fv-choices", hidden=None)
    assert attr(choices, "data-when") == "dealer piles#cards_per_deal piles.0 piles.1 piles.2"
    assert "Ben (First Chooser) took:" in [text(said) for said in find_all(choices, "p")]
    first = find_all(choices, "button", name="first")
    assert [(attr(b, "data-set"), attr(b, "data-value")) for b in first] == [
        ("first", "0"),
        ("first", "1"),
        ("first", "2"),
    ]
    second = find_all(choices, "button", name="second")
    assert [(attr(b, "data-set"), json.loads(attr(b, "data-when-value"))) for b in second] == [
        ("second", {"!first": 0}),
        ("second", {"!first": 1}),
        ("second", {"!first": 2}),
    ]
    assert attr(find(page, "button", id="fv-reset"), "data-clear") == (
        "dealer piles first second _pile"
    )


def test_a_step_the_server_draws_carries_nothing_for_the_builder(member_client, venice):
    """After a tap without a script, the server draws the steps as ever: no choice of its
    form is the builder's."""
    page = dom(tap(member_client, venice, None, card="The Author"))
    form = find(page, "div", id="fv-form")
    for name in ("data_set", "data_toggle", "data_list", "data_when", "data_start", "data_clear"):
        assert not find_all(form, None, **{name: ANY}), name
    assert not find_all(form, None, hidden=None)


def test_a_card_tap_lays_it_in_the_active_pile_and_returns_the_fragment(member_client, venice):
    response = tap(member_client, venice, None, card="The Author")
    page = dom(response)
    assert response.status_code == 200
    assert page.name == "div" and attr(page, "id") == "play-main"  # the fragment, not the page
    assert draft_of(response)["piles"] == [["The Author"], [], []]
    assert len(offered(page)) == 41 and "The Author" not in offered(page)
    pile = find(find(page, "fieldset", id="fv-piles"), "div", data_pile="1")
    laid = [attr(button, "value") for button in find_all(pile, "button", name="take_back")]
    assert laid == ["The Author"]
    assert venice.moves.count() == 0


def test_a_tap_without_javascript_renders_the_whole_page(member_client, venice):
    response = tap(member_client, venice, None, htmx=False, card="The Author")
    assert response.status_code == 200 and dom(response).name == "html"
    assert draft_of(response)["piles"] == [["The Author"], [], []]


def test_a_pile_tap_changes_where_the_next_card_goes(member_client, venice):
    draft = {"dealer": "Ana", "piles": [["The Author"], [], []], "active": 0}
    draft = draft_of(tap(member_client, venice, draft, pile="2"))
    assert draft["active"] == 2
    draft = draft_of(tap(member_client, venice, draft, card="The Sea"))
    assert draft["piles"] == [["The Author"], [], ["The Sea"]]


def test_taking_a_card_back_offers_it_again(member_client, venice):
    draft = {"dealer": "Ana", "piles": [["The Author", "The Sea"], [], []], "active": 0}
    response = tap(member_client, venice, draft, take_back="The Author")
    assert draft_of(response)["piles"] == [["The Sea"], [], []]
    assert "The Author" in offered(dom(response)) and "The Sea" not in offered(dom(response))


def test_the_choosers_are_asked_only_once_the_deal_is_laid_out(member_client, venice):
    draft = {"dealer": "Ana", "piles": [FIRST["piles"][0], FIRST["piles"][1], []], "active": 2}
    response = tap(member_client, venice, draft, card=FIRST["piles"][2][0])
    page = dom(response)
    assert offered(page) and not find_all(page, None, name="first")
    draft = {"dealer": "Ana", "piles": FIRST["piles"], "active": 2}
    page = dom(tap(member_client, venice, draft, pile="0"))
    assert not find_all(page, None, name="card")
    choices = find(page, "fieldset", id="fv-choices")
    assert "Ben (First Chooser) took:" in [text(said) for said in find_all(choices, "p")]
    first = find_all(choices, "button", name="first")
    assert [(attr(button, "value"), text(button)) for button in first] == [
        ("0", "Pile 1"),
        ("1", "Pile 2"),
        ("2", "Pile 3"),
    ]


def test_the_second_chooser_tap_stores_the_whole_deal(member_client, venice):
    draft = {"dealer": "Ana", "piles": FIRST["piles"], "active": 2}
    response = tap(member_client, venice, draft, first="1")
    assert draft_of(response)["first"] == 1
    second = find_all(find(dom(response), "fieldset", id="fv-choices"), "button", name="second")
    # pile 2 is taken: piles 1 and 3 are left
    assert [attr(button, "id") for button in second] == ["fv-second-1", "fv-second-3"]
    response = tap(member_client, venice, draft_of(response), second="2")
    assert response.status_code == 200
    assert venice.moves.get().data == FIRST
    page = dom(response)
    where = text(find(page, "p", id="fv-where"))
    assert where.endswith("Dealer: Ben · First Chooser: Chloé · Second Chooser: Ana")
    assert len(offered(page)) == 35  # 7 cards dealt this half


def test_the_deal_without_javascript_redirects_to_the_play(member_client, venice):
    draft = {"dealer": "Ana", "piles": FIRST["piles"], "active": 0, "first": 1}
    response = tap(member_client, venice, draft, htmx=False, second="2")
    assert response.status_code == 302
    assert venice.moves.count() == 1


def test_an_illegal_deal_shows_the_referees_message_and_stores_nothing(member_client, venice):
    tap(member_client, venice, {"piles": FIRST["piles"], "first": 1}, second="2")
    before = db_state()
    # A tampered draft: Ana cannot deal twice in a row.
    draft = {"dealer": "Ana", "piles": GAME["moves"][1]["piles"], "first": 2}
    response = tap(member_client, venice, draft, seq=1, second="0")
    assert "Ana cannot be the dealer of deal 2" in error_of(response)
    assert db_state() == before


def test_a_card_already_dealt_this_half_is_not_offered_and_is_refused(member_client, venice):
    tap(member_client, venice, {"piles": FIRST["piles"], "first": 1}, second="2")
    response = tap(member_client, venice, None, seq=1, card="The Author")
    assert "The Author is not among the cards left to deal this half." in error_of(response)
    assert offered(dom(response)) and "The Author" not in offered(dom(response))


def test_an_eighth_card_is_refused(member_client, venice):
    draft = {"dealer": "Ana", "piles": FIRST["piles"], "active": 0}
    response = tap(member_client, venice, draft, card="The Sea")
    assert "exactly 7 cards" in error_of(response)


def test_half_time_tie_lets_the_table_choose_the_dealer(member_client, venice):
    moves, tied = _tied_first_half()
    for seq, move in enumerate(moves):
        services.record_move(play=venice, move=move, version=seq)
    page = dom(member_client.get(reverse("play", args=[venice.pk])))
    dealers = find_all(find(page, "fieldset", id="fv-dealer"), "button", name="dealer")
    assert [attr(button, "value") for button in dealers if not is_hidden(button)] == tied
    # The cards come once a dealer is chosen: the step of the piles, drawn for the phone's
    # builder, is hidden until then (without a script, the server draws it after the tap).
    piles = find(page, "fieldset", id="fv-piles", hidden=None, data_when="dealer")
    assert len(find_all(piles, "button", name="card")) == 42
    assert find_all(page, None, name="card") == find_all(piles, None, name="card")
    # Once a dealer is tapped on the phone: who is who, said for that dealer only.
    dealt = {
        json.loads(attr(said, "data-when-value"))["dealer"]: text(said)
        for said in find_all(find(page, "p", id="fv-where"), "span", hidden=None)
    }
    assert list(dealt) == tied
    assert all(
        said.startswith(f"Dealer: {dealer} · First Chooser:") for dealer, said in dealt.items()
    )
    # and the form names them for every player (anyone may be tapped while deals wait to be
    # sent), all hidden until a dealer is tapped
    legends = find_all(find(piles, "legend"), "span", data_when_value=ANY, hidden=None)
    assert [text(legend) for legend in legends] == [
        f"{dealer}'s 7 cards in 3 piles ( 0 of 7 laid out)" for dealer in ["Ana", "Ben", "Chloé"]
    ]
    response = tap(member_client, venice, None, seq=6, dealer=tied[-1])
    assert draft_of(response)["dealer"] == tied[-1]
    page = dom(response)
    assert f"Dealer: {tied[-1]} · First Chooser:" in text(find(page, "p", id="fv-where"))
    assert len(offered(page)) == 42  # the deck is reshuffled


def _tied_first_half() -> tuple[list[dict], list[str]]:
    """Six deals after which two players or more tie on first-half points, and who they are."""
    from referee.forget_venice import DECK, ForgetVenice

    names = ["Ana", "Ben", "Chloé"]
    cards = [card.name for card in DECK]
    for shift in range(42):
        order = cards[shift:] + cards[:shift]
        hands = [order[deal * 7 : deal * 7 + 7] for deal in range(6)]
        moves = [
            {"dealer": names[deal % 3], "piles": [h[:2], h[2:4], h[4:]], "first": 0, "second": 1}
            for deal, h in enumerate(hands)
        ]
        state = ForgetVenice.start(names, None)
        for move in moves:
            state.play(move)
        if len(state.next_dealers()) > 1:
            return moves, state.next_dealers()
    raise AssertionError("no tied first half found")


@pytest.mark.parametrize(
    "fields",
    [
        {"draft": "{not json"},
        {"draft": json.dumps({"piles": "all of them"})},
        {"draft": json.dumps({"active": 7})},
        {"draft": json.dumps({"dealer": "Zoé"})},
        {"pile": "5"},
        {"second": "1"},
        {"card": "The Excuse"},
        {"dealer": "Ben"},
        {},
    ],
)
def test_tampered_or_missing_input_gets_a_message(member_client, venice, fields):
    data = {"version": 0, "draft": "", **fields}
    response = member_client.post(reverse("play-move", args=[venice.pk]), data, headers=HTMX)
    assert response.status_code == 200 and error_of(response)
    assert venice.moves.count() == 0


def test_the_json_fallback_still_enters_a_deal(member_client, venice):
    response = member_client.post(
        reverse("play-move", args=[venice.pk]),
        {"move_json": json.dumps(FIRST), "version": 0, "draft": ""},
        headers=HTMX,
    )
    assert response.status_code == 200 and venice.moves.count() == 1


# Board and score sheet --------------------------------------------------------------------------


def test_the_board_groups_each_collection_by_suit_with_live_criteria(member_client, venice):
    tap(member_client, venice, {"piles": FIRST["piles"], "first": 1}, second="2")
    response = member_client.get(reverse("play", args=[venice.pk]))
    ben = next(p for p in response.context["fv_board"]["players"] if p["name"] == "Ben")
    # Ben took The Author (Moons, Knots) and The Desert (Suns, Wyrms); his first half:
    # I = Waves/Knots, II = Moons/Wyrms, III = Leaves/Suns.
    assert [c["value"] for c in ben["criteria"]] == [0, 0, 1]
    counts = {s["name"]: s["count"] for c in ben["criteria"] for s in c["suits"]}
    assert counts == {"Waves": 0, "Knots": 1, "Moons": 1, "Wyrms": 1, "Leaves": 0, "Suns": 1}
    assert ben["role"] == "Dealer"


def test_the_score_sheet_shows_both_halves_totals_and_the_tie_break(member_client, night, players):
    play = services.import_log(club=night.club, log=GAME, night=night, by=None)
    response = member_client.get(reverse("play-sheet", args=[play.pk]))
    assert response.status_code == 200
    sheet = response.context["fv_sheet"]
    assert [h["totals"] for h in sheet["halves"]] == [[3, 8, 14], [13, 8, 2]]
    assert sheet["totals"] == [16, 16, 16]
    assert sheet["tie_break"] == "second_half"
    tie_break = find(find(dom(response), "div", id="fv-sheet"), "p", id="fv-tie-break")
    assert "the most second-half points decided the winner" in text(tie_break)


def test_each_column_of_the_score_sheet_is_headed_by_its_player(member_client, night, players):
    play = services.import_log(club=night.club, log=GAME, night=night, by=None)
    page = dom(member_client.get(reverse("play-sheet", args=[play.pk])))
    sheet = find(page, "div", id="fv-sheet")
    tables = find_all(sheet, "table", class_="fv-half-sheet") + [
        find(sheet, "table", id="fv-totals")
    ]
    for table in tables:
        headings = find_all(find(table, "thead"), "th")
        assert [text(th) for th in headings[1:]] == ["Ana", "Ben", "Chloé"]


def test_the_sheet_of_a_first_half_leaves_the_second_half_blank(member_client, venice):
    tap(member_client, venice, {"piles": FIRST["piles"], "first": 1}, second="2")
    response = member_client.get(reverse("play-sheet", args=[venice.pk]))
    sheet = response.context["fv_sheet"]
    assert sheet["halves"][1]["totals"] == [None, None, None]
    page = dom(response)
    assert not sheet["finished"] and find_all(page, "div", id="fv-sheet")
    assert not find_all(page, None, id="fv-tie-break")


# What the tests over every game ask of this one (tests/per_game.py) ---------------------------

REFUSED_MOVE = {
    "en": "Deal 2 of 12: Chloé cannot be the dealer of deal 2: the deal passes left, from Ana to "
    "Ben.",
    "fr": "Donne 2 sur 12 : ce n'est pas à Chloé de distribuer la donne 2 : la donne passe à "
    "gauche, après Ana c'est à Ben.",
}
REFUSED_SETUP = (
    {"sheets": {"Zed": {}}},
    "Les feuilles nomment \"Zed\", qui n'est pas l'un des joueurs (Ana, Ben, Chloé).",
)
SAMPLES = {
    "card": "The Sailor",
    "deal": 7,
    "pile": 0,
    "half": "2",
    "criterion": "III",
    "suit": "Wyrms",
    "suits": ["Moons", "Wyrms"],
    "points": 12,
}
SAYS = [
    ("pile", 0, "1", "1"),
    ("card", "The Sailor", "The Sailor", "The Sailor"),
    ("suits", ["Moons", "Knots"], "Moons, Knots", "Lunes, Nœuds"),
    ("either", ["Ana", "Ben"], "Ana or Ben", "Ana ou Ben"),
]


def first_tap(log: dict) -> dict:
    """The dealer."""
    return {"dealer": log["moves"][0]["dealer"]}


def test_a_suit_in_a_refused_setup_is_said_in_the_readers_language(member_client, night, players):
    sheets = {
        p.name: {
            half: dict(zip(CRITERIA, DEFAULT_SHEETS[seat][half], strict=True)) for half in "12"
        }
        for seat, p in enumerate(players)
    }
    sheets["Ana"]["1"]["I"] = ["Moons", "Moons"]
    member_client.cookies.load({"django_language": "fr"})
    data = {"game": "forget-venice", "seat": [p.pk for p in players]}
    response = member_client.post(
        setup_url(night, players), {**data, "setup_json": json.dumps({"sheets": sheets})}
    )
    assert response.status_code == 422
    error = text(find(dom(response), None, id="setup-error"))
    assert "utilise deux fois les Lunes :" in error


def test_the_deals_are_named_up_to_the_last_and_a_move_after_it_by_its_number():
    """There is no 13th deal: a move after the 12th (refused) is named "Move 13"."""
    ui = ui_for("forget-venice")
    assert ui.move_name(None, 11) == "Deal 12 of 12"
    assert ui.move_name(None, 12) == "Move 13"


def test_a_criterion_left_with_no_suit_says_so_with_a_dash(member_client, night, players):
    data = default_form(players)
    for suit in ("Waves", "Leaves"):  # Chloé's second half: criterion I emptied into III
        data[f"sheet-2-2-{suit}"] = "III"
    response = member_client.post(setup_url(night, players), data)
    assert response.status_code == 422
    assert text(find(dom(response), "p", id="setup-error")) == (
        "Chloé's sheet, half 2: criterion I has 0 suits (—); each criterion takes two."
    )
    assert Play.objects.count() == 0


# The table drawn in Python (games.ui.forget_venice.table, issue 32) ------------------------------


@pytest.fixture
def kept_for_real(monkeypatch):
    """Kept pieces as the site keeps them, not drawn again to be checked (tests/conftest.py)."""
    from games.ui import _drawing as drawing

    monkeypatch.setattr(drawing, "CHECK", False)


def test_a_card_of_the_deck_is_drawn_once_for_its_name_and_the_language(kept_for_real, monkeypatch):
    """The deck's 30-odd cards are drawn after every deal: a card's face, once per process."""
    from django.utils import translation

    from games.ui.forget_venice import table
    from games.ui.forget_venice.board import card_info

    faces = []
    face = table._face

    def counted(name):
        faces.append(name)
        return face(name)

    monkeypatch.setattr(table, "_face", counted)
    monkeypatch.setattr(table, "_undealt", table.Pieces(table._draw_undealt))
    deck = [card_info("The Author"), card_info("Ace of Moons")]
    with translation.override("en"):
        first = table.draw_deck(deck, building=True)
        assert table.draw_deck(deck, building=True) == first
        assert 'value="The Author"' in first and 'data-value="Ace of Moons"' in first
    assert faces == ["The Author", "Ace of Moons"]
    with translation.override("fr"):
        table.draw_deck(deck, building=True)
    assert len(faces) == 4


def test_the_collection_and_a_laid_card_are_said_in_the_readers_language():
    from django.utils import translation

    from games.ui.forget_venice import table
    from games.ui.forget_venice.board import RANK_SHORT, card_info

    player = {
        "criteria": [
            {
                "criterion": "I",
                "rule": "the smaller count",
                "value": 1,
                "suits": [
                    {
                        "name": "Moons",
                        "css": "moons",
                        "short": "Lu",
                        "label": "Lunes",
                        "count": 2,
                        "held": tuple(2 if n == 2 else 0 for n in range(11)),
                    }
                ],
            }
        ]
    }
    with translation.override("fr"):
        drawn = dom(str(table.draw_collection(player, list(RANK_SHORT.values()))))
        laid = dom(str(table.draw_laid([card_info("The Author")])))
    assert text(find_all(find(drawn, "thead"), "th")[0]) == "Couleur"
    # the criterion's rule said in the language drawn, whatever the board's words
    assert text(find(drawn, "th", scope="rowgroup")) == "I le plus petit nombre = 1"
    assert [text(td) for td in find_all(drawn, "td", class_="fv-held")] == ["2"]
    assert attr(find(laid, "button"), "title") == "La reprendre"
    assert attr(find(laid, "button"), "value") == "The Author"


def _form_for(dealer=None, data=None, lang="en"):
    """The deal form of forget-venice-1 before its first deal (Ana deals), in ``lang``."""
    from django.utils import translation

    from games.ui import Draft
    from games.ui.forget_venice.board import board_context
    from referee import judge

    judgement = judge({**GAME, "moves": []})
    with translation.override(lang):
        return board_context(judgement, GAME["players"], Draft(data) if data else None)["fv_form"]


def test_what_is_said_for_each_dealer_is_shown_once_that_dealer_is_tapped():
    """On the phone each player may be the dealer tapped: each one's words, hidden but Ana's,
    the dealer the rotation allows."""
    from django.utils import translation

    from games.ui.forget_venice import table

    form = _form_for()
    with translation.override("fr"):
        said = dom(str(table.draw_each_deal(form, "second")))
        legend = dom(str(table.draw_each_deal(form, "piles", "span")))
    paragraphs = find_all(said, "p")
    assert [text(p) for p in paragraphs] == [
        f"{deal['second_chooser']} (second à choisir) a pris :" for deal in form["deals"]
    ]
    assert [attr(p, "data-when-value") for p in paragraphs] == [d["when"] for d in form["deals"]]
    assert [is_hidden(p) for p in paragraphs] == [not deal["shown"] for deal in form["deals"]]
    assert [deal["dealer"] for deal in form["deals"] if deal["shown"]] == ["Ana"]
    counts = find_all(legend, "span", class_="fv-laid-count")
    assert len(counts) == len(form["deals"]) and all(text(c) == "0" for c in counts)


def test_the_piles_are_buttons_and_the_first_choosers_pile_is_pressed():
    from games.ui.forget_venice import table

    piles = [["The Author"], ["The Origin"], ["The Journey", "The Painter", "The Savage"]]
    piles[2] += ["The Mountain", "The Sailor"]
    form = _form_for(data={"dealer": "Ana", "piles": piles, "active": 2, "first": 1})
    first = dom(str(table.draw_choices(form, "first")))
    second = dom(str(table.draw_choices(form, "second")))
    heads = [dom(str(table.draw_pile_head(pile, form["building"]))) for pile in form["piles"]]
    assert [attr(b, "aria-pressed") for b in find_all(first, "button")] == [
        "false",
        "true",
        "false",
    ]
    assert [text(b) for b in find_all(second, "button")] == ["Pile 1", "Pile 3"]
    assert [attr(b, "value") for b in find_all(second, "button")] == ["0", "2"]
    assert [attr(find(h, "button"), "aria-pressed") for h in heads] == ["false", "false", "true"]
    # no script: nothing for the phone's builder
    assert attr(find_all(first, "button")[0], "data-label") is None


@pytest.mark.parametrize("name", ["forget-venice-1", "forget-venice-2"])
def test_each_suits_row_holds_the_cards_bearing_it_by_rank(name):
    """A collection's row: the cards bearing the suit, counted under their rank's column (the
    cards are read once for the six suits)."""
    from games.ui.forget_venice.board import RANK_COLUMNS, player_board
    from referee import judge
    from referee.decktet import BY_NAME

    log = json.loads((EXAMPLES / f"{name}.json").read_text())
    for k in range(len(log["moves"]) + 1):
        state = judge({**log, "moves": log["moves"][:k]}).state
        for player in state.players:
            cards = [BY_NAME[card] for card in state.collection(player)]
            for criterion in player_board(state, player, None)["criteria"]:
                for row in criterion["suits"]:
                    bearing = [card for card in cards if row["name"] in card.suits]
                    assert row["count"] == len(bearing)
                    assert row["held"] == tuple(
                        sum(card.rank == rank for card in bearing) for rank, _ in RANK_COLUMNS
                    )


def test_the_cards_a_player_took_are_named_in_the_order_taken():
    from games.ui.forget_venice import table
    from games.ui.forget_venice.board import card_info

    taken = dom(
        "<p>"
        + str(table.draw_card_names([card_info("The Origin"), card_info("Ace of Moons")]))
        + "</p>"
    )
    assert [text(span) for span in find_all(taken, "span", class_="fv-card-name")] == [
        "The Origin",
        "Ace of Moons",
    ]
    assert text(taken) == "The Origin , Ace of Moons"
    assert str(table.draw_card_names([])) == ""
