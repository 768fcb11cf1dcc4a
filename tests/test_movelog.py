"""The play page's move log: one line per move in the reader's language, undone moves struck
through, who entered each and when, in the club's time zone (games/movelog.py)."""

import datetime
import json
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import Move
from games.movelog import last_line, move_log
from games.selectors import LogEntry
from referee import judge
from referee.thricewise import Thricewise
from tests.dom import attr, dom, find, find_all, text
from tests.examples import EXAMPLES, example_paths
from tests.examples import MOVE_LOGS as EXPECTED

AT = datetime.datetime(2026, 11, 20, 20, 5, tzinfo=datetime.UTC)


def told(lines) -> list[str]:
    return [
        f"{line.name} — {line.text}" + (f" {line.outcome}" if line.outcome else "")
        for line in lines
    ]


def told_on(page) -> list[str]:
    """The lines of the move log a page shows, as ``told`` writes them."""
    found = []
    for line in find_all(find(page, "ol", id="move-log"), "li"):
        outcome = find_all(line, "span", class_="move-outcome")
        found.append(
            f"{text(find(line, 'strong', class_='move-name'))} — "
            f"{text(find(line, 'span', class_='move-text'))}"
            + (f" {text(outcome[0])}" if outcome else "")
        )
    return found


def entries_of(moves, undone=()) -> list[LogEntry]:
    return [
        LogEntry(
            seq,
            move,
            "mahmoud",
            AT,
            "olivia" if seq in undone else None,
            AT + datetime.timedelta(minutes=1) if seq in undone else None,
        )
        for seq, move in enumerate(moves)
    ]


EXAMPLES_WITH_MOVES = [p for p in example_paths("") if (EXPECTED / f"{p.stem}.en.txt").exists()]


def test_every_public_example_has_its_expected_lines():
    assert [p.stem for p in EXAMPLES_WITH_MOVES] == [p.stem for p in example_paths("")]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("path", EXAMPLES_WITH_MOVES, ids=lambda p: p.stem)
def test_the_move_log_of_each_public_example_reads_as_expected(path, language):
    """Every legal move of the example (all of them, or those before the illegal one)."""
    judgement = judge(json.loads(path.read_text()))
    expected = (EXPECTED / f"{path.stem}.{language}.txt").read_text().splitlines()
    with translation.override(language):
        lines = move_log(judgement, entries_of(judgement.moves), ZoneInfo("Europe/Paris"))
    assert told(lines) == expected


@pytest.mark.parametrize("path", EXAMPLES_WITH_MOVES, ids=lambda p: p.stem)
def test_the_last_line_alone_is_the_log_s_last_line(path):
    """An entry's page tells only its new line (last_line, from the judgement before it): the
    same line as the whole log told again, after every move of every public example."""
    log = json.loads(path.read_text())
    moves = judge(log).moves
    zone = ZoneInfo("Europe/Paris")
    for count in range(1, len(moves) + 1):
        before = judge({**log, "moves": moves[: count - 1]})
        after = judge({**log, "moves": moves[:count]})
        entries = entries_of(moves[:count])
        assert last_line(before, after, entries[-1], zone) == move_log(after, entries, zone)[-1]


@pytest.mark.parametrize("path", EXAMPLES_WITH_MOVES, ids=lambda p: p.stem)
def test_telling_the_last_line_leaves_both_games_as_they_were(path):
    """last_line reads the game before the move and the game after it, and changes neither:
    the move is told, not made a second time (its outcome is read from the game after it)."""
    log = json.loads(path.read_text())
    moves = judge(log).moves
    for count in range(1, len(moves) + 1):
        before = judge({**log, "moves": moves[: count - 1]})
        after = judge({**log, "moves": moves[:count]})
        kept = before.state.dump(), after.state.dump()
        last_line(before, after, entries_of(moves[:count])[-1], datetime.UTC)
        assert (before.state.dump(), after.state.dump()) == kept


def test_the_lines_agree_with_the_referees_points():
    """Thricewise: the points of each placement told are the ones the referee counted."""
    path = EXAMPLES / "thricewise-1.json"
    expected = json.loads(path.with_name("thricewise-1.expected.json").read_text())
    judgement = judge(json.loads(path.read_text()))
    text = " ".join(told(move_log(judgement, entries_of(judgement.moves), datetime.UTC)))
    scored = [p for p in expected["details"]["placements"] if p["points"]]
    assert text.count(": +") == len(scored)
    for placement in scored:
        assert f"{placement['card']} at " in text and f": +{placement['points']}" in text


def test_an_undone_move_is_told_where_it_was_made_and_marked_undone():
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    first, second = log["moves"][:2]
    wrong = {"player": "Ben", "card": "orange-9", "at": [1, 1]}
    judgement = judge({**log, "moves": [first, second]})
    entries = entries_of([first, wrong, second], undone={1})
    with translation.override("en"):
        lines = move_log(judgement, entries, ZoneInfo("Europe/Paris"))
    assert told(lines) == [
        "Round 1, card 1 — Ana plays the red 1 at F6.",
        "Round 1, card 2 — Ben plays the orange 9 at G7.",
        "Round 1, card 2 — Ben plays the orange 1 at F7.",
    ]
    assert [line.undone for line in lines] == [False, True, False]
    assert (lines[1].undone_by, lines[1].undone_time) == ("olivia", "21:06")


def test_an_entry_the_referee_no_longer_accepts_is_shown_as_it_was_entered():
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    judgement = judge({**log, "moves": log["moves"][:1]})
    stray = {"player": "Zed", "card": "red-1", "at": [0, 0]}
    entries = entries_of([log["moves"][0], stray, log["moves"][1]], undone={1})
    lines = move_log(judgement, entries, datetime.UTC)
    assert lines[1].text == json.dumps(stray, ensure_ascii=False)
    # a stored move past the last one the referee accepts: as entered too, never a crash
    assert lines[2].text == json.dumps(log["moves"][1], ensure_ascii=False)


def test_times_are_in_the_given_time_zone():
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    judgement = judge({**log, "moves": log["moves"][:1]})
    paris = move_log(judgement, entries_of(log["moves"][:1]), ZoneInfo("Europe/Paris"))
    montreal = move_log(judgement, entries_of(log["moves"][:1]), ZoneInfo("America/Montreal"))
    assert (paris[0].entered_time, montreal[0].entered_time) == ("21:05", "15:05")


# On the play page -------------------------------------------------------------------------------


@pytest.fixture
def finished_punto(club, night):
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    play = services.import_log(club=club, log=log, night=night)
    Move.objects.filter(play=play).update(entered_at=AT)
    return play


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_play_page_tells_the_moves_in_the_readers_language(
    member_client, finished_punto, language
):
    response = member_client.get(
        reverse("play", args=[finished_punto.pk]), headers={"Accept-Language": language}
    )
    expected = (EXPECTED / f"punto-1.{language}.txt").read_text().splitlines()
    page = dom(response)
    assert told_on(page) == expected
    first = find(find(page, "ol", id="move-log"), "li", data_seq="0")
    assert text(find(first, "span", class_="move-text")) == expected[0].split(" — ")[1]
    time = find(first, "time")
    assert (attr(time, "datetime"), text(time)) == ("2026-11-20T21:05:00+01:00", "21:05")
    zone = "Times in Europe/Paris." if language == "en" else "Heures du fuseau Europe/Paris."
    assert text(find(page, "p", class_="move-log-zone")) == zone


def test_the_play_page_strikes_an_undone_move_and_says_who_undid_it(member_client, play, owner):
    services.record_move(
        play=play, move={"card": "green-die", "call": {"player": "Ana", "series": 3}}
    )
    services.undo_last_move(play=play, by=owner)
    page = dom(member_client.get(reverse("play", args=[play.pk])))
    (undone,) = find_all(find(page, "ol", id="move-log"), "li", class_="undone")
    assert attr(undone, "data-seq") == "0"
    struck = find(undone, "del")
    assert text(find(struck, "strong", class_="move-name")) == "Card 1"
    move = text(find(struck, "span", class_="move-text"))
    assert move == "Ana calls the green die for series 3: right."
    assert "undone by olivia" in text(find(undone, "small"))


def test_the_play_page_shows_times_in_the_clubs_time_zone(member_client, finished_punto, owner):
    services.update_club_settings(club=finished_punto.club, time_zone="Asia/Tokyo", by=owner)
    page = dom(member_client.get(reverse("play", args=[finished_punto.pk])))
    assert text(find(page, "p", class_="move-log-zone")) == "Times in Asia/Tokyo."
    first = find(find(page, "ol", id="move-log"), "li", data_seq="0")
    time = find(first, "time")
    assert (attr(time, "datetime"), text(time)) == ("2026-11-21T05:05:00+09:00", "05:05")


def test_the_log_stays_downloadable_as_json(member_client, finished_punto):
    response = member_client.get(reverse("play-download", args=[finished_punto.pk]))
    log = json.loads(response.content)
    assert log["moves"] == json.loads((EXAMPLES / "punto-1.json").read_text())["moves"]


# Lines the public examples do not show ------------------------------------------------------------


def tell(log: dict, language: str = "en") -> list[str]:
    judgement = judge(log)
    assert judgement.legal, judgement.message
    with translation.override(language):
        return told(move_log(judgement, entries_of(judgement.moves), datetime.UTC))


def test_a_blocked_punto_card_ends_the_round_and_says_how():
    from tests.views.test_ui_punto import full_table_moves

    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    moves = [*full_table_moves(), {"player": "Ana", "card": "red-1", "blocked": True}]
    judgement = judge({**log, "moves": moves})
    ended = judgement.details["rounds"][0]
    lines = tell({**log, "moves": moves})
    assert lines[0] == "Round 1, card 1 — Ana plays the red 2 at F6."
    assert lines[-1].startswith("Round 1, card 37 — Ana draws the red 1 and is blocked: no cell")
    if ended["winner"]:
        assert f"{ended['winner']} wins round 1 on series." in lines[-1]
    else:
        assert lines[-1].endswith("Round 1 ends blocked: nobody wins it.")
    french = tell({**log, "moves": moves}, "fr")[-1]
    assert french.startswith("Manche 1, carte 37 — Ana pioche le 1 rouge : aucune case possible")


def test_three_high_tells_a_lost_game_and_a_piece_that_stays():
    log = json.loads((EXAMPLES / "three-high-1.json").read_text())
    stays = {"player": "Ana", "card": "AS", "side": "north", "piece": "red-1"}  # 1 - 1 = 0
    lines = tell({**log, "moves": [stays, {"player": "Ben", "cannot_play": True}]})
    assert lines == [
        "Turn 1 — Ana plays A♠ by the north side: the small red piece stays on a6.",
        "Turn 2 — Ben cannot play a card. Lost. Ben could not play a card.",
    ]
    french = tell({**log, "moves": [stays, {"player": "Ben", "cannot_play": True}]}, "fr")
    assert french == [
        "Tour 1 — Ana joue A♠ côté nord : la petite pièce rouge reste en a6.",
        "Tour 2 — Ben ne peut jouer aucune carte. Perdu. Ben n’a pas pu jouer de carte.",
    ]


def play_lines(play, language: str):
    from games import selectors

    moves = selectors.log_moves(play)
    judgement = selectors.judge_moves(play, selectors.seat_names(play), moves)
    with translation.override(language):
        return move_log(judgement, moves, play.club.zone)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(
    "game", ["buntherum", "forget-venice", "punto", "three-high", "thricewise"]
)
def test_the_moves_a_correction_dropped_are_told_as_they_were_played(game, language, night, member):
    """Issue 30: the moves dropped by a correction are no longer legal where they now stand;
    they are told, struck through, as they read before the correction (named and worded as
    they were played), never as JSON."""
    from tests.services.test_corrections import BREAKS, log_of

    name, index, move, broken = BREAKS[game]
    play = services.import_log(club=night.club, log=log_of(name), night=night)
    before = play_lines(play, language)
    services.replace_move(play=play, index=index, move=move, by=member, cut_at_refusal=True)
    after = play_lines(play, language)
    dropped = [line for line in after if line.struck == Move.Struck.DROPPED]
    assert told(dropped) == [
        f"{line.name} — {line.text}" for line in before[broken:]
    ]  # as the moves read before, their outcomes aside (no longer theirs)
    replaced = next(line for line in after if line.struck == Move.Struck.REPLACED)
    assert (replaced.name, replaced.text) == (before[index].name, before[index].text)


def test_a_thricewise_line_works_out_its_turns_windows_once(monkeypatch):
    """Its text and why it scored both tell the windows each card completes (GameUI.tell_move):
    a move's answer tells its line, worked out once (issue 32)."""
    log = json.loads((EXAMPLES / "thricewise-1.json").read_text())
    moves = judge(log).moves
    before = judge({**log, "moves": moves[:-1]})
    after = judge(log)
    worked_out = []
    why_turn = Thricewise.why_turn

    def counting(self, turn):
        worked_out.append(turn)
        return why_turn(self, turn)

    monkeypatch.setattr(Thricewise, "why_turn", counting)
    line = last_line(before, after, entries_of(moves)[-1], datetime.UTC)
    assert len(worked_out) == 1 and line.why and "+" in line.text
