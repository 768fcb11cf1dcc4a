"""Under ASGI the body limit is enforced before Django reads anything (games/uploads.py); a
body over the limit answers 413, never 500, on any address, under a real uvicorn and under
Django's test client (issue 29, finding 4)."""

import asyncio
import contextlib
import socket

import pytest

from games.uploads import ASGIBodyLimit, asgi_body_limit
from tests.servers import HOST, server


class Inner:
    """An ASGI app that reads the whole body, as Django's handler does, and records it."""

    def __init__(self):
        self.body = b""
        self.disconnected = False
        self.after_body = None

    async def __call__(self, scope, receive, send):
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.disconnected = True
                return
            self.body += message.get("body", b"")
            if not message.get("more_body"):
                break
        # Django then waits for the client to leave, and takes anything else for an error.
        self.after_body = (await receive())["type"]
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def run(app, *, headers, chunks):
    reads = 0
    queue = list(chunks)

    async def receive():
        nonlocal reads
        if not queue and reads:
            return {"type": "http.disconnect"}
        reads += 1
        body = queue.pop(0) if queue else b""
        return {"type": "http.request", "body": body, "more_body": bool(queue)}

    sent = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/", "headers": headers}
    asyncio.run(app(scope, receive, send))
    return reads, sent


def test_a_body_announced_too_big_is_never_read():
    inner = Inner()
    chunks = [b"x" * 1024] * 1000
    reads, sent = run(
        ASGIBodyLimit(inner, limit=10_000),
        headers=[(b"content-length", str(len(chunks) * 1024).encode())],
        chunks=chunks,
    )
    assert inner.body == b""  # BodyLimitMiddleware refuses it by its announced length
    # what the client still sends is dropped until it leaves: Django hears only that (a
    # second empty body was an "Invalid ASGI message" and a 500)
    assert inner.after_body == "http.disconnect"
    assert sent[0]["status"] == 200


def test_a_body_without_a_length_is_cut_off_at_the_limit():
    inner = Inner()
    reads, sent = run(ASGIBodyLimit(inner, limit=10_000), headers=[], chunks=[b"x" * 4096] * 100)
    assert inner.disconnected and reads == 3  # 12 KiB read of 400: then "the client went away"
    assert sent[0]["status"] == 413  # said here, as Django answers nothing


def test_a_body_within_the_limit_passes_untouched():
    inner = Inner()
    reads, sent = run(
        ASGIBodyLimit(inner, limit=10_000),
        headers=[(b"content-length", b"8192")],
        chunks=[b"a" * 4096, b"b" * 4096],
    )
    assert inner.body == b"a" * 4096 + b"b" * 4096 and sent[1]["body"] == b"ok"


def test_production_serves_through_the_limit():
    from config import asgi

    assert isinstance(asgi.application, ASGIBodyLimit)
    assert asgi_body_limit() >= 1024 * 1024  # a log upload of the documented size still fits


# Django's test client and a real uvicorn -----------------------------------------------------

TOO_BIG = asgi_body_limit() + 1


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/plays/1/move/", "/nights/1/upload/"])
def test_a_body_over_the_limit_answers_413_under_the_test_client(client, url):
    response = client.post(url, b"x" * TOO_BIG, content_type="application/octet-stream")
    assert response.status_code == 413
    assert b"Nothing was read or changed" in response.content


@pytest.mark.django_db
def test_the_413_page_is_said_in_the_readers_language(client):
    response = client.post(
        "/", b"x" * TOO_BIG, content_type="text/plain", headers={"Accept-Language": "fr"}
    )
    assert response.status_code == 413 and "Rien n’a été lu".encode() in response.content


def raw_post(port: int, path: str, length: int, sent: int) -> bytes:
    """Announce ``length`` bytes, send ``sent`` of them, and read the answer."""
    with socket.create_connection((HOST, port), timeout=10) as sock:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/octet-stream\r\n"
            f"Content-Length: {length}\r\nConnection: close\r\n\r\n"
        )
        sock.sendall(head.encode())
        # the server may answer and close before reading it all: fine
        with contextlib.suppress(OSError):
            sock.sendall(b"x" * sent)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        return answer


def test_a_body_over_the_limit_answers_413_under_uvicorn(tmp_path):
    """Anonymously, on any address: 413 with the page, no traceback (it was a 500 and a 3.5 KB
    traceback in the log for every such request)."""
    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as port:
        for path in ["/", "/accounts/login/", "/plays/1/move/", "/nights/1/upload/"]:
            answer = raw_post(port, path, 3 * 2**20, 256 * 1024)
            assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
            assert b"Traceback" not in answer
