"""For the operator: a health check that checks the database, a 503 (not a 500) during a
database outage, caching headers that keep a club's data out of shared caches, and static
files served hashed, compressed and cached for a year in production."""

import json
import os
import re
import subprocess
import sys

import pytest
from django.contrib.staticfiles import finders
from django.db import InterfaceError, OperationalError, ProgrammingError, connection
from django.test import Client
from django.urls import reverse

from tests.dom import attr, dom, find, find_all
from tests.security.test_production_settings import PRODUCTION, ROOT

pytestmark = pytest.mark.django_db


def failing_with(error):
    def wrapper(execute, sql, params, many, context):
        raise error("could not connect to server: Connection refused")

    return wrapper


def test_healthz_answers_ok_when_the_database_answers(client):
    response = client.get("/healthz")
    assert (response.status_code, response.content) == (200, b"ok\n")


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_healthz_answers_503_when_the_database_does_not(client, error):
    with connection.execute_wrapper(failing_with(error)):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response.content == b"database unreachable\n"


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_page_hit_by_a_database_outage_answers_503_with_retry_after(member, club, error):
    client = Client(raise_request_exception=False)
    client.force_login(member)
    with connection.execute_wrapper(failing_with(error)):
        response = client.get(reverse("club", args=[club.pk]))
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    page = response.content.decode()
    assert "cannot reach its database" in page and "Server Error" not in page
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_other_database_errors_stay_500(member, club):
    client = Client(raise_request_exception=False)
    client.force_login(member)
    with connection.execute_wrapper(failing_with(ProgrammingError)):
        response = client.get(reverse("club", args=[club.pk]))
    assert response.status_code == 500


def run_production(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**os.environ, **PRODUCTION, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_with_the_database_really_unreachable_healthz_and_pages_answer_503():
    # Production settings, a PostgreSQL server that is not there (nothing listens on port 1).
    script = (
        "import django, json; django.setup(); from django.test import Client; "
        "import time; "
        "c = Client(HTTP_HOST='referee.example.org'); c.cookies['sessionid'] = 'x' * 32; "
        "c.get('/healthz', secure=True); "  # the process's first request sets the pool up
        "t0 = time.monotonic(); r = c.get('/healthz', secure=True); t1 = time.monotonic(); "
        "p = c.get('/accounts/me/', secure=True); t2 = time.monotonic(); "
        "print(json.dumps([r.status_code, r.get('Retry-After'), p.status_code, "
        "p.get('Retry-After'), p.content.decode(), t1 - t0, t2 - t1]))"
    )
    result = run_production(
        "-c", script, DATABASE_URL="postgres://nobody@127.0.0.1:1/referee", LOG_LEVEL="CRITICAL"
    )
    assert result.returncode == 0, result.stderr
    health, health_retry, page, page_retry, html, *waits = json.loads(
        result.stdout.splitlines()[-1]
    )
    assert (health, health_retry, page, page_retry) == (503, "30", 503, "30")
    assert "cannot reach its database" in html
    # within 2 s each: the pool's wait for a connection (DB_POOL_TIMEOUT) was 10 s (issue 29)
    assert max(waits) < 2, waits


@pytest.fixture
def play(club, night, players, owner):
    from games import services
    from tests.conftest import BUNTHERUM_SERIES

    return services.start_play(
        night=night, game="buntherum", players=players, setup={"series": BUNTHERUM_SERIES}
    )


def test_the_play_page_varies_by_hx_request(member_client, play):
    for headers in ({}, {"HX-Request": "true"}):
        response = member_client.get(reverse("play", args=[play.pk]), headers=headers)
        assert "HX-Request" in response["Vary"] and "Cookie" in response["Vary"]
    moved = member_client.post(
        reverse("play-move", args=[play.pk]), {"expected_seq": "0"}, headers={"HX-Request": "1"}
    )
    assert "HX-Request" in moved["Vary"]
    undone = member_client.post(reverse("play-undo", args=[play.pk]), {"expected_seq": "0"})
    assert "HX-Request" in undone["Vary"]


def test_exports_and_log_downloads_are_private(member_client, club, play):
    for url in [
        reverse("export-csv", args=[club.pk]),
        reverse("export-logs", args=[club.pk]),
        reverse("play-download", args=[play.pk]),
    ]:
        response = member_client.get(url)
        assert response.status_code == 200
        assert "private" in response["Cache-Control"], url


def test_the_favicon_is_ours_and_every_page_names_it(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"].endswith("img/favicon.svg")
    assert finders.find("img/favicon.svg")
    head = find(dom(client.get(reverse("login"))), "head")
    (icon,) = find_all(head, "link", rel="icon")
    assert re.fullmatch(r"/static/img/favicon[^/]*\.svg", attr(icon, "href"))
    assert attr(icon, "type") == "image/svg+xml"


def test_htmx_keeps_its_indicator_styles_out_of_the_page(client):
    # An inline <style> would break the CSP: htmx is told not to add it, and site.css has it.
    head = find(dom(client.get(reverse("login"))), "head")
    config = attr(find(head, "meta", name="htmx-config"), "content")
    assert json.loads(config)["includeIndicatorStyles"] is False

    css = (ROOT / "static" / "css" / "site.css").read_text()
    assert ".htmx-request .htmx-indicator" in css


def test_production_serves_hashed_compressed_static_files_cached_for_a_year(tmp_path):
    static_root = tmp_path / "static"
    collected = run_production(
        "manage.py", "collectstatic", "--noinput", STATIC_ROOT=str(static_root)
    )
    assert collected.returncode == 0, collected.stderr
    assert (static_root / "staticfiles.json").exists()
    script = (
        "import django, json; django.setup(); from django.test import Client; "
        "from django.templatetags.static import static; "
        "c = Client(HTTP_HOST='referee.example.org'); url = static('css/site.css'); "
        "r = c.get(url, secure=True, headers={'Accept-Encoding': 'gzip'}); "
        "print(json.dumps([url, r.status_code, r['Cache-Control'], r.get('Content-Encoding')]))"
    )
    served = run_production("-c", script, STATIC_ROOT=str(static_root))
    assert served.returncode == 0, served.stderr
    url, status, cache_control, encoding = json.loads(served.stdout.splitlines()[-1])
    assert re.fullmatch(r"/static/css/site\.[0-9a-f]{12}\.css", url)
    assert status == 200 and encoding == "gzip"
    assert "max-age=315360000" in cache_control and "immutable" in cache_control
