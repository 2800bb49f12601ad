"""What a search answers (`SearchResponse`: ranked chunks, cited evidence, corrections) and its wire form, the
JSON body shared by `docshelf search --json`, `docshelf serve` and the search API."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from docshelf.model import Chunk
from docshelf.search.highlights import highlight_terms, highlights
from docshelf.search.table_cells import table_cells


@dataclass(frozen=True, slots=True)
class RankedChunk:
    chunk: Chunk
    score: float
    channel_ranks: dict[str, int]
    lexical_score: float = 0.0  # the content channel's BM25 score (0 when it did not match)
    confidence: float = 0.0  # search/confidence.py


@dataclass(frozen=True, slots=True)
class SearchResponse:
    evidence_text: str
    results: list[RankedChunk]
    total_chunks: int
    took_ms: float
    evidence_chunks: int = 0
    evidence_tokens: int = 0  # tokens the budget counted for evidence_text (never fewer than it has)
    answer_text: str = ""
    cache: str = "miss"
    corrections: dict[str, str] = field(default_factory=dict)
    assets: dict[str, str] = field(default_factory=dict)  # chunk id -> link to the image asset it describes
    query: str = ""  # what the results' highlights mark (with `corrections`)
    empty_reason: str = ""  # why there are no results (search/empty.py); "" when there are
    cited: dict[str, tuple[int, str]] = field(default_factory=dict)  # chunk id -> its [n] and excerpt in evidence
    good_match: bool = False  # some result's confidence reaches GOOD_MATCH
    term_weights: dict[str, float] = field(default_factory=dict)  # the query's content terms, as packing weighed them
    passage_model: str = ""  # the sentence model that read the query's passages ("": the words alone)

    def to_dict(self) -> dict[str, Any]:
        """The JSON body shared by `docshelf search --json`, `docshelf serve` and the search API; the highlights are
        found here, not in `search`, which callers that print text or score runs also use."""
        terms = highlight_terms(self.query, self.corrections)
        return {
            "evidence_text": self.evidence_text,
            "answer_text": self.answer_text,
            "results": [
                {
                    **result_chunk_fields(r.chunk),
                    "score": r.score,
                    "lexical_score": r.lexical_score,
                    "confidence": r.confidence,
                    "channel_ranks": r.channel_ranks,
                    **cited_fields(self.cited.get(r.chunk.chunk_id)),
                    **({"asset": self.assets[r.chunk.chunk_id]} if r.chunk.chunk_id in self.assets else {}),
                    "highlights": highlights(terms, r.chunk.text),
                    **table_fields(r.chunk),
                }
                for r in self.results
            ],
            "total_chunks": self.total_chunks,
            "evidence_chunks": self.evidence_chunks,
            "evidence_tokens": self.evidence_tokens,
            "good_match": self.good_match,
            "passage_model": self.passage_model or None,
            "corrections": self.corrections,
            **({"empty_reason": self.empty_reason} if self.empty_reason else {}),
            "cache": self.cache,
            "took_ms": self.took_ms,
        }


def result_chunk_fields(chunk: Chunk) -> dict[str, Any]:
    """A result's chunk fields: the chunk's own, its `type` named `chunk_type` (the name filters use)."""
    data = asdict(chunk)
    data["chunk_type"] = data.pop("type")
    return data


def cited_fields(cited: tuple[int, str] | None) -> dict[str, Any]:
    """A result's place in the evidence: its `[n]` and the excerpt of its text that went in (None: not in it)."""
    number, excerpt = cited if cited is not None else (None, None)
    return {"evidence_ref": number, "evidence_excerpt": excerpt}


def table_fields(chunk: Chunk) -> dict[str, Any]:
    """A table chunk's cells (`{"table": {"caption", "header_rows", "rows"}}`) when its text is a whole table."""
    cells = table_cells(chunk.text) if chunk.type == "table" else None
    return {"table": cells} if cells is not None else {}
