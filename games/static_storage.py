"""Static files in production: hashed, compressed names, cached for a year by browsers.

``collectstatic`` writes every file under a name that carries a hash of its content (and a
gzip copy beside it) with a manifest of those names; whitenoise serves hashed names with
``Cache-Control: max-age=315360000, immutable``. Before ``collectstatic`` has run (the tests, the
benchmarks, a fresh checkout with DEBUG off) there is no manifest: pages then name the files
as they are, instead of failing to render.
"""

from __future__ import annotations

import logging

from whitenoise.storage import CompressedManifestStaticFilesStorage

logger = logging.getLogger(__name__)


class ManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    def stored_name(self, name: str) -> str:
        try:
            return super().stored_name(name)
        except ValueError:
            # Not in the manifest (collectstatic has not run since this file appeared).
            if self.hashed_files:
                logger.warning("static file %s is not in the manifest: run collectstatic", name)
            return name
