"""The index template and a namespace index's creation body, with what each engine refuses taken out.

A namespace index is asked for with the template's scripted similarity and `index.knn` (the k-NN plugin's
setting, which lets the semantic channel use an HNSW graph: index/opensearch/vectors.py). An engine without the
plugin refuses the setting and gets the index without it (the semantic channel is then an exact script score);
one that refuses scripts in a similarity gets Lucene's BM25 (`with_lucene_bm25`).
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable
from importlib import resources
from typing import Any

from opensearchpy.exceptions import RequestError

from docshelf.index.bm25_math import K1, B

SHARED_META = "shared_namespaces"  # `_meta` key: true in a shared index

JsonObject = dict[str, Any]
TEMPLATE_RESOURCE = "opensearch-index-template.json"
_log = logging.getLogger(__name__)


def index_template() -> JsonObject:
    """The index template shipped in the package (infra/opensearch/index-template.json links to it)."""
    text = resources.files("docshelf").joinpath("schemas").joinpath(TEMPLATE_RESOURCE).read_text(encoding="utf-8")
    template: JsonObject = json.loads(text)
    return template


def with_lucene_bm25(body: JsonObject) -> JsonObject:
    """An index body with Lucene's own BM25 (same k1 and b) in place of the template's scripted similarity, for an
    engine that does not allow scripts there: its idf, log(1 + (N - n + 0.5) / (n + 0.5)), ranks a few queries
    differently from the embedded index (docs/evaluation.md "How a query is ranked")."""
    body = copy.deepcopy(body)
    body["settings"]["index"]["similarity"]["docshelf_bm25"] = {"type": "BM25", "k1": K1, "b": B}
    return body


def with_knn(body: JsonObject) -> JsonObject:
    body = copy.deepcopy(body)
    body["settings"]["index"]["knn"] = True
    return body


def without_knn(body: JsonObject) -> JsonObject:
    body = copy.deepcopy(body)
    body["settings"]["index"].pop("knn", None)
    return body


def _said(error: RequestError) -> str:
    return f"{error.error} {error.info}".lower()


def refuses_knn(error: RequestError) -> bool:
    return "index.knn" in _said(error)


def refuses_scripted_similarity(error: RequestError) -> bool:
    said = _said(error)
    return "similarity" in said or "script" in said


def namespace_index_body(alias: str | None) -> JsonObject:
    """The body that creates a namespace's versioned index with its write alias (none: the alias is added later,
    when a moved namespace's chunks are in): the template's settings and mappings themselves, so an index never
    comes up with dynamic mappings, and `index.knn`."""
    body = copy.deepcopy(index_template()["template"])
    if alias is not None:
        body["aliases"] = {alias: {"is_write_index": True}}
    return with_knn(body)


def shared_index_body() -> JsonObject:
    """A shared index (tenancy.py): a namespace index's body, marked shared in its mapping's `_meta`, no alias."""
    body = namespace_index_body(None)
    body["mappings"]["_meta"] = {SHARED_META: True}
    return body


def create_index(create: Callable[[JsonObject], None], name: str, body: JsonObject) -> None:
    """`create(body)`, again without what the engine refused (the k-NN setting, then the scripted similarity); an
    index another writer made first is fine."""
    try:
        create(body)
    except RequestError as error:
        if error.error == "resource_already_exists_exception":
            return
        if refuses_knn(error) and body["settings"]["index"].get("knn"):
            _log.info("%s: no k-NN plugin (%s): the semantic channel scores exactly", name, error)
            create_index(create, name, without_knn(body))
            return
        if (
            not refuses_scripted_similarity(error)
            or body["settings"]["index"]["similarity"]["docshelf_bm25"].get("type") == "BM25"
        ):
            raise
        _log.warning("%s refuses a scripted similarity (%s): Lucene's BM25 ranks it", name, error)
        create_index(create, name, with_lucene_bm25(body))
