"""Issue 30 on the play page: undo of a finished play, "Correct this move" (a page of its own
on the board as it stood, its form replacing the move), and the replay (``?at=k``), each a plain
page that works without a script."""

import json
from datetime import datetime

import pytest
from django.urls import reverse

from games import services
from games.models import Move, Play
from games.ui import ui_for
from referee import judge
from tests.dom import ANY, attr, dom, find, find_all, text
from tests.examples import EXAMPLES
from tests.services.test_corrections import BREAKS, KEEPS, log_of

pytestmark = pytest.mark.django_db

PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())


def name_of(log: dict, index: int) -> str:
    """The move at ``index`` as the players count it ("Round 1, card 6")."""
    state = judge({**log, "moves": log["moves"][:index]}).state
    return ui_for(log["game"]).move_name(state, index)


@pytest.fixture
def finished(night):
    """The Punto example, finished, imported into the night."""
    return services.import_log(club=night.club, log=PUNTO, night=night)


def correct(client, play, index, move, *, cut=False, key=None, version=None):
    fields = {
        "version": play.version if version is None else version,
        "json": "1",
        "move_json": json.dumps(move),
    }
    if cut:
        fields["cut"] = "1"
    if key:
        fields["idempotency_key"] = key
    return client.post(reverse("play-correct", args=[play.pk, index]), fields)


def test_a_finished_play_offers_undo_and_takes_it(member_client, finished):
    page = dom(member_client.get(reverse("play", args=[finished.pk])))
    undo = find(page, "form", action=reverse("play-undo", args=[finished.pk]))
    version = attr(find(undo, "input", name="version"), "value")
    response = member_client.post(reverse("play-undo", args=[finished.pk]), {"version": version})
    assert response.status_code == 302
    finished.refresh_from_db()
    assert finished.status == "in_progress"


def test_every_move_of_the_log_offers_its_correction(member_client, finished):
    page = dom(member_client.get(reverse("play", args=[finished.pk])))
    links = find_all(page, "a", class_="correct-move")
    assert [attr(a, "href") for a in links] == [
        reverse("play-correct", args=[finished.pk, i]) for i in range(len(PUNTO["moves"]))
    ]


def test_the_correction_page_shows_the_board_before_the_move(member_client, finished):
    index = 5
    response = member_client.get(reverse("play-correct", args=[finished.pk, index]))
    assert response.status_code == 200
    page = dom(response)
    correction = find(page, "div", id="correction")
    assert f"Correcting {name_of(PUNTO, index)}: " in text(correction)
    form = find(page, "form", id="move-form")
    assert attr(form, "action") == reverse("play-correct", args=[finished.pk, index])
    assert attr(form, "hx-post") is None  # a plain form: its answer is a page
    # The log and the board as they stood: the first five moves, nothing after.
    assert len(find_all(find(page, "ol", id="move-log"), "li")) == index
    options = json.loads(text(find(page, "script", id="play-options")))
    assert (
        options["player"]
        == judge({**PUNTO, "moves": PUNTO["moves"][:index]}).state.options()["player"]
    )
    # No undo, no live refresh, no abandon while correcting.
    assert not find_all(page, "button", id="undo")
    assert not find_all(page, "div", id="play-live")


def test_a_correction_that_keeps_the_rest(member_client, night):
    name, index, move = KEEPS["punto"]
    play = services.import_log(club=night.club, log=log_of(name), night=night)
    response = correct(member_client, play, index, move, key="a" * 32)
    assert response.status_code == 302 and response["Location"] == reverse("play", args=[play.pk])
    page = dom(member_client.get(response["Location"]))
    assert f"{name_of(PUNTO, index)} corrected." in text(page)
    # The replaced move stays in the log as replaced: who corrected it, and when.
    replaced = find(page, "li", class_="replaced")
    assert "Replaced:" in text(replaced) and "replaced by mahmoud" in text(replaced)
    # What it was (struck through), who entered it, and when it was entered and replaced.
    was = play.moves.get(struck=Move.Struck.REPLACED)
    struck = text(find(replaced, "del"))
    assert struck.startswith(f"{name_of(PUNTO, index)} — ") and "orange-1" not in struck
    assert "Ben" in struck  # the player, as the log tells the move
    times = [datetime.fromisoformat(attr(t, "datetime")) for t in find_all(replaced, "time")]
    assert times == [was.entered_at, was.undone_at]
    # Sent again (a lost answer): done once.
    count = play.moves.count()
    again = correct(member_client, play, index, move, key="a" * 32, version=play.version)
    assert again.status_code == 302 and play.moves.count() == count


def test_a_correction_that_breaks_a_later_move_says_which_and_offers_to_drop(member_client, night):
    name, index, move, broken = BREAKS["punto"]
    play = services.import_log(club=night.club, log=log_of(name), night=night)
    before = list(Move.objects.values_list("seq", "undone_at"))
    response = correct(member_client, play, index, move)
    assert response.status_code == 422
    page = dom(response)
    refused = find(page, "div", id="correction-refused")
    corrected = [*PUNTO["moves"][:index], move, *PUNTO["moves"][index + 1 :]]
    where = name_of({**PUNTO, "moves": corrected}, broken)  # counted in the corrected game
    assert text(refused).startswith(f"Not corrected: {where}: ")
    assert list(Move.objects.values_list("seq", "undone_at")) == before
    apply = find(refused, "form")
    fields = {attr(i, "name"): attr(i, "value") for i in find_all(apply, "input")}
    assert fields["cut"] == "1" and json.loads(fields["move_json"]) == move
    assert f"drop the moves from {where} on" in text(find(apply, "button"))
    response = member_client.post(attr(apply, "action"), fields)
    assert response.status_code == 302
    page = dom(member_client.get(response["Location"]))
    dropped = find_all(page, "li", class_="dropped")
    assert len(dropped) == len(PUNTO["moves"]) - broken
    assert "Dropped by a correction:" in text(dropped[0])


def test_an_illegal_correction_says_why(member_client, finished):
    move = {"player": "Ana", "card": "red-1", "at": [5, 5]}
    response = correct(member_client, finished, 2, move)
    assert response.status_code == 422
    assert f"{name_of(PUNTO, 2)}: " in text(find(dom(response), "p", id="move-error"))


def test_a_stale_correction_shows_the_play_as_it_stands(member_client, finished):
    response = correct(member_client, finished, 2, PUNTO["moves"][2], version=finished.version - 1)
    assert response.status_code == 409


def test_no_correction_of_an_abandoned_play_nor_of_a_move_past_the_log(member_client, night, owner):
    log = {**PUNTO, "moves": PUNTO["moves"][:4]}
    play = services.import_log(club=night.club, log=log, night=night)
    assert member_client.get(reverse("play-correct", args=[play.pk, 4])).status_code == 302
    services.abandon_play(play=play, by=owner)
    response = member_client.get(reverse("play-correct", args=[play.pk, 1]))
    assert response.status_code == 302
    page = dom(member_client.get(reverse("play", args=[play.pk])))
    assert not find_all(page, "a", class_="correct-move")
    assert not find_all(page, "button", id="undo")  # the owner resumes it first


def test_a_correction_tap_by_tap_without_a_script(member_client, finished):
    """Each step posts the form to the correction page, which keeps building the move."""
    url = reverse("play-correct", args=[finished.pk, 1])
    response = member_client.post(url, {"version": finished.version, "card": "orange-1"})
    assert response.status_code == 200
    page = dom(response)
    assert find(page, "div", id="correction")
    draft = attr(find(page, "input", name="draft"), "value")
    response = member_client.post(url, {"version": finished.version, "draft": draft, "at": "-1,-1"})
    assert response.status_code == 302, text(dom(response))
    assert Play.objects.get(pk=finished.pk).moves.filter(struck="replaced").count() == 1


# Replay ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("step", [0, 1, 7, len(PUNTO["moves"])])
def test_a_replay_step_is_the_play_page_of_the_log_cut_there(member_client, finished, step):
    response = member_client.get(reverse("play", args=[finished.pk]), {"at": step})
    assert response.status_code == 200
    page = dom(response)
    log = find(page, "ol", id="move-log")
    assert len(find_all(log, "li", data_seq=ANY)) == step
    cut = judge({**PUNTO, "moves": PUNTO["moves"][:step]})
    for name, score in cut.scores.items():
        row = find(find(page, "table", id="scores"), "tr", data_player=name)
        assert text(find(row, "td", class_="score")) == str(score)
    bar = find(page, "nav", id="replay")
    assert attr(find(bar, "input", name="at"), "value") == str(step)
    assert not find_all(page, "form", id="move-form")
    assert not find_all(page, "button", id="undo")
    assert not find_all(page, "a", class_="correct-move")
    if step:
        assert attr(find(bar, "a", id="replay-back"), "href").endswith(f"?at={step - 1}")
    if step < len(PUNTO["moves"]):
        assert attr(find(bar, "a", id="replay-forward"), "href").endswith(f"?at={step + 1}")


def test_a_replay_step_past_either_end_is_that_end_and_garbage_is_refused(member_client, finished):
    url = reverse("play", args=[finished.pk])
    page = dom(member_client.get(url, {"at": 999}))
    assert text(find(page, "p", id="replay-step")) == (
        f"After move {len(PUNTO['moves'])} of {len(PUNTO['moves'])}"
    )
    assert member_client.get(url, {"at": "two"}).status_code == 400


def test_a_replay_on_the_read_only_link(client, finished, owner):
    share = services.share_night(night=finished.night, by=owner)
    url = reverse("shared-play", args=[share.token, finished.pk])
    page = dom(client.get(url, {"at": 3}))
    assert "After move 3 of" in text(find(page, "p", id="replay-step"))
    cut = judge({**PUNTO, "moves": PUNTO["moves"][:3]})
    for name, score in cut.scores.items():
        row = find(find(page, "table", id="scores"), "tr", data_player=name)
        assert text(find(row, "td", class_="score")) == str(score)
    assert attr(find(page, "a", id="replay-forward"), "href") == f"{url}?at=4"


def test_a_play_in_progress_offers_the_correction_of_each_move(member_client, night):
    name, index, move = KEEPS["punto"]
    log = log_of(name)
    log["moves"] = log["moves"][:10]
    play = services.import_log(club=night.club, log=log, night=night)
    assert play.status == "in_progress"
    page = dom(member_client.get(reverse("play", args=[play.pk])))
    links = find_all(page, "a", class_="correct-move")
    assert [attr(a, "href") for a in links] == [
        reverse("play-correct", args=[play.pk, i]) for i in range(10)
    ]
    # The same tap builder as a new move, on the board as it stood before the move.
    correcting = dom(member_client.get(attr(links[index], "href")))
    table = find(correcting, "div", id="play-table", data_builder=ANY)
    assert attr(table, "data-post") is not None  # a correction posts its form, whole
    assert len(find_all(find(correcting, "ol", id="move-log"), "li")) == index
    response = correct(member_client, play, index, move)
    assert response.status_code == 302
    play.refresh_from_db()
    assert play.status == "in_progress"
    assert [m.data for m in play.moves.active()] == judge(
        {**log, "moves": [*log["moves"][:index], move, *log["moves"][index + 1 :]]}
    ).moves
