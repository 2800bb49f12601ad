"""Uploads, deletes and URL ingestion for `docshelf serve`: the local store, written by one writer at a time.

Writes go through their own `LocalServices` over the same store (an embedded index of their own), as a
`docshelf ingest` in another process would: the search side sees them once the namespace version moves. An
uploaded file is kept under `uploads/<namespace>/<filename>` in the store folder, then ingested before the PUT
answers; a web page is fetched and ingested in a background thread (POST /ingest answers 202 at once).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from docshelf.api.ingress import UploadTarget
from docshelf.fetch.fetcher import Fetcher
from docshelf.index.embedded import EmbeddedIndex
from docshelf.local.services import LocalServices
from docshelf.local.upload_signing import UPLOAD_URL_SECONDS, SignedUpload, UploadSigner
from docshelf.pipeline import IngestResult

UPLOADS_FOLDER = "uploads"
# waitress reads a request body whole before the app sees it, on every route alike (to a temporary file past
# 512 KB): the server's body limit is raised to this for uploads, and no further, so a client cannot make it
# buffer the parse limit's 100 MiB for a request any other route would refuse.
MAX_LOCAL_UPLOAD_BYTES = 32 * 1024 * 1024
_log = logging.getLogger(__name__)


class LocalIngress:
    def __init__(self, services: LocalServices, *, fetcher: Callable[[], Fetcher] = Fetcher) -> None:
        self._writer = _writer_of(services)
        self._lock = threading.Lock()
        self._fetcher = fetcher
        self._fetches: list[threading.Thread] = []
        self.upload_signer = UploadSigner()

    @property
    def max_upload_bytes(self) -> int:
        return min(MAX_LOCAL_UPLOAD_BYTES, self._writer.config.limits.max_bytes)

    def upload_target(self, namespace: str, filename: str, content_type: str, size: int) -> UploadTarget:
        """The local PUT route, presigned like S3's: this type and size, within `UPLOAD_URL_SECONDS` (the route
        makes it absolute with the request's host)."""
        query = self.upload_signer.query(SignedUpload(namespace, filename, content_type, size))
        return UploadTarget(f"/uploads?{query}", headers={"Content-Type": content_type}, expires_in=UPLOAD_URL_SECONDS)

    def store_upload(self, namespace: str, filename: str, data: bytes) -> IngestResult:
        """Keep the file in the store folder and ingest it; the document's status is the result."""
        with self._lock:
            path = self._upload_path(namespace, filename)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            result = self._writer.ingest(data, namespace=namespace, source_key=filename)
            self._writer.index.commit()
            return result

    def delete_document(self, namespace: str, source_key: str) -> None:
        with self._lock:
            self._writer.delete(namespace=namespace, source_key=source_key)
            self._writer.index.commit()
            self._upload_path(namespace, source_key).unlink(missing_ok=True)

    def queue_url(self, namespace: str, url: str, source_key: str) -> None:
        thread = threading.Thread(target=self._fetch, args=(namespace, url), name=f"docshelf-fetch {url}", daemon=True)
        self._fetches.append(thread)
        thread.start()

    def wait(self, timeout: float = 60.0) -> None:
        """Until every queued fetch has ended (tests, and a clean shutdown)."""
        for thread in list(self._fetches):
            thread.join(timeout)
        self._fetches = [thread for thread in self._fetches if thread.is_alive()]

    def _fetch(self, namespace: str, url: str) -> None:
        try:
            with self._lock:
                result = self._writer.ingest_url(url, namespace=namespace, fetcher=self._fetcher())
                self._writer.index.commit()
            _log.info("fetched %s into %s: %s %s", url, namespace, result.status, result.error_message)
        except Exception:  # a thread has no caller to report to: the log does
            _log.exception("fetching %s into %s failed", url, namespace)

    def _upload_path(self, namespace: str, filename: str) -> Path:
        return Path(self._writer.store.root) / UPLOADS_FOLDER / namespace / filename


def _writer_of(services: LocalServices) -> LocalServices:
    """The services writes go through: an embedded index of their own (OpenSearch is shared as it is)."""
    if isinstance(services.index, EmbeddedIndex):
        return replace(services, index=EmbeddedIndex(services.store))
    return services
