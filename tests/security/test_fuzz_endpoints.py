"""Bad input never crashes and never half-saves: random and mutated moves, setups, uploads and
form fields posted to every endpoint that takes input (hypothesis). Each example must answer
without a 500 (the test client re-raises any exception) and leave the database unchanged unless
the input happened to be a legal move.

The JSON includes what crashed workers before: nesting thousands of levels deep, NaN and
Infinity, numbers beyond a double, ``\u0000`` and lone surrogates (which PostgreSQL refuses to
store: CI runs these on PostgreSQL as well as SQLite). FUZZ_EXAMPLES=500 for a longer hunt.
"""

import datetime
import io
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.models import AuditEntry, GameNight, Move, Play, Player, Seat
from referee import GAMES, judge
from tests.conftest import client_for
from tests.examples import EXAMPLES

#: Text with the characters no database stores mixed in (JSON escapes them: "\u0000", "\ud800").
json_text = st.text(
    alphabet=st.characters() | st.sampled_from(["\x00", "\ud800", "\udfff", "\ufffe"]),
    max_size=12,
)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-10, 100)
    | st.integers()
    | st.floats()  # NaN and ±Infinity included
    | st.text(max_size=12)
    | json_text,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(json_text, children, max_size=4)
    ),
    max_leaves=12,
)


def _nest(levels: int, leaf: object, objects: bool) -> str:
    inner = json.dumps(leaf)
    if objects:
        return '{"a":' * levels + inner + "}" * levels
    return "[" * levels + inner + "]" * levels


#: JSON text nested deeper than anything real, up to past the parser's recursion limit.
deep_json = st.builds(
    _nest,
    st.one_of(st.integers(15, 40), st.integers(40, 12_000), st.just(12_000)),
    json_values,
    st.booleans(),
)
json_texts = st.one_of(json_values.map(json.dumps), deep_json)
FIELD_NAMES = [
    "move_json",
    "setup_json",
    "draft",
    "version",
    "at",
    "card",
    "player",
    "series",
    "side",
    "piece",
    "pile",
    "first",
    "second",
    "dealer",
    "call",
    "tie",
    "reveal",
    "place",
    "colour",
    "value",
    "blocked",
    "cannot_play",
    "step",
    "done",
    "reset",
    "seat",
    "game",
    "red",
    "black",
    "square",
    "sheet",
]
field_values = st.one_of(
    st.text(max_size=20),
    st.integers(-5, 80).map(str),
    json_texts,
    st.sampled_from(["0,0", "1,-1", "a1", "h8", "red-7", "The Author", "north", "impossible"]),
)
form_data = st.dictionaries(st.sampled_from(FIELD_NAMES), field_values, max_size=6)
FUZZ = settings(
    # FUZZ_EXAMPLES=500 for a longer hunt than the suite's default.
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def db_state():
    return (
        Move.objects.count(),
        list(Seat.objects.order_by("id").values_list("score", "rank", "is_winner")),
        list(Play.objects.order_by("id").values_list("status", "details")),
        Player.objects.count(),
        GameNight.objects.count(),
        AuditEntry.objects.count(),
    )


@pytest.fixture
def plays(club, night, member):
    """One play in progress per game (the public finished example, less its last move)."""
    made = {}
    for game in GAMES:
        log = json.loads((EXAMPLES / f"{game}-1.json").read_text())
        log["moves"] = log["moves"][:-1]
        made[game] = services.import_log(club=club, log=log, night=night)
    return made


@pytest.fixture
def member_http(member):
    return client_for(member, raise_request_exception=True)


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(GAMES))
@FUZZ
@given(data=form_data, htmx=st.booleans(), current=st.booleans())
def test_random_move_forms_never_crash_nor_half_save(member_http, plays, game, data, htmx, current):
    play = plays[game]
    if current:  # made at the play's version: the form is read, not refused as stale
        play.refresh_from_db()
        data = {**data, "version": str(play.version)}
    before = db_state()
    active_before = play.moves.active().count()
    response = member_http.post(
        f"/plays/{play.pk}/move/", data, headers={"HX-Request": "true"} if htmx else {}
    )
    assert response.status_code < 500
    if play.moves.active().count() == active_before:
        assert db_state() == before
    else:  # a legal move slipped through: it is stored whole, with results that match the log
        services.undo_last_move(play=play)


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(GAMES))
@FUZZ
@given(raw=json_texts)
def test_random_json_moves_are_judged_never_crash(member_http, plays, game, raw):
    play = plays[game]
    play.refresh_from_db()
    before, count = db_state(), play.moves.count()
    response = member_http.post(
        f"/plays/{play.pk}/move/",
        {"move_json": raw, "json": "1", "version": play.version},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    if play.moves.count() == count:
        assert db_state() == before
    else:  # a legal move: stored whole; step back for the next example
        services.undo_last_move(play=play)


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(GAMES))
@FUZZ
@given(value=json_values)
def test_a_legal_move_carrying_a_random_value_never_crashes(member_http, plays, game, value):
    """The example's last move (legal here) with one more key: what a stored move may hold."""
    play = plays[game]
    play.refresh_from_db()
    last = json.loads((EXAMPLES / f"{game}-1.json").read_text())["moves"][-1]
    before, count = db_state(), play.moves.count()
    response = member_http.post(
        f"/plays/{play.pk}/move/",
        {"move_json": json.dumps({**last, "note": value}), "json": "1", "version": play.version},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    if play.moves.count() == count:
        assert db_state() == before
    else:  # stored: step back for the next example
        services.undo_last_move(play=play)


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(GAMES))
@FUZZ
@given(data=form_data)
def test_random_setups_never_crash_nor_store(member_http, night, players, game, data):
    before, count = db_state(), Play.objects.count()
    seats = [p.pk for p in players[: GAMES[game].max_players]]
    payload = {**data, "game": game, "seat": seats}
    response = member_http.post(f"/nights/{night.pk}/plays/new/setup/", payload)
    assert response.status_code < 500
    if Play.objects.count() == count:
        assert db_state() == before


@pytest.mark.django_db
@FUZZ
@given(data=form_data)
def test_random_start_forms_never_crash(member_http, night, players, data):
    before = db_state()
    response = member_http.post(f"/nights/{night.pk}/plays/new/", data)
    assert response.status_code < 500
    if "add_guest" not in data:
        assert db_state() == before


@pytest.mark.django_db
@FUZZ
@given(
    content=st.one_of(
        st.binary(max_size=200),
        json_texts.map(str.encode),
        st.sampled_from(list(GAMES)).map(
            lambda g: json.dumps({**json.loads((EXAMPLES / f"{g}-2.json").read_text())}).encode()
        ),
        # a legal log carrying a random value under an extra key, or in place of its setup
        st.builds(
            lambda g, key, value: json.dumps(
                {**json.loads((EXAMPLES / f"{g}-1.json").read_text()), key: value}
            ).encode(),
            st.sampled_from(list(GAMES)),
            st.sampled_from(["note", "setup"]),
            json_values,
        ),
    )
)
def test_random_uploads_never_crash_nor_store(member_http, night, content):
    before = db_state()
    upload = io.BytesIO(content)
    upload.name = "log.json"
    response = member_http.post(f"/nights/{night.pk}/upload/", {"log": upload})
    assert response.status_code < 500
    try:
        legal = judge(json.loads(content)).legal
    except Exception:
        legal = False
    if not legal:
        assert db_state() == before


@pytest.mark.django_db
@FUZZ
@given(
    path=st.sampled_from(["plays", "nights", "clubs", "players"]),
    ident=st.one_of(st.integers(-5, 10**20).map(str), st.text(max_size=10)),
)
def test_random_object_urls_give_404_not_500(member_http, path, ident):
    response = member_http.get(f"/{path}/{ident}/")
    assert response.status_code in (200, 302, 404)


@pytest.mark.django_db
@FUZZ
@given(
    as_of=st.one_of(
        st.sampled_from([datetime.date.min, datetime.date.max]).map(str),  # the calendar's ends
        st.dates().map(str),
        st.text(max_size=12),
    ),
    min_plays=st.one_of(st.integers().map(str), st.text(max_size=6)),
    sort=st.text(max_size=10),
    scope=st.sampled_from(["", "punto/", "thricewise/", "go/"]),
)
def test_random_leaderboard_queries_never_crash(member_http, club, as_of, min_plays, sort, scope):
    response = member_http.get(
        f"/clubs/{club.pk}/leaderboard/{scope}",
        {"as_of": as_of, "min_plays": min_plays, "sort": sort},
    )
    assert response.status_code in (200, 404)


@pytest.mark.django_db
@FUZZ
@given(token=st.text(min_size=1, max_size=70))
def test_random_invite_links_give_404_not_500(member_http, token):
    from urllib.parse import quote

    response = member_http.get(f"/join/{quote(token, safe='')}/")
    assert response.status_code in (404, 302, 301)
