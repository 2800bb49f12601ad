"""Where a namespace's chunks live on OpenSearch: an index of its own, or one of a few shared indices.

`index-per-namespace` (the default) gives every namespace the versioned index `<prefix>.NS.v1` behind the alias
`<prefix>.NS`. `shared` packs namespaces into `shared_indices` indices `<prefix>._shared-NN` (a namespace never
starts with `_`, so the names cannot collide), the namespace picked by a stable hash of its name; the alias
`<prefix>.NS` is then a filtered alias (the namespace's term filter, routing by the namespace, so one namespace's
chunks live on one shard) over its shared index. Every request already goes through the alias with the namespace
filter and the routing, so the two placements serve the same requests. A namespace that grows past
`large_chunks` chunks is moved to an index of its own (index.py `move_namespace`): its chunks are copied, then one
`_aliases` request points the alias at the new index, then its chunks are deleted from the old one.

BM25 statistics: the scripted similarity sees the shard's term and field statistics only (`term.docFreq`,
`field.docCount`, `field.sumTotalTermFreq`); a similarity script gets no query parameters, so it cannot be given
a namespace's own. In a shared index the idf and the average length are the shard's, mixed over its namespaces
(docs/evaluation/tenancy.md measures what that costs); a namespace large enough for its ranking to matter most
gets its own index and its own statistics.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Literal

from docshelf.errors import InvalidConfigError

TenancyMode = Literal["index-per-namespace", "shared"]
TENANCY_MODES: tuple[TenancyMode, ...] = ("index-per-namespace", "shared")
DEFAULT_SHARED_INDICES = 4
DEFAULT_LARGE_CHUNKS = 10_000
MAX_SHARED_INDICES = 100
SHARED_MARK = "_shared-"

JsonObject = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Tenancy:
    """`large_chunks` 0: a namespace in a shared index is never moved out on its own."""

    mode: TenancyMode = "index-per-namespace"
    shared_indices: int = DEFAULT_SHARED_INDICES
    large_chunks: int = DEFAULT_LARGE_CHUNKS

    def __post_init__(self) -> None:
        if self.mode not in TENANCY_MODES:
            raise InvalidConfigError(f"OpenSearch tenancy {self.mode!r} must be one of {', '.join(TENANCY_MODES)}")
        if not 1 <= self.shared_indices <= MAX_SHARED_INDICES:
            raise InvalidConfigError(f"shared indices must be 1..{MAX_SHARED_INDICES}, not {self.shared_indices}")
        if self.large_chunks < 0:
            raise InvalidConfigError(f"the large-namespace threshold must be >= 0 chunks, not {self.large_chunks}")

    @property
    def shared(self) -> bool:
        return self.mode == "shared"

    def is_large(self, chunks: int) -> bool:
        return self.shared and self.large_chunks > 0 and chunks > self.large_chunks


def shared_slot(namespace: str, shared_indices: int) -> int:
    """The namespace's shared index, 0..shared_indices-1: the same on every host and Python (not `hash`)."""
    digest = hashlib.sha256(namespace.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % shared_indices


def shared_index_name(prefix: str, slot: int) -> str:
    return f"{prefix}.{SHARED_MARK}{slot:02d}"


def is_shared_index(prefix: str, index: str) -> bool:
    return index.startswith(f"{prefix}.{SHARED_MARK}")


def namespace_filter(namespace: str) -> JsonObject:
    return {"term": {"namespace": namespace}}


def shared_alias(namespace: str) -> JsonObject:
    """The alias of a namespace in a shared index: its chunks only, its routing on reads and writes."""
    return {"filter": namespace_filter(namespace), "routing": namespace, "is_write_index": True}


def own_alias() -> JsonObject:
    return {"is_write_index": True}
