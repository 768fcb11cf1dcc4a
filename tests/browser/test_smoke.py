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


def test_a_csp_violation_is_heard_by_every_browser_test(page, table):
    """The page fixture fails a test on a page the CSP refused something on (conftest): both
    Chromium's console message and the securitypolicyviolation event are heard, on any page."""
    log_in(page)
    # what htmx's settle did to Thricewise's grid: a style attribute, not the CSSOM
    page.evaluate("document.querySelector('main').setAttribute('style', 'color: red')")
    for _ in range(100):  # the console message and the binding's call reach the test
        heard = list(page.csp_violations)
        if len(heard) >= 2:
            break
        page.wait_for_timeout(50)
    assert any("Applying inline style violates" in text for text in heard), heard
    assert any(text.startswith("style-src-attr refused") and "<main" in text for text in heard)
    # … and what a script sets through the CSSOM is allowed
    page.csp_violations.clear()
    page.evaluate("document.querySelector('main').style.setProperty('--columns', '3')")
    page.wait_for_timeout(200)
    assert page.csp_violations == []


def test_switch_to_french(page, table):
    log_in(page)
    page.click("button[name=language][value=fr]")
    page.wait_for_selector("text=Vos clubs")
    assert page.locator("html").get_attribute("lang") == "fr"


def test_no_console_error_on_page_loads_and_htmx_swaps(page, table):
    # A CSP violation (htmx's inline indicator styles) or a missing favicon shows up here.
    from .test_punto import MATCH, start_punto, tap_move

    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type in ("error", "warning") else 0)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    start_punto(page, table, ["Ana", "Ben"])
    for index, move in enumerate(MATCH["moves"][:3]):
        tap_move(page, move, index)
    page.click("#undo")
    page.wait_for_selector("#move-log li.undone")
    page.goto(f"/clubs/{table['club'].pk}/")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1000)  # the browser asks for the favicon late, at low priority
    assert console == [] and page.js_errors == []
    favicon = page.request.get("/favicon.ico")  # what browsers ask for without a <link rel=icon>
    assert favicon.ok and favicon.headers["content-type"] == "image/svg+xml"


def test_the_live_server_has_a_database_of_its_own_on_sqlite(live_server, transactional_db):
    # Not pytest-django's in-memory database that the server's threads would share (conftest).
    from django.db import connection

    if connection.vendor == "sqlite":
        assert not connection.is_in_memory_db(), connection.settings_dict["NAME"]
