"""Look-alike names: "Ana", "Ana" + an invisible character and Cyrillic "Аna" are not three
players (nor three accounts)."""

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import names, services
from games.models import Play, Player
from referee import judge
from tests.examples import EXAMPLES

pytestmark = pytest.mark.django_db

CYRILLIC_A = "\u0410"  # А, drawn like the Latin A
SPELLINGS_OF_ANA = [
    "Ana\u200b",  # zero-width space
    "Ana\u200f",  # right-to-left mark
    "\u200eAna",  # left-to-right mark
    "A\u00adna",  # soft hyphen
    "An\u200da",  # zero-width joiner
    "\ufeffAna",  # byte-order mark
    "Ana\x00",  # NUL, which PostgreSQL cannot store
    "Ana\u202e",  # right-to-left override
    "\uff21na",  # fullwidth Ａ (NFKC)
    " Ana\u00a0",  # no-break space
    "Ana\u3164",  # Hangul filler, a "letter" that renders as nothing
    "Ana\ufe0f",  # variation selector
]


@pytest.mark.parametrize("spelling", SPELLINGS_OF_ANA)
def test_every_invisible_variant_normalises_to_the_plain_name(spelling):
    assert names.normalise(spelling) == "Ana"


def test_visible_differences_stay_and_look_alikes_share_a_skeleton():
    assert names.normalise("Chloe\u0301") == "Chloé"  # composed, not stripped
    assert names.normalise("Ana  Maria") == "Ana Maria"
    assert names.normalise(f"{CYRILLIC_A}na") != "Ana"
    assert names.skeleton(f"{CYRILLIC_A}na") == "Ana"
    assert names.skeleton("Αnа") == "Ana"  # Greek capital alpha, Cyrillic small a
    assert names.looks_like(f"{CYRILLIC_A}na", ["Ben", "Ana"]) == "Ana"
    assert names.looks_like("Ana", ["Ben", f"{CYRILLIC_A}na"]) == f"{CYRILLIC_A}na"
    assert names.looks_like("Ana", ["Ana", "ana", "Anna"]) is None
    assert names.looks_like("ANA", [f"{CYRILLIC_A}na"], casefold=True) == f"{CYRILLIC_A}na"


@pytest.mark.parametrize("spelling", SPELLINGS_OF_ANA)
def test_a_player_spelt_with_invisible_characters_is_the_existing_player(club, spelling):
    services.add_player(club=club, name="Ana")
    with pytest.raises(services.ServiceError, match="There is already a player named “Ana”"):
        services.add_player(club=club, name=spelling)
    assert list(club.players.values_list("name", flat=True)) == ["Ana"]


def test_a_new_player_is_stored_in_the_one_spelling(club):
    assert services.add_player(club=club, name="\u200bZo\u00e9\u200f ").name == "Zoé"


@pytest.mark.parametrize("first", ["Ana", f"{CYRILLIC_A}na"])
def test_a_name_that_looks_like_an_existing_player_is_refused(club, first):
    Player.objects.create(club=club, name=first)  # either one first
    other = "Ana" if first != "Ana" else f"{CYRILLIC_A}na"
    with pytest.raises(services.ServiceError, match="would look just like"):
        services.add_player(club=club, name=other)
    assert club.players.count() == 1


def test_a_look_alike_is_fine_in_another_club(club, owner):
    services.add_player(club=club, name="Ana")
    elsewhere = services.create_club(name="Ailleurs", owner=owner)
    assert services.add_player(club=elsewhere, name=f"{CYRILLIC_A}na").name == f"{CYRILLIC_A}na"


def test_a_lone_surrogate_is_refused_with_a_message(club, owner):
    with pytest.raises(services.ServiceError, match="broken character"):
        services.add_player(club=club, name="Ana\ud800")
    with pytest.raises(services.ServiceError, match="broken character"):
        services.create_club(name="Club\udfff", owner=owner)
    assert not club.players.exists()


def test_the_add_player_form_and_the_guest_field_say_why(member_client, club, night):
    services.add_player(club=club, name="Ana")
    response = member_client.post(
        reverse("player-create", args=[club.pk]), {"name": "Ana\u200b"}, follow=True
    )
    assert "There is already a player named “Ana”." in response.content.decode()
    response = member_client.post(
        reverse("play-start", args=[night.pk]), {"add_guest": "1", "guest": f"{CYRILLIC_A}na"}
    )
    assert response.status_code == 422 and "would look just like" in response.content.decode()
    assert club.players.count() == 1


def _log_with(*players: str) -> dict:
    log = json.loads((EXAMPLES / "punto-1.json").read_text())
    renamed = dict(zip(log["players"], players, strict=True))
    text = json.dumps(log, ensure_ascii=False)
    for old, new in renamed.items():
        text = text.replace(json.dumps(old, ensure_ascii=False), json.dumps(new))
    return json.loads(text)


def test_an_imported_log_cannot_bring_in_a_look_alike_or_an_invisible_name(club):
    services.add_player(club=club, name="Ana")
    for name, message in [("Ana\u200b", "no invisible characters"), ("Аna", "look just like")]:
        log = _log_with(name, "Ben")
        assert judge(log).legal
        with pytest.raises(services.ServiceError, match=message):
            services.import_log(club=club, log=log)
    assert Play.objects.count() == 0
    assert list(club.players.values_list("name", flat=True)) == ["Ana"]


def test_an_uploaded_log_with_a_look_alike_says_so(member_client, club, night):
    services.add_player(club=club, name="Ana")
    upload = io.BytesIO(json.dumps(_log_with(f"{CYRILLIC_A}na", "Ben")).encode())
    upload.name = "log.json"
    response = member_client.post(
        reverse("log-upload", args=[night.pk]), {"log": upload}, follow=True
    )
    assert "would look just like" in response.content.decode()
    assert Play.objects.count() == 0


# Usernames ------------------------------------------------------------------------------------


def _sign_up(client, username: str):
    return client.post(
        reverse("signup"),
        {"username": username, "password1": "a-long-pass-2026", "password2": "a-long-pass-2026"},
    )


@pytest.mark.parametrize("spelling", ["mahmoud\u200b", "\u200fmahmoud", "ｍahmoud", "MAHMOUD"])
def test_a_username_spelt_differently_is_the_existing_one(client, member, spelling):
    response = _sign_up(client, spelling)
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize("first", ["mahmoud", "m\u0430hmoud"])  # Latin a, Cyrillic а
def test_a_username_that_looks_like_an_existing_one_is_refused(client, db, first):
    get_user_model().objects.create_user(first, password="x-pass-2026-long")
    other = "m\u0430hmoud" if first == "mahmoud" else "MAHMOUD"
    response = _sign_up(client, other)
    assert "would look just like an existing one" in response.content.decode()
    assert response.context["form"].errors["username"] == [
        "This username would look just like an existing one: choose another."
    ]
    assert get_user_model().objects.count() == 1


def test_a_new_username_is_stored_in_the_one_spelling(client, db):
    assert _sign_up(client, "zo\u00e9\u200b").status_code == 302
    assert get_user_model().objects.get().username == "zoé"
