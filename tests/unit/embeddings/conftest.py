from __future__ import annotations

import os
from pathlib import Path

import pytest

from docshelf.embeddings.catalog import DEFAULT_LOCAL_MODEL, find_model_dir


def installed_model(name: str = DEFAULT_LOCAL_MODEL) -> Path:
    """The fetched model's folder. Absent on a fresh clone before `make setup`: the test skips, except in CI
    (CI=true), where `make test` fetches it first and its absence is a failure."""
    folder = find_model_dir(name)
    if folder is None:
        reason = f"the local embedding model {name} is not installed (`python infra/fetch_models.py`)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true: {reason}", pytrace=False)
        pytest.skip(reason)
    return folder


@pytest.fixture(scope="session")
def minilm_dir() -> Path:
    return installed_model()
