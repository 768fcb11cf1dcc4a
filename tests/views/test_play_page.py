"""The play page at the table: the verdict next to the controls, the input kept after a refusal,
a move being built kept on the server, abandoning asked first and reversible by the owner."""

import json

import pytest
from django.urls import reverse

from games import services
from games.models import AuditEntry, Play
from tests.dom import attr, dom, find, find_all, text
from tests.examples import EXAMPLES

PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())
HTMX = {"HX-Request": "true"}

pytestmark = pytest.mark.django_db


@pytest.fixture
def punto(night, players):
    """Ana and Ben at Punto; Ana plays first."""
    return services.start_play(night=night, game="punto", players=players[:2], setup=PUNTO["setup"])


def test_the_score_table_lists_each_seat_in_order_with_its_score_and_the_winner(
    member_client, club, night
):
    log = json.loads((EXAMPLES / "buntherum-1.json").read_text())
    play = services.import_log(club=club, log=log, night=night)
    seats = list(play.seats.select_related("player").order_by("position"))
    table = find(dom(member_client.get(reverse("play", args=[play.pk]))), "table", id="scores")
    rows = find_all(find(table, "tbody"), "tr")
    assert [attr(row, "data-player") for row in rows] == log["players"]
    assert [text(find(row, "td", class_="score")) for row in rows] == [
        str(seat.score) for seat in seats
    ]
    winners = [attr(row, "data-player") for row in rows if attr(row, "class") == "winner"]
    assert winners == ["Ana"] and text(find_all(rows[0], "td")[0]) == "★ Ana"


def tap(client, play, data):
    """One tap of the move form, with the draft the page shows now (as the browser sends it)."""
    play.refresh_from_db()
    page = client.get(reverse("play", args=[play.pk])).content.decode()
    data = {"version": play.version, "draft": draft_on(page), **data}
    return client.post(reverse("play-move", args=[play.pk]), data, headers=HTMX).content.decode()


def draft_on(page: str) -> str:
    """The draft the move form carries in its hidden field, as the browser sends it."""
    return attr(find(find(dom(page), "form", id="move-form"), "input", name="draft"), "value")


def panel(page: str):
    """The move panel: the verdict and the controls."""
    return find(dom(page), "section", id="move-panel")


def verdict(page: str) -> str:
    """What the page says next to the controls."""
    return text(find(panel(page), "div", id="verdict"))


def test_a_refused_cell_keeps_the_card_drawn_and_says_why_next_to_the_controls(
    member_client, punto
):
    for move in PUNTO["moves"][:2]:
        services.record_move(play=punto, move=move)
    tap(member_client, punto, {"card": "red-4"})
    page = tap(member_client, punto, {"at": "9,9"})
    said = find(panel(page), "div", id="verdict", **{"aria-live": "polite"})
    assert "the red 4 cannot go at O15" in text(find(said, "p", id="move-error"))
    # the red 4 is still in hand: one tap to fix it
    assert text(find(panel(page), "p", id="punto-drafted")) == "Ana plays 4 red 4"
    assert json.loads(draft_on(page)) == {"player": "Ana", "card": "red-4"}


def test_a_call_the_referee_refuses_keeps_the_card_and_the_caller(member_client, play):
    """A Buntherum call completes its move in one tap: what to keep of it is the game's say."""
    services.record_move(play=play, move={"card": "blue-flower", "tie": ["Ana", "Chloé"]})
    data = {"version": 1, "draft": '{"card": "pink-die"}', "caller": "Ben", "series": "3"}
    response = member_client.post(reverse("play-move", args=[play.pk]), data, headers=HTMX)
    page = response.content.decode()
    assert "Ben cannot call: only Ana and Chloé" in verdict(page)
    assert json.loads(draft_on(page)) == {"card": "pink-die", "caller": "Ben"}
    assert play.moves.count() == 1


def test_a_move_being_built_survives_a_reload(member_client, punto):
    tap(member_client, punto, {"card": "blue-3"})
    page = dom(member_client.get(reverse("play", args=[punto.pk])))
    assert text(find(page, "p", id="punto-drafted")) == "Ana plays 3 blue 3"


def test_a_kept_draft_is_dropped_once_the_play_moved_on(member_client, punto):
    tap(member_client, punto, {"card": "blue-3"})
    services.record_move(play=punto, move=PUNTO["moves"][0])  # someone else's phone
    page = dom(member_client.get(reverse("play", args=[punto.pk])))
    assert not find_all(page, None, id="punto-drafted") and find_all(page, None, id="punto-turn")


def test_a_round_won_is_said_next_to_the_controls_and_its_line_marked(member_client, punto):
    moves = PUNTO["moves"]
    for move in moves[:8]:  # move 8 (Ana's) completes her line and ends round 1
        services.record_move(play=punto, move=move)
    last = moves[8]
    tap(member_client, punto, {"card": last["card"]})
    page = tap(member_client, punto, {"at": "{},{}".format(*last["at"])})
    assert "Ana wins round 1 with a line." in verdict(page)
    board = dom(page)
    assert len(find_all(board, "span", role="gridcell", class_="win-line")) == 5  # five in a row
    assert attr(find(board, "span", class_="last-move"), "data-card") == last["card"]


def test_the_last_card_played_is_marked(member_client, punto):
    services.record_move(play=punto, move=PUNTO["moves"][0])
    page = dom(member_client.get(reverse("play", args=[punto.pk])))
    x, y = PUNTO["moves"][0]["at"]
    # a card on the table, drawn as a cell some card may cover once it is tapped on the phone
    card = find(page, None, role="gridcell", **{"data-at": f"{x},{y}"})
    assert find_all(page, None, class_="last-move") == [card]


def test_abandoning_asks_first_then_the_owner_resumes_it(member_client, owner_client, punto):
    page = dom(member_client.get(reverse("play", args=[punto.pk])))
    assert find_all(page, "a", href=reverse("play-abandon", args=[punto.pk]))
    confirm = dom(member_client.get(reverse("play-abandon", args=[punto.pk])))
    punto.refresh_from_db()
    assert punto.status == "in_progress" and find_all(confirm, None, id="confirm-abandon")
    member_client.post(reverse("play-abandon", args=[punto.pk]), {"version": punto.version})
    punto.refresh_from_db()
    assert punto.status == "abandoned"

    abandoned = dom(member_client.get(reverse("play", args=[punto.pk])))
    for control in ("abandon", "resume"):  # not the owner
        assert not find_all(abandoned, None, id=control)
    assert (
        member_client.post(
            reverse("play-resume", args=[punto.pk]), {"version": punto.version}
        ).status_code
        == 404
    )
    assert find_all(dom(owner_client.get(reverse("play", args=[punto.pk]))), None, id="resume")
    owner_client.post(reverse("play-resume", args=[punto.pk]), {"version": punto.version})
    punto.refresh_from_db()
    assert punto.status == "in_progress" and punto.ended_at is None and punto.version == 2
    assert AuditEntry.objects.filter(action="play.resume").count() == 1


def test_a_finished_play_offers_undo_but_neither_abandon_nor_resume(owner_client, punto):
    for move in PUNTO["moves"]:
        services.record_move(play=punto, move=move)
    punto.refresh_from_db()
    assert punto.status == Play.Status.FINISHED
    page = dom(owner_client.get(reverse("play", args=[punto.pk])))
    for control in ("abandon", "resume", "move-form"):
        assert not find_all(page, None, id=control)
    # Its last move can be undone (issue 30): the one entered in the excitement of winning.
    assert find_all(page, "button", id="undo")
    assert owner_client.get(reverse("play-abandon", args=[punto.pk])).status_code == 302


def test_resuming_a_play_that_is_not_abandoned_is_refused(punto):
    with pytest.raises(services.ServiceError, match="Only an abandoned play"):
        services.resume_play(play=punto)


def test_a_stale_resume_is_refused(punto):
    services.abandon_play(play=punto)
    with pytest.raises(services.StalePlayError):
        services.resume_play(play=punto, version=0)


def test_the_game_stylesheet_is_in_the_head_never_in_a_fragment(member_client, punto):
    page = dom(member_client.get(reverse("play", args=[punto.pk])))
    css = "/static/css/games/punto.css"
    (link,) = find_all(page, "link", href=css)  # once, in the head
    assert find_all(find(page, "head"), "link", rel="stylesheet", href=css) == [link]
    assert not find_all(dom(tap(member_client, punto, {"card": "blue-3"})), "link")


def test_in_french_a_round_won_and_the_abandon_page(member_client, punto):
    member_client.cookies["django_language"] = "fr"
    moves = PUNTO["moves"]
    for move in moves[:8]:
        services.record_move(play=punto, move=move)
    tap(member_client, punto, {"card": moves[8]["card"]})
    page = tap(member_client, punto, {"at": "{},{}".format(*moves[8]["at"])})
    assert "Ana gagne la manche 1 avec une ligne." in verdict(page)
    confirm = member_client.get(reverse("play-abandon", args=[punto.pk])).content.decode()
    assert "Abandonner cette partie ?" in confirm and "après 9 coups" in confirm


def test_a_session_keeps_the_half_built_moves_of_a_few_plays_only(member_client, night, players):
    """Without a script a move is built on the server, kept in the session per play: a few
    plays at most, the oldest dropped first, so a session never grows without bound."""
    from games.views.drafts import KEPT_DRAFTS

    plays = [
        services.start_play(night=night, game="punto", players=players[:2], setup=PUNTO["setup"])
        for _ in range(KEPT_DRAFTS + 2)
    ]
    for play in plays:
        tap(member_client, play, {"card": "red-1"})
    kept = [key for key, _draft in member_client.session.items() if key.startswith("play-draft-")]
    assert sorted(kept) == sorted(f"play-draft-{play.pk}" for play in plays[-KEPT_DRAFTS:])
    # the newest plays keep theirs, the oldest was dropped: its page shows no card drawn
    assert find_all(
        dom(member_client.get(reverse("play", args=[plays[-1].pk]))), None, id="punto-drafted"
    )
    assert not find_all(
        dom(member_client.get(reverse("play", args=[plays[0].pk]))), None, id="punto-drafted"
    )
    # a move entered lets its draft go
    tap(member_client, plays[-1], {"at": "0,0"})
    assert f"play-draft-{plays[-1].pk}" not in member_client.session
    assert len(member_client.session["play-drafts"]) == KEPT_DRAFTS - 1
