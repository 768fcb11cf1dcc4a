"""Pages compressed on the way out (issue 28: a phone on a slow network waits for every byte).

Django's GZipMiddleware, which pads each answer with random bytes against BREACH, for pages and
fragments only: a streaming answer is either a live stream (games.views.live: a few bytes per
event, to be flushed at once, not held by a compressor) or a static file, which whitenoise
serves compressed already.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware


class CompressPages(GZipMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.streaming:
            return response
        return super().process_response(request, response)
