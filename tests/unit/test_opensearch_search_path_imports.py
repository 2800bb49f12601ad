"""The OpenSearch search path starts without numpy (a cold start of the search function pays for every import):
vectors are decoded only where they are written, and the semantic query is a plain list of floats."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

OPENSEARCH_SETTINGS = {
    "OPENSEARCH_ENDPOINT": "https://search-docshelf.us-east-1.es.amazonaws.com",
    "OPENSEARCH_SERVICE": "es",
    "OPENSEARCH_INDEX": "docshelf-chunks",
    "ARTIFACTS_BUCKET": "artifacts",
    "REGISTRY_TABLE": "registry",
    "SEARCH_CACHE_TABLE": "cache",
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "POWERTOOLS_SERVICE_NAME": "docshelf-search",
}


def _imported_numpy(code: str) -> tuple[bool, str]:
    """Runs `code` in a fresh interpreter with `-X importtime`; whether numpy was imported, and by what chain."""
    environment = {**os.environ, **OPENSEARCH_SETTINGS, "PYTHONPATH": os.pathsep.join(sys.path)}
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", code], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [line for line in result.stderr.splitlines() if line.startswith("import time:")]
    modules = [line.rsplit("|", 1)[1] for line in lines]
    first = next((i for i, name in enumerate(modules) if name.strip() == "numpy"), None)
    return first is not None, "\n".join(modules[max(0, (first or 0) - 15) : (first or 0) + 1])


def test_importing_the_opensearch_backend_does_not_import_numpy() -> None:
    found, chain = _imported_numpy("import docshelf.index.opensearch")
    assert not found, f"numpy imported on the OpenSearch search path:\n{chain}"


def test_the_search_handler_with_opensearch_settings_builds_its_index_without_numpy() -> None:
    code = (
        "import functions.search.app\n"
        "from docshelf.aws.services import AwsServices\n"
        "from docshelf.aws.settings import Settings\n"
        "AwsServices(Settings.from_env()).index()\n"
    )
    found, chain = _imported_numpy(code)
    assert not found, f"numpy imported by the search function's cold start:\n{chain}"


def test_the_check_sees_numpy_when_it_is_imported() -> None:
    assert _imported_numpy("import docshelf.index.vectors")[0]
