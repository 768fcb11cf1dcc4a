"""App server processes for tests that need real ones (uvicorn, ASGI, as in production): two of
them on one database (tests/live/test_two_servers.py), or one that is stopped and started again
on the same port (tests/browser/test_live.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def database_url_of_the_tests() -> str:
    """The test database, as another process reaches it (SQLite: a file, tests/browser)."""
    params = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{params['NAME']}"
    return f"postgres://{params['USER']}@{params['HOST']}:{params['PORT']}/{params['NAME']}"


@contextmanager
def server(database_url: str, port: int | None = None, keepalive_seconds: int = 60):
    """A uvicorn process serving the site on ``port`` (a free one unless given): its port."""
    port = port or free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "1",
        "SECRET_KEY": settings.SECRET_KEY,  # the sessions made here are read there
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # long by default: only a wake-up (the NOTIFY) can bring an event within a test's time
        # (the keep-alive re-reads the version too, which would hide a lost NOTIFY)
        "LIVE_KEEPALIVE_SECONDS": str(keepalive_seconds),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", HOST,
         "--port", str(port), "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection((HOST, port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, process.stderr.read().decode()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        yield port
    finally:
        # A server waits for its open responses before it stops, and a live stream never ends
        # by itself: after a moment, it is stopped as a crash or a deploy's timeout would.
        process.terminate()
        try:
            process.wait(timeout=3)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
