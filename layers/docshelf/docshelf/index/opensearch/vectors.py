"""The semantic channel on OpenSearch without the k-NN plugin.

The local node is the minimal distribution (infra/opensearch/install.sh), whose core has neither `knn_vector`
nor `dense_vector`: a chunk's vector is stored as its int8 codes in a `binary` field with doc values and its
scale in a `float` field (index/vectors.py), and the semantic channel is an exact `script_score` (painless, in
the lang-painless module) over the chunks the filters allow: the dot product of the codes with the query,
times the scale. The namespace's embedding model is recorded in its index mapping's `_meta.vector_model`; an
index made without these fields gets them (and the model) on its first write with vectors.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from typing import Any

from docshelf.index.opensearch.bulk import Backoff, call_with_retries
from docshelf.index.plan import SemanticQuery
from docshelf.index.vectors import StoredVectors, VectorModel

JsonObject = dict[str, Any]

VECTOR_FIELDS: JsonObject = {
    "vector_codes": {"type": "binary", "doc_values": True},
    "vector_scale": {"type": "float", "index": False},
}

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


def vector_source(vectors: StoredVectors, row: int) -> JsonObject:
    return {
        "vector_codes": base64.b64encode(vectors.codes[row].tobytes()).decode("ascii"),
        "vector_scale": float(vectors.scales[row]),
    }


def vector_mapping(model: VectorModel) -> JsonObject:
    """The put-mapping body that gives an index the vector fields and records its model."""
    return {"_meta": {"vector_model": model.to_dict()}, "properties": VECTOR_FIELDS}


def recorded_model(mappings: Mapping[str, Any]) -> VectorModel | None:
    """The model in a get-mapping response ({index: {"mappings": ...}}), None if none is recorded."""
    for found in mappings.values():
        stored = found.get("mappings", {}).get("_meta", {}).get("vector_model")
        if stored:
            return VectorModel.from_dict(stored)
    return None


class NamespaceModels:
    """The embedding model of each namespace's index, read from and recorded in its mapping's `_meta`;
    remembered once found (a namespace changes model only when every chunk is replaced, through this writer)."""

    def __init__(self, client: Any, backoff: Backoff) -> None:
        self.client = client
        self.backoff = backoff
        self._known: dict[str, VectorModel] = {}

    def model(self, alias: str) -> VectorModel | None:
        if alias in self._known:
            return self._known[alias]
        mappings = call_with_retries(
            lambda: self.client.indices.get_mapping(index=alias, ignore_unavailable=True, allow_no_indices=True),
            self.backoff,
            "reading the embedding model",
        )
        model = recorded_model(mappings)
        if model is not None:
            self._known[alias] = model
        return model

    def record(self, alias: str, models: Sequence[VectorModel]) -> None:
        """Give the index the vector fields and record the model of the vectors written (the refusals let one
        model through)."""
        if not models or self.model(alias) == models[0]:
            return
        call_with_retries(
            lambda: self.client.indices.put_mapping(index=alias, body=vector_mapping(models[0])),
            self.backoff,
            f"recording the embedding model of {alias}",
        )
        self._known[alias] = models[0]

    def forget(self) -> None:
        self._known.clear()


def semantic_search(filter_clause: JsonObject, query: SemanticQuery) -> JsonObject:
    """One `_msearch` item: the `query.limit` chunks the filter allows (and that have a vector) of highest dot
    product, ties by chunk id."""
    return {
        "size": query.limit,
        "_source": False,
        "track_total_hits": False,
        "track_scores": True,
        "query": {
            "script_score": {
                "query": {"bool": {"filter": [filter_clause, {"exists": {"field": "vector_scale"}}]}},
                "script": {"source": _DOT_PRODUCT, "params": {"q": list(query.vector)}},
            }
        },
        "sort": [{"_score": "desc"}, {"chunk_id": "asc"}],
    }


def semantic_ranking(response: Mapping[str, Any]) -> list[tuple[str, float]]:
    """(chunk id, dot product) of a `semantic_search` response, best first."""
    ranked = []
    for hit in response["hits"]["hits"]:
        score = float(hit["sort"][0])
        ranked.append((str(hit["sort"][1]), score - 1 if score >= 1 else 1 - 1 / score))
    return ranked
