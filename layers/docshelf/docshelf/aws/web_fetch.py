"""POST /ingest on AWS: the ParseFunction fetches a queued web page into the source bucket.

The page becomes the object `<namespace>/web/<host>/<path>`, with its URL and fetch time in the object's metadata,
and from there it flows like any upload (EventBridge, ParseQueue, parse, chunk, publish); the parse reads the URL
and time back into the document's source. What the last fetch returned is kept in the artifacts bucket
(`fetch/<namespace>/<document id>.json`): a 304, or bytes equal to the published revision, write nothing, so
nothing is published. A refused or failed fetch is the document's status (`fetch_refused`, `fetch_failed`),
unless an upload of the page already holds a newer S3 sequencer: then the published page stays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING
from urllib.parse import quote

from docshelf import pipeline
from docshelf.aws.stages import StageResult, settle_parse_failure
from docshelf.aws.web_sources import FETCHED_AT_METADATA, URL_METADATA
from docshelf.errors import DocumentError, FetchFailedError
from docshelf.fetch.fetcher import FetchedPage, Fetcher, NotModified
from docshelf.fetch.shown_urls import shown_url
from docshelf.ids import document_id, sha256_hex
from docshelf.pipeline.web_ingest import previous_fetch, record_fetch, validators_of

if TYPE_CHECKING:
    from docshelf.aws.events import FetchMessage
    from docshelf.aws.services import AwsServices

_URL_SAFE = ":/?#[]@!$&'()*+,;=%~"
# The fetcher a ParseFunction uses: the real resolver and sockets (tests put a recording pair here).
make_fetcher: Callable[[], Fetcher] = Fetcher


def handle_fetch_message(
    services: AwsServices, message: FetchMessage, *, fetcher: Fetcher | None = None
) -> StageResult:
    namespace, key = message.namespace, message.source_key
    fetcher = fetcher or _fetcher_for(services, namespace)
    previous = previous_fetch(services.store, namespace, key)
    try:
        page = fetcher.fetch(message.url, validators_of(previous))
        if isinstance(page, NotModified):
            if _is_published(services, namespace, key, previous.get("sha256", "")):
                return StageResult("unchanged", f"{shown_url(message.url)}: 304 Not Modified")
            page = _whole(fetcher, message.url)
    except DocumentError as error:
        unread = pipeline.document_ref(namespace, key, revision="")
        return settle_parse_failure(services, pipeline.ParseOutcome(unread, error=error), sequencer="")
    revision = sha256_hex(page.body)
    record_fetch(services.store, namespace, key, page, revision)
    if _is_published(services, namespace, key, revision):
        return StageResult("unchanged", f"{shown_url(message.url)}: the same bytes as the published revision")
    _put_page(services, f"{namespace}/{key}", page)
    return StageResult("queued", f"{shown_url(message.url)} stored as {namespace}/{key}")


def _fetcher_for(services: AwsServices, namespace: str) -> Fetcher:
    """The fetcher of a namespace's pages: public addresses, and the internal hosts FETCH_ALLOWED_HOSTS names for it."""
    fetcher = make_fetcher()
    allowed = services.settings.fetch_allowed_hosts.get(namespace, frozenset())
    if allowed:
        fetcher.limits = replace(fetcher.limits, allowed_hosts=fetcher.limits.allowed_hosts | allowed)
    return fetcher


def _whole(fetcher: Fetcher, url: str) -> FetchedPage:
    page = fetcher.fetch(url)
    if isinstance(page, NotModified):
        raise FetchFailedError(f"{url}: 304 Not Modified to a request without validators")
    return page


def _is_published(services: AwsServices, namespace: str, key: str, revision: str) -> bool:
    record = services.registry.get(namespace, document_id(namespace, key))
    return bool(revision) and record is not None and record.revision == revision and record.status in ("ok", "partial")


def _put_page(services: AwsServices, object_key: str, page: FetchedPage) -> None:
    services.s3.put_object(
        Bucket=services.settings.source_bucket,
        Key=object_key,
        Body=page.body,
        ContentType=page.content_type or "application/octet-stream",
        Metadata={URL_METADATA: quote(page.final_url, safe=_URL_SAFE), FETCHED_AT_METADATA: page.fetched_at},
    )
