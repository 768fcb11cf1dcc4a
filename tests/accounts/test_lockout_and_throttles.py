"""The login lockout slows a guesser down without locking the owner out; reset mails and
sign-ups are limited per client address, the client being who the trusted proxy saw."""

import datetime
import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse

from games.throttles import client_address

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"  # the reverse proxy: every request reaches the app from it
ATTACKER = "203.0.113.9"
OWNER = "198.51.100.7"


def through_proxy(client_ip: str, forged: str = "") -> Client:
    """A browser at ``client_ip`` behind our one proxy, which appends the address it saw."""
    forwarded = f"{forged}, {client_ip}" if forged else client_ip
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)


def login(client: Client, password: str, username: str = "mahmoud"):
    return client.post(reverse("login"), {"username": username, "password": password})


@pytest.fixture
def one_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 1


@pytest.mark.parametrize(
    ("count", "forwarded", "address"),
    [
        (0, "203.0.113.9", PROXY),  # no trusted proxy: the header is the client's word only
        (1, "203.0.113.9", ATTACKER),
        (1, "1.2.3.4, 203.0.113.9", ATTACKER),  # the client forged the first entry
        (2, "1.2.3.4, 203.0.113.9, 10.0.0.1", ATTACKER),  # CDN, then our proxy
        (2, "203.0.113.9", PROXY),  # did not come through both proxies
        (1, "", PROXY),
        (1, "not-an-address", PROXY),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_the_client_address_is_what_the_outermost_trusted_proxy_saw(
    settings, count, forwarded, address
):
    settings.TRUSTED_PROXY_COUNT = count
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == address


def test_behind_the_proxy_a_stranger_cannot_lock_the_owner_out(one_proxy, member):
    attacker = through_proxy(ATTACKER)
    for _ in range(5):
        login(attacker, "guess")
    assert login(attacker, "member-pass-123").status_code == 429
    # The owner, at another address behind the same proxy, logs in.
    assert login(through_proxy(OWNER), "member-pass-123").status_code == 302


def test_forging_x_forwarded_for_does_not_escape_the_lockout(one_proxy, member):
    for attempt in range(5):
        login(through_proxy(ATTACKER, forged=f"192.0.2.{attempt}"), "guess")
    response = login(through_proxy(ATTACKER, forged="192.0.2.99"), "member-pass-123")
    assert response.status_code == 429


def test_the_pause_is_short_and_says_how_long(client, member):
    for _ in range(5):
        response = login(client, "guess")
    assert response.status_code == 429
    assert "paused for 15 minutes" in response.content.decode()
    # A quarter of an hour later the owner may try again.
    AccessAttempt.objects.update(attempt_time=datetime.datetime.now(datetime.UTC) - FIFTEEN)
    assert login(client, "member-pass-123").status_code == 302


FIFTEEN = datetime.timedelta(minutes=15, seconds=1)


def test_a_password_reset_by_mail_lifts_the_lock(client, member, mailoutbox):
    member.email = "mahmoud@example.org"
    member.save()
    for _ in range(5):
        login(client, "guess")
    assert login(client, "member-pass-123").status_code == 429
    client.post(reverse("password_reset"), {"email": "mahmoud@example.org"})
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)
    form_url = client.get(link)["Location"]
    client.post(form_url, {"new_password1": "fresh-pass-2026", "new_password2": "fresh-pass-2026"})
    assert login(client, "fresh-pass-2026").status_code == 302


# Throttles -------------------------------------------------------------------------------------


def ask_reset(client: Client, email: str):
    return client.post(reverse("password_reset"), {"email": email})


def test_reset_mails_are_limited_per_address(one_proxy, member, outsider, mailoutbox, settings):
    member.email, outsider.email = "mahmoud@example.org", "oscar@example.org"
    member.save()
    outsider.save()
    attacker = through_proxy(ATTACKER)
    for attempt in range(settings.PASSWORD_RESETS_PER_HOUR):
        email = ["mahmoud@example.org", "oscar@example.org"][attempt % 2]
        assert ask_reset(attacker, email).status_code == 302
    sent = len(mailoutbox)
    for email in ["mahmoud@example.org", "oscar@example.org", "nobody@example.org"]:
        refused = ask_reset(attacker, email)
        assert refused.status_code == 429
        assert "Too many password-reset mails" in refused.content.decode()
    assert len(mailoutbox) == sent
    # Another client is not held back by the first one's count.
    assert ask_reset(through_proxy(OWNER), "oscar@example.org").status_code == 302


def test_reset_mails_to_one_mailbox_are_limited_from_any_address(
    one_proxy, member, mailoutbox, settings
):
    member.email = "mahmoud@example.org"
    member.save()
    for attempt in range(settings.PASSWORD_RESETS_PER_HOUR):
        ask_reset(through_proxy(f"192.0.2.{attempt}"), "Mahmoud@example.org")
    assert len(mailoutbox) == settings.PASSWORD_RESETS_PER_HOUR
    assert ask_reset(through_proxy("192.0.2.200"), "mahmoud@example.org").status_code == 429
    assert len(mailoutbox) == settings.PASSWORD_RESETS_PER_HOUR


def sign_up(client: Client, username: str):
    return client.post(
        reverse("signup"),
        {"username": username, "password1": "a-long-pass-2026", "password2": "a-long-pass-2026"},
    )


def test_sign_ups_are_limited_per_address(one_proxy, settings, db):
    settings.SIGNUPS_PER_HOUR = 3
    for number in range(3):
        assert sign_up(through_proxy(ATTACKER), f"bot{number}").status_code == 302
    refused = sign_up(through_proxy(ATTACKER), "bot3")
    assert refused.status_code == 429
    assert "Too many accounts were created from your network" in refused.content.decode()
    assert not get_user_model().objects.filter(username="bot3").exists()
    assert sign_up(through_proxy(OWNER), "chloe").status_code == 302


def test_the_throttles_count_in_the_database_shared_by_every_app_server(settings):
    backend = settings.CACHES["default"]["BACKEND"]
    assert backend == "django.core.cache.backends.db.DatabaseCache"
    from django.core.cache import cache

    cache.set("shared", 1)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {settings.CACHES['default']['LOCATION']}")
        assert cursor.fetchone()[0] >= 1


def test_migrate_creates_the_cache_table(settings):
    from django.core.management import call_command
    from django.db import connection

    table = settings.CACHES["default"]["LOCATION"]
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {table}")
    assert table not in connection.introspection.table_names()
    call_command("migrate", verbosity=0)
    assert table in connection.introspection.table_names()
