"""The CSV export: no cell a spreadsheet would run as a formula, and UTF-8 it reads right."""

import csv
import io

import pytest
from django.urls import reverse

from games import services
from games.views.stats import csv_cell

pytestmark = pytest.mark.django_db

FORMULAS = ['=HYPERLINK("http://evil.example/","x")', "+1+1", "-2+3", "@SUM(A1:A9)"]


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_text_that_would_start_a_formula_gets_a_quote(start):
    assert csv_cell(f"{start}cmd|' /C calc'!A0") == f"'{start}cmd|' /C calc'!A0"


def test_other_cells_are_left_alone():
    assert [csv_cell(v) for v in ["Ana", "Chloé", "2026-11-20", "", -3, 2.5, None]] == [
        "Ana", "Chloé", "2026-11-20", "", -3, 2.5, None,
    ]  # fmt: skip


def test_the_export_neutralises_formulas_and_starts_with_a_bom(record, club, member_client):
    players = [services.add_player(club=club, name=name) for name in [*FORMULAS, "Chloé"]]
    record("punto", [(players[0], -3, False), (players[1], 5, True)], day=1)
    record("punto", [(players[2], 1, False), (players[3], 2, True)], day=2)
    record("punto", [(players[4], 4, True), (players[0], 0, False)], day=3)
    response = member_client.get(reverse("export-csv", args=[club.pk]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body = b"".join(response.streaming_content)
    assert body.startswith(b"\xef\xbb\xbfplay,night,game,")
    assert "Chloé".encode() in body
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
    assert {row["player"] for row in rows} == {"'" + name for name in FORMULAS} | {"Chloé"}
    assert not any(value.startswith(("=", "+", "@")) for row in rows for value in row.values())
    assert [row["score"] for row in rows][:2] == ["-3", "5"]  # numbers stay numbers


def test_seats_are_counted_from_one_as_the_table_counts_them(record, players, member_client):
    ana, ben, chloe = players
    record("buntherum", [(chloe, 3, False), (ana, 5, True), (ben, 1, False)])
    body = b"".join(member_client.get(reverse("export-csv", args=[ana.club_id])).streaming_content)
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
    assert [(row["position"], row["player"]) for row in rows] == [
        ("1", "Chloé"), ("2", "Ana"), ("3", "Ben"),
    ]  # fmt: skip
