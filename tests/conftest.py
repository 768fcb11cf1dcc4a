"""The suite's shared vocabulary, defined here once.

- **People** around one club: ``owner`` (olivia, who owns it), ``member`` (mahmoud, a member)
  and ``outsider`` (oscar, in no club). ``owner_client``, ``member_client`` and
  ``outsider_client`` are each their own logged-in test client; ``client`` stays anonymous.
  Anyone else a test needs (a second outsider, a site admin) comes from ``make_user``.
- **The club**: ``club`` (the owner's, with the member in it), ``night``, ``players`` (Ana, Ben
  and Chloé).
- **A play**: ``play`` is a Buntherum play in progress with no move entered yet, Ana, Ben and
  Chloé seated, started by the owner; ``PLAY_FIRST_MOVE`` is a legal first move for it. A play
  that means something else has a name that says what (``punto``, ``duel``, ``venice``,
  ``three_high``), defined once, next to the tests that use it.
- **Hypothesis**: the ``ci`` profile (deterministic: ``derandomize=True``, no example database)
  when the environment sets ``CI``; the ``dev`` profile (random, remembering failures) otherwise.

Django is imported inside the fixtures, so that the pure referee tests (tests/referee) also run
without Django (`pytest -p no:django tests/referee`).
"""

import datetime
import os

import pytest
from hypothesis import settings as hypothesis_settings

# Every test, the site's included: an engine crash re-raises instead of judging the move illegal.
from tests.referee.crashes import engine_crashes_fail  # noqa: F401

#: A valid Buntherum setup (the public example's series), for tests that need any play.
BUNTHERUM_SERIES = {
    "1": ["red-die", "blue-car"],
    "2": ["orange-ball", "green-cup"],
    "3": ["yellow-ball", "purple-telephone"],
    "4": ["red-icecream", "black-butterfly"],
    "5": ["pink-ball", "orange-flower"],
    "6": ["red-telephone", "yellow-cup"],
}
#: A legal first move of ``play``: Ana calls the turned green die into series 3.
PLAY_FIRST_MOVE = {"card": "green-die", "call": {"player": "Ana", "series": 3}}

# Hypothesis -------------------------------------------------------------------------------------

# Both built on Hypothesis's own defaults: Hypothesis loads a "ci" profile of its own when it
# sees CI, and a profile registered without a parent would inherit from whatever is loaded.
_DEFAULTS = hypothesis_settings.get_profile("default")
hypothesis_settings.register_profile(
    "ci", parent=_DEFAULTS, derandomize=True, database=None, print_blob=True
)
hypothesis_settings.register_profile("dev", parent=_DEFAULTS, derandomize=False)


def hypothesis_profile(environ) -> str:
    """``ci`` when the environment says it is CI (``CI`` set, and not to "", "0" or "false")."""
    return "ci" if environ.get("CI", "").strip().lower() not in ("", "0", "false") else "dev"


# Loaded as this module is imported, before the test modules build their @settings, which take
# what they do not set themselves (derandomize, database) from the loaded profile.
hypothesis_settings.load_profile(hypothesis_profile(os.environ))


# Django settings for every test -----------------------------------------------------------------


@pytest.fixture(autouse=True)
def _plain_http(request):
    if "settings" in request.fixturenames or _django_active(request):
        settings = request.getfixturevalue("settings")
        # Production settings redirect to HTTPS; the test client speaks plain HTTP.
        settings.SECURE_SSL_REDIRECT = False
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        # Every test starts in English: a request in French leaves French active in this
        # thread (LocaleMiddleware does not switch back), and a service called next would
        # answer in French.
        from django.utils import translation

        translation.activate(settings.LANGUAGE_CODE)
        # The play fragments a process keeps (games.views.drawn): a play of an earlier test,
        # rolled back, may have had the same id.
        from games.views.drawn import KEPT

        KEPT.clear()


@pytest.fixture(scope="session", autouse=True)
def _plain_http_live_server(request):
    """The live server (session-scoped) builds its middleware once, before any function-scoped
    settings override: turn the HTTPS redirect off for the whole test session."""
    if _django_active(request):
        from django.conf import settings

        settings.SECURE_SSL_REDIRECT = False


@pytest.fixture(scope="session", autouse=True)
def _stop_live_listener(request):
    """A live stream opened on PostgreSQL starts the process's listener (games.live), and its
    reads under ASGI keep connections in a pool (games.views.live), all to the test database:
    close them before the database is dropped (this fixture then depends on the database's, so
    it is torn down first)."""
    if not _django_active(request):
        yield
        return
    request.getfixturevalue("django_db_setup")
    yield
    from games import live
    from games.views.live import close_pool_connections

    live.listener.stop()
    close_pool_connections()
    if live.is_postgresql():
        _end_other_sessions()


def _end_other_sessions() -> None:
    """End every other session on the test database. Its pool lends connections to the threads
    that asgiref ran test code in (sync_to_async, outside any request), and such a thread keeps
    its one until it ends, so the pool's closing left a session open and the database could not
    be dropped (a warning at the end of every PostgreSQL run)."""
    import psycopg
    from django.db import connection

    from games import live

    name = connection.settings_dict["NAME"]
    connection.close()
    params = {**live.connection_params(), "dbname": "postgres"}
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )


@pytest.fixture(scope="session", autouse=True)
def _jinja_drawings_tell_the_test_client(request):
    """As Django's test environment does for its own templates: a Jinja drawing (games.jinja,
    the play's fragment that a move answers with) gives the test client its template and
    context, so that a test reads ``response.context`` whichever engine drew the answer."""
    if not _django_active(request):
        yield
        return
    from types import SimpleNamespace

    from django.test.signals import template_rendered

    from games import jinja, movelog
    from games.ui import _drawing as drawing

    drawn = jinja.render

    def render(name, context):
        template_rendered.send(sender=None, template=SimpleNamespace(name=name), context=context)
        return drawn(name, context)

    jinja.render = render
    # A part kept for the values it is drawn from is drawn again all the same, and checked.
    jinja.CHECK_KEPT = True
    # So is a move log told on from the one kept in the process (movelog.TOLD).
    movelog.CHECK_TOLD = True
    # And a piece of a table drawn in Python (games.ui._drawing.Pieces).
    drawing.CHECK = True
    yield
    jinja.render = drawn


def _django_active(request) -> bool:
    return request.config.pluginmanager.hasplugin("django")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """On PostgreSQL, the tests' own connections wait up to 10 s for one from the pool: the
    production wait (DB_POOL_TIMEOUT, 1 s) is there so that a database outage answers 503
    quickly, and on a loaded test machine opening a second connection for a test's concurrent
    writers can take longer than that (they answered 503 and the race went untested). The
    outage tests run the production settings in a process of their own."""
    from django.conf import settings

    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if isinstance(pool, dict):
        pool["timeout"] = max(float(pool.get("timeout", 0)), 10.0)


# People -----------------------------------------------------------------------------------------


@pytest.fixture
def make_user(db, django_user_model):
    """``make_user(username, **fields)``, password ``<username>-pass-123``: anyone a test needs
    beyond the owner, the member and the outsider."""

    def make_user(username, **fields):
        return django_user_model.objects.create_user(
            username, password=f"{username}-pass-123", **fields
        )

    return make_user


@pytest.fixture
def owner(db, django_user_model):
    return django_user_model.objects.create_user("olivia", password="owner-pass-123")


@pytest.fixture
def member(db, django_user_model):
    return django_user_model.objects.create_user("mahmoud", password="member-pass-123")


@pytest.fixture
def outsider(db, django_user_model):
    return django_user_model.objects.create_user("oscar", password="outsider-pass-123")


def client_for(user, **options):
    """A test client of its own, logged in as ``user`` (``options`` go to ``Client``)."""
    from django.test import Client

    client = Client(**options)
    client.force_login(user)
    return client


@pytest.fixture
def owner_client(owner):
    return client_for(owner)


@pytest.fixture
def member_client(member):
    return client_for(member)


@pytest.fixture
def outsider_client(outsider):
    return client_for(outsider)


# The club ---------------------------------------------------------------------------------------


@pytest.fixture
def club(owner, member):
    from games import services
    from games.models import Membership

    club = services.create_club(name="Les Joueurs", owner=owner)
    Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
    return club


@pytest.fixture
def night(club):
    from games import services

    return services.create_game_night(club=club, date=datetime.date(2026, 11, 20), place="Ana's")


@pytest.fixture
def players(club):
    from games import services

    return [services.add_player(club=club, name=name) for name in ["Ana", "Ben", "Chloé"]]


@pytest.fixture
def play(night, players, owner):
    """A Buntherum play in progress, no move entered yet: Ana, Ben and Chloé, by the owner."""
    from games import services

    return services.start_play(
        night=night,
        game="buntherum",
        players=players,
        setup={"series": BUNTHERUM_SERIES},
        by=owner,
    )
