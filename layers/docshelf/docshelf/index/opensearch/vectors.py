"""The semantic channel on OpenSearch: an HNSW graph where the k-NN plugin is, an exact script score elsewhere.

An index made with `index.knn` (setup.py asks for it; the local node of infra/opensearch/install.sh and Amazon
OpenSearch Service have the plugin) gets a `knn_vector` field on its first write with vectors: Lucene's HNSW
(`engine: lucene`, no native library), inner product of the dequantized int8 vectors, searched by the `knn` query
with the filters inside it (Lucene searches the graph for allowed chunks only, exactly when few are allowed).
An index without it keeps a chunk's int8 codes in a `binary` field with doc values and its scale in a `float`
field (index/vectors.py), and the channel is an exact `script_score` (painless) over the chunks the filters allow.
Both score a dot product d as 1 + d when d >= 0, else 1 / (1 - d) (Lucene's maximum-inner-product score), which
`semantic_ranking` maps back. The mapping's `_meta` records the namespace's model (`vector_model`) and which of
the two the index uses (`vector_search`).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from docshelf.errors import IndexBackendError
from docshelf.index.opensearch.bulk import Backoff, call_with_retries
from docshelf.index.opensearch.setup import SHARED_META
from docshelf.index.plan import SemanticQuery
from docshelf.index.vector_model import VectorModel

if TYPE_CHECKING:
    from docshelf.index.vectors import StoredVectors  # numpy: imported where vectors are written, not searched

JsonObject = dict[str, Any]

VECTOR_FIELDS: JsonObject = {
    "vector_codes": {"type": "binary", "doc_values": True},
    "vector_scale": {"type": "float", "index": False},
}
# m 16 / ef_construction 128: the plugin's defaults (OpenSearch's k-NN documentation), recall@10 >= 0.98 there.
HNSW_METHOD: JsonObject = {
    "name": "hnsw",
    "engine": "lucene",
    "space_type": "innerproduct",
    "parameters": {"m": 16, "ef_construction": 128},
}
VectorSearch = Literal["hnsw", "exact"]


def hnsw_field(dimension: int) -> str:
    """A graph's field is named by its dimension, which a mapping cannot change: a namespace that moves to a model
    of another dimension (replacing every chunk) starts a new field."""
    return f"vector_hnsw_{dimension}"


@dataclass(frozen=True, slots=True)
class NamespaceVectors:
    """The embedding model a namespace's index records and how its semantic channel searches."""

    model: VectorModel
    search: VectorSearch


# script_score wants scores >= 0: a dot product d is sent as 1 + d when d >= 0, else 1 / (1 - d) (the k-NN
# plugin's mapping), which keeps the order; `semantic_ranking` maps it back.
_DOT_PRODUCT = """
BytesRef b = doc['vector_codes'].value;
def q = params.q;
double s = 0;
for (int i = 0; i < q.length; ++i) { s += b.bytes[b.offset + i] * (double) q[i]; }
s *= doc['vector_scale'].value;
return s >= 0 ? 1 + s : 1 / (1 - s);
"""


def vector_source(vectors: StoredVectors, row: int, search: VectorSearch) -> JsonObject:
    if search == "hnsw":
        from docshelf.index.vectors import dequantized

        values = dequantized(vectors.codes[row : row + 1], vectors.scales[row : row + 1])[0]
        return {hnsw_field(vectors.model.dimension): [float(value) for value in values]}
    return {
        "vector_codes": base64.b64encode(vectors.codes[row].tobytes()).decode("ascii"),
        "vector_scale": float(vectors.scales[row]),
    }


def vector_mapping(
    found: NamespaceVectors, namespace: str | None = None, meta: Mapping[str, Any] | None = None
) -> JsonObject:
    """The put-mapping body that gives an index its vector field and records the model and search: as the index's
    model, or (`namespace` given: a shared index) as that namespace's in `vector_models`, beside the others of
    `meta` (the index's current `_meta`, which a put replaces whole)."""
    meta_out: JsonObject = {"vector_model": found.model.to_dict(), "vector_search": found.search}
    if namespace is not None:
        models = {**(meta or {}).get("vector_models", {}), namespace: found.model.to_dict()}
        meta_out = {**(meta or {}), "vector_models": models, "vector_search": found.search}
    if found.search == "exact":
        return {"_meta": meta_out, "properties": VECTOR_FIELDS}
    field = {"type": "knn_vector", "dimension": found.model.dimension, "method": HNSW_METHOD}
    return {"_meta": meta_out, "properties": {hnsw_field(found.model.dimension): field}}


def index_meta(mappings: Mapping[str, Any]) -> JsonObject:
    """The `_meta` of the one index in a get-mapping response."""
    for found in mappings.values():
        return dict(found.get("mappings", {}).get("_meta", {}))
    return {}


def recorded_vectors(mappings: Mapping[str, Any], namespace: str | None = None) -> NamespaceVectors | None:
    """The model and search in a get-mapping response ({index: {"mappings": ...}}), None if no model is recorded
    (an index of template version 3 recorded no search: it is exact). In a shared index, `namespace`'s own."""
    for found in mappings.values():
        meta = found.get("mappings", {}).get("_meta", {})
        shared = meta.get(SHARED_META)
        model = meta.get("vector_models", {}).get(namespace) if shared else meta.get("vector_model")
        if model:
            search: VectorSearch = "hnsw" if meta.get("vector_search") == "hnsw" else "exact"
            return NamespaceVectors(VectorModel.from_dict(model), search)
    return None


def knn_enabled(settings: Mapping[str, Any]) -> bool:
    """Whether a get-settings response shows `index.knn` on."""
    return any(
        str(found.get("settings", {}).get("index", {}).get("knn", "false")).lower() == "true"
        for found in settings.values()
    )


class NamespaceModels:
    """The embedding model and vector search of each namespace, read from and recorded in its index's mapping
    `_meta` (a shared index keeps one model per namespace); remembered once found (a namespace changes model only
    when every chunk is replaced, through this writer)."""

    # A shared index's `_meta` is read, merged and put whole: a put that raced another namespace's is put again.
    RECORD_ATTEMPTS = 5

    def __init__(self, client: Any, backoff: Backoff) -> None:
        self.client = client
        self.backoff = backoff
        self._known: dict[str, NamespaceVectors] = {}

    def _mappings(self, index: str) -> Any:
        return call_with_retries(
            lambda: self.client.indices.get_mapping(index=index, ignore_unavailable=True, allow_no_indices=True),
            self.backoff,
            "reading the embedding model",
        )

    def vectors(self, alias: str, namespace: str | None = None) -> NamespaceVectors | None:
        if alias in self._known:
            return self._known[alias]
        found = recorded_vectors(self._mappings(alias), namespace)
        if found is not None:
            self._known[alias] = found
        return found

    def model(self, alias: str, namespace: str | None = None) -> VectorModel | None:
        found = self.vectors(alias, namespace)
        return None if found is None else found.model

    def record(
        self, alias: str, models: Sequence[VectorModel], namespace: str | None = None
    ) -> NamespaceVectors | None:
        """Give the index the vector field and record the model of the vectors written (the refusals let one
        model through); the search is HNSW when the index was made with `index.knn`."""
        current = self.vectors(alias, namespace)
        if not models or (current is not None and current.model == models[0]):
            return current
        settings = call_with_retries(
            lambda: self.client.indices.get_settings(index=alias, name="index.knn"),
            self.backoff,
            f"reading the settings of {alias}",
        )
        found = NamespaceVectors(models[0], "hnsw" if knn_enabled(settings) else "exact")
        self.record_on(alias, found, namespace)
        self._known[alias] = found
        return found

    def record_on(self, index: str, found: NamespaceVectors, namespace: str | None) -> None:
        """Record `found` on `index` (an alias or an index): in a shared index, as `namespace`'s, put again until
        a read shows it (another namespace's put may have replaced the `_meta` this one read)."""
        for _ in range(self.RECORD_ATTEMPTS):
            meta = index_meta(self._mappings(index))
            shared = bool(meta.get(SHARED_META))
            body = vector_mapping(found, namespace if shared else None, meta)
            call_with_retries(
                lambda body=body: self.client.indices.put_mapping(index=index, body=body),  # type: ignore[misc]
                self.backoff,
                f"recording the embedding model of {index}",
            )
            if not shared or recorded_vectors(self._mappings(index), namespace) == found:
                return
        raise IndexBackendError(f"could not record the embedding model of {namespace} in {index}")

    def forget(self, alias: str | None = None) -> None:
        if alias is None:
            self._known.clear()
        else:
            self._known.pop(alias, None)


def semantic_search(filter_clause: JsonObject, query: SemanticQuery, found: NamespaceVectors) -> JsonObject:
    """One `_msearch` item: the `query.limit` chunks the filter allows (and that have a vector) of highest dot
    product, ties by chunk id."""
    search: JsonObject = {
        "size": query.limit,
        "_source": False,
        "track_total_hits": False,
        "track_scores": True,
        "sort": [{"_score": "desc"}, {"chunk_id": "asc"}],
    }
    if found.search == "hnsw":
        field = hnsw_field(found.model.dimension)
        knn = {"vector": list(query.vector), "k": query.limit, "filter": filter_clause}
        return {**search, "query": {"knn": {field: knn}}}
    exact = {
        "query": {"bool": {"filter": [filter_clause, {"exists": {"field": "vector_scale"}}]}},
        "script": {"source": _DOT_PRODUCT, "params": {"q": list(query.vector)}},
    }
    return {**search, "query": {"script_score": exact}}


def semantic_ranking(response: Mapping[str, Any]) -> list[tuple[str, float]]:
    """(chunk id, dot product) of a `semantic_search` response, best first."""
    ranked = []
    for hit in response["hits"]["hits"]:
        score = float(hit["sort"][0])
        ranked.append((str(hit["sort"][1]), score - 1 if score >= 1 else 1 - 1 / score))
    return ranked
