"""Uploads that stop at the limit: nothing big is read, and nothing is ever written to disk.

Django's stock handlers spool any upload past ``FILE_UPLOAD_MAX_MEMORY_SIZE`` to a temporary
file and only then let the view look at its size: a 300 MB upload was received whole before
being refused, and a worker killed in the middle of a stalled upload left its temporary file
behind. This handler is the only one (``settings.FILE_UPLOAD_HANDLERS``): it keeps files in
memory and stops reading the request once its files together pass ``MAX_UPLOAD_BYTES``.
"""

from __future__ import annotations

from io import BytesIO
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from . import userjson
from .throttles import HOUR, allow, client_address

#: What a multipart form adds around the file it carries (boundaries, part headers, the CSRF
#: token): a request may be this much bigger than the file limit.
FORM_OVERHEAD_BYTES = 16 * 1024


def declared_length(request: HttpRequest) -> int:
    """The body length the client announced (0 if none or garbled). Under WSGI the body is
    never read past it, so it bounds what reading the request can cost."""
    try:
        return max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0


def upload_too_big(request: HttpRequest) -> bool:
    """Whether the request's files pass the limit: announced so, or stopped while reading."""
    announced = declared_length(request) > settings.MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES
    return announced or getattr(request, "upload_over_limit", False)


class CappedMemoryUploadHandler(FileUploadHandler):
    """Keep uploaded files in memory; stop the upload once they pass ``MAX_UPLOAD_BYTES``.

    The count runs over every file of the request, so many files cannot add up to more.
    Past the limit the upload stops without reading the rest of the body (``StopUpload`` with
    ``connection_reset``), the partial file is dropped, and ``request.upload_over_limit`` tells
    the view why its file is missing.
    """

    def __init__(self, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        self.received = 0

    def _stop(self) -> None:
        if self.request is not None:
            self.request.upload_over_limit = True
        raise StopUpload(connection_reset=True)

    def new_file(self, *args, **kwargs) -> None:
        super().new_file(*args, **kwargs)
        if self.content_length is not None and self.content_length > settings.MAX_UPLOAD_BYTES:
            self._stop()
        self.file = BytesIO()

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        self.received += len(raw_data)
        if self.received > settings.MAX_UPLOAD_BYTES:
            self._stop()
        self.file.write(raw_data)
        return None  # no other handler gets the data

    def file_complete(self, file_size: int) -> InMemoryUploadedFile:
        self.file.seek(0)
        return InMemoryUploadedFile(
            file=self.file,
            field_name=self.field_name,
            name=self.file_name,
            content_type=self.content_type,
            size=file_size,
            charset=self.charset,
            content_type_extra=self.content_type_extra,
        )


def asgi_body_limit() -> int:
    """The largest request body any page accepts: an upload's file and its form."""
    return max(
        settings.MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES, settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    )


class UploadRefused(Exception):
    """An uploaded file refused before anything was made of it: ``message`` says why, in the
    reader's words, and ``status`` is the answer's (429 throttled, 413 too big, 400 otherwise)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def too_big_message() -> str:
    return _("That file is too big for a game log (at most %(kb)s KB).") % {
        "kb": settings.MAX_UPLOAD_BYTES // 1024
    }


def throttle_upload(request: HttpRequest, scope: str = "upload") -> None:
    """Count an upload against its account (or, anonymous, its address): past
    ``UPLOADS_PER_HOUR`` in the hour, UploadRefused (429). Every upload is counted before
    anything is read of it, refused ones too; an upload not read by ``read_json_upload`` (a BG
    Stats file, which may be a zip) calls this itself."""
    user_id = getattr(request.user, "pk", None)
    key = f"user:{user_id}" if user_id is not None else f"address:{client_address(request)}"
    if not allow(scope, key, limit=settings.UPLOADS_PER_HOUR, window=HOUR):
        raise UploadRefused(
            _(
                "Too many files were uploaded from your account in the last hour: "
                "please try again later."
            ),
            status=429,
        )


def read_json_upload(
    request: HttpRequest,
    field: str,
    *,
    scope: str = "upload",
    max_containers: int = userjson.MAX_CONTAINERS,
) -> Any:
    """The JSON document uploaded in the form's ``field``, read once within the site's caps, or
    UploadRefused. Every upload of JSON goes through here (issue 29: uploads cost what they
    weigh), in this order:

    1. the throttle: at most ``UPLOADS_PER_HOUR`` uploads per account (``scope`` names the
       count; uploads of every kind share "upload"), refused ones counted too;
    2. the size: ``MAX_UPLOAD_BYTES``, the file held in memory by CappedMemoryUploadHandler,
       which stops reading at the limit;
    3. UTF-8 text (a byte-order mark allowed), then ``userjson.parse``: one pass, its cost
       linear in the size whatever the shape (a 1 MB file takes milliseconds), the value never
       walked in Python (``max_containers``: the most lists and objects a file of this kind
       may hold, 50,000 by default). What the caller stores of it is checked once, by its service
       (``vetting.storable``) — only what is stored: ignore unknown fields, never walk them.

    The view must refuse a body announced too big before anything reads the form, and check
    the CSRF token after (``log_upload`` in games/views/logs.py shows how: ``csrf_exempt``,
    ``upload_too_big``, then ``csrf_protect``).
    """
    throttle_upload(request, scope)
    upload = request.FILES.get(field)
    if upload_too_big(request):
        raise UploadRefused(too_big_message(), status=413)
    if upload is None:
        raise UploadRefused(_("Choose a game log file to upload."))
    try:
        text = upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UploadRefused(_("That file is not a text file."))
    try:
        return userjson.parse(
            text, max_chars=settings.MAX_UPLOAD_BYTES, max_containers=max_containers
        )
    except userjson.UserJSONError as exc:
        raise UploadRefused(exc.message)


def too_big_response(request: HttpRequest) -> HttpResponse:
    """413, in the reader's language: a request body past what any page of the site accepts.
    Drawn without the database (no session, no user): nothing of the request was read."""
    with translation.override(translation.get_language_from_request(request)):
        body = render_to_string("413.html", {"limit_mb": asgi_body_limit() // 2**20})
    return HttpResponse(body, status=413)


class BodyLimitMiddleware:
    """A request announcing a body larger than any page accepts answers 413 before anything
    reads it, whatever the address (issue 29: such a request answered 500 with a traceback under
    uvicorn). Under WSGI and Django's test client the body is then never read; under ASGI,
    ``ASGIBodyLimit`` has already kept it from Django. The log upload's own, smaller limit
    stays the upload's to say, on the night's page (games/views/logs.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if declared_length(request) > asgi_body_limit():
            return too_big_response(request)
        return self.get_response(request)


class ASGIBodyLimit:
    """Under ASGI, Django reads the whole body (spooling it to a temporary file past
    ``FILE_UPLOAD_MAX_MEMORY_SIZE``) before any view or upload handler runs, so the limits above
    would come too late. This wraps the ASGI application:

    - a body *announced* larger than the limit is not read at all: Django gets the request with
      an empty body and ``BodyLimitMiddleware`` answers 413 from the announced length, as under
      WSGI. What the client still sends is read and dropped while Django answers, so that
      Django's wait for the client to leave hears only that (it took a second empty body for a
      protocol error, and answered 500 with a traceback);
    - a body that arrives without a length, or sends more than it announced, is cut off at the
      limit: Django is told the client went away (it answers nothing), and the client is
      answered 413 here if it is still there.
    """

    def __init__(self, app, limit: int | None = None) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = self.limit if self.limit is not None else asgi_body_limit()
        announced = 0
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    announced = int(value)
                except ValueError:
                    announced = 0
        if announced > limit:
            given = False

            async def nothing():
                nonlocal given
                if not given:
                    given = True
                    return {"type": "http.request", "body": b"", "more_body": False}
                while True:  # the rest of the body, dropped, until the client leaves
                    message = await receive()
                    if message["type"] != "http.request":
                        return message

            return await self.app(scope, nothing, send)
        received = 0
        cut = started = False

        async def capped():
            nonlocal received, cut
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    cut = True
                    return {"type": "http.disconnect"}
            return message

        async def watched_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, capped, watched_send)
        if cut and not started:
            await send(
                {
                    "type": "http.response.start",
                    "status": 413,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8")],
                }
            )
            await send({"type": "http.response.body", "body": b"413 Content Too Large\n"})
