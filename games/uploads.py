"""Uploads that stop at the limit: nothing big is read, and nothing is ever written to disk.

Django's stock handlers spool any upload past ``FILE_UPLOAD_MAX_MEMORY_SIZE`` to a temporary
file and only then let the view look at its size: a 300 MB upload was received whole before
being refused, and a worker killed in the middle of a stalled upload left its temporary file
behind. This handler is the only one (``settings.FILE_UPLOAD_HANDLERS``): it keeps files in
memory and stops reading the request once its files together pass ``MAX_UPLOAD_BYTES``.
"""

from __future__ import annotations

from io import BytesIO

from django.conf import settings
from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest

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


class ASGIBodyLimit:
    """Under ASGI, Django reads the whole body (spooling it to a temporary file past
    ``FILE_UPLOAD_MAX_MEMORY_SIZE``) before any view or upload handler runs, so the limits above
    would come too late. This wraps the ASGI application:

    - a body *announced* larger than the limit is not read at all: Django gets the request with
      an empty body, and the view refuses it by its announced length, as under WSGI (the upload
      page says the file is too big; any other page fails its CSRF check);
    - a body that arrives without a length, or sends more than it announced, is cut off at the
      limit: Django is told the client went away, and answers nothing.
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

            async def nothing():
                return {"type": "http.request", "body": b"", "more_body": False}

            return await self.app(scope, nothing, send)
        received = 0

        async def capped():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    return {"type": "http.disconnect"}
            return message

        return await self.app(scope, capped, send)
