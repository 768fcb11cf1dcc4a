"""Under ASGI the body limit is enforced before Django reads anything (games/uploads.py)."""

import asyncio

from games.uploads import ASGIBodyLimit, asgi_body_limit


class Inner:
    """An ASGI app that reads the whole body, as Django's handler does, and records it."""

    def __init__(self):
        self.body = b""
        self.disconnected = False

    async def __call__(self, scope, receive, send):
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.disconnected = True
                return
            self.body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def run(app, *, headers, chunks):
    reads = 0
    queue = list(chunks)

    async def receive():
        nonlocal reads
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
    assert reads == 0 and inner.body == b""  # the view refuses it by its announced length
    assert sent[0]["status"] == 200


def test_a_body_without_a_length_is_cut_off_at_the_limit():
    inner = Inner()
    reads, sent = run(ASGIBodyLimit(inner, limit=10_000), headers=[], chunks=[b"x" * 4096] * 100)
    assert inner.disconnected and reads == 3  # 12 KiB read of 400: then "the client went away"
    assert sent == []


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
