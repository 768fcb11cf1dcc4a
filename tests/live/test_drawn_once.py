"""The phones watching a table are answered from one drawing of the play per version (issue 32,
games.views.drawn): drawn once, yet each answer is its viewer's own — their session's CSRF
token, fresh keys, their language — never another viewer's controls or text, never an older
version, and right for a page that skipped versions."""

from __future__ import annotations

import json
import re
import threading
import time

import pytest
from django.db import transaction
from django.urls import reverse

from games import selectors, services
from games.models import Play
from games.views import drawn, play_page
from tests.conftest import PLAY_FIRST_MOVE, client_for
from tests.dom import attr, dom, find, find_all
from tests.examples import EXAMPLES
from tests.views.test_move_answer import put_in_place, shown, steady

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())


def fetch(client, play, version, **headers):
    """What a page at ``version`` fetches when its stream says the play changed."""
    url = reverse("play-live", args=[play.pk])
    return client.get(url, {"version": version, "kept": ""}, headers={**HTMX, **headers})


def field(page, name: str, form: str = "move-form") -> str:
    return attr(find(find(dom(page), "form", id=form), "input", name=name), "value")


@pytest.fixture
def draws(monkeypatch):
    """How many times the play page was drawn."""
    count = {"n": 0}
    draw = play_page._draw

    def counted(*args, **kwargs):
        count["n"] += 1
        return draw(*args, **kwargs)

    monkeypatch.setattr(play_page, "_draw", counted)
    return count


@pytest.fixture
def punto(night, players):
    return services.start_play(night=night, game="punto", players=players[:2], setup=PUNTO["setup"])


def test_the_phones_watching_a_move_are_answered_from_one_drawing(
    owner_client, member_client, play, draws
):
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    answers = [fetch(client, play, 0) for client in (owner_client, member_client, member_client)]
    assert draws["n"] == 1
    assert {a.status_code for a in answers} == {200}
    # the same play, each with its own token and keys
    same = [steady(dom(a)) for a in answers]
    assert same[0] == same[1] == same[2]
    keys = [field(a, "idempotency_key") for a in answers]
    assert len(set(keys)) == 3
    for answer in answers:
        assert drawn._MARK not in answer.content.decode()
    # the next move is drawn again, once
    services.record_move(
        play=play, move={"card": "blue-die", "call": {"player": "Ben", "series": 1}}
    )
    fetch(owner_client, play, 1), fetch(member_client, play, 1)
    assert draws["n"] == 2


def test_each_answer_carries_its_viewers_own_csrf_token(owner, member, play):
    """A token drawn for one session is refused for another: the move form a watching phone was
    answered with must post, whoever's fetch drew the play first."""
    first, second = (client_for(u, enforce_csrf_checks=True) for u in (owner, member))
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    for client in (first, second):
        answer = fetch(client, play, 0)
        token = field(answer, "csrfmiddlewaretoken")
        key = field(answer, "idempotency_key")
        version = field(answer, "version")
        # a reset (step back) of the move form: a POST that needs the form's token
        posted = client.post(
            reverse("play-move", args=[play.pk]),
            {
                "csrfmiddlewaretoken": token,
                "version": version,
                "idempotency_key": key,
                "reset": "1",
            },
            headers=HTMX,
        )
        assert posted.status_code == 200, posted.status_code


def test_the_undo_form_gets_fresh_keys_too(owner_client, member_client, play):
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    keys = set()
    for client in (owner_client, member_client):
        page = dom(fetch(client, play, 0))
        (undo,) = [f for f in find_all(page, "form") if "undo" in (attr(f, "action") or "")]
        keys.add(attr(find(undo, "input", name="idempotency_key"), "value"))
    assert len(keys) == 2


def test_a_french_viewer_never_gets_the_english_drawing(owner_client, member_client, play):
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    english = fetch(owner_client, play, 0).content.decode()
    french = fetch(member_client, play, 0, **{"Accept-Language": "fr"}).content.decode()
    assert "Move log" in english and "Journal des coups" not in english
    assert "Journal des coups" in french and "Move log" not in french
    # and the other way round, once the French one is kept
    services.record_move(
        play=play, move={"card": "blue-die", "call": {"player": "Ben", "series": 1}}
    )
    fetch(member_client, play, 1, **{"Accept-Language": "fr"})
    assert "Move log" in fetch(owner_client, play, 1).content.decode()


def test_a_drawing_kept_is_never_served_for_another_version(owner_client, member_client, play):
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    fetch(owner_client, play, 0)
    services.undo_last_move(play=play)
    page = dom(fetch(member_client, play, 1))
    (main,) = find_all(page, "div", id="play-main")
    assert attr(main, "data-version") == "2"
    assert {attr(i, "value") for i in find_all(page, "input", name="version")} == {"2"}
    assert find_all(page, "li", class_="undone")  # the move, undone


def test_a_move_stored_while_the_log_was_read_is_not_kept_under_the_older_version(
    member_client, play, monkeypatch
):
    """The request read the play at version 1, then a move was stored before it read the log:
    what it draws (the newer log) is not kept as version 1 for the next fetch at version 1."""
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    read_log = selectors.log_moves

    def a_move_meanwhile(current):
        monkeypatch.setattr(selectors, "log_moves", read_log)
        services.record_move(
            play=Play.objects.get(pk=play.pk),
            move={"card": "blue-die", "call": {"player": "Ben", "series": 1}},
        )
        return read_log(current)

    monkeypatch.setattr(selectors, "log_moves", a_move_meanwhile)
    at_one = Play.objects.select_related("club").get(pk=play.pk)
    assert at_one.version == 1
    assert fetch(member_client, play, 0).status_code == 200
    assert drawn.KEPT.get(drawn.key(at_one)) is None
    # the play as it stands now is drawn and kept
    assert fetch(member_client, play, 1).status_code == 200
    assert drawn.KEPT.get(drawn.key(Play.objects.select_related("club").get(pk=play.pk)))


def test_a_half_built_move_is_never_kept_nor_given_to_another_phone(
    owner_client, member_client, play
):
    """The member's draft (kept by the server: no script) stays theirs; the owner's phone,
    fetching the same version, gets the play without it, before and after."""
    tapped = member_client.post(
        reverse("play-move", args=[play.pk]), {"version": 0, "card": "green-die"}, headers=HTMX
    )
    vals = json.loads(attr(find(dom(tapped), "div", id="play-live"), "hx-vals"))
    with transaction.atomic():  # a move and its undo: the position the draft was built on
        services.record_move(play=play, move=PLAY_FIRST_MOVE)
        services.undo_last_move(play=play)
    before = fetch(owner_client, play, 0)
    mine = member_client.get(reverse("play-live", args=[play.pk]), vals, headers=HTMX)
    after = fetch(owner_client, play, 0)
    assert json.loads(field(mine, "draft")) == {"card": "green-die"}
    for theirs in (before, after):
        assert field(theirs, "draft") == ""
        assert json.loads(attr(find(dom(theirs), "div", id="play-live"), "hx-vals"))["kept"] == ""


def test_a_read_only_link_never_gets_the_move_panel(client, owner, member_client, play, night):
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    assert find_all(dom(fetch(member_client, play, 0)), "form", id="move-form")
    share = services.share_night(night=night, by=owner)
    url = reverse("shared-play", args=[share.token, play.pk])
    for headers in ({}, HTMX):
        page = client.get(url, headers=headers).content.decode()
        assert 'id="move-panel"' not in page and 'id="move-form"' not in page
        assert "idempotency_key" not in page and reverse("play-undo", args=[play.pk]) not in page
        assert drawn._MARK not in page


def test_only_the_owner_of_an_abandoned_play_is_offered_to_resume_it(
    owner_client, member_client, play
):
    services.record_move(play=play, move=PLAY_FIRST_MOVE)
    services.abandon_play(play=play)
    for first, second in ((member_client, owner_client), (owner_client, member_client)):
        pages = {c: dom(fetch(c, play, 0)) for c in (first, second)}
        assert find_all(pages[owner_client], "button", id="resume")
        assert not find_all(pages[member_client], "button", id="resume")


def test_a_page_that_skipped_versions_shows_the_play_as_it_stands(
    owner_client, member_client, punto
):
    """A phone that missed moves sends the parts it shows; put in place, the answer shows what
    the whole fragment does — also when its parts came from an answer drawn for all."""
    url = reverse("play", args=[punto.pk])
    page = dom(member_client.get(url, headers=HTMX))
    for upto in (1, 4):  # one move, then three more at once
        while punto.version < upto:
            services.record_move(play=punto, move=PUNTO["moves"][punto.version])
            punto.refresh_from_db()
        fetch(owner_client, punto, 0)  # another phone's fetch draws the version first
        before = attr(find_all(page, "div", id="play-main")[0], "data-version")
        parts = shown(str(page))
        answer = member_client.get(
            reverse("play-live", args=[punto.pk]),
            {"version": before, "kept": ""},
            headers={**HTMX, "X-Play-Parts": parts},
        )
        assert answer["X-Play-Parts"] == "1"
        whole = fetch(member_client, punto, before).content.decode()
        page = put_in_place(page, answer.content.decode())
        assert steady(page) == steady(put_in_place(dom(whole), whole))
        assert attr(find_all(page, "div", id="play-main")[0], "data-version") == str(upto)


# The drawings kept (games.views.drawn.Kept) ----------------------------------------------------


def test_fetches_that_miss_at_once_draw_once():
    kept, calls = drawn.Kept(), []

    def draw():
        calls.append(1)
        time.sleep(0.05)
        return drawn.Drawn("<div>1</div>", None), True

    got = []
    threads = [
        threading.Thread(target=lambda: got.append(kept.get_or_draw((1, 1, 0, "z", "en"), draw)))
        for _ in range(5)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1 and len(got) == 5 and len({id(g) for g in got}) == 1


def test_a_drawing_that_may_not_be_kept_is_drawn_again():
    kept, calls = drawn.Kept(), []

    def draw():
        calls.append(1)
        return drawn.Drawn("x", None), False

    kept.get_or_draw((1, 1, 0, "z", "en"), draw)
    kept.get_or_draw((1, 1, 0, "z", "en"), draw)
    assert len(calls) == 2 and len(kept) == 0


def test_a_newer_version_lets_the_older_go_and_the_size_is_bounded():
    kept = drawn.Kept(size=3)
    for version in (1, 2):
        kept.get_or_draw((7, version, 0, "z", "en"), lambda: (drawn.Drawn("x", None), True))
    kept.get_or_draw((7, 2, 0, "z", "fr"), lambda: (drawn.Drawn("x", None), True))
    assert kept.get((7, 1, 0, "z", "en")) is None
    assert kept.get((7, 2, 0, "z", "en")) and kept.get((7, 2, 0, "z", "fr"))
    for play_id in (8, 9):
        kept.get_or_draw((play_id, 1, 0, "z", "en"), lambda: (drawn.Drawn("x", None), True))
    assert len(kept) == 3


def test_markers_are_filled_with_the_viewers_token_and_fresh_keys(rf):
    request = rf.get("/")
    html = f"{drawn.CSRF} {drawn.MOVE_KEY} {drawn.UNDO_KEY} {drawn.MOVE_KEY}"
    token, move, undo, again = drawn.personal(html, request).split()
    assert re.fullmatch(r"[a-zA-Z0-9]{64}", token)
    assert move == again and move != undo and re.fullmatch(r"[0-9a-f]{32}", move)
    # what is around the markers is kept as it is; a drawing without one is given back as it is
    around = drawn.personal(f'<i value="{drawn.MOVE_KEY}">é</i>{drawn.UNDO_KEY}', request)
    assert re.fullmatch(r'<i value="[0-9a-f]{32}">é</i>[0-9a-f]{32}', around)
    assert drawn.personal("<p>é</p>", request) == "<p>é</p>"
