"""`DocshelfClient`: the search API over HTTP, typed (docs/architecture.md#search for what a search returns).

    client = DocshelfClient("https://api.example.com", token="<jwt>")
    result = client.search("pump seal interval", namespace="handbook", max_tokens=800)
    print(result.evidence_text)

Every method is one API call (an upload is two: where to put the file, then the bytes), retried on 429 and 5xx.
Errors are `DocshelfApiError` with the API's status and message.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urljoin, urlsplit

from docshelf.client.auth import BearerToken
from docshelf.client.transport import Answer, DocshelfApiError, Retry, Signer, Transport
from docshelf.client.types import (
    Deleted,
    Document,
    DocumentList,
    Ingested,
    Run,
    SearchResult,
    SourceLink,
    Uploaded,
    UploadTarget,
)

SETTLED = frozenset({"ok", "partial", "failed", "needs_ocr", "deleted"})


class DocshelfClient:
    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        auth: Signer | None = None,
        timeout_s: float = 30.0,
        retry: Retry | None = None,
        transport: Transport | None = None,
    ) -> None:
        """`token`: a bearer JWT; `auth`: any signer instead (`BearerToken` with a refreshing callable, `SigV4`)."""
        if token is not None and auth is not None:
            raise ValueError("give token or auth, not both")
        self.base_url = base_url.rstrip("/")
        self.auth: Signer | None = BearerToken(token) if token is not None else auth
        self.transport = transport or Transport(timeout_s=timeout_s, retry=retry)

    # -- search

    def search(
        self,
        query: str,
        *,
        namespace: str,
        top_k: int | None = None,
        max_tokens: int | None = None,
        documents: Sequence[str] = (),
        exclude_documents: Sequence[str] = (),
        exclude_sections: Sequence[str] = (),
        chunk_types: Sequence[str] = (),
    ) -> SearchResult:
        """Ranked chunks and `evidence_text`: their best passages under citation headers within `max_tokens`."""
        body = _search_body(query, namespace, top_k, max_tokens, documents, exclude_documents, exclude_sections,
                            chunk_types)  # fmt: skip
        return SearchResult.from_json(self._json("POST", "/search", body))

    def agentic_search(
        self,
        query: str,
        *,
        namespace: str,
        top_k: int | None = None,
        max_tokens: int | None = None,
        budget_tokens: int | None = None,
        documents: Sequence[str] = (),
        exclude_documents: Sequence[str] = (),
        exclude_sections: Sequence[str] = (),
        chunk_types: Sequence[str] = (),
    ) -> SearchResult:
        """A planned search (several searches and section navigation) under one budget (`budget_tokens`, by
        default `max_tokens`); `plan`, `steps` and `run_id` say what it ran."""
        body = _search_body(query, namespace, top_k, max_tokens, documents, exclude_documents, exclude_sections,
                            chunk_types)  # fmt: skip
        body["mode"] = "agentic"
        if budget_tokens is not None:
            body["budget_tokens"] = budget_tokens
        return SearchResult.from_json(self._json("POST", "/search", body))

    def run(self, run_id: str) -> Run:
        """An agentic search's record and its steps (only to the user who ran it)."""
        return Run.from_json(self._json("GET", f"/runs/{quote(run_id, safe='')}"))

    # -- documents

    def list_documents(self, namespace: str, *, status: str | None = None) -> list[Document]:
        """Every document of the namespace (of one status), in source key order, page after page."""
        documents: list[Document] = []
        cursor: str | None = None
        while True:
            query = {
                "namespace": namespace,
                **({"status": status} if status else {}),
                **({"cursor": cursor} if cursor else {}),
            }
            page = DocumentList.from_json(self._json("GET", "/documents", query=query))
            documents += page.documents
            cursor = page.next_cursor
            if not cursor:
                return documents

    def document(self, namespace: str, document_id: str) -> Document:
        path = f"/documents/{quote(document_id, safe='')}"
        return Document.from_json(self._json("GET", path, query={"namespace": namespace}))

    def source_link(self, namespace: str, document_id: str) -> SourceLink:
        """A link to the document's file that a browser or chat UI opens without a token, for a while."""
        path = f"/documents/{quote(document_id, safe='')}/source"
        return SourceLink.from_json(self._json("GET", path, query={"namespace": namespace}))

    def document_by_key(self, namespace: str, source_key: str) -> Document | None:
        """The document stored under `source_key` (its path in the namespace), or None."""
        query = {"namespace": namespace, "source_key": source_key}
        listed = DocumentList.from_json(self._json("GET", "/documents", query=query))
        return listed.documents[0] if listed.documents else None

    def upload(
        self,
        namespace: str,
        filename: str,
        data: bytes | Path,
        *,
        content_type: str | None = None,
    ) -> Uploaded:
        """Ask where to upload (`POST /documents`), then PUT the bytes there with the headers it names: a presigned
        S3 URL on AWS (no credentials sent: the URL carries them), `PUT /uploads` under `docshelf serve`."""
        import mimetypes

        payload = data.read_bytes() if isinstance(data, Path) else data
        kind = content_type or mimetypes.guess_type(filename)[0] or "application/octet-stream"
        body = {"namespace": namespace, "filename": filename, "content_type": kind, "size": len(payload)}
        target = UploadTarget.from_json(self._json("POST", "/documents", body))
        url = urljoin(self.base_url + "/", target.upload.url)
        same_origin = _origin(url) == _origin(self.base_url)
        answer = self.transport.request(
            target.upload.method,
            url,
            body=payload,
            headers=target.upload.headers,
            signer=self.auth if same_origin else None,
        )
        detail = _json_of(answer)
        return Uploaded(target.document_key, detail.get("document_id"), detail.get("status"), detail)

    def delete_document(self, namespace: str, document_id: str) -> Deleted:
        path = f"/documents/{quote(document_id, safe='')}"
        return Deleted.from_json(self._json("DELETE", path, query={"namespace": namespace}))

    def ingest_url(self, namespace: str, url: str) -> Ingested:
        """Queue a web page (http or https, public addresses only) for ingestion."""
        return Ingested.from_json(self._json("POST", "/ingest", {"namespace": namespace, "url": url}))

    def wait(self, namespace: str, source_key: str, *, timeout_s: float = 120.0, poll_s: float = 1.0) -> Document:
        """The document under `source_key` once it is settled (ok, partial, failed, needs_ocr or deleted)."""
        deadline = time.monotonic() + timeout_s
        while True:
            document = self.document_by_key(namespace, source_key)
            if document is not None and document.status in SETTLED:
                return document
            if time.monotonic() >= deadline:
                state = document.status if document is not None else "not registered"
                raise TimeoutError(f"{namespace}/{source_key} is still {state} after {timeout_s:g} s")
            time.sleep(poll_s)

    def close(self) -> None:
        self.transport.close()

    def __enter__(self) -> DocshelfClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing

    def _json(
        self, method: str, path: str, body: Mapping[str, Any] | None = None, *, query: Mapping[str, str] | None = None
    ) -> Any:
        url = self.base_url + path + (f"?{urlencode(query)}" if query else "")
        data = json.dumps(body, ensure_ascii=False).encode() if body is not None else b""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        answer = self.transport.request(method, url, body=data, headers=headers, signer=self.auth)
        parsed = answer.json()
        if not isinstance(parsed, dict):
            raise DocshelfApiError(answer.status, f"{method} {path} did not answer a JSON object")
        return parsed


def _search_body(
    query: str,
    namespace: str,
    top_k: int | None,
    max_tokens: int | None,
    documents: Sequence[str],
    exclude_documents: Sequence[str],
    exclude_sections: Sequence[str],
    chunk_types: Sequence[str],
) -> dict[str, Any]:
    body: dict[str, Any] = {"namespace": namespace, "query": query}
    if top_k is not None:
        body["top_k"] = top_k
    if max_tokens is not None:
        body["max_tokens"] = max_tokens
    filters = {
        "documents": list(documents),
        "exclude_documents": list(exclude_documents),
        "exclude_sections": list(exclude_sections),
        "chunk_types": list(chunk_types),
    }
    filters = {name: values for name, values in filters.items() if values}
    if filters:
        body["filters"] = filters
    return body


def _json_of(answer: Answer) -> dict[str, Any]:
    try:
        parsed = answer.json()
    except ValueError:
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc
