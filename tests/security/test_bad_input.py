"""Input that used to crash a worker (a 500, each rolled back) gets a clear message or a 404,
and changes nothing: JSON nested thousands of levels deep, NaN, Infinity, ``\\u0000`` and lone
surrogates (which PostgreSQL refuses to store), a NUL in an invite link, a leaderboard as of
the calendar's last day, a move racing the play's deletion, two people adding the same name.
Run on SQLite and on PostgreSQL (CI runs both)."""

import io
import json

import pytest
from django.db.models import QuerySet
from django.urls import reverse

from games import services
from games.models import AuditEntry, GameNight, Move, Play, Player, Seat
from tests.examples import EXAMPLES

PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())
HTMX = {"HX-Request": "true"}

pytestmark = pytest.mark.django_db


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


#: Values each of which crashed a worker somewhere, typed as JSON. A legal move (or setup)
#: carrying one of them under an extra key reached the database, which refused it (PostgreSQL:
#: DataError for NaN and \u0000, UnicodeEncodeError for a lone surrogate).
POISON = {
    "deep-9000": deep(9_000),
    "deep-12000": deep(12_000),
    "nan": "NaN",
    "infinity": "-Infinity",
    "huge": "1e999",
    "nul": '"a\\u0000b"',
    "surrogate": '"\\udead"',
}
MESSAGES = {
    "deep-9000": "nested too deeply",
    "deep-12000": "nested too deeply",
    "nan": "not a number JSON allows",
    "infinity": "not a number JSON allows",
    "huge": "too big",
    "nul": "null character",
    "surrogate": "lone surrogate",
}


def with_extra(document: dict, poison: str) -> str:
    """``document`` as JSON, with ``"note": <poison>`` added (poison is raw JSON text)."""
    return json.dumps(document)[:-1] + f', "note": {poison}}}'


def db_state():
    return (
        list(Move.objects.order_by("id").values_list("play_id", "seq", "undone_at")),
        list(Seat.objects.order_by("id").values_list("score", "rank", "is_winner")),
        list(Play.objects.order_by("id").values_list("status", "version")),
        Player.objects.count(),
        GameNight.objects.count(),
        AuditEntry.objects.count(),
    )


@pytest.fixture
def punto(night, players):
    return services.start_play(night=night, game="punto", players=players[:2], setup=PUNTO["setup"])


def page_text(response) -> str:
    return response.content.decode()


# JSON in the move box, the setup box, the draft field and uploads --------------------------


@pytest.mark.parametrize("poison", sorted(POISON))
@pytest.mark.parametrize("htmx", [True, False])
def test_poison_in_the_move_box_is_refused_with_a_message(member_client, punto, poison, htmx):
    before = db_state()
    for raw in (POISON[poison], with_extra(PUNTO["moves"][0], POISON[poison])):
        response = member_client.post(
            reverse("play-move", args=[punto.pk]),
            {"move_json": raw, "version": 0, "json": "1"},
            headers=HTMX if htmx else {},
        )
        assert response.status_code == (200 if htmx else 422)
        assert MESSAGES[poison] in page_text(response)
        assert db_state() == before


def test_a_move_9000_levels_deep_is_refused_and_not_stored(member_client, punto):
    move = with_extra(PUNTO["moves"][0], deep(9_000))
    response = member_client.post(
        reverse("play-move", args=[punto.pk]), {"move_json": move, "version": 0}, headers=HTMX
    )
    assert "That JSON is nested too deeply (at most 20 levels)." in page_text(response)
    assert not Move.objects.exists()
    assert not AuditEntry.objects.filter(action="move.enter").exists()


@pytest.mark.parametrize("poison", sorted(POISON))
def test_poison_in_the_setup_box_is_refused_with_a_message(member_client, night, players, poison):
    before = db_state()
    for raw in (POISON[poison], with_extra(PUNTO["setup"], POISON[poison])):
        response = member_client.post(
            reverse("play-setup", args=[night.pk]),
            {"game": "punto", "seat": [p.pk for p in players[:2]], "setup_json": raw},
        )
        assert response.status_code == 422
        assert MESSAGES[poison] in page_text(response)
        assert db_state() == before


@pytest.mark.parametrize("poison", sorted(POISON))
def test_poison_in_the_draft_field_is_a_damaged_form(member_client, punto, poison):
    before = db_state()
    draft = with_extra({"player": "Ana", "card": "red-1"}, POISON[poison])
    response = member_client.post(
        reverse("play-move", args=[punto.pk]),
        {"draft": draft, "at": "0,0", "version": 0},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert "The form was damaged" in page_text(response)
    assert db_state() == before


@pytest.mark.parametrize("poison", sorted(POISON))
def test_poison_in_an_uploaded_log_is_refused_with_a_message(member_client, night, poison):
    before = db_state()
    upload = io.BytesIO(with_extra(PUNTO, POISON[poison]).encode())
    upload.name = "log.json"
    response = member_client.post(
        reverse("log-upload", args=[night.pk]), {"log": upload}, follow=True
    )
    assert MESSAGES[poison] in page_text(response)
    assert db_state() == before


TOO_DEEP: list = []
for _ in range(25):
    TOO_DEEP = [TOO_DEEP]


@pytest.mark.parametrize("value", [float("nan"), float("inf"), "a\x00b", "\ud800", 2**80, TOO_DEEP])
def test_the_services_refuse_unstorable_values_whoever_built_them(club, punto, night, value):
    """A tap-built move, a command's log: the services check what they store themselves."""
    before = db_state()
    with pytest.raises(services.ServiceError):
        services.record_move(play=punto, move={**PUNTO["moves"][0], "note": value})
    with pytest.raises(services.ServiceError):
        services.start_play(
            night=night,
            game="punto",
            players=[seat.player for seat in punto.seats.order_by("position")],
            setup={**PUNTO["setup"], "note": value},
        )
    with pytest.raises(services.ServiceError):
        services.import_log(club=club, log={**PUNTO, "players": [value, *PUNTO["players"][1:]]})
    assert db_state() == before


@pytest.mark.parametrize("value", [float("nan"), "a\x00b", "\ud800", 2**80, TOO_DEEP])
def test_an_import_stores_nothing_of_an_unknown_field_and_never_walks_it(club, value):
    """A log is stored as the referee understood it: an unknown field, whatever it holds, is
    ignored as the format says (docs/gamelog.md §1), so it is neither stored nor checked
    (issue 29: a 1 MB field of nested lists cost a second per check)."""
    play = services.import_log(club=club, log={**PUNTO, "note": value})
    stored = [play.setup, *play.moves.values_list("data", flat=True)]
    assert "note" not in repr(stored)


# Addresses and query strings ----------------------------------------------------------------


@pytest.mark.parametrize("token", ["%00", "a%00b", "%F0%9F%83%8F", "..%2F"])
def test_an_invite_link_that_cannot_be_a_token_is_a_404(member_client, token):
    assert member_client.get(f"/join/{token}/").status_code == 404


def test_a_real_invite_link_still_opens(member_client, club, owner):
    invite = services.create_invite(club=club, by=owner)
    assert member_client.get(reverse("invite-join", args=[invite.token])).status_code == 302


@pytest.mark.parametrize("day", ["9999-12-31", "9999-12-30", "0001-01-01"])
def test_a_leaderboard_as_of_the_ends_of_the_calendar_answers(member_client, club, day):
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    services.import_log(club=club, log=log)
    response = member_client.get(reverse("leaderboard", args=[club.pk]), {"as_of": day})
    assert response.status_code == 200
    if day.startswith("9999"):  # every play counts
        assert "Ana" in page_text(response)


# Races --------------------------------------------------------------------------------------


@pytest.fixture
def deleted_meanwhile(monkeypatch, punto):
    """The play is deleted by an owner between the page's checks and the change's lock."""
    from games.views import play_page

    real_get = play_page.get_play

    def get_then_delete(request, play_id):
        play = real_get(request, play_id)
        Play.objects.filter(pk=play.pk).delete()
        return play

    monkeypatch.setattr(play_page, "get_play", get_then_delete)
    return punto


@pytest.mark.parametrize("action", ["play-undo", "play-abandon", "play-resume"])
@pytest.mark.parametrize("htmx", [True, False])
def test_a_change_racing_the_plays_deletion_says_it_was_deleted(
    member_client, owner_client, deleted_meanwhile, action, htmx
):
    play = deleted_meanwhile
    client = member_client
    if action == "play-resume":  # the owner resumes an abandoned play
        client = owner_client
        services.abandon_play(play=play)
    data = {"version": play.version, "move_json": json.dumps(PUNTO["moves"][0])}
    response = client.post(reverse(action, args=[play.pk]), data, headers=HTMX if htmx else {})
    night = reverse("night", args=[play.night_id])
    if htmx:
        assert response.status_code == 204 and response["HX-Redirect"] == night
    else:
        assert response.status_code == 302 and response["Location"] == night
    page = client.get(night)
    assert "This play has been deleted: nothing was changed." in page_text(page)
    assert not Move.objects.exists()


@pytest.mark.parametrize("htmx", [True, False])
def test_a_move_to_a_play_deleted_before_its_lock_is_a_404(member_client, punto, htmx):
    """A move entry reads the play once, under its lock, with the member's right to it (issue
    32): there is no moment between the two for a deletion to fall in. A play deleted before
    that read is gone, as for any page of it, whether or not the move was on its way."""
    data = {"version": punto.version, "move_json": json.dumps(PUNTO["moves"][0])}
    Play.objects.filter(pk=punto.pk).delete()
    response = member_client.post(
        reverse("play-move", args=[punto.pk]), data, headers=HTMX if htmx else {}
    )
    assert response.status_code == 404
    assert not Move.objects.exists()


@pytest.fixture
def name_check_misses(monkeypatch):
    """Two people add the same name at once: both pass the "already exists?" check."""
    monkeypatch.setattr(QuerySet, "exists", lambda self: False)
    monkeypatch.setattr(QuerySet, "first", lambda self: None)


def test_two_people_adding_the_same_player_name_at_once_get_a_message(club, name_check_misses):
    Player.objects.create(club=club, name="Zoé")  # the other person's, a moment earlier
    with pytest.raises(services.ServiceError, match="already a player named “Zoé”"):
        services.add_player(club=club, name="Zoé")
    assert Player.objects.filter(name="Zoé").count() == 1


def test_adding_the_same_player_name_at_once_through_the_form_is_a_message(
    member_client, club, name_check_misses
):
    Player.objects.create(club=club, name="Zoé")
    response = member_client.post(
        reverse("player-create", args=[club.pk]), {"name": "Zoé"}, follow=True
    )
    assert response.status_code in (200, 422)
    assert "already a player named" in page_text(response)


def test_an_import_racing_another_for_a_new_name_uses_the_one_made(club, name_check_misses):
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    made = [Player.objects.create(club=club, name=name) for name in log["players"]]
    play = services.import_log(club=club, log=log)
    assert [s.player for s in play.seats.order_by("position")] == made


def test_the_caps_are_explained_in_french_too(member_client, punto):
    member_client.cookies.load({"django_language": "fr"})
    for raw, message in [
        (deep(9_000), "Ce JSON est imbriqué trop profondément (20 niveaux au plus)."),
        ('"' + "x" * 10_001 + '"', "C'est bien trop long (10\xa0000 caractères au plus)."),
        ('"\\u0000"', "caractère nul"),
    ]:
        response = member_client.post(
            reverse("play-move", args=[punto.pk]),
            {"move_json": raw, "version": 0, "json": "1"},
            headers=HTMX,
        )
        assert message in page_text(response).replace("&#x27;", "'")


@pytest.mark.parametrize("name", ["Zo\x00é", "Zoé\u200b"])
def test_a_guest_name_with_an_unstorable_character_gets_a_message_or_is_cleaned(
    member_client, night, players, name
):
    # The guest field of "start a play" is not a Django form: the service cleans it (NUL and
    # invisible characters go) — never a 500 on PostgreSQL. (A lone surrogate cannot be sent as
    # form data; the service's refusal of one is tested with the names.)
    response = member_client.post(
        reverse("play-start", args=[night.pk]),
        {"game": "punto", "seat": [players[0].pk], "guest": name, "add_guest": "1"},
    )
    assert response.status_code == 200
    guests = list(night.club.players.filter(is_guest=True).values_list("name", flat=True))
    assert guests in (["Zoé"], [])
    if not guests:
        assert "name" in page_text(response).lower()


# What was stored before the caps still shows in linear size ----------------------------------


def nested(levels: int) -> dict:
    value: dict = {}
    for _ in range(levels):
        value = {"k": value}
    return value


def test_a_deep_move_stored_before_the_caps_downloads_and_audits_in_linear_size(
    owner_client, club, punto
):
    # Rows written before moves were capped and stored canonical can hold anything; indented,
    # 300 levels come out ~100 times larger than stored. Shown compact, they stay their size.
    deep = {"player": "Ana", "card": "red-1", "at": [0, 0], "extra": nested(300)}
    stored = len(json.dumps(deep))
    Move.objects.create(play=punto, seq=punto.moves.count(), data=deep)
    AuditEntry.objects.create(
        club=club,
        action=AuditEntry.Action.choices[0][0],
        object_kind="play",
        summary="old",
        data={"move": deep},
    )
    download = owner_client.get(reverse("play-download", args=[punto.pk]))
    assert download.status_code == 200
    assert len(download.content) < stored + 5_000
    assert json.loads(download.content)["moves"][-1] == deep  # still the log, only compact
    audit = owner_client.get(reverse("club-audit", args=[club.pk]))
    assert audit.status_code == 200
    assert len(audit.content) < 2 * stored + 30_000


def test_a_shallow_log_still_downloads_indented_for_people(owner_client, punto):
    download = owner_client.get(reverse("play-download", args=[punto.pk])).content.decode()
    assert '\n  "game": "punto"' in download
