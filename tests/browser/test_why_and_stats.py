"""Why it scored and the statistics pages, driven in Chromium on a phone (390×844) and a desktop,
in English and French: a tap on the points opens how they were made, within the screen; the
leaderboard and the player page read as a club would. Screenshots go to test-results/."""

from __future__ import annotations

import json

import pytest

from tests.examples import EXAMPLES

from .conftest import RESULTS, assert_no_horizontal_scroll, log_in

LANGUAGES = {"en": "Your clubs", "fr": "Vos clubs"}


def _shot(page, name: str, *, full_page: bool = False) -> None:
    RESULTS.mkdir(exist_ok=True)
    page.screenshot(path=str(RESULTS / f"why-stats-{name}.png"), full_page=full_page)


def _on(page, device: str) -> None:
    """The phone of the ``page`` fixture (390×844), or a desktop's 1280×800 window."""
    if device == "desktop":
        page.set_viewport_size({"width": 1280, "height": 800})


def _in_language(page, language: str) -> None:
    log_in(page)
    page.click(f"button[name=language][value={language}]")
    page.wait_for_selector(f"text={LANGUAGES[language]}")


@pytest.fixture
def examples(table):
    """thricewise-1, forget-venice-1 and three-high-1 imported into the browser club's night,
    then a history long enough for a leaderboard with established and provisional players."""
    from games import services

    plays = {}
    for name in ("thricewise-1", "forget-venice-1", "three-high-1"):
        log = json.loads((EXAMPLES / f"{name}.json").read_text())
        plays[name] = services.import_log(club=table["club"], log=log, night=table["night"])
    punto = json.loads((EXAMPLES / "punto-1.json").read_text())
    for _ in range(6):  # Ana beats Ben six times: both established
        services.import_log(club=table["club"], log=punto, night=table["night"])
    return plays


def _open_why(page, selector: str) -> dict:
    """Tap the points of ``selector`` and return the opened note's box."""
    summary = page.locator(f"{selector} > summary").first
    summary.scroll_into_view_if_needed()
    summary.click()
    body = page.locator(f"{selector}[open] > .why-body").first
    body.wait_for(state="visible")
    return body.bounding_box()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_tap_on_the_points_shows_how_they_were_made(page, examples, language, device):
    _on(page, device)
    _in_language(page, language)
    width = page.viewport_size["width"]
    play = examples["thricewise-1"]
    page.goto(f"/plays/{play.pk}/")
    # Eli's 16 in turn 6 of the score sheet
    cell = "#tw-sheet tbody tr:nth-child(6) td:nth-child(6) details.why"
    box = _open_why(page, cell)
    note = page.locator(f"{cell} .why-body").inner_text()
    assert ("2 × 8 = 16" in note) and (("flush (Knots)" in note) or ("couleur (Nœuds)" in note))
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
    assert_no_horizontal_scroll(page)
    _shot(page, f"thricewise-sheet-{language}-{device}")
    page.locator(f"{cell} > summary").click()  # a second tap folds it again
    assert page.locator(f"{cell}[open]").count() == 0
    # the move log folds the same under the scoring turns
    log_why = "#move-log li:nth-child(6) details.why"
    _open_why(page, log_why)
    assert "16" in page.locator(f"{log_why} .why-body").inner_text()
    _shot(page, f"thricewise-log-{language}-{device}")

    play = examples["forget-venice-1"]
    page.goto(f"/plays/{play.pk}/sheet/")
    cell = "#fv-sheet table[data-half='1'] tr[data-criterion='III'] td:nth-child(3) details.why"
    box = _open_why(page, cell)
    note = page.locator(f"{cell} .why-body").inner_text()
    assert "The Origin (2), The Savage (3), The Sailor (4), The Forest (5)" in note
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
    assert_no_horizontal_scroll(page)
    _shot(page, f"forget-venice-sheet-{language}-{device}")
    assert page.js_errors == []


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_statistics_read_as_a_club_would(page, examples, table, language, device):
    _on(page, device)
    _in_language(page, language)
    club = table["club"]
    page.goto(f"/clubs/{club.pk}/leaderboard/")
    rows = page.locator("table.leaderboard tbody tr[data-player]")
    names = [rows.nth(i).get_attribute("data-player") for i in range(rows.count())]
    # Ana and Ben (7 plays each) first; Chloé, Dev and Eli (1 play each) provisional, after
    assert names[:2] == ["Ana", "Ben"] and set(names[2:]) == {"Chloé", "Dev", "Eli"}
    assert page.locator("tr.provisional-head").count() == 1
    page.locator("#what-rating > summary").click()
    assert page.locator("#what-rating p").first.is_visible()
    header = page.locator("table.leaderboard thead").inner_text()
    assert ("Cote" in header) if language == "fr" else ("Rating" in header)
    assert_no_horizontal_scroll(page)
    _shot(page, f"leaderboard-{language}-{device}", full_page=True)

    ana = table["players"][0]
    page.goto(f"/players/{ana.pk}/")
    chart = page.locator("svg.chart")
    chart.scroll_into_view_if_needed()
    assert chart.locator("polyline").count() == 1 and chart.locator("polygon").count() == 0
    axis = [text.text_content() for text in chart.locator("text.chart-axis").all()]
    assert axis == (
        ["Cote", "Date de la partie →"] if language == "fr" else ["Rating", "Date of play →"]
    )
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"] + 0.5
    assert_no_horizontal_scroll(page)
    _shot(page, f"player-chart-{language}-{device}")
    games = page.locator("table.player-games").inner_text()
    assert ("1 gagnée, 0 perdue" in games) if language == "fr" else ("1 won, 0 lost" in games)
    page.locator("table.rivals").scroll_into_view_if_needed()
    _shot(page, f"player-rivals-{language}-{device}")
    rivals = page.locator("table.rivals thead").inner_text()
    assert ("Égalités" in rivals) if language == "fr" else ("Tied" in rivals)

    page.goto(f"/plays/{examples['three-high-1'].pk}/")
    assert page.locator("table.rating-changes").count() == 0
    assert page.js_errors == []
