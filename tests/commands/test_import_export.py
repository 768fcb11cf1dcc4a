"""import_logs / export_logs: all-or-nothing per file; a round trip keeps the judgements."""

import datetime
import json

import pytest
from django.core.management import CommandError, call_command

from games.models import Play, Player
from referee import judge
from tests.examples import EXAMPLES

FINISHED = sorted(EXAMPLES.glob("*-1.json"))
ILLEGAL = sorted(EXAMPLES.glob("*-2.json"))

pytestmark = pytest.mark.django_db


def test_import_creates_plays_and_missing_players(club):
    call_command("import_logs", *map(str, FINISHED), "--club", club.name, "--night", "2026-11-20")
    assert Play.objects.filter(club=club).count() == len(FINISHED)
    assert set(club.nights.values_list("date", flat=True)) == {datetime.date(2026, 11, 20)}
    assert Player.objects.filter(club=club, name="Chloé").exists()
    assert set(Play.objects.values_list("status", flat=True)) == {"finished"}


def test_import_refuses_an_illegal_log_with_the_referees_message(club, capsys):
    with pytest.raises(CommandError, match="1 of 2"):
        call_command("import_logs", str(FINISHED[0]), str(ILLEGAL[0]), "--club", club.name)
    err = capsys.readouterr().err
    assert f"{ILLEGAL[0]}: refused: move " in err
    assert Play.objects.count() == 1


def test_import_refuses_unknown_club_and_bad_date(club):
    with pytest.raises(CommandError, match="no club"):
        call_command("import_logs", str(FINISHED[0]), "--club", "Nobody")
    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        call_command("import_logs", str(FINISHED[0]), "--club", club.name, "--night", "soon")
    assert Play.objects.count() == 0


def test_export_then_import_gives_the_same_judgements(club, owner, tmp_path):
    from games import services

    call_command("import_logs", *map(str, FINISHED), "--club", club.name)
    call_command("export_logs", "--club", club.name, str(tmp_path / "out"))
    exported = sorted((tmp_path / "out").glob("*.json"))
    assert len(exported) == len(FINISHED)
    other = services.create_club(name="Elsewhere", owner=owner)
    call_command("import_logs", *map(str, exported), "--club", other.name)
    before = sorted(json.dumps(judge(json.loads(p.read_text())).as_dict()) for p in FINISHED)
    after = sorted(json.dumps(judge(json.loads(p.read_text())).as_dict()) for p in exported)
    assert before == after
    assert Play.objects.filter(club=other).count() == len(FINISHED)


def test_a_team_log_keeps_its_teams_through_import_and_export(club, owner, tmp_path):
    team_log = EXAMPLES / "punto-3.json"  # Ana and Chloé against Ben and Dan, one round to win
    call_command("import_logs", str(team_log), "--club", club.name)
    seats = {s.player.name: s for s in Play.objects.get(club=club).seats.all()}
    assert seats["Ana"].team == seats["Chloé"].team != seats["Ben"].team == seats["Dan"].team
    assert [n for n, s in seats.items() if s.is_winner] == ["Ana", "Chloé"]
    call_command("export_logs", "--club", club.name, str(tmp_path / "out"))
    (exported,) = (tmp_path / "out").glob("*.json")
    log = json.loads(exported.read_text())
    assert log["setup"]["teams"] == [["Ana", "Chloé"], ["Ben", "Dan"]]
    assert log["setup"]["rounds_to_win"] == 1
    from games import services

    other = services.create_club(name="Elsewhere", owner=owner)
    call_command("import_logs", str(exported), "--club", other.name)
    again = {s.player.name: s for s in Play.objects.get(club=other).seats.all()}
    assert {n: (s.team, s.is_winner, s.rank) for n, s in again.items()} == {
        n: (s.team, s.is_winner, s.rank) for n, s in seats.items()
    }
    assert judge(log).as_dict() == judge(json.loads(team_log.read_text())).as_dict()
