"""Pure translation between docshelf and OpenSearch: chunk documents, filters and channel queries.

Channel fields hold the Python analyzer's terms joined by single spaces and are indexed with the core
`whitespace` analyzer, so OpenSearch sees exactly the terms the embedded index counts. Queries are built
from term queries only (one per distinct term, boosted by its weight in the plan), so no user input ever
reaches a query-string syntax.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from docshelf.index.bm25_math import okapi_idf
from docshelf.index.plan import Channel, ChannelQuery, QueryTerms, RankedList, SearchFilters, term_weights
from docshelf.model import Chunk
from docshelf.serde import chunk_from_dict, chunk_to_dict

JsonObject = dict[str, Any]

CHANNEL_FIELDS: dict[Channel, str] = {"content": "content_terms", "path": "path_terms", "term": "term_grams"}

# Lucene 9 counts every leaf clause of a query against indices.query.bool.max_clause_count (default
# 1024); the filters below add at most a handful, so distinct query terms are capped well under it.
MAX_QUERY_TERMS = 1000

# The whitespace tokenizer cuts tokens longer than 255 UTF-16 units into pieces, which would make
# OpenSearch count different terms than the embedded index; such terms are left out of both sides.
MAX_TERM_UTF16_UNITS = 255

DOCUMENT_ORDER: list[JsonObject] = [
    {"source_file_name": "asc"},
    {"document_id": "asc"},
    {"ordinal": "asc"},
]


def document_id_for(namespace: str, chunk_id: str) -> str:
    """The OpenSearch `_id` of a chunk: chunk ids are unique within a namespace, not across them."""
    return f"{namespace}/{chunk_id}"


def indexable(term: str) -> bool:
    return 0 < len(term.encode("utf-16-le")) // 2 <= MAX_TERM_UTF16_UNITS


def joined_terms(terms: Sequence[str]) -> str:
    return " ".join(term for term in terms if indexable(term))


def chunk_source(chunk: Chunk, revision: str, terms: Mapping[Channel, Sequence[str]]) -> JsonObject:
    model = chunk_to_dict(chunk)
    source: JsonObject = {
        "namespace": chunk.namespace,
        "document_id": chunk.document_id,
        "revision": revision,
        "chunk_id": chunk.chunk_id,
        "chunk_type": chunk.type,
        "source_file_name": chunk.source_file_name,
        "section_path": list(chunk.section_path),
        "pages": list(chunk.pages),
        "ordinal": chunk.ordinal,
        "token_count": chunk.token_count,
        "text": chunk.text,
        # The model's other fields (links, overlap, ...), stored unindexed so hydration is lossless.
        "extra": {key: value for key, value in model.items() if key not in _MAPPED_MODEL_FIELDS},
    }
    for channel, field in CHANNEL_FIELDS.items():
        source[field] = joined_terms(terms[channel])
    return source


def chunk_from_source(source: Mapping[str, Any]) -> Chunk:
    model = {key: source[key] for key in _MAPPED_MODEL_FIELDS if key != "type"}
    return chunk_from_dict({**source.get("extra", {}), **model, "type": source["chunk_type"]})


_MAPPED_MODEL_FIELDS = frozenset(
    {
        "chunk_id",
        "document_id",
        "namespace",
        "type",
        "text",
        "section_path",
        "pages",
        "token_count",
        "ordinal",
        "source_file_name",
        "revision",
    }
)
HYDRATION_FIELDS: list[str] = [
    *sorted(_MAPPED_MODEL_FIELDS - {"type"}),
    "chunk_type",
    "extra",
]


def filter_clause(namespace: str, filters: SearchFilters) -> JsonObject:
    """One bool filter: the namespace always, then the request's filters, mirroring SearchFilters.allows."""
    required: list[JsonObject] = [{"term": {"namespace": namespace}}]
    excluded: list[JsonObject] = []
    if filters.documents:
        names = sorted(set(filters.documents))
        required.append(
            {
                "bool": {
                    "should": [{"terms": {"document_id": names}}, {"terms": {"source_file_name": names}}],
                    "minimum_should_match": 1,
                }
            }
        )
    if filters.chunk_types:
        required.append({"terms": {"chunk_type": sorted(set(filters.chunk_types))}})
    if filters.exclude_documents:
        names = sorted(set(filters.exclude_documents))
        excluded += [{"terms": {"document_id": names}}, {"terms": {"source_file_name": names}}]
    if filters.exclude_sections:
        excluded.append({"terms": {"section_path": sorted(set(filters.exclude_sections))}})
    clause: JsonObject = {"filter": required}
    if excluded:
        clause["must_not"] = excluded
    return {"bool": clause}


def weighted_terms(terms: QueryTerms) -> list[tuple[str, float]]:
    """Distinct indexable terms in first-seen order with their weights, capped at MAX_QUERY_TERMS.

    A term of weight w scores w times its BM25 score in the embedded index; a boost of w gives the same in Lucene.
    """
    weights = term_weights(terms)
    return [(term, weight) for term, weight in weights.items() if indexable(term)][:MAX_QUERY_TERMS]


def channel_query(
    namespace: str, channel: Channel, query: ChannelQuery, filters: SearchFilters, limit: int
) -> JsonObject:
    """The channel's ranking of `query`; a chunk must hold `query.min_match` of its terms, fewer when some are left
    out as unindexable."""
    field = CHANNEL_FIELDS[channel]
    weighted = weighted_terms(query.terms)
    counted = [(term, weight) for term, weight in weighted if term not in query.optional]
    min_match = min(query.min_match, max(1, len(counted)))
    should = [{"term": {field: {"value": term, "boost": weight}}} for term, weight in counted]
    scoring = [
        {"term": {field: {"value": term, "boost": weight}}} for term, weight in weighted if term in query.optional
    ]
    return {
        "size": limit,
        "_source": False,
        "track_total_hits": False,
        "track_scores": True,
        "query": {
            "bool": {
                "filter": [filter_clause(namespace, filters)],
                "must": [{"bool": {"should": should, "minimum_should_match": min_match}}],
                **({"should": scoring} if scoring else {}),
            }
        },
        # Ties broken by chunk id, as in the embedded index.
        "sort": [{"_score": "desc"}, {"chunk_id": "asc"}],
    }


def count_query(namespace: str, filters: SearchFilters) -> JsonObject:
    return {"query": {"bool": {"filter": [filter_clause(namespace, filters)]}}}


def ranked_hits(response: Mapping[str, Any]) -> list[tuple[str, float]]:
    return [(hit["sort"][1], float(hit["sort"][0])) for hit in response["hits"]["hits"]]


# -- the requests of a search's two passes (items of one `_msearch` each) -------------------------------


def total_query(namespace: str, filters: SearchFilters) -> JsonObject:
    """Counts the chunks the filters allow, exactly (`hits.total`), inside an `_msearch`."""
    return {**count_query(namespace, filters), "size": 0, "track_total_hits": True}


def feedback_query(namespace: str, query: ChannelQuery, filters: SearchFilters, size: int) -> JsonObject:
    """The content channel's first `size` chunks with their indexed content terms."""
    return {**channel_query(namespace, "content", query, filters, size), "_source": [CHANNEL_FIELDS["content"]]}


def document_frequency_query(namespace: str, terms: Sequence[str]) -> JsonObject:
    """The namespace's chunk count and, per term (bucket `str(i)` for `terms[i]`), how many contain it."""
    field = CHANNEL_FIELDS["content"]
    buckets = {str(i): {"term": {field: term}} for i, term in enumerate(terms)}
    return {
        "size": 0,
        "track_total_hits": True,
        "query": {"bool": {"filter": [{"term": {"namespace": namespace}}]}},
        "aggs": {"frequencies": {"filters": {"filters": buckets}}},
    }


def similar_terms_query(terms: Sequence[str], max_edits: int, prefix: int, size: int) -> JsonObject:
    """Term suggestions (Lucene's DirectSpellChecker) from the content terms, one suggester per term (`str(i)` for
    `terms[i]`); whatever their similarity score, the caller ranks them by its own edit distance."""
    field = CHANNEL_FIELDS["content"]
    options = {"field": field, "suggest_mode": "always", "max_edits": max_edits, "prefix_length": prefix,
               "min_word_length": 1, "accuracy": 0.0, "size": size}  # fmt: skip
    return {
        "size": 0,
        "track_total_hits": False,
        "suggest": {str(i): {"text": term, "term": options} for i, term in enumerate(terms)},
    }


def suggested_terms(response: Mapping[str, Any], terms: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
    """Each term's suggestions (term, chunks holding it) from a `similar_terms_query`'s response; none from a
    namespace whose index does not exist yet."""
    suggest = response.get("suggest", {})
    found: dict[str, list[tuple[str, int]]] = {}
    for i, term in enumerate(terms):
        options = [(o["text"], int(o["freq"])) for entry in suggest.get(str(i), []) for o in entry["options"]]
        if options:
            found[term] = options
    return found


def hydration_query(namespace: str, chunk_ids: Sequence[str]) -> JsonObject:
    """The named chunks, with every field `chunk_from_source` needs."""
    return {
        "size": len(chunk_ids),
        "track_total_hits": False,
        "_source": HYDRATION_FIELDS,
        "query": {
            "bool": {
                "filter": [
                    {"term": {"namespace": namespace}},
                    {"ids": {"values": [document_id_for(namespace, cid) for cid in chunk_ids]}},
                ]
            }
        },
    }


def total_hits(response: Mapping[str, Any]) -> int:
    return int(response["hits"]["total"]["value"])


def content_frequencies(response: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Chunk id -> its content terms with their frequencies, from the hits of a `feedback_query`."""
    frequencies: dict[str, dict[str, int]] = {}
    for hit in response["hits"]["hits"]:
        terms = hit["_source"].get(CHANNEL_FIELDS["content"], "").split(" ")
        frequencies[hit["sort"][1]] = dict(Counter(term for term in terms if term))
    return frequencies


def document_frequencies(response: Mapping[str, Any], terms: Sequence[str]) -> list[int]:
    """How many chunks hold each of `terms`, from a `document_frequency_query`'s response. A namespace whose
    index does not exist yet answers with no aggregations: no chunk holds anything."""
    if "aggregations" not in response:
        return [0] * len(terms)
    buckets = response["aggregations"]["frequencies"]["buckets"]
    return [int(buckets[str(i)]["doc_count"]) for i in range(len(terms))]


def common_terms(response: Mapping[str, Any], terms: Sequence[str], is_common: Callable[[int, int], bool]) -> set[str]:
    """Those of `terms` `is_common` (given the chunks holding one and all chunks) tells apart, from a
    `document_frequency_query`'s response."""
    chunks = total_hits(response)
    frequencies = document_frequencies(response, terms)
    return {term for term, df in zip(terms, frequencies, strict=True) if is_common(df, chunks)}


def bm25_idf(response: Mapping[str, Any], terms: Sequence[str]) -> dict[str, float]:
    """Each term's idf as both engines rank with it (`okapi_idf`), from a `document_frequency_query`'s response."""
    chunks = total_hits(response)
    return {term: okapi_idf(chunks, df) for term, df in zip(terms, document_frequencies(response, terms), strict=True)}


def hydrated_chunks(response: Mapping[str, Any]) -> dict[str, Chunk]:
    chunks = (chunk_from_source(hit["_source"]) for hit in response["hits"]["hits"])
    return {chunk.chunk_id: chunk for chunk in chunks}


def document_chunks_query(namespace: str, document_ids: Sequence[str]) -> JsonObject:
    """The chunks of the named documents (`_id` and document id), for a sorted scan."""
    return {
        "query": {
            "bool": {
                "filter": [
                    {"term": {"namespace": namespace}},
                    {"terms": {"document_id": sorted(set(document_ids))}},
                ]
            }
        },
        "_source": ["document_id"],
        "sort": [{"chunk_id": "asc"}],
    }


def usable_channels(queries: Mapping[Channel, ChannelQuery]) -> list[Channel]:
    return [channel for channel, query in queries.items() if weighted_terms(query.terms)]


def channel_rankings(
    queries: Mapping[Channel, ChannelQuery], channels: Sequence[Channel], responses: Sequence[JsonObject]
) -> dict[RankedList, list[tuple[str, float]]]:
    """Each asked channel's ranking: from its response, or empty for a channel that was not searched."""
    rankings: dict[RankedList, list[tuple[str, float]]] = {channel: [] for channel in queries}
    for channel, response in zip(channels, responses[: len(channels)], strict=True):
        rankings[channel] = ranked_hits(response)
    return rankings


def error_reason(error: Any) -> str:
    if isinstance(error, dict):
        root = error.get("root_cause") or [error]
        return f"{root[0].get('type', '')}: {root[0].get('reason', '')}"
    return str(error)
