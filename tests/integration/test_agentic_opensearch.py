"""Agentic search on a real OpenSearch node: the same plan, budget, navigation and namespace rules as on the
embedded index (tests/unit/agentic), with chunks and their sections read from the node."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from docshelf.agentic.service import AgenticRun, agentic_search
from docshelf.local.services import LocalServices
from tests.agentic_fixtures import context, ingest_documents

pytestmark = pytest.mark.opensearch


@pytest.fixture(scope="module")
def remote(opensearch_node: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServices]:
    host = opensearch_node.transport.hosts[0]
    services = ingest_documents(
        tmp_path_factory.mktemp("agentic-os"),
        backend="opensearch",
        opensearch_url=f"http://{host['host']}:{host['port']}",
        opensearch_index=f"agentic-{uuid.uuid4().hex[:8]}",
    )
    services.index.commit()
    try:
        yield services
    finally:
        services.index.drop_index()  # type: ignore[attr-defined]


def test_each_part_of_a_composite_question_is_found_within_the_budget(remote: LocalServices) -> None:
    body = agentic_search(
        context(remote), AgenticRun("how often is the pump seal replaced and which tickets does 2.3.1 fix?", 400)
    )
    assert "2000 operating hours" in body["evidence_text"] and "OPS-412" in body["evidence_text"]
    assert body["tokens_used"] <= 400 and {result["step_id"] for result in body["results"]} == {"s1", "s2"}
    assert all(result["namespace"] == "ns" for result in body["results"])


def test_navigation_reads_sections_of_documents_on_the_node(remote: LocalServices) -> None:
    body = agentic_search(context(remote), AgenticRun("compare the warranty of the TX-100 and the TX-200", 2000))
    assert "2 years" in body["evidence_text"] and "5 years" in body["evidence_text"]
    assert "confidential" not in body["evidence_text"]  # the other namespace's payroll note
    assert any(line.startswith("[outline] valves.md") for line in body["evidence_text"].split("\n\n"))
