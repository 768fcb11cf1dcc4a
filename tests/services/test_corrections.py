"""games.services.corrections: a past move replaced and the whole log judged again (issue 30),
on every game: the rest kept, or a later move broken (refused, nothing changed; or applied and
the moves from it on dropped), the game ended earlier, a stale form, an abandoned play, a
request sent twice; the results, ratings and running totals always equal a rebuild."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games import ratings, services
from games.models import AuditEntry, Move, Play
from referee import judge
from tests.examples import EXAMPLES
from tests.services.stored import snapshot
from tests.stats.recount import rating_rows, recount, stored

DEMO = Path(__file__).resolve().parents[2] / "games" / "demo_logs"


def _card(player: str, card: str, x: int, y: int) -> dict:
    return {"player": player, "card": card, "at": [x, y]}


#: Logs of these tests' own. Punto for three, one round to win: Ben lays the fourth blue of row 1
#: and wins, one card after Ana could have laid the fourth red of row 0 (a round, and with it
#: this match, won one move earlier).
OWN = {
    "punto-first-line": {
        "format": "gamelog/1",
        "game": "punto",
        "players": ["Ana", "Ben", "Chloé"],
        "setup": {
            "rounds_to_win": 1,
            "colours": {"Ana": ["red"], "Ben": ["blue"], "Chloé": ["green"]},
        },
        "moves": [
            _card("Ana", "red-1", 0, 0),
            _card("Ben", "blue-1", 0, 1),
            _card("Chloé", "green-1", 0, 2),
            _card("Ana", "red-2", 1, 0),
            _card("Ben", "blue-2", 1, 1),
            _card("Chloé", "green-2", 1, 2),
            _card("Ana", "red-3", 2, 0),
            _card("Ben", "blue-3", 2, 1),
            _card("Chloé", "green-3", 2, 2),
            _card("Ana", "red-9", 0, 3),
            _card("Ben", "blue-4", 3, 1),
        ],
    }
}


def log_of(name: str) -> dict:
    """A finished log: a public example ("punto-1"), a demo log ("demo:three-high-lost") or one
    of ``OWN``."""
    if name in OWN:
        return json.loads(json.dumps(OWN[name]))
    if name.startswith("demo:"):
        return json.loads((DEMO / f"{name[5:]}.json").read_text())
    return json.loads((EXAMPLES / f"{name}.json").read_text())


# Per game, found by judging every alternative the referee's options offer at each move of these
# finished logs: (log, index, the move put there). ``KEEPS``: every later move stays legal;
# ``BREAKS``: the move at ``broken`` becomes illegal; ``ENDS``: the game is over right after it
# (Thricewise and Forget Venice always last their full number of turns and deals, whatever is
# played: no correction ends them earlier; no Punto example has one, hence a log of our own).
KEEPS = {
    "buntherum": ("buntherum-1", 0, {"card": "green-die", "call": {"player": "Ana", "series": 5}}),
    "forget-venice": (
        "forget-venice-1",
        0,
        {
            "dealer": "Ana",
            "piles": [
                ["Ace of Moons", "The Huntress"],
                ["The Author", "The Desert"],
                ["The Lunatic", "The Penitent", "The Market"],
            ],
            "first": 2,
            "second": 1,
        },
    ),
    "punto": ("punto-1", 1, {"player": "Ben", "card": "orange-1", "at": [-1, -1]}),
    "three-high": (
        "three-high-1",
        0,
        {"player": "Ana", "card": "AD", "side": "north", "piece": "black-1"},
    ),
    "thricewise": (
        "thricewise-1",
        0,
        {
            "reveal": {
                "Ana": "The Desert",
                "Ben": "The Author",
                "Chloé": "The Journey",
                "Dev": "The Painter",
                "Eli": "The Savage",
            },
            "place": [],
        },
    ),
}
BREAKS = {
    "buntherum": (
        "buntherum-1",
        0,
        {"card": "green-die", "call": {"player": "Ben", "series": 1}},
        6,
    ),
    "forget-venice": (
        "demo:forget-venice-finished",
        3,
        {
            "dealer": "Ana",
            "piles": [
                ["The Calamity"],
                ["The Soldier", "The Betrayal"],
                ["The Diplomat", "The Forest", "Ace of Suns", "The Pact"],
            ],
            "first": 2,
            "second": 0,
        },
        6,
    ),
    "punto": ("punto-1", 2, {"player": "Ana", "card": "red-2", "at": [-1, -1]}, 10),
    "three-high": (
        "three-high-1",
        0,
        {"player": "Ana", "card": "AS", "side": "north", "piece": "black-2"},
        4,
    ),
    "thricewise": (
        "thricewise-1",
        0,
        {
            "reveal": {
                "Ana": "The Painter",
                "Ben": "The Desert",
                "Chloé": "The Journey",
                "Dev": "The Author",
                "Eli": "The Savage",
            },
            "place": [],
        },
        4,
    ),
}
ENDS = {
    "buntherum": (
        "demo:buntherum-five-players",
        28,
        {"card": "orange-icecream", "call": {"player": "Dev", "series": 6}},
    ),
    "punto": ("punto-first-line", 9, _card("Ana", "red-4", 3, 0)),
    "three-high": ("three-high-1", 0, {"player": "Ana", "cannot_play": True}),
}
GAMES = sorted(KEEPS)


def imported(club, night, name: str, moves: int | None = None) -> tuple[Play, dict]:
    """The log imported as a play (its first ``moves`` moves only, when given), and the log."""
    log = log_of(name)
    if moves is not None:
        log["moves"] = log["moves"][:moves]
    return services.import_log(club=club, log=log, night=night), log


def active(play: Play) -> list:
    return [m.data for m in play.moves.active()]


def canonical(log: dict, moves: list) -> list:
    """The moves as the referee understands them (what the site stores)."""
    return judge({**log, "moves": moves}).moves


def equals_a_rebuild(club) -> bool:
    """The running totals equal a recount, the rating rows a rebuild from scratch."""
    assert stored(club) == recount(club)
    incremental = rating_rows(club)
    ratings.rebuild_club(club.pk)
    assert rating_rows(club) == incremental
    return True


@pytest.fixture
def history(club, night):
    """Another finished play before the corrected one, so that ratings follow from it."""
    services.import_log(club=club, log=log_of("punto-3"), night=night)
    return club


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_a_correction_that_keeps_the_rest(game, history, night, member):
    name, index, move = KEEPS[game]
    play, log = imported(history, night, name)
    before = play.moves.count()
    done = services.replace_move(play=play, index=index, move=move, by=member)
    corrected = [*log["moves"][:index], move, *log["moves"][index + 1 :]]
    assert active(play) == canonical(log, corrected)
    # The replaced entry stays in the log, struck as replaced, just before its replacement.
    assert play.moves.count() == before + 1
    replaced = play.moves.get(seq=index)
    assert replaced.struck == Move.Struck.REPLACED and replaced.undone_by == member
    assert replaced.data == canonical(log, log["moves"])[index]
    assert done.entered.seq == index + 1 and done.entered.entered_by == member
    assert list(play.moves.values_list("seq", flat=True)) == list(range(before + 1))
    expected = judge({**log, "moves": corrected})
    play.refresh_from_db()
    assert play.status == expected.status == "finished"
    assert {s.player.name: s.score for s in play.seats.all()} == expected.scores
    assert sorted(s.player.name for s in play.seats.filter(is_winner=True)) == sorted(
        expected.winners
    )
    entry = AuditEntry.objects.get(action=AuditEntry.Action.MOVE_REPLACE)
    assert entry.data["index"] == index and entry.data["dropped"] == 0
    assert equals_a_rebuild(history)


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_a_correction_that_breaks_a_later_move_is_refused_and_changes_nothing(
    game, history, night, member
):
    name, index, move, broken = BREAKS[game]
    play, _log = imported(history, night, name)
    version = play.version
    before = (snapshot(), rating_rows(history), stored(history))
    with pytest.raises(services.LaterMoveRefusedError) as refused:
        services.replace_move(play=play, index=index, move=move, by=member, version=version)
    assert refused.value.index == broken
    # Which move, and why, in the players' words ("Turn 5: ...").
    assert refused.value.message.startswith("Not corrected: ")
    assert refused.value.where in refused.value.message
    assert (snapshot(), rating_rows(history), stored(history)) == before
    play.refresh_from_db()
    assert play.version == version


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_a_correction_applied_all_the_same_drops_the_moves_from_the_broken_one_on(
    game, history, night, member
):
    name, index, move, broken = BREAKS[game]
    play, log = imported(history, night, name)
    total = len(log["moves"])
    done = services.replace_move(play=play, index=index, move=move, by=member, cut_at_refusal=True)
    corrected = [*log["moves"][:index], move, *log["moves"][index + 1 : broken]]
    assert active(play) == canonical(log, corrected)
    assert [m.seq for m in done.dropped] == list(range(broken + 1, total + 1))
    dropped = play.moves.filter(struck=Move.Struck.DROPPED)
    assert dropped.count() == total - broken
    assert all(m.undone_by == member and m.undone_at for m in dropped)
    play.refresh_from_db()
    assert play.status == judge({**log, "moves": corrected}).status == "in_progress"
    assert AuditEntry.objects.get(action="move.replace").data["dropped"] == total - broken
    assert equals_a_rebuild(history)
    # The play goes on from there: the move that broke is refused, the log's next one too.
    with pytest.raises(services.IllegalMoveError):
        services.record_move(play=play, move=log["moves"][broken])


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(ENDS))
def test_a_correction_that_ends_the_game_earlier(game, history, night, member):
    name, index, move = ENDS[game]
    play, log = imported(history, night, name)
    with pytest.raises(services.LaterMoveRefusedError) as refused:
        services.replace_move(play=play, index=index, move=move, by=member)
    assert refused.value.index == index + 1  # the next move: the game is over
    services.replace_move(play=play, index=index, move=move, by=member, cut_at_refusal=True)
    expected = judge({**log, "moves": [*log["moves"][:index], move]})
    play.refresh_from_db()
    assert play.status == expected.status == "finished"
    assert len(active(play)) == index + 1
    winners = play.seats.filter(is_winner=True).values_list("player__name", flat=True)
    assert sorted(winners) == sorted(expected.winners)
    assert equals_a_rebuild(history)


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_a_stale_correction_is_refused(game, night, member):
    name, index, move = KEEPS[game]
    play, log = imported(night.club, night, name)
    seen = play.version  # the correction's form was made here; then the last move is entered again
    services.undo_last_move(play=play, by=member)
    services.record_move(play=play, move=log["moves"][-1], by=member)
    before = snapshot()
    with pytest.raises(services.StalePlayError):
        services.replace_move(play=play, index=index, move=move, by=member, version=seen)
    assert snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_an_abandoned_play_cannot_be_corrected(game, night, owner):
    name, index, move = KEEPS[game]
    log = log_of(name)
    play, _log = imported(night.club, night, name, moves=len(log["moves"]) - 1)
    services.abandon_play(play=play, by=owner)
    before = snapshot()
    with pytest.raises(services.ServiceError, match="abandoned"):
        services.replace_move(play=play, index=index, move=move, by=owner)
    assert snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_a_correction_of_a_play_in_progress_keeps_it_in_progress(game, night, member):
    name, index, move = KEEPS[game]
    log = log_of(name)
    play, _log = imported(night.club, night, name, moves=len(log["moves"]) - 1)
    services.replace_move(play=play, index=index, move=move, by=member)
    play.refresh_from_db()
    assert play.status == "in_progress"
    # The last move of the log is entered after the correction as it was before.
    services.record_move(play=play, move=log["moves"][-1])
    play.refresh_from_db()
    assert play.status == "finished"


@pytest.mark.django_db
def test_an_illegal_correction_is_refused_with_the_referees_message(night, member):
    play, _log = imported(night.club, night, "three-high-1")
    before = snapshot()
    move = {"player": "Ben", "card": "AD", "side": "north", "piece": "black-1"}
    with pytest.raises(services.IllegalMoveError) as refused:
        services.replace_move(play=play, index=0, move=move, by=member)
    assert refused.value.message.startswith("Turn 1: ")
    assert snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize("index", [-1, 5, True, "0"])
def test_no_such_move(index, night, member):
    play, _log = imported(night.club, night, "three-high-1")
    with pytest.raises(services.ServiceError, match="no such move"):
        services.replace_move(play=play, index=index, move={}, by=member)


@pytest.mark.django_db
def test_the_same_correction_sent_twice_is_done_once(night, member):
    name, index, move = KEEPS["punto"]
    play, _log = imported(night.club, night, name)
    keyed = services.Keyed.of("k" * 32, {"index": index, "move": move})
    first = services.replace_move(play=play, index=index, move=move, by=member, keyed=keyed)
    version, count = Play.objects.get(pk=play.pk).version, play.moves.count()
    again = services.replace_move(
        play=play, index=index, move=move, by=member, keyed=keyed, version=version - 1
    )
    assert not first.repeated and again.repeated
    assert (Play.objects.get(pk=play.pk).version, play.moves.count()) == (version, count)
    other = services.Keyed.of("k" * 32, {"index": index + 1, "move": move})
    with pytest.raises(services.KeyReusedError):
        services.replace_move(play=play, index=index + 1, move=move, by=member, keyed=other)


@pytest.mark.django_db
def test_a_corrected_move_is_undone_like_any_other(night, member):
    name, _index, move = KEEPS["three-high"]
    play, log = imported(night.club, night, name, moves=1)
    services.replace_move(play=play, index=0, move=move, by=member)
    undone = services.undo_last_move(play=play, by=member)
    assert undone.data == canonical(log, [move])[0]
    assert active(play) == []
    # Undone, replaced: both out of the log, each struck as what it was.
    assert list(play.moves.values_list("struck", flat=True)) == ["replaced", ""]


@pytest.mark.django_db
def test_an_abandoned_play_is_not_undone_either(night, owner):
    """An abandoned play stays as it was (issue 30): its owner resumes it first."""
    play, _log = imported(night.club, night, "punto-1", moves=5)
    services.abandon_play(play=play, by=owner)
    before = snapshot()
    with pytest.raises(services.ServiceError, match="abandoned"):
        services.undo_last_move(play=play, by=owner)
    assert snapshot() == before
    services.resume_play(play=play, by=owner)
    services.undo_last_move(play=play, by=owner)
    assert len(active(play)) == 4


def test_the_service_is_called_as_the_issue_names_it():
    """``services.replace_move(*, play, index, move, by, version=None, cut_at_refusal=False)``
    (issue 30), with the request's key (``keyed``) as a move entry takes it; its refusals are
    ServiceErrors."""
    import inspect

    signature = inspect.signature(services.replace_move)
    assert [(p.name, p.kind, p.default) for p in signature.parameters.values()] == [
        ("play", inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.empty),
        ("index", inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.empty),
        ("move", inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.empty),
        ("by", inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.empty),
        ("version", inspect.Parameter.KEYWORD_ONLY, None),
        ("cut_at_refusal", inspect.Parameter.KEYWORD_ONLY, False),
        ("keyed", inspect.Parameter.KEYWORD_ONLY, None),
    ]
    assert issubclass(services.LaterMoveRefusedError, services.ServiceError)
    assert issubclass(services.IllegalMoveError, services.ServiceError)
