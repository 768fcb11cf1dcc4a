"""Around the play page: the night's plays told apart, guests, the night's date in French, the
printable sheets (their stylesheet, an abandoned play's wording) and the rating changes of a play.
How these pages look on a phone is tested in the browser (tests/browser/test_layout.py)."""

import datetime
import json
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Player, game_menu
from tests.examples import EXAMPLES, example_cases

pytestmark = pytest.mark.django_db

FRENCH = {"accept-language": "fr"}
GAMES = [code for code, _title in game_menu()]


def example(game: str, number: int = 1) -> dict:
    return json.loads((EXAMPLES / f"{game}-{number}.json").read_text())


#: A two-player Thricewise setup (a 2×2 grid).
THRICEWISE_DUO = example("thricewise", 2)["setup"]


def date_input_value(html: str) -> str:
    """The value of the page's <input type="date" name="date">, as a browser receives it."""
    tag = re.search(r'<input type="date" name="date"[^>]*>', html)
    assert tag, "no date input"
    value = re.search(r'value="([^"]*)"', tag.group(0))
    return value.group(1) if value else ""


# The night's date, in French -----------------------------------------------------------------


def test_the_new_night_date_comes_up_as_today_in_french(member_client, club):
    page = member_client.get(reverse("club", args=[club.pk]), headers=FRENCH).content.decode()
    assert "Nouvelle soirée" in page or "soirée" in page  # the page is French
    # A date input accepts only ISO dates: "23/11/2026" would leave it empty.
    assert date_input_value(page) == timezone.localdate().isoformat()


def test_the_night_edit_form_keeps_the_date_in_french(member_client, night):
    page = member_client.get(reverse("night", args=[night.pk]), headers=FRENCH).content.decode()
    assert date_input_value(page) == "2026-11-20"


# Guests ----------------------------------------------------------------------------------------


def test_a_player_added_on_the_club_page_is_not_a_guest(member_client, club):
    member_client.post(reverse("player-create", args=[club.pk]), {"name": "Zoé"})
    assert Player.objects.get(club=club, name="Zoé").is_guest is False
    page = member_client.get(reverse("club", args=[club.pk])).content.decode()
    assert "Zoé" in page and "(guest)" not in page


def test_only_a_guest_added_at_the_table_is_labelled_guest(member_client, club, night, players):
    member_client.post(
        reverse("play-start", args=[night.pk]),
        {"game": "punto", "seat": [players[0].pk], "guest": "Zoé", "add_guest": "1"},
    )
    assert Player.objects.get(club=club, name="Zoé").is_guest is True
    page = member_client.get(reverse("club", args=[club.pk])).content.decode()
    labelled = re.findall(r">([^<>]+)</a> <small>\(guest\)</small>", page)
    assert labelled == ["Zoé"]


# The plays of a night told apart ----------------------------------------------------------------


def test_each_play_on_its_night_shows_its_start_time_and_players(member_client, night, players):
    # 19:15 and 21:40 UTC are 20:15 and 22:40 in Paris in November (the settings' TIME_ZONE).
    assert settings.TIME_ZONE == "Europe/Paris"
    setup = THRICEWISE_DUO
    for hour, minute in [(19, 15), (21, 40)]:
        services.start_play(
            night=night,
            game="thricewise",
            players=players[:2],
            setup=setup,
            started_at=datetime.datetime(2026, 11, 20, hour, minute, tzinfo=datetime.UTC),
        )
    page = member_client.get(reverse("night", args=[night.pk])).content.decode()
    cards = re.findall(r'<a class="card-link"[^>]*>(.*?)</a>', page, re.S)
    text = [" ".join(re.sub(r"<[^>]+>", " ", card).split()) for card in cards]
    assert text == [
        "Thricewise · 20:15 · in progress Ana 0 , Ben 0",
        "Thricewise · 22:40 · in progress Ana 0 , Ben 0",
    ]


# Abandoned plays ---------------------------------------------------------------------------------


@pytest.fixture
def abandoned(night, players):
    """One abandoned play of every game, before its end: the setup of its first public example
    that seats no more players than the club has."""
    plays = {}
    for game in GAMES:
        log = next(log for log, _ in example_cases(game) if len(log["players"]) <= len(players))
        play = services.start_play(
            night=night,
            game=game,
            players=players[: len(log["players"])],
            setup=log["setup"],
        )
        plays[game] = services.abandon_play(play=play)
    return plays


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("page", ["play", "play-sheet"])
def test_an_abandoned_plays_sheet_says_abandoned(member_client, abandoned, game, page):
    html = member_client.get(reverse(page, args=[abandoned[game].pk])).content.decode()
    assert 'class="status status-abandoned"' in html and ">abandoned<" in html
    sheet = html.split("<main>")[1]
    for words in ["In progress", "in progress", "in play"]:
        assert words not in sheet, words


def test_an_abandoned_three_high_sheet_gives_the_outcome_abandoned(member_client, abandoned):
    url = reverse("play-sheet", args=[abandoned["three-high"].pk])
    html = member_client.get(url).content.decode()
    assert re.search(r'id="th-sheet-outcome">Abandoned<', html)
    french = member_client.get(url, headers=FRENCH).content.decode()
    assert re.search(r'id="th-sheet-outcome">Abandonnée<', french)


def test_an_abandoned_play_card_says_abandoned(member_client, night, abandoned):
    page = member_client.get(reverse("night", args=[night.pk])).content.decode()
    assert page.count('<span class="status status-abandoned">abandoned</span>') == len(GAMES)


# Printable sheets -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_printable_sheet_has_its_games_stylesheet(member_client, club, night, game):
    play = services.import_log(club=club, log=example(game), night=night)
    html = member_client.get(reverse("play-sheet", args=[play.pk])).content.decode()
    head = html.split("</head>")[0]
    assert f'href="/static/css/games/{game}.css"' in head
    assert (settings.BASE_DIR / "static" / "css" / "games" / f"{game}.css").is_file()


def test_the_printable_sheet_says_when_the_play_started(member_client, night, players):
    play = services.start_play(
        night=night,
        game="punto",
        players=players[:2],
        setup=example("punto")["setup"],
        started_at=datetime.datetime(2026, 11, 20, 19, 5, tzinfo=datetime.UTC),
    )
    html = member_client.get(reverse("play-sheet", args=[play.pk])).content.decode()
    assert "Nov. 20, 2026, <time" in html and ">20:05</time>" in html


# A play's rating changes --------------------------------------------------------------------------


def test_a_plays_rating_changes_are_one_row_per_player(member_client, club, night):
    play = services.import_log(club=club, log=example("punto"), night=night)
    html = member_client.get(reverse("play", args=[play.pk])).content.decode()
    table = html.split('class="sheet rating-changes"')[1].split("</table>")[0]
    head, body = table.split("<tbody>")
    assert "Punto" in head and "All games" in head
    rows = body.split("<tr>")[1:]
    assert [re.search(r'href="[^"]+">([^<]+)</a>', row).group(1) for row in rows] == ["Ana", "Ben"]
    assert all(row.count('class="num"') == 2 for row in rows)
