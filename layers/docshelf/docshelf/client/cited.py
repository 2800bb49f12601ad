"""What both retrievers hand their framework: the hits that fit the evidence budget, each with its citation
metadata (document, chunk, file, section path, pages, source link)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from docshelf.client.api import DocshelfClient
from docshelf.client.types import SearchHit, SearchResult


@dataclass(frozen=True, slots=True)
class CitedPassage:
    text: str
    score: float
    metadata: dict[str, Any]
    chunk_id: str


def budgeted_passages(
    result: SearchResult, base_url: str, namespace: str, links: Mapping[str, str] | None = None
) -> list[CitedPassage]:
    """The results `evidence_text` cites, in its `[n]` order, each as the excerpt of it that went in: together they
    stay within the search's max_tokens. `links` (by document id) are the signed source links to cite instead of the
    API's source route."""
    passages = []
    for hit in _cited(result):
        number = hit.evidence_ref or 0
        metadata = citation_metadata(hit, number, base_url, namespace)
        if links and hit.document_id in links:
            metadata["source"] = links[hit.document_id]
        passages.append(CitedPassage(hit.evidence_excerpt or hit.text, hit.score, metadata, hit.chunk_id))
    return passages


def _cited(result: SearchResult) -> list[SearchHit]:
    cited = [hit for hit in result.results if hit.evidence_ref is not None]
    return sorted(cited, key=lambda hit: hit.evidence_ref or 0)


def source_links(client: DocshelfClient, result: SearchResult, namespace: str) -> dict[str, str]:
    """A signed link (one call) for each document the budgeted hits cite."""
    documents = dict.fromkeys(hit.document_id for hit in _cited(result))
    return {document: client.source_link(namespace, document).url for document in documents}


def citation_metadata(hit: SearchHit, rank: int, base_url: str, namespace: str) -> dict[str, Any]:
    source = f"{base_url}/documents/{quote(hit.document_id, safe='')}/source?namespace={quote(namespace, safe='')}"
    metadata: dict[str, Any] = {
        "citation": f"[{rank}] {hit.citation}",
        "rank": rank,
        "namespace": namespace,
        "document_id": hit.document_id,
        "chunk_id": hit.chunk_id,
        "source_file_name": hit.source_file_name,
        "source_key": hit.source_key or hit.source_file_name,
        "section_path": list(hit.section_path),
        "pages": list(hit.pages),
        "chunk_type": hit.chunk_type,
        "score": hit.score,
        "source": hit.extra.get("source_url") or source,
    }
    if hit.asset is not None:
        metadata["asset"] = hit.asset
    return metadata
