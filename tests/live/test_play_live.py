"""/plays/<id>/live/: what the play page fetches when its stream says the play changed — the
fresh fragment, keeping a half-built move if the position it was built on is still the one on
the table, else clearing it and saying why."""

from __future__ import annotations

import json
import time

from django.core import signing
from django.db import transaction
from django.urls import reverse

from games import services
from games.views.drafts import LIVE_SALT, position_of
from tests.conftest import PLAY_FIRST_MOVE
from tests.dom import attr, dom, find, find_all, text
from tests.examples import EXAMPLES

HTMX = {"HX-Request": "true"}
SECOND_MOVE = {"card": "blue-die", "call": {"player": "Ben", "series": 1}}


def live_vals(page) -> dict:
    """What the page sends when its stream says the play changed (#play-live's hx-vals)."""
    return json.loads(attr(find(page, "div", id="play-live"), "hx-vals"))


def draft_on(page) -> dict:
    """The draft the move form carries in its hidden field."""
    raw = attr(find(find(page, "form", id="move-form"), "input", name="draft"), "value")
    return json.loads(raw) if raw else {}


def versions_on(page) -> set[str]:
    """The versions the page's forms carry."""
    return {attr(field, "value") for field in find_all(page, "input", name="version")}


def notice_on(page) -> str | None:
    """The notice of a change made on another phone, next to the controls, if any."""
    notices = find_all(find(page, "div", id="verdict"), "p", id="live-notice")
    return text(notices[0]) if notices else None


def half_built(client, play, card: str = "green-die") -> dict:
    """Tap 1 of Buntherum's two: the turned card, kept in a draft; what the page would send."""
    page = dom(
        client.post(
            reverse("play-move", args=[play.pk]),
            {"version": play.version, "card": card},
            headers=HTMX,
        )
    )
    assert draft_on(page) == {"card": card}
    return live_vals(page)


def refresh(client, play, vals: dict):
    return client.get(reverse("play-live", args=[play.pk]), vals, headers=HTMX)


def test_nothing_changed_is_a_204(member_client, play):
    vals = half_built(member_client, play)
    assert refresh(member_client, play, vals).status_code == 204


def test_a_move_from_another_phone_clears_the_half_built_one_and_says_why(member_client, play):
    vals = half_built(member_client, play)
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    response = refresh(member_client, play, vals)
    page = dom(response)
    assert response.status_code == 200 and page.name != "html"
    said = notice_on(page)
    assert said == "A move was entered on another phone — your choices were cleared."
    assert live_vals(page)["kept"] == "" and draft_on(page) == {}  # no draft on the fresh page
    assert versions_on(page) == {str(play.version)}


def test_a_move_that_names_its_player_says_whose_it_was(member_client, member, night, players):
    """Punto's moves name their player: the notice says whose move cleared the draft."""
    punto = json.loads((EXAMPLES / "punto-1.json").read_text())
    play = services.start_play(night=night, game="punto", players=players[:2], setup=punto["setup"])
    # what the page held before the move: a half-built move at the empty log's position
    kept = {"play": play.pk, "position": position_of([]), "draft": {"card": "red-1"}}
    kept["user"] = member.pk
    vals = {"version": play.version, "kept": signing.dumps(kept, salt=LIVE_SALT)}
    services.record_move(play=play, move=punto["moves"][0])
    said = notice_on(dom(refresh(member_client, play, vals)))
    assert said == "Ana's move was entered on another phone — your choices were cleared."


def test_an_undo_from_another_phone_clears_it_too(member_client, play):
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    vals = half_built(member_client, play, SECOND_MOVE["card"])
    services.undo_last_move(play=play)
    said = notice_on(dom(refresh(member_client, play, vals)))
    assert said == "A move was undone on another phone — your choices were cleared."


def test_abandoning_from_another_phone_says_so(member_client, play):
    vals = half_built(member_client, play)
    services.abandon_play(play=play)
    page = dom(refresh(member_client, play, vals))
    assert notice_on(page).startswith("This play was abandoned on another phone")
    assert not find_all(page, "form", id="move-form")


def test_the_same_position_keeps_the_half_built_move(member_client, play):
    """A move and its undo: the version moved on, the position did not; the draft is kept."""
    vals = half_built(member_client, play)
    with transaction.atomic():
        services.record_move(play=play, move=PLAY_FIRST_MOVE)
        services.undo_last_move(play=play)
    play.refresh_from_db()
    page = dom(refresh(member_client, play, vals))
    assert notice_on(page) is None
    assert draft_on(page) == {"card": "green-die"}  # the draft, at the new version
    assert versions_on(page) == {str(play.version)}
    assert live_vals(page)["kept"]


def test_an_undo_then_another_move_is_another_position(member_client, play):
    """As many moves as when the draft was made, but not the same ones: cleared."""
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    vals = half_built(member_client, play, SECOND_MOVE["card"])
    # the draft is for the second move; the first is undone and entered differently
    services.undo_last_move(play=play)
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    assert notice_on(dom(refresh(member_client, play, vals)))


def test_a_forged_draft_is_not_kept(member_client, play):
    vals = half_built(member_client, play)
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    services.undo_last_move(play=play)
    forged = {**vals, "kept": vals["kept"][:-2] + "xx"}
    response = refresh(member_client, play, forged)
    assert response.status_code == 200
    assert live_vals(dom(response))["kept"] == ""


def test_an_outsider_gets_a_404(outsider_client, play):
    assert refresh(outsider_client, play, {"version": "0"}).status_code == 404


# Issue 29: the signed draft expires, and holds for its user only --------------------------------


def test_a_kept_draft_holds_for_its_user_only(member_client, owner_client, play):
    """The owner replaying the member's signed draft gets the play without it."""
    vals = half_built(member_client, play)
    with transaction.atomic():
        services.record_move(play=play, move=PLAY_FIRST_MOVE)
        services.undo_last_move(play=play)
    assert draft_on(dom(refresh(member_client, play, vals))) == {"card": "green-die"}
    page = dom(refresh(owner_client, play, vals))
    assert draft_on(page) == {} and notice_on(page) is None


def test_a_kept_draft_expires(member_client, play, settings, monkeypatch):
    vals = half_built(member_client, play)
    with transaction.atomic():
        services.record_move(play=play, move=PLAY_FIRST_MOVE)
        services.undo_last_move(play=play)
    later = time.time() + settings.LIVE_KEPT_DRAFT_SECONDS + 1
    monkeypatch.setattr(signing.time, "time", lambda: later)
    page = dom(refresh(member_client, play, vals))
    assert draft_on(page) == {}


def test_a_finished_play_follows_the_undo_of_its_last_move_on_another_phone(member_client, night):
    """Issue 30: the page of a finished play keeps following it; the undo of its last move on
    another phone brings the move form back, the play in progress again."""
    punto = json.loads((EXAMPLES / "punto-1.json").read_text())
    play = services.import_log(club=night.club, log=punto, night=night)
    page = dom(member_client.get(reverse("play", args=[play.pk])))
    assert "status-finished" in attr(find(page, "span", id="play-status"), "class")
    assert not find_all(page, "form", id="move-form")
    vals = live_vals(page)
    assert refresh(member_client, play, vals).status_code == 204
    services.undo_last_move(play=play)
    page = dom(refresh(member_client, play, vals))
    assert "status-in_progress" in attr(find(page, "span", id="play-status"), "class")
    assert find(page, "form", id="move-form")
