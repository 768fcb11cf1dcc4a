"""The answer to a move carries only what changed (issue 28, games.parts): the page that puts
it in place shows exactly what the whole fragment would, and it weighs a few kilobytes."""

import gzip
import json
import re

import pytest
from django.db import transaction
from django.test.html import Element
from django.urls import reverse

from games import services
from tests.dom import dom, find_all
from tests.examples import EXAMPLES, example_paths

pytestmark = pytest.mark.django_db

GAMES = ["punto", "buntherum", "three-high", "thricewise", "forget-venice"]
HTMX = {"HTTP_HX_REQUEST": "true"}
#: What differs between two drawings of the same play: the fingerprints, the tokens and keys a
#: form gets anew each time it is drawn, and the time of the move entered.
_VOLATILE_INPUTS = {"csrfmiddlewaretoken", "idempotency_key"}


def example(game: str) -> dict:
    return json.loads((EXAMPLES / f"{game}-1.json").read_text())


def shown(page: str) -> str:
    """The X-Play-Parts header of a page: what static/js/play-parts.js sends."""
    return " ".join(
        f"{i}:{h}" for h, i in re.findall(r'data-h="([^"]+)"[^>]*?\sid="([^"]+)"', page)
    )


def steady(node):
    """``node`` without what differs between two drawings of the same play."""
    if not isinstance(node, Element):
        return node
    attributes = [(n, v) for n, v in node.attributes if n != "data-h" and node.name != "time"]
    if node.name == "input" and dict(attributes).get("name") in _VOLATILE_INPUTS:
        attributes = [(name, value) for name, value in attributes if name != "value"]
    copy = Element(node.name, attributes)
    # when a move was entered: the two answers compared enter it a moment apart
    copy.children = [] if node.name == "time" else [steady(child) for child in node.children]
    return copy


def by_id(node: Element, wanted: str) -> tuple[Element, int] | None:
    """The parent of the element ``wanted`` and its place among the parent's children."""
    for at, child in enumerate(node.children):
        if isinstance(child, Element):
            if dict(child.attributes).get("id") == wanted:
                return node, at
            found = by_id(child, wanted)
            if found:
                return found
    return None


def put_in_place(page: Element, answer: str) -> Element:
    """What the page shows once ``answer`` is put in place (static/js/play-parts.js for the
    parts, the lines a growing part lacks appended to it; htmx for a whole fragment: a log
    marked hx-preserve stays the page's, and the line out of band is appended to it), on a
    page read as a tree."""
    root = dom(answer)
    main = root if root.name == "div" else next(c for c in root.children if isinstance(c, Element))
    (old_main,) = find_all(page, "div", id="play-main")
    (old_log,) = find_all(page, "ol", id="move-log")
    if dict(main.attributes).get("data-parts") is None:
        new_log = by_id(main, "move-log")
        if "hx-preserve" in dict(new_log[0].children[new_log[1]].attributes):
            new_log[0].children[new_log[1]] = old_log
        if page is old_main:
            page = main
        else:
            parent, at = by_id(page, "play-main")
            parent.children[at] = main
    else:
        old_main.attributes = [(n, v) for n, v in main.attributes if n != "data-parts"]
        for piece in find_all(main, "template"):
            marks = dict(piece.attributes)
            parent, at = by_id(page, marks["data-part"])
            elements = [c for c in piece.children if isinstance(c, Element)]
            if "data-append" in marks:
                grown = parent.children[at]
                grown.children += elements
                grown.attributes = [
                    (n, marks["data-h"] if n == "data-h" else v) for n, v in grown.attributes
                ]
            else:
                (parent.children[at],) = elements
    for appended in find_all(root, "ol", hx_swap_oob="beforeend:#move-log"):
        (log,) = find_all(page, "ol", id="move-log")
        log.children += [c for c in appended.children if isinstance(c, Element)]
    return page


def cut_at(club, night, game: str, moves: int):
    log = example(game)
    play = services.import_log(club=club, log={**log, "moves": log["moves"][:moves]}, night=night)
    return play, log["moves"][moves]


def enter(client, play, move, parts: str | None):
    headers = {**HTMX, "HTTP_X_PLAY_PARTS": parts} if parts is not None else HTMX
    data = {"json": "1", "move_json": json.dumps(move), "version": play.version}
    return client.post(reverse("play-move", args=[play.pk]), data, **headers)


class _Undone(Exception):
    pass


def the_whole_answer(client, play, move) -> str:
    """The whole fragment that answers ``move``, the move then taken back as if never sent."""
    try:
        with transaction.atomic():
            whole = enter(client, play, move, None)
            assert "X-Play-Parts" not in whole
            raise _Undone(whole.content.decode())
    except _Undone as undone:
        return undone.args[0]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_a_moves_answer_put_in_place_shows_the_play_as_the_whole_fragment_does(
    member_client, club, night, game, where
):
    count = len(example(game)["moves"])
    moves = {"first": 0, "middle": count // 2, "last": count - 1}[where]
    play, move = cut_at(club, night, game, moves)
    url = reverse("play", args=[play.pk])
    page = member_client.get(url, **HTMX).content.decode()
    whole = the_whole_answer(member_client, play, move)
    answer = enter(member_client, play, move, shown(page))
    assert answer["X-Play-Change"] == "done"
    assert answer["X-Play-Parts"] == "1"
    got = steady(put_in_place(dom(page), answer.content.decode()))
    assert got == steady(put_in_place(dom(page), whole))
    # Only the parts that differ from the page's, a few kilobytes on the wire
    have = dict(pair.split(":") for pair in shown(page).split())
    body = answer.content.decode()
    for name, fingerprint in re.findall(
        r'<template data-part="([^"]+)"><[a-z]+ data-h="([^"]+)"', body
    ):
        assert have.get(name) != fingerprint, name
    assert len(gzip.compress(answer.content)) <= 8 * 1024
    assert len(answer.content) < len(whole)


@pytest.mark.parametrize("game", GAMES)
def test_a_page_that_does_not_say_its_parts_gets_the_whole_fragment(
    member_client, club, night, game
):
    play, move = cut_at(club, night, game, 1)
    answer = enter(member_client, play, move, None)
    assert "X-Play-Parts" not in answer
    assert "X-Play-Parts" in answer["Vary"]
    (main,) = find_all(dom(answer), "div", id="play-main")
    assert "data-parts" not in dict(main.attributes)


def test_a_page_behind_the_play_gets_the_whole_fragment(member_client, club, night):
    """Fingerprints of another drawing of the page (its own element differs): the whole."""
    play, move = cut_at(club, night, "punto", 1)
    page = member_client.get(reverse("play", args=[play.pk]), **HTMX).content.decode()
    stale = re.sub(r"play-main:\w+", "play-main:000000000000", shown(page))
    answer = enter(member_client, play, move, stale)
    assert answer["X-Play-Change"] == "done"
    assert "X-Play-Parts" not in answer


@pytest.mark.parametrize("path", example_paths(""), ids=lambda path: path.stem)
def test_every_answer_to_a_move_of_every_example_weighs_at_most_8_kb_gzipped(
    member_client, club, night, path
):
    """Issue 28: an answer to a move ≤ 8 KB on the wire, for every game: every move of every
    public example entered as a phone sends it (the parts its page shows), its refusal too."""
    log = json.loads(path.read_text())
    play = services.import_log(club=club, log={**log, "moves": []}, night=night)
    url = reverse("play", args=[play.pk])
    weights = []
    for move in log["moves"]:
        play.refresh_from_db()
        page = member_client.get(url, **HTMX).content.decode()
        answer = enter(member_client, play, move, shown(page))
        weights.append(len(gzip.compress(answer.content)))
        assert weights[-1] <= 8 * 1024, (len(weights), weights[-1])
        if answer["X-Play-Change"] != "done":  # the example's illegal move: its last
            assert answer["X-Play-Change"] == "refused"
            break
        assert answer["X-Play-Parts"] == "1"
    print(f"{path.stem}: answers {min(weights)}–{max(weights)} bytes gzipped")
