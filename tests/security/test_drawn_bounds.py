"""Nothing a request proposes makes the server draw more than the game allows (issue 29,
finding 1): a move or a half-built move (draft) far off the board, or longer than a deal, is
checked against the position before anything is drawn, and refused with a message (422 without
htmx), the draft kept in the session left as it was. One test per game: each proposes what its
board or hand would be sized from. (The time these take is measured in benchmarks/hard.py.)"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import services
from games.models import Move
from games.views.drafts import draft_key
from tests.dom import dom, find, text
from tests.examples import EXAMPLES
from tests.views.test_ui_thricewise import GRID  # the 2 × 2 grid the setup lays

pytestmark = pytest.mark.django_db

#: a page of the play is some tens of KB; a board drawn to a far cell was megabytes
PAGE_BOUND = 200_000


def post(client, play, data, *, draft=None):
    body = {"version": play.version, **data}
    if draft is not None:
        body["draft"] = json.dumps(draft)
    return client.post(reverse("play-move", args=[play.pk]), body)


def error_of(response) -> str:
    return text(find(find(dom(response), "div", id="verdict"), "p", id="move-error"))


def refused(response, message: str, play) -> None:
    assert response.status_code == 422, response.status_code
    assert len(response.content) < PAGE_BOUND
    assert message in error_of(response)
    assert not Move.objects.filter(play=play).exists()


# Thricewise: a placement far off the grid ----------------------------------------------------

REVEAL = {"Ana": "The Sailor", "Ben": "The Author"}


@pytest.fixture
def thricewise(night, players):
    return services.start_play(night=night, game="thricewise", players=players[:2], setup=GRID)


def placer(client, play) -> tuple[str, str]:
    """Who places first after REVEAL, and their card (as the page says it)."""
    response = client.post(
        reverse("play-move", args=[play.pk]),
        {"version": play.version, "reveal_0": REVEAL["Ana"], "reveal_1": REVEAL["Ben"]},
    )
    turn = response.context["tw_draft"]
    return turn["placer"], turn["ready"]


@pytest.mark.parametrize("at", [[0, 50000], [4000, 4000], [40, 1], [-30, 0], [3, 3]])
def test_thricewise_a_pending_placement_off_the_grid_is_refused_before_it_is_drawn(
    member_client, thricewise, at
):
    """[0, 50000] drew 50,000 rows (70 s, 16.9 MB); [4000, 4000] ran a worker out of memory;
    [40, 1] answered 500 (the column letters); [3, 3] touches no card."""
    player, card = placer(member_client, thricewise)
    kept_before = member_client.session.get(draft_key(thricewise))
    draft = {"reveal": REVEAL, "place": [{"player": player, "card": card, "at": at}], "done": []}
    response = post(member_client, thricewise, {"group_done": "1"}, draft=draft)
    refused(response, "A card cannot go there", thricewise)
    # the draft the session keeps is still the one the server made, not the far one
    assert member_client.session.get(draft_key(thricewise)) == kept_before
    # and the play page, loaded again, draws a board of the game's size
    page = member_client.get(reverse("play", args=[thricewise.pk]))
    assert page.status_code == 200 and len(page.content) < PAGE_BOUND
    assert len(page.context["tw_rows"]) <= 6 + 2


def test_thricewise_a_draft_placing_a_card_the_player_does_not_hold_is_damaged(
    member_client, thricewise
):
    player, _card = placer(member_client, thricewise)
    draft = {
        "reveal": REVEAL,
        "place": [{"player": player, "card": "The Origin", "at": [2, 0]}] * 3,
        "done": [],
    }
    response = post(member_client, thricewise, {"group_done": "1"}, draft=draft)
    refused(response, "The form was damaged", thricewise)


def test_thricewise_a_legal_pending_placement_is_still_drawn(member_client, thricewise):
    player, card = placer(member_client, thricewise)
    draft = {"reveal": REVEAL, "place": [{"player": player, "card": card, "at": [2, 0]}]}
    response = post(member_client, thricewise, {"group_done": "1"}, draft={**draft, "done": []})
    assert response.status_code == 200
    assert response.context["tw_draft"]["placed"] == 1


def test_thricewise_a_kept_draft_from_before_is_checked_again_when_drawn(member_client, thricewise):
    """A far draft already in a session (kept before this check) is not drawn either."""
    session = member_client.session
    session[draft_key(thricewise)] = {
        "version": thricewise.version,
        "data": {
            "reveal": REVEAL,
            "place": [{"player": "Ana", "card": "The Sailor", "at": [0, 50000]}],
            "done": [],
        },
    }
    session.save()
    page = member_client.get(reverse("play", args=[thricewise.pk]))
    assert page.status_code == 200 and len(page.content) < PAGE_BOUND


# Forget Venice: piles longer than a deal ----------------------------------------------------


@pytest.fixture
def venice(night, players):
    return services.start_play(night=night, game="forget-venice", players=players, setup={})


@pytest.mark.parametrize(
    "piles",
    [
        [["The Sailor"] * 600, [], []],  # one card 600 times: 600 cards drawn
        [["The Sailor", "The Author", "The Origin", "The Mill"], ["The Bard", "The Sea"],
         ["The End", "The Huntress"]],  # 8 cards: a deal is 7
    ],
)  # fmt: skip
def test_forget_venice_piles_beyond_the_deal_are_refused_before_they_are_drawn(
    member_client, venice, piles
):
    draft = {"dealer": "Ana", "piles": piles, "active": 0}
    response = post(member_client, venice, {"pile": "1"}, draft=draft)
    refused(response, "The form was damaged", venice)


def test_forget_venice_a_card_laid_twice_is_refused(member_client, venice):
    draft = {"dealer": "Ana", "piles": [["The Sailor"], ["The Sailor"], []], "active": 0}
    response = post(member_client, venice, {"pile": "1"}, draft=draft)
    refused(response, "The form was damaged", venice)


# Punto: a cell far off the table --------------------------------------------------------------


@pytest.fixture
def punto(night, players):
    setup = {"colours": {"Ana": ["red", "blue"], "Ben": ["orange", "green"]}}
    return services.start_play(night=night, game="punto", players=players[:2], setup=setup)


@pytest.mark.parametrize("at", ["0,50000", "4000,4000", "40,1"])
def test_punto_a_card_far_off_the_table_is_refused(member_client, punto, at):
    # The first card of a round goes anywhere: the second is the one whose cell is judged.
    post(member_client, punto, {"at": "0,0"}, draft={"player": "Ana", "card": "red-7"})
    punto.refresh_from_db()
    response = post(member_client, punto, {"at": at}, draft={"player": "Ben", "card": "orange-3"})
    assert response.status_code == 422 and len(response.content) < PAGE_BOUND
    assert Move.objects.filter(play=punto).count() == 1


def test_punto_a_move_typed_far_off_the_table_is_refused(member_client, punto):
    move = {"player": "Ana", "card": "red-7", "at": [0, 0]}
    post(member_client, punto, {"move_json": json.dumps(move)})
    punto.refresh_from_db()
    far = {"player": "Ben", "card": "orange-3", "at": [4000, 4000]}
    response = post(member_client, punto, {"move_json": json.dumps(far)})
    assert response.status_code == 422 and len(response.content) < PAGE_BOUND


# Buntherum: a tie of thousands of names -------------------------------------------------------


@pytest.fixture
def buntherum(night, players):
    setup = json.loads((EXAMPLES / "buntherum-1.json").read_text())["setup"]
    five = players + [services.add_player(club=night.club, name=n) for n in ["Dev", "Eli"]]
    return services.start_play(night=night, game="buntherum", players=five, setup=setup)


def test_buntherum_a_refused_tie_keeps_only_seated_names(member_client, buntherum):
    """A tie typed with 900 names is refused; what the page keeps of it (the card, who tied)
    holds only seated names, each once."""
    page = member_client.get(reverse("play", args=[buntherum.pk]))
    card = sorted(page.context["bh"]["unplaced"])[0]  # a card no series holds: offered
    names = [f"N{n}" for n in range(900)] + ["Ana", "Ana", "Ben"]
    response = post(
        member_client, buntherum, {"move_json": json.dumps({"card": card, "tie": names})}
    )
    assert response.status_code == 422 and len(response.content) < PAGE_BOUND
    kept = member_client.session.get(draft_key(buntherum))
    assert kept is not None and kept["data"]["tied"] == ["Ana", "Ben"]


# 3-High: a draft's fields are names of its deck, sides and pieces -----------------------------


@pytest.fixture
def three_high(night, players):
    setup = json.loads((EXAMPLES / "three-high-1.json").read_text())["setup"]
    return services.start_play(night=night, game="three-high", players=players[:2], setup=setup)


@pytest.mark.parametrize(
    "draft", [{"card": "A" * 9000}, {"side": ["north"] * 2000}, {"piece": {"x": 1}}]
)
def test_three_high_a_draft_of_anything_but_its_names_is_damaged(member_client, three_high, draft):
    response = post(member_client, three_high, {"side": "north"}, draft=draft)
    refused(response, "The form was damaged", three_high)
