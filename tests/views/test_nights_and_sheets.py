"""Around the play page: the night's plays told apart, guests, the night's date in French, the
printable sheets (their stylesheet, an abandoned play's wording) and the rating changes of a play.
How these pages look on a phone is tested in the browser (tests/browser/test_layout.py)."""

import datetime
import json

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Player, game_menu
from tests.dom import attr, classes, dom, find, find_all, text
from tests.examples import EXAMPLES, example_cases

pytestmark = pytest.mark.django_db

FRENCH = {"accept-language": "fr"}
GAMES = [code for code, _title in game_menu()]


def example(game: str, number: int = 1) -> dict:
    return json.loads((EXAMPLES / f"{game}-{number}.json").read_text())


#: A two-player Thricewise setup (a 2×2 grid).
THRICEWISE_DUO = example("thricewise", 2)["setup"]


def date_input_value(page) -> str:
    """The value of the page's <input type="date" name="date">, as a browser receives it."""
    return attr(find(page, "input", type="date", name="date"), "value") or ""


# The night's date, in French -----------------------------------------------------------------


def test_the_new_night_date_comes_up_as_today_in_french(member_client, club):
    page = dom(member_client.get(reverse("club", args=[club.pk]), headers=FRENCH))
    assert attr(page, "lang") == "fr" and "soirée" in text(page)  # the page is French
    # A date input accepts only ISO dates: "23/11/2026" would leave it empty.
    assert date_input_value(page) == timezone.localdate().isoformat()


def test_the_night_edit_form_keeps_the_date_in_french(member_client, night):
    page = dom(member_client.get(reverse("night", args=[night.pk]), headers=FRENCH))
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
    page = dom(member_client.get(reverse("club", args=[club.pk])))
    labelled = [
        text(find_all(item, "a")[0])
        for item in find_all(find(page, "ul", class_="players"), "li")
        if "(guest)" in [text(small) for small in find_all(item, "small")]
    ]
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
    page = dom(member_client.get(reverse("night", args=[night.pk])))
    cards = find_all(page, "a", class_="card-link")
    assert [attr(find(card, "time"), "datetime") for card in cards] == [
        "2026-11-20T20:15:00+01:00",
        "2026-11-20T22:40:00+01:00",
    ]
    assert [text(card) for card in cards] == [
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
    sheet = find(dom(member_client.get(reverse(page, args=[abandoned[game].pk]))), "main")
    status = find_all(sheet, "span", class_="status")
    assert [(classes(span), text(span)) for span in status] == [
        ({"status", "status-abandoned"}, "abandoned")
    ]
    for words in ["In progress", "in progress", "in play"]:
        assert words not in text(sheet), words


def test_an_abandoned_three_high_sheet_gives_the_outcome_abandoned(member_client, abandoned):
    url = reverse("play-sheet", args=[abandoned["three-high"].pk])
    outcome = find(dom(member_client.get(url)), "td", id="th-sheet-outcome")
    assert text(outcome) == "Abandoned"
    french = find(dom(member_client.get(url, headers=FRENCH)), "td", id="th-sheet-outcome")
    assert text(french) == "Abandonnée"


def test_an_abandoned_play_card_says_abandoned(member_client, night, abandoned):
    page = dom(member_client.get(reverse("night", args=[night.pk])))
    cards = find_all(page, "a", class_="card-link")
    status = [find(card, "span", class_="status") for card in cards]
    assert [(classes(span), text(span)) for span in status] == [
        ({"status", "status-abandoned"}, "abandoned")
    ] * len(GAMES)


# Printable sheets -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_printable_sheet_has_its_games_stylesheet(member_client, club, night, game):
    play = services.import_log(club=club, log=example(game), night=night)
    head = find(dom(member_client.get(reverse("play-sheet", args=[play.pk]))), "head")
    assert find_all(head, "link", rel="stylesheet", href=f"/static/css/games/{game}.css")
    assert (settings.BASE_DIR / "static" / "css" / "games" / f"{game}.css").is_file()


def test_the_printable_sheet_says_when_the_play_started(member_client, night, players):
    play = services.start_play(
        night=night,
        game="punto",
        players=players[:2],
        setup=example("punto")["setup"],
        started_at=datetime.datetime(2026, 11, 20, 19, 5, tzinfo=datetime.UTC),
    )
    main = find(dom(member_client.get(reverse("play-sheet", args=[play.pk]))), "main")
    (started,) = [said for said in find_all(main, "p") if find_all(said, "time")]
    assert "Nov. 20, 2026, 20:05 ·" in text(started)
    time = find(started, "time")
    assert text(time) == "20:05" and attr(time, "datetime") == "2026-11-20T20:05:00+01:00"


# A play's rating changes --------------------------------------------------------------------------


def test_a_plays_rating_changes_are_one_row_per_player(member_client, club, night):
    play = services.import_log(club=club, log=example("punto"), night=night)
    page = dom(member_client.get(reverse("play", args=[play.pk])))
    table = find(page, "table", class_="rating-changes")
    assert [text(th) for th in find_all(find(table, "thead"), "th")] == [
        "Player",
        "Punto",
        "All games",
    ]
    rows = find_all(find(table, "tbody"), "tr")
    assert [text(find(row, "a")) for row in rows] == ["Ana", "Ben"]
    assert all(len(find_all(row, "td", class_="num")) == 2 for row in rows)
