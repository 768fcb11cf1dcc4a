"""Game nights in French, in a real browser: a date input takes only ISO dates, so the date the
server fills in must be ISO for the browser to show it (and to send it back)."""

import datetime
import re

from django.utils import timezone

from .conftest import log_in


def in_french(page) -> None:
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("html[lang=fr]")


def test_a_new_night_comes_up_dated_today_in_french(page, table):
    log_in(page)
    in_french(page)
    page.goto(f"/clubs/{table['club'].pk}/")
    page.click("details:has(form[action$='/nights/new/']) summary")
    date = page.locator("form[action$='/nights/new/'] input[name=date]")
    assert date.input_value() == timezone.localdate().isoformat()
    page.fill("form[action$='/nights/new/'] input[name=place]", "Chez Chloé")
    page.click("form[action$='/nights/new/'] button[type=submit]")
    page.wait_for_url(re.compile(r".*/nights/\d+/$"))
    night = table["club"].nights.get(place="Chez Chloé")
    assert night.date == timezone.localdate()


def test_editing_only_a_nights_place_keeps_its_date_in_french(page, table):
    night = table["night"]
    log_in(page)
    in_french(page)
    page.goto(f"/nights/{night.pk}/")
    page.click("details.night-edit summary")
    form = page.locator("details.night-edit form")
    assert form.locator("input[name=date]").input_value() == "2026-11-21"
    form.locator("input[name=place]").fill("Chez Ben")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("text=La soirée jeux a été enregistrée")
    night.refresh_from_db()
    assert (night.date, night.place) == (datetime.date(2026, 11, 21), "Chez Ben")
