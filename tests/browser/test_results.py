"""A result play of each kind entered by tapping on a phone, in English and in French: the
game tapped on the night's page, the players tapped (in finishing order for places only), the
scores typed as on paper ("6+10-3"), then saved (or won/lost). Counts the taps of each kind."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Play

from .axe import assert_clean
from .conftest import assert_no_horizontal_scroll, log_in

SHOTS = "/tmp/night-result"
#: Taps of each kind, filled in by the tests (the closing note reads them from the output).
TAPS: dict[str, int] = {}


def tap(page, selector):
    page.taps = getattr(page, "taps", 0) + 1
    page.locator(selector).first.click()


def in_language(page, language):
    if language == "fr":
        page.click("button[name=language][value=fr]")
        page.wait_for_selector("html[lang=fr]")


def seats(play):
    return [
        (s.player.name, s.shown_score, s.rank, s.is_winner)
        for s in play.seats.select_related("player").order_by("position")
    ]


def pick(page, game):
    """The game tapped on the night's page; its result page ready (its script has run)."""
    tap(page, f"a.game-pick[href$='/{game.key}/']")
    page.wait_for_selector("#result-form.js")


def open_night(page, table, language):
    log_in(page)
    in_language(page, language)
    page.goto(f"/nights/{table['night'].pk}/")
    page.taps = 0


@pytest.mark.parametrize("language", ["en", "fr"])
def test_highest_score_wins_with_sums(page, table, language):
    game = services.add_catalogue_game(club=table["club"], name="Azul", result="highest")
    open_night(page, table, language)
    pick(page, game)
    for name, score in (("Ana", "6+10-3"), ("Ben", "12,5"), ("Chloé", "-2")):
        tap(page, f".result-seat:has-text('{name}') .seat-pick")
        page.keyboard.type(score)  # the score's field has the focus: the keypad is up
    expect(page.locator(".result-seat:has-text('Ana') .sum")).to_have_text("= 13")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=f"{SHOTS}-highest-{language}.png", full_page=True)
    tap(page, "#save-result")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    play = Play.objects.get(kind="result")
    assert seats(play) == [
        ("Ana", "13", 1, True),
        ("Ben", "12.5", 2, False),
        ("Chloé", "-2", 3, False),
    ]
    assert page.taps == 3 + 2
    TAPS[f"highest ({language})"] = page.taps
    page.screenshot(path=f"{SHOTS}-play-{language}.png", full_page=True)
    expect(page.locator("#bgstats-push")).to_be_visible()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_lowest_score_wins(page, table, language):
    game = services.add_catalogue_game(club=table["club"], name="Golf", result="lowest")
    open_night(page, table, language)
    pick(page, game)
    for name, score in (("Dev", "4+5"), ("Eli", "3")):
        tap(page, f".result-seat:has-text('{name}') .seat-pick")
        page.keyboard.type(score)
    tap(page, "#save-result")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    assert seats(Play.objects.get(kind="result")) == [("Dev", "9", 2, False), ("Eli", "3", 1, True)]
    assert page.taps == 2 + 2
    TAPS[f"lowest ({language})"] = page.taps


@pytest.mark.parametrize("language", ["en", "fr"])
def test_places_tapped_in_finishing_order_with_a_tie(page, table, language):
    game = services.add_catalogue_game(club=table["club"], name="Podium", result="ranks")
    open_night(page, table, language)
    pick(page, game)
    tap(page, ".result-seat:has-text('Chloé') .seat-pick")
    tap(page, ".result-seat:has-text('Ana') .seat-pick")
    second = "2nd" if language == "en" else "2e"
    expect(page.locator(".result-seat:has-text('Ana') .place-badge")).to_have_text(second)
    # Ben tied with Ana: his own "=" button, one tap as any other place.
    expect(page.locator(".result-seat:has-text('Ben') .tie-with")).to_contain_text(second)
    expect(page.locator(".result-seat:has-text('Ana') .tie-with")).to_be_hidden()
    tap(page, ".result-seat:has-text('Ben') .tie-with")
    expect(page.locator(".result-seat:has-text('Ben') .place-badge")).to_have_text(second)
    tap(page, ".result-seat:has-text('Eli') .seat-pick")
    expect(page.locator(".result-seat:has-text('Eli') .place-badge")).to_have_text(
        "4th" if language == "en" else "4e"
    )
    assert_no_horizontal_scroll(page)
    assert_clean(page, f"places entered, one tie ({language})")  # the "=" buttons are named
    page.screenshot(path=f"{SHOTS}-ranks-{language}.png", full_page=True)
    tap(page, "#save-result")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    # Seated in the club's order; placed in the order tapped.
    assert seats(Play.objects.get(kind="result")) == [
        ("Ana", "", 2, False),
        ("Ben", "", 2, False),
        ("Chloé", "", 1, True),
        ("Eli", "", 4, False),
    ]
    assert page.taps == 4 + 2  # a tie costs no more than any other place
    TAPS[f"places, one tie ({language})"] = page.taps


def test_a_wrong_place_tapped_again_is_taken_back(page, table):
    game = services.add_catalogue_game(club=table["club"], name="Podium", result="ranks")
    open_night(page, table, "en")
    pick(page, game)
    for name in ("Ana", "Dev", "Ben"):
        tap(page, f".result-seat:has-text('{name}') .seat-pick")
    tap(page, ".result-seat:has-text('Chloé') .tie-with")  # tied with Ben, 3rd
    # Dev was not second: tapped again, he is out and the places after him close up.
    tap(page, ".result-seat:has-text('Dev') .seat-pick")
    expect(page.locator(".result-seat:has-text('Dev') .place-badge")).to_have_text("")
    expect(page.locator(".result-seat:has-text('Ben') .place-badge")).to_have_text("2nd")
    expect(page.locator(".result-seat:has-text('Chloé') .place-badge")).to_have_text("2nd")
    tap(page, "#save-result")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    assert seats(Play.objects.get(kind="result")) == [
        ("Ana", "", 1, True),
        ("Ben", "", 2, False),
        ("Chloé", "", 2, False),
    ]
    assert page.taps == 3 + 2 + 2  # players + 2, and the wrong tap and its taking back


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_team_game_with_team_numbers_and_scores_typed(page, table, language):
    """Tapping a player of a team game brings up their team's field; one digit typed moves on
    to their score: players + 2 taps, the rest typed (a partner's score may be left empty)."""
    game = services.add_catalogue_game(club=table["club"], name="Crew", result="highest",
                                       teams=True)  # fmt: skip
    open_night(page, table, language)
    pick(page, game)
    for name, team, score in (("Ana", "1", "30"), ("Ben", "2", "20+5"), ("Chloé", "1", ""),
                              ("Dev", "2", "")):  # fmt: skip
        tap(page, f".result-seat:has-text('{name}') .seat-pick")
        page.keyboard.type(team)
        page.keyboard.type(score)
    assert_no_horizontal_scroll(page)
    page.screenshot(path=f"{SHOTS}-teams-{language}.png", full_page=True)
    tap(page, "#save-result")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    play = Play.objects.get(kind="result")
    assert seats(play) == [
        ("Ana", "30", 1, True), ("Ben", "25", 2, False),
        ("Chloé", "30", 1, True), ("Dev", "25", 2, False),
    ]  # fmt: skip
    assert [s.team for s in play.seats.order_by("position")] == [1, 2, 1, 2]
    assert page.taps == 4 + 2
    TAPS[f"teams, scores ({language})"] = page.taps


@pytest.mark.parametrize(("language", "won"), [("en", True), ("fr", False)])
def test_a_cooperative_game_won_or_lost(page, table, language, won):
    game = services.add_catalogue_game(club=table["club"], name="Hanabi", result="cooperative",
                                       scored=False)  # fmt: skip
    open_night(page, table, language)
    pick(page, game)
    for name in ("Ana", "Ben", "Chloé"):
        tap(page, f".result-seat:has-text('{name}') .seat-pick")
    page.screenshot(path=f"{SHOTS}-coop-{language}.png", full_page=True)
    tap(page, "#won" if won else "#lost")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    play = Play.objects.get(kind="result")
    assert {s[3] for s in seats(play)} == {won} and play.details == {"won": won}
    assert page.taps == 3 + 2
    TAPS[f"co-op ({language})"] = page.taps
    expect(page.locator("#result")).to_be_visible()


def test_a_refused_result_keeps_what_was_typed(page, table):
    game = services.add_catalogue_game(club=table["club"], name="Azul", result="highest")
    open_night(page, table, "en")
    pick(page, game)
    tap(page, ".result-seat:has-text('Ana') .seat-pick")
    page.keyboard.type("6*2")
    tap(page, ".result-seat:has-text('Ben') .seat-pick")
    page.keyboard.type("4")
    tap(page, "#save-result")
    expect(page.locator("#result-error")).to_contain_text("is not a score")
    expect(page.locator("input[name^=score-]").first).to_have_value("6*2")
    assert not Play.objects.exists()


def test_the_result_pages_on_a_desktop(desktop_page, table):
    game = services.add_catalogue_game(club=table["club"], name="Azul", result="highest")
    page = desktop_page
    open_night(page, table, "en")
    pick(page, game)
    for name, score in (("Ana", "40"), ("Ben", "52")):
        tap(page, f".result-seat:has-text('{name}') .seat-pick")
        page.keyboard.type(score)
    page.screenshot(path=f"{SHOTS}-desktop-entry.png", full_page=True)
    tap(page, "#save-result")
    page.wait_for_url(re.compile(r".*/plays/\d+/$"))
    page.screenshot(path=f"{SHOTS}-desktop-play.png", full_page=True)
    page.goto(f"/nights/{table['night'].pk}/")
    page.screenshot(path=f"{SHOTS}-desktop-night.png", full_page=True)


def test_print_the_taps():
    print("\nTAPS", TAPS)
