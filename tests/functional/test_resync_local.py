"""`docshelf resync` on a local store: the same orchestrator as `--aws` (pipeline/resync.py), moving a store's
namespace to OpenSearch, and what it says of a document whose chunk cache is gone."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from docshelf.index.opensearch import OpenSearchIndex
from docshelf.index.plan import SearchFilters
from docshelf.keys import chunk_cache_key
from docshelf.local.cli import main
from docshelf.local.services import LocalServices
from tests.functional.aws.conftest import OPENSEARCH_URL
from tests.functional.test_hybrid_ingest import TEXTS, _ingest, docs  # noqa: F401


@pytest.fixture
def prefix(opensearch_node: Any) -> Iterator[str]:
    name = f"docshelftest-resync-local-{uuid.uuid4().hex[:8]}"
    try:
        yield name
    finally:
        OpenSearchIndex(opensearch_node, index=name).drop_index()


@pytest.mark.opensearch
def test_a_local_store_moves_to_opensearch_and_a_second_run_writes_nothing(
    docs: Path,  # noqa: F811
    tmp_path: Path,
    prefix: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = tmp_path / "store"
    _ingest(LocalServices.open(store), docs)
    engine = ["--backend", "opensearch", "--opensearch-url", OPENSEARCH_URL, "--opensearch-index", prefix]
    command = ["resync", "--namespace", "ns", "--store", str(store), *engine]
    assert main([*command, "--dry-run"]) == 0
    assert "ns: 3 of 3 published documents are due" in capsys.readouterr().out
    assert main(command) == 0
    assert "ns: 3 documents published again" in capsys.readouterr().out
    moved = LocalServices.open(store, backend="opensearch", opensearch_url=OPENSEARCH_URL, opensearch_index=prefix)
    assert moved.index.count("ns", SearchFilters()) == len(TEXTS)
    assert main(command) == 0
    assert "ns: all 3 published documents are published with the current settings" in capsys.readouterr().out


@pytest.mark.opensearch
def test_a_document_whose_chunk_cache_is_gone_is_named_and_the_others_move(
    docs: Path,  # noqa: F811
    tmp_path: Path,
    prefix: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = tmp_path / "store"
    services = LocalServices.open(store)
    _ingest(services, docs)
    lost = next(r for r in services.registry.list("ns") if r.source_key == "clinic.txt")
    services.store.delete(chunk_cache_key(lost.revision, "ns", lost.document_id, services.config.chunking))
    engine = ["--backend", "opensearch", "--opensearch-url", OPENSEARCH_URL, "--opensearch-index", prefix]
    assert main(["resync", "--namespace", "ns", "--store", str(store), *engine]) == 1
    captured = capsys.readouterr()
    assert "ns: 2 documents published again, 1 without stored chunks" in captured.out
    assert (
        f"docshelf resync: {lost.document_id}: the chunk cache of revision {lost.revision} is missing" in captured.err
    )


def test_a_change_of_chunk_settings_is_not_a_resync_and_says_so(
    docs: Path,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = tmp_path / "store"
    _ingest(LocalServices.open(store), docs)
    assert main(["resync", "--namespace", "ns", "--store", str(store), "--chunk-tokens", "400"]) == 1
    captured = capsys.readouterr()
    assert "ns: 0 documents published again, 3 without stored chunks" in captured.out
    assert captured.err.count("the chunk cache of revision") == 3
