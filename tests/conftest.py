from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
IREVAL = SHARED / "ireval"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The real corpus in ../shared/corpus; tests using it skip cleanly on a user's fresh clone."""
    if not (CORPUS / "MANIFEST.tsv").is_file():
        pytest.skip("../shared/corpus is absent (only present in the project workspace and CI)")
    return CORPUS


@pytest.fixture(scope="session")
def ocr_ready() -> None:
    """OCR with its language data (and the CJK font the tests render with), which `make setup` installs: tests
    using it skip without them, and fail in CI (CI=true), where `make test` runs setup first."""
    from docshelf.ocr.settings import ocr_settings, unavailable_reason

    reason = unavailable_reason(ocr_settings())
    if reason is None and not (REPO_ROOT / "tests" / "fonts" / "DroidSansFallbackFull.ttf").is_file():
        reason = "the CJK test font is missing"
    if reason is not None:
        reason += "; run `make setup` (infra/fetch_ocr_data.py --fonts)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true: {reason}", pytrace=False)
        pytest.skip(reason)


@pytest.fixture(scope="session")
def ireval_dir() -> Path:
    """The retrieval sets in ../shared/ireval; tests using them skip cleanly on a user's fresh clone."""
    if not (IREVAL / "med" / "docs").is_dir():
        pytest.skip("../shared/ireval is absent (only present in the project workspace and CI)")
    return IREVAL


@pytest.fixture(scope="session")
def opensearch_node() -> Iterator[Any]:
    """A client of the local OpenSearch node at OPENSEARCH_URL: tests using it skip without one, and fail in CI
    (CI=true), where infra/run-tests.sh starts it."""
    from docshelf.index.opensearch.client import opensearch_client

    url = os.environ.get("OPENSEARCH_URL", "http://127.0.0.1:9200")
    client = opensearch_client(url)
    try:
        client.info()
    except Exception as exc:  # any failure to reach the node means "no node"
        reason = f"no OpenSearch node answers at {url} ({exc.__class__.__name__}); run `make opensearch-up`"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true: {reason}", pytrace=False)
        pytest.skip(reason)
    yield client
    client.close()
