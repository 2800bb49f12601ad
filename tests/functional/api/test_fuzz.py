"""OpenAPI-driven fuzzing with schemathesis against `docshelf serve` on loopback: no input gives a 5xx."""

from __future__ import annotations

import json
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings

from tests.functional.api.helpers import Served, token

schemathesis = pytest.importorskip("schemathesis")

EXAMPLES_PER_OPERATION = 40


@pytest.mark.parametrize("mode", ["positive", "negative"])
def test_no_generated_request_makes_the_server_fail(served: Served, mode: str) -> None:
    with urllib.request.urlopen(served.url + "/openapi.json", timeout=30) as response:
        spec = json.loads(response.read())
    schema = schemathesis.openapi.from_dict(spec)
    generation_mode = schemathesis.GenerationMode(mode)
    headers = {"Authorization": f"Bearer {token('fuzzer', ['demo', 'default'])}"}
    failures: list[str] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    expected = {"POST /search", "GET /documents", "GET /documents/{document_id}/source", "POST /documents"}
    expected |= {"DELETE /documents/{document_id}", "POST /ingest", "GET /runs/{run_id}"}
    assert expected <= {op.label for op in operations}

    for operation in operations:

        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy(generation_mode=generation_mode))
        def call(case: object) -> None:
            response = case.call(base_url=served.url, headers=headers, timeout=30)  # type: ignore[attr-defined]
            if response.status_code >= 500:
                failures.append(f"{response.status_code} {case!r}: {response.text[:300]}")
            assert response.status_code < 500
            assert response.headers["content-type"][0].startswith("application/json")

        call()
    assert failures == []
