"""A web page into a namespace: fetched safely, then the same stages as a file.

The page's source key is derived from its URL alone (`web/<host>/<path>`), so each fetch of a URL is a new
revision of one document. What the last fetch returned (validators, sha256, time) is kept in the store beside the
artifacts, `fetch/<namespace>/<document id>.json`: a later fetch sends the validators (304: nothing downloaded,
nothing published), and a page whose bytes are unchanged is answered from the registry like an unchanged file.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from urllib.parse import urlsplit

from docshelf.config import PipelineConfig
from docshelf.embeddings.cache import VectorCache
from docshelf.errors import DocumentError, FetchFailedError
from docshelf.fetch.fetcher import FetchedPage, Fetcher, NotModified, Validators, split_url
from docshelf.ids import document_id, sha256_hex
from docshelf.index.base import SearchBackend
from docshelf.pipeline.outcomes import IngestResult, ParseOutcome
from docshelf.pipeline.parse import document_ref, parse_stage
from docshelf.pipeline.parsed import already_published, ingest_parsed
from docshelf.registry import Registry
from docshelf.store.base import ObjectStore

WEB_PREFIX = "web/"


@dataclass(frozen=True, slots=True)
class WebServices:
    store: ObjectStore
    registry: Registry
    index: SearchBackend
    config: PipelineConfig
    vectors: VectorCache | None = None


def web_source_key(url: str) -> str:
    """`web/<host>[_<port>]/<path>`: `index` for a path ending in `/`, a hash of the query appended."""
    scheme, host, port, _path = split_url(url)
    parts = urlsplit(url)
    default_port = 443 if scheme == "https" else 80
    authority = host.lower() if port == default_port else f"{host.lower()}_{port}"
    path = parts.path or "/"
    if path.endswith("/"):
        path += "index"
    key = f"{WEB_PREFIX}{authority}{path}"
    if parts.query:
        key += "_q" + hashlib.sha256(parts.query.encode()).hexdigest()[:12]
    return key


def fetch_record_key(namespace: str, source_key: str) -> str:
    return f"fetch/{namespace}/{document_id(namespace, source_key)}.json"


def ingest_url(services: WebServices, url: str, *, namespace: str, fetcher: Fetcher) -> IngestResult:
    """Fetch `url` and ingest it; a refused or failed fetch is that document's status, like a corrupt file."""
    try:
        key = web_source_key(url)
    except DocumentError as error:
        return IngestResult(namespace, "", url, "failed", error_code=error.code, error_message=error.message)
    previous = previous_fetch(services.store, namespace, key)
    try:
        page = fetcher.fetch(url, validators_of(previous))
        if isinstance(page, NotModified):
            known = _published(services, namespace, key, previous.get("sha256", ""))
            if known is not None:
                return known
            page = _whole(fetcher, url)  # a 304 for a page not published here as it is (settings changed)
    except DocumentError as error:
        outcome = ParseOutcome(document_ref(namespace, key, revision=""), error=error)
        return ingest_parsed(services.store, services.registry, services.index, outcome, config=services.config)
    return _ingest_page(services, page, namespace=namespace, key=key)


def _whole(fetcher: Fetcher, url: str) -> FetchedPage:
    page = fetcher.fetch(url)
    if isinstance(page, NotModified):
        raise FetchFailedError(f"{url}: 304 Not Modified to a request without validators")
    return page


def _ingest_page(services: WebServices, page: FetchedPage, *, namespace: str, key: str) -> IngestResult:
    revision = sha256_hex(page.body)
    record_fetch(services.store, namespace, key, page, revision)
    unchanged = _published(services, namespace, key, revision)
    if unchanged is not None:
        return unchanged
    outcome = parse_stage(
        services.store, page.body, namespace=namespace, source_key=key, config=services.config,
        media_type=page.content_type or None, revision=revision, uri=page.final_url, fetched_at=page.fetched_at,
    )  # fmt: skip
    return ingest_parsed(
        services.store, services.registry, services.index, outcome, config=services.config, vectors=services.vectors
    )


def _published(services: WebServices, namespace: str, key: str, revision: str) -> IngestResult | None:
    if not revision:
        return None
    return already_published(
        services.registry, services.index, revision, namespace=namespace, source_key=key, config=services.config
    )


def previous_fetch(store: ObjectStore, namespace: str, key: str) -> dict[str, str]:
    raw = store.get(fetch_record_key(namespace, key))
    if raw is None:
        return {}
    try:
        record = json.loads(raw)
    except ValueError:
        return {}
    return {name: str(value) for name, value in record.items()} if isinstance(record, dict) else {}


def validators_of(previous: dict[str, str]) -> Validators | None:
    if not previous:
        return None
    return Validators(previous.get("etag", ""), previous.get("last_modified", ""))


def record_fetch(store: ObjectStore, namespace: str, key: str, page: FetchedPage, revision: str) -> None:
    record = {
        "url": page.url, "final_url": page.final_url, "fetched_at": page.fetched_at, "sha256": revision,
        "etag": page.validators.etag, "last_modified": page.validators.last_modified,
        "content_type": page.content_type,
    }  # fmt: skip
    store.put(fetch_record_key(namespace, key), json.dumps(record).encode(), content_type="application/json")
