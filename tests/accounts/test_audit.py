"""The audit: every service call that changes a club's history writes who, what and when (UTC)."""

import datetime
import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone

from games import services
from games.gamelog import play_to_log
from games.models import AuditEntry
from tests.conftest import PLAY_FIRST_MOVE
from tests.dom import attr, dom, find, find_all, text


def audit_rows(response) -> tuple[list[str], list]:
    """The audit table's headings and its rows, newest first."""
    table = find(dom(response), "table", class_="audit")
    headings = [text(th) for th in find_all(find(table, "thead"), "th")]
    return headings, find_all(find(table, "tbody"), "tr")


pytestmark = pytest.mark.django_db


def last_entry(club) -> AuditEntry:
    return AuditEntry.objects.for_club(club).first()


def assert_recent_utc(entry: AuditEntry) -> None:
    assert entry.at.utcoffset() == datetime.timedelta(0)
    assert abs(timezone.now() - entry.at) < datetime.timedelta(minutes=1)


def test_starting_a_play_is_audited_with_its_actor(play, club, owner):
    entry = last_entry(club)
    assert (entry.action, entry.actor, entry.actor_name) == ("play.start", owner, "olivia")
    assert (entry.object_kind, entry.object_id) == ("play", play.pk)
    assert entry.summary == f"Buntherum #{play.pk} (Ana, Ben, Chloé)"
    assert_recent_utc(entry)


def test_entering_and_undoing_a_move_are_audited(play, club, member):
    services.record_move(play=play, move=PLAY_FIRST_MOVE, by=member)
    entered = last_entry(club)
    assert (entered.action, entered.actor, entered.data["seq"]) == ("move.enter", member, 0)
    assert entered.data["move"] == PLAY_FIRST_MOVE
    services.undo_last_move(play=play, by=member)
    undone = last_entry(club)
    assert (undone.action, undone.actor_name, undone.data["seq"]) == ("move.undo", "mahmoud", 0)
    assert_recent_utc(undone)


def test_a_refused_move_writes_no_entry(play, club, member):
    before = AuditEntry.objects.count()
    with pytest.raises(services.IllegalMoveError):
        services.record_move(play=play, move={"card": "nonsense"}, by=member)
    assert AuditEntry.objects.count() == before


def test_abandoning_a_play_is_audited(play, club, member):
    services.abandon_play(play=play, by=member)
    assert (last_entry(club).action, last_entry(club).actor) == ("play.abandon", member)


def test_importing_a_log_is_audited(play, club, owner, member):
    services.record_move(play=play, move=PLAY_FIRST_MOVE, by=member)
    imported = services.import_log(club=club, log=play_to_log(play), by=owner)
    entry = last_entry(club)
    assert (entry.action, entry.object_id, entry.data["moves"]) == ("play.import", imported.pk, 1)


def test_an_import_by_a_command_has_no_actor(play, club):
    services.import_log(club=club, log=play_to_log(play))
    entry = last_entry(club)
    assert entry.actor is None and entry.actor_name == ""


def test_an_anonymous_actor_is_recorded_as_no_one(play, club):
    """A request's user who is not logged in is no account to point at, like a command."""
    services.abandon_play(play=play, by=AnonymousUser())
    entry = last_entry(club)
    assert entry.actor is None and entry.actor_name == ""


def test_a_night_link_made_and_withdrawn_is_audited_on_the_night(night, club, owner):
    share = services.share_night(night=night, by=owner)
    services.revoke_share(share=share, by=owner)
    entries = [
        (e.action, e.actor, e.object_kind, e.object_id, e.summary, e.data)
        for e in AuditEntry.objects.for_club(club)
    ]
    about = ("night", night.pk, f"2026-11-20 (#{share.pk})", {"share": share.pk})
    assert entries[:2] == [("share.revoke", owner, *about), ("night.share", owner, *about)]


def test_the_audit_outlives_a_deleted_play_and_keeps_its_log(play, club, owner, member):
    services.record_move(play=play, move=PLAY_FIRST_MOVE, by=member)
    log = play_to_log(play)
    services.delete_play(play=play, by=owner)
    entries = list(AuditEntry.objects.for_club(club).values_list("action", flat=True))
    assert entries == ["play.delete", "move.enter", "play.start"]
    deleted = last_entry(club)
    assert deleted.data["log"] == log and deleted.object_id == play.pk
    assert [r["player"] for r in deleted.data["results"]] == ["Ana", "Ben", "Chloé"]


def test_the_audit_outlives_the_actors_account(play, club, owner):
    owner.delete()
    entry = AuditEntry.objects.get(action="play.start")
    assert entry.actor is None and entry.actor_name == "olivia"


# The audit page ------------------------------------------------------------------------------


def test_owner_sees_the_audit_newest_first_in_the_clubs_time_zone(owner_client, play, club, member):
    services.record_move(play=play, move=PLAY_FIRST_MOVE, by=member)
    AuditEntry.objects.filter(action="play.start").update(
        at=datetime.datetime(2026, 11, 20, 21, 5, 9, tzinfo=datetime.UTC)
    )
    response = owner_client.get(reverse("club-audit", args=[club.pk]))
    assert response.status_code == 200
    # A new club keeps the server's zone; Paris is UTC+1 in November: the page says which zone.
    assert club.time_zone == "Europe/Paris"
    headings, rows = audit_rows(response)
    assert headings == ["When (Europe/Paris)", "Who", "What"]
    entered, started = ([text(cell) for cell in find_all(row, "td")] for row in rows)
    assert entered[1] == "mahmoud" and entered[2].startswith("entered a move: ")
    assert " · log entry 1 " in entered[2]  # the log's first entry, seq 0
    assert started[1] == "olivia" and started[2].startswith("started a play: ")
    time = find(rows[1], "time")
    assert text(time) == "2026-11-20 22:05:09"
    assert attr(time, "datetime") == "2026-11-20T21:05:09+00:00"


def test_the_audit_follows_the_clubs_time_zone(owner_client, club, owner):
    services.update_club_settings(club=club, time_zone="America/Montreal", by=owner)
    entry = AuditEntry.objects.get(action="club.edit")
    assert entry.data == {
        "before": {"time_zone": "Europe/Paris"},
        "after": {"time_zone": "America/Montreal"},
    }
    AuditEntry.objects.filter(pk=entry.pk).update(
        at=datetime.datetime(2026, 11, 20, 21, 5, 9, tzinfo=datetime.UTC)
    )
    headings, rows = audit_rows(owner_client.get(reverse("club-audit", args=[club.pk])))
    assert headings[0] == "When (America/Montreal)"
    assert "2026-11-20 16:05:09" in [text(find(row, "time")) for row in rows]


def test_audit_page_is_paginated(owner_client, club, owner):
    for n in range(60):
        services.record_audit(
            club_id=club.pk,
            action=AuditEntry.Action.MEMBER_INVITE,
            by=owner,
            object_kind="invite",
            object_id=n,
            summary=f"entry-{n:02d}",
        )
    first = owner_client.get(reverse("club-audit", args=[club.pk])).content.decode()
    assert "entry-59" in first and "entry-09" not in first
    second = owner_client.get(reverse("club-audit", args=[club.pk]), {"page": "2"}).content.decode()
    assert "entry-09" in second and "entry-59" not in second
    junk = owner_client.get(reverse("club-audit", args=[club.pk]), {"page": "x"})
    assert junk.status_code == 200


def test_members_and_outsiders_get_404_for_the_audit(member_client, outsider_client, club, play):
    for client in (member_client, outsider_client):
        assert client.get(reverse("club-audit", args=[club.pk])).status_code == 404


def test_anonymous_visitor_is_sent_to_log_in_from_the_audit(client, club):
    response = client.get(reverse("club-audit", args=[club.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_audit_details_are_shown_as_json(owner_client, play, club, member):
    services.record_move(play=play, move=PLAY_FIRST_MOVE, by=member)
    _, rows = audit_rows(owner_client.get(reverse("club-audit", args=[club.pk])))
    details = find(find(rows[0], "details"), "pre")
    assert json.loads(text(details))["move"] == PLAY_FIRST_MOVE
