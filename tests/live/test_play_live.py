"""/plays/<id>/live/: what the play page fetches when its stream says the play changed — the
fresh fragment, keeping a half-built move if the position it was built on is still the one on
the table, else clearing it and saying why."""

from __future__ import annotations

import html
import json
import re

from django.core import signing
from django.db import transaction
from django.urls import reverse

from games import services
from games.views.play_page import LIVE_SALT, position_of
from tests.conftest import PLAY_FIRST_MOVE
from tests.dom import dom, find, text
from tests.examples import EXAMPLES

HTMX = {"HX-Request": "true"}
LIVE_VALS = re.compile(r'id="play-live"[^>]*hx-vals="([^"]*)"')
SECOND_MOVE = {"card": "blue-die", "call": {"player": "Ben", "series": 1}}


def live_vals(body: str) -> dict:
    return json.loads(html.unescape(LIVE_VALS.search(body).group(1)))


def half_built(client, play, card: str = "green-die") -> dict:
    """Tap 1 of Buntherum's two: the turned card, kept in a draft; what the page would send."""
    body = client.post(
        reverse("play-move", args=[play.pk]),
        {"version": play.version, "card": card},
        headers=HTMX,
    ).content.decode()
    assert f"&quot;card&quot;: &quot;{card}&quot;" in body
    return live_vals(body)


def refresh(client, play, vals: dict):
    return client.get(reverse("play-live", args=[play.pk]), vals, headers=HTMX)


def test_nothing_changed_is_a_204(member_client, play):
    vals = half_built(member_client, play)
    assert refresh(member_client, play, vals).status_code == 204


def test_a_move_from_another_phone_clears_the_half_built_one_and_says_why(member_client, play):
    vals = half_built(member_client, play)
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    response = refresh(member_client, play, vals)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert 'id="live-notice"' in body
    assert "A move was entered on another phone — your choices were cleared." in body
    assert live_vals(body)["kept"] == ""  # no draft on the fresh page
    assert f'name="version" value="{play.version}"' in body


def test_a_move_that_names_its_player_says_whose_it_was(member_client, night, players):
    """Punto's moves name their player: the notice says whose move cleared the draft."""
    punto = json.loads((EXAMPLES / "punto-1.json").read_text())
    play = services.start_play(night=night, game="punto", players=players[:2], setup=punto["setup"])
    # what the page held before the move: a half-built move at the empty log's position
    kept = {"play": play.pk, "position": position_of([]), "draft": {"card": "red-1"}}
    vals = {"version": play.version, "kept": signing.dumps(kept, salt=LIVE_SALT)}
    services.record_move(play=play, move=punto["moves"][0])
    notice = find(dom(refresh(member_client, play, vals)), "p", id="live-notice")
    assert text(notice) == "Ana's move was entered on another phone — your choices were cleared."


def test_an_undo_from_another_phone_clears_it_too(member_client, play):
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    vals = half_built(member_client, play, SECOND_MOVE["card"])
    services.undo_last_move(play=play)
    body = refresh(member_client, play, vals).content.decode()
    assert "A move was undone on another phone — your choices were cleared." in body


def test_abandoning_from_another_phone_says_so(member_client, play):
    vals = half_built(member_client, play)
    services.abandon_play(play=play)
    body = refresh(member_client, play, vals).content.decode()
    assert "This play was abandoned on another phone" in body
    assert 'id="move-form"' not in body


def test_the_same_position_keeps_the_half_built_move(member_client, play):
    """A move and its undo: the version moved on, the position did not; the draft is kept."""
    vals = half_built(member_client, play)
    with transaction.atomic():
        services.record_move(play=play, move=PLAY_FIRST_MOVE)
        services.undo_last_move(play=play)
    play.refresh_from_db()
    body = refresh(member_client, play, vals).content.decode()
    assert 'id="live-notice"' not in body
    assert "&quot;card&quot;: &quot;green-die&quot;" in body  # the draft, at the new version
    assert f'name="version" value="{play.version}"' in body
    assert live_vals(body)["kept"]


def test_an_undo_then_another_move_is_another_position(member_client, play):
    """As many moves as when the draft was made, but not the same ones: cleared."""
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    vals = half_built(member_client, play, SECOND_MOVE["card"])
    # the draft is for the second move; the first is undone and entered differently
    services.undo_last_move(play=play)
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    body = refresh(member_client, play, vals).content.decode()
    assert 'id="live-notice"' in body


def test_a_forged_draft_is_not_kept(member_client, play):
    vals = half_built(member_client, play)
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    services.undo_last_move(play=play)
    forged = {**vals, "kept": vals["kept"][:-2] + "xx"}
    response = refresh(member_client, play, forged)
    assert response.status_code == 200
    assert live_vals(response.content.decode())["kept"] == ""


def test_an_outsider_gets_a_404(outsider_client, play):
    assert refresh(outsider_client, play, {"version": "0"}).status_code == 404
