"""games.services.vetting: what people type is refused with a message that says why, in full
(the limit, the length, the name it looks like), before anything is written."""

import pytest

from games import services
from games.models import NOTES_MAX, PLAYER_NAME_MAX
from tests.services.stored import punto_log, snapshot

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "length",
    [PLAYER_NAME_MAX + 1, 4 * PLAYER_NAME_MAX + 1],  # one over; too long even to be normalised
)
def test_a_players_name_over_the_limit_is_refused_saying_the_limit(club, length):
    with pytest.raises(services.ServiceError) as refusal:
        services.add_player(club=club, name="A" * length)
    assert refusal.value.message == f"A player's name is at most {PLAYER_NAME_MAX} characters."
    assert not club.players.exists()


def test_a_name_with_a_broken_character_is_refused_saying_so(club):
    with pytest.raises(services.ServiceError) as refusal:
        services.add_player(club=club, name="Ana\ud800")
    assert refusal.value.message == "This name has a broken character in it: type it again."


def test_a_look_alike_name_is_refused_naming_the_player_it_looks_like(club, players):
    with pytest.raises(services.ServiceError) as refusal:
        services.add_player(club=club, name="\u0410na")  # Cyrillic А
    assert refusal.value.message == (
        "“\u0410na” would look just like “Ana”, who is already a player here: "
        "choose a name that reads differently."
    )


def test_a_text_over_its_limit_is_refused_saying_the_limit_and_its_length(club):
    with pytest.raises(services.ServiceError) as refusal:
        services.create_game_night(club=club, date="2026-11-27", notes="x" * (NOTES_MAX + 1))
    assert refusal.value.message == (
        f"The notes are at most {NOTES_MAX} characters (these are {NOTES_MAX + 1})."
    )
    assert not club.nights.exists()


def test_a_log_holding_what_no_database_stores_is_refused_with_the_reason(club):
    """What is stored of a log (here a player's name) is checked; an unknown field is ignored,
    never stored, never walked (tests/security/test_bad_input.py)."""
    log = punto_log("Ana\u0000", "Ben")
    before = snapshot()
    with pytest.raises(services.ServiceError) as refusal:
        services.import_log(club=club, log=log)
    assert refusal.value.message == (
        "A text in that JSON holds a null character (\\u0000), which cannot be stored."
    )
    assert snapshot() == before
