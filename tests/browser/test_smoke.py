"""The site in a real browser: log in on a phone, htmx under the CSP, switch to French."""

from .conftest import assert_no_horizontal_scroll, log_in


def test_log_in_and_see_the_club_on_a_phone(page, table):
    log_in(page)
    page.click("text=Browser club")
    assert page.locator("h1").inner_text() == "Browser club"
    assert_no_horizontal_scroll(page)
    assert page.js_errors == []


def test_htmx_is_served_by_us_and_runs_under_the_csp(page, table):
    log_in(page)
    assert page.evaluate("typeof window.htmx") == "object"
    assert page.js_errors == []


def test_switch_to_french(page, table):
    log_in(page)
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("text=Vos clubs")
    assert page.locator("html").get_attribute("lang") == "fr"
