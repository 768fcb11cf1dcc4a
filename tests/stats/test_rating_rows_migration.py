"""Migration 0022 (one rating row a seat, issue 32): a database with a club's history, taken
back to the rows of 0021 (one per seat and scope), comes out of 0022 with every club's rows,
pair records and partner rows rebuilt in the new shape: the same as the rebuild writes."""

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import services
from games.models import HeadToHead, PartnerChange, Seat
from tests.examples import EXAMPLES
from tests.stats.recount import rating_rows, recount, stored

BEFORE = [("games", "0021_partner_changes")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.fixture
def latest():
    """The app's last migration of today (the test leaves the database there)."""
    return [("games", MigrationExecutor(connection).loader.graph.leaf_nodes("games")[0][1])]


@pytest.mark.django_db(transaction=True)
def test_0022_rebuilds_every_clubs_rating_rows(club, night, latest):
    for game in ("forget-venice", "thricewise", "three-high", "punto"):
        log = json.loads((EXAMPLES / f"{game}-1.json").read_text())
        services.import_log(club=club, log=log, night_date=night.date)
    rows, records = rating_rows(club), stored(club)
    assert len(rows) == Seat.objects.filter(play__club=club).count()  # a row a seat
    migrate(BEFORE)
    with connection.cursor() as cursor:  # the derived tables that 0022 must fill again
        cursor.execute(f"DELETE FROM {HeadToHead._meta.db_table}")
        cursor.execute(f"DELETE FROM {PartnerChange._meta.db_table}")
    migrate(latest)
    assert rating_rows(club) == rows
    assert stored(club) == records == recount(club)
