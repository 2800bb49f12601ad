"""An OpenSearch index keeps each chunk's terms as the analyzer made them when it was published, so its identity
(which a document's record keeps as `published_with`) names the analyzer version: a new analyzer makes every
document due to be published again (tests/functional/test_batched_publishing.py shows a changed identity does)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING

from docshelf.config import PipelineConfig
from docshelf.index.opensearch import OpenSearchIndex
from docshelf.index.opensearch import index as opensearch_index
from docshelf.pipeline.publish import published_with
from docshelf.versions import ANALYZER_VERSION

if TYPE_CHECKING:
    import pytest


def client() -> SimpleNamespace:
    return SimpleNamespace(transport=SimpleNamespace(hosts=[{"host": "node", "port": 9200}]))


def test_the_identity_names_the_node_the_prefix_and_the_analyzer() -> None:
    assert OpenSearchIndex(client(), index="docs").identity == f"opensearch:node:9200/docs;analyzer={ANALYZER_VERSION}"


def test_a_new_analyzer_changes_what_a_record_says_was_published(monkeypatch: pytest.MonkeyPatch) -> None:
    before = published_with(PipelineConfig(), OpenSearchIndex(client(), index="docs"))
    monkeypatch.setattr(opensearch_index, "ANALYZER_VERSION", ANALYZER_VERSION + 1)
    assert published_with(PipelineConfig(), OpenSearchIndex(client(), index="docs")) != before
