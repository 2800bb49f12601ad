from __future__ import annotations

from pathlib import Path

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
def ireval_dir() -> Path:
    """The retrieval sets in ../shared/ireval; tests using them skip cleanly on a user's fresh clone."""
    if not (IREVAL / "med" / "docs").is_dir():
        pytest.skip("../shared/ireval is absent (only present in the project workspace and CI)")
    return IREVAL
