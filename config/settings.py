"""Settings, read from environment variables (see README: Configuration).

SQLite in the project directory by default; PostgreSQL (or any database) through DATABASE_URL.
"""

import datetime
import os
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

# Development only: a fixed insecure key keeps `make run` zero-configuration. Production must
# set SECRET_KEY (the deploy check fails on this one).
SECRET_KEY = (
    os.environ.get("SECRET_KEY") or "django-insecure-development-key-do-not-use-in-production"
)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "games",
]

MIDDLEWARE = [
    # First, so that it compresses what every other middleware made (pages only: streams and
    # static files pass as they are).
    "games.compression.CompressPages",
    "django.middleware.security.SecurityMiddleware",
    # A page hit by a database outage answers 503 with Retry-After, not a 500.
    "games.views.health.DatabaseOutageMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # A body announced past every page's limit: 413 before anything reads it (games/uploads.py).
    "games.uploads.BodyLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: turns a refused (locked-out) login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        # Django's, letting go of each page's context once made (config/templates.py).
        "BACKEND": "config.templates.DjangoTemplates",
        "NAME": "django",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
    {
        # The play page's hot parts, compiled (games.jinja): drawn for every move and every
        # phone watching it. Django's pages include them with {% jinja %}.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "games.jinja.environment", "autoescape": True},
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
# SQLite's WAL is checkpointed by a thread of each process, every second (games/checkpoints.py):
# a request's commit checkpoints only past this many pages in the log (about 40 MB of 4 KiB
# pages, ten times SQLite's default), a backstop for a process whose checkpointer is not running,
# or for one transaction writing that much (a club's rating rebuild). With SQLite's 1,000 the
# commit that crossed it paid 4.5 ms for everyone's pages (issue 32).
SQLITE_WAL_BACKSTOP_PAGES = 10_000
# Once checkpointed, the log is written again from its start; a log file grown past this (one
# large transaction: a rebuild writes 1 GB) is cut back to it then. The checkpointer's connection
# keeps the log open, so it is no longer deleted when the last request's connection closes. Above
# the backstop's 40 MB, so that an ordinary log is never cut and grown again.
SQLITE_WAL_SIZE_LIMIT = 64 * 1024 * 1024
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent writers wait for the lock instead of failing at once; WAL lets reads go on.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
            f"PRAGMA wal_autocheckpoint={SQLITE_WAL_BACKSTOP_PAGES:d}; "
            f"PRAGMA journal_size_limit={SQLITE_WAL_SIZE_LIMIT:d};"
        ),
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A pool per process, not a persistent connection per thread: under ASGI each request runs
    # its synchronous code in a thread of its own, and persistent connections left behind by
    # those threads piled up to PostgreSQL's max_connections under `make loadtest` ("too many
    # clients"). Django's docs ask for a pool under ASGI.
    # A request waits at most DB_POOL_TIMEOUT seconds for a connection: with the database down
    # the pool has none to give, and pages and /healthz answer 503 after that wait (it was 10 s,
    # and the load balancer's checks and people's pages waited as long; issue 29). A pool of 20
    # per process is never that long busy otherwise. A connection attempt gives up after
    # DB_CONNECT_TIMEOUT seconds (a database host that drops packets).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options.setdefault("connect_timeout", int(os.environ.get("DB_CONNECT_TIMEOUT", "2")))
    options["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("DB_POOL_SIZE", "20")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "1")),
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache holds the throttles' counts: a table in the database, so that every app server
# counts the same (`migrate` creates it, see games/apps.py). Big enough that counts are not
# culled while they matter.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "referee_cache",
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Failed-login throttling (django-axes): the standalone backend first refuses a locked-out
# username+address pair; then the usual backend checks the password.
AUTHENTICATION_BACKENDS = [
    "games.auth_backends.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Slow a guesser down rather than lock the owner out: five wrong passwords pause that username
# from that address only, for a quarter of an hour (each new try while paused restarts it); a
# successful login or a password reset by e-mail lifts the pause.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
# The client's address, for the lockout and the throttles (games/throttles.py): behind
# TRUSTED_PROXY_COUNT reverse proxies, the address the outermost one saw (X-Forwarded-For).
# Left at 0 behind a proxy, every visitor shares the proxy's address.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "games.throttles.client_address"
# Per client address and per hour: accounts created, and password-reset mails asked for (the
# latter per mailbox too).
SIGNUPS_PER_HOUR = int(os.environ.get("SIGNUPS_PER_HOUR", "20"))
PASSWORD_RESETS_PER_HOUR = int(os.environ.get("PASSWORD_RESETS_PER_HOUR", "5"))
# Per account and per hour: files uploaded (game logs, and any other upload of JSON; refused
# ones count too): a club importing an evening's logs, not a script (games/uploads.py).
UPLOADS_PER_HOUR = int(os.environ.get("UPLOADS_PER_HOUR", "30"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Production: `collectstatic` writes hashed, compressed files and their manifest, and
        # whitenoise serves them cached for a year (games/static_storage.py). Development: the
        # files as they are in static/.
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "games.static_storage.ManifestStaticFilesStorage"
        )
    },
}

# Uploaded game logs are small JSON files. The log upload view refuses a bigger body from its
# Content-Length, before reading it; anywhere else the one upload handler keeps files in memory
# and stops reading at the limit, so no upload is ever written to disk (games/uploads.py).
# Form fields other than files are held to DATA_UPLOAD_MAX_MEMORY_SIZE (Django refuses more).
MAX_UPLOAD_BYTES = 1024 * 1024
FILE_UPLOAD_HANDLERS = ["games.uploads.CappedMemoryUploadHandler"]
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

# E-mail (password resets): printed to the console in development; in production through SMTP
# (EMAIL_HOST, EMAIL_PORT), unless EMAIL_BACKEND names another backend.
_email_backend = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend"
)
MAILERS = {"default": {"BACKEND": _email_backend}}
if _email_backend.endswith("smtp.EmailBackend"):
    MAILERS["default"]["OPTIONS"] = {
        "host": os.environ.get("EMAIL_HOST", "localhost"),
        "port": int(os.environ.get("EMAIL_PORT", "25")),
    }
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "referee@localhost")

# Content Security Policy (Django's built-in middleware): no inline scripts, no CDN.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Live pages (games.live): a stream sends a keep-alive comment, and checks again that its
# watcher may still see the play, at least this often.
LIVE_KEEPALIVE_SECONDS = float(os.environ.get("LIVE_KEEPALIVE_SECONDS", "20"))
# How many live streams may be open at once (issue 29), counted in each server process: per
# browser session, per account, per read-only link; beyond them a stream is refused (429) and
# the page asks every few seconds instead. Past the process's ceiling (by default its
# file-descriptor limit, `ulimit -n`, less 256: games.live.process_ceiling) a stream is refused
# with 503.
# A half-built move the play page carries signed for its live refresh holds this long (and for
# its user only): a game night's length (games.views.drafts).
LIVE_KEPT_DRAFT_SECONDS = int(os.environ.get("LIVE_KEPT_DRAFT_SECONDS", str(6 * 60 * 60)))
LIVE_STREAMS_PER_SESSION = int(os.environ.get("LIVE_STREAMS_PER_SESSION", "8"))
LIVE_STREAMS_PER_ACCOUNT = int(os.environ.get("LIVE_STREAMS_PER_ACCOUNT", "20"))
LIVE_STREAMS_PER_SHARE = int(os.environ.get("LIVE_STREAMS_PER_SHARE", "50"))
LIVE_STREAMS_PER_PROCESS = (
    int(os.environ["LIVE_STREAMS_PER_PROCESS"])
    if os.environ.get("LIVE_STREAMS_PER_PROCESS")
    else None
)
