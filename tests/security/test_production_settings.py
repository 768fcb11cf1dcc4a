"""Production settings (DEBUG off): the deploy check passes and cookies are secure."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "test-production-" + "k3y-with-enough-randomness-" * 3,
    "ALLOWED_HOSTS": "referee.example.org",
    "DJANGO_SETTINGS_MODULE": "config.settings",
}


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, **PRODUCTION}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_is_clean_in_production():
    result = run("manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_settings_are_hardened():
    script = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({k: getattr(s, k) for k in ["
        "'DEBUG', 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', 'SECURE_SSL_REDIRECT', "
        "'SECURE_HSTS_SECONDS', 'SECURE_CONTENT_TYPE_NOSNIFF', 'SESSION_COOKIE_HTTPONLY', "
        "'X_FRAME_OPTIONS', 'SECURE_PROXY_SSL_HEADER', 'AXES_FAILURE_LIMIT']}))"
    )
    result = run("-c", script)
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.strip().splitlines()[-1])
    assert values["DEBUG"] is False
    assert values["SESSION_COOKIE_SECURE"] is True
    assert values["CSRF_COOKIE_SECURE"] is True
    assert values["SESSION_COOKIE_HTTPONLY"] is True
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SECURE_HSTS_SECONDS"] >= 31536000
    assert values["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert values["X_FRAME_OPTIONS"] == "DENY"
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["AXES_FAILURE_LIMIT"] == 5


def test_the_deploy_check_fails_without_a_real_secret_key():
    env = {**os.environ, **PRODUCTION, "SECRET_KEY": ""}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0


def test_postgresql_connections_come_from_a_pool_per_process():
    """Under ASGI each request's synchronous code runs in a thread of its own: persistent
    connections per thread piled up to PostgreSQL's limit under load ("too many clients").
    A pool per process bounds them (DB_POOL_SIZE)."""
    script = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "d = s.DATABASES['default']; print(json.dumps([d['CONN_MAX_AGE'], d['OPTIONS']]))"
    )
    env = {**os.environ, **PRODUCTION, "DATABASE_URL": "postgres://u@db.invalid:5432/referee"}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env={**env, "DB_POOL_SIZE": "7"},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    max_age, options = json.loads(result.stdout.strip().splitlines()[-1])
    assert max_age == 0
    assert options["pool"]["max_size"] == 7
