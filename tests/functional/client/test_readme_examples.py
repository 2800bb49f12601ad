"""README's "Use it from an assistant" runs as written: its MCP client configuration starts `docshelf mcp` over
`make demo`'s documents, and its LangChain and LlamaIndex examples print citations from a live `docshelf serve`."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from docshelf.local.api_services import LocalApiServices
from docshelf.local.server import ServeConfig
from docshelf.local.services import LocalServices
from tests.functional.api.helpers import serving

ROOT = Path(__file__).resolve().parents[3]
DOCUMENTED_URL = "http://127.0.0.1:8080"

pytest.importorskip("mcp", reason="the MCP SDK is a dev dependency")


def section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Use it from an assistant")
    return text[start : text.index("\n## ", start + 1)]


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", section(), flags=re.DOTALL)


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`make demo`'s store: the example documents in namespace demo."""
    root = tmp_path_factory.mktemp("readme")
    spec = importlib.util.spec_from_file_location("make_examples", ROOT / "examples" / "make_examples.py")
    assert spec is not None and spec.loader is not None
    examples = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(examples)
    examples.main(root / "docs")
    services = LocalServices.open(root / "store")
    for path in sorted((root / "docs").iterdir()):
        services.ingest(path.read_bytes(), namespace="demo", source_key=path.name)
    services.index.commit()
    return root / "store"


@pytest.fixture(scope="module")
def no_auth_serve(demo_store: Path) -> Iterator[str]:
    backend = LocalApiServices(LocalServices.open(demo_store), cache_ttl_s=0)
    with serving(backend, ServeConfig(jwt_secret=None, quiet=True)) as server:
        yield server.url


def test_the_python_examples_run_as_written(no_auth_serve: str) -> None:
    examples = blocks("python")
    assert len(examples) == 2 and all(
        len([line for line in code.splitlines() if line.strip()]) == 3 for code in examples
    )
    printed = []
    for code in examples:
        assert DOCUMENTED_URL in code
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code.replace(DOCUMENTED_URL, no_auth_serve), "README.md", "exec"), {})
        printed.append(out.getvalue())
    langchain, llamaindex = printed
    assert langchain.startswith("['[1] ") and "tx-100-manual.pdf | 3 Maintenance | p. 3 | " in langchain
    assert llamaindex.startswith("['[1] ") and "[2] " in llamaindex


def test_the_mcp_configurations(demo_store: Path) -> None:
    from mcp import StdioServerParameters

    from tests.functional.mcp.mcp_calls import over, text_of

    local, deployed = (json.loads(block)["mcpServers"]["docshelf"] for block in blocks("json"))
    assert local["command"] == "docshelf" and local["args"][0] == "mcp"
    args = [str(demo_store) if arg == ".docshelf-demo" else arg for arg in local["args"]]
    command = shutil.which("docshelf", path=str(Path(sys.executable).parent)) or "docshelf"
    params = StdioServerParameters(command=command, args=args)
    result = over(params, lambda client: client.call_tool("search", {"query": "TX-100 stem seal replacement"}))
    assert not result.is_error and text_of(result).startswith("[1] ")
    assert deployed["type"] == "http" and deployed["url"].endswith("/mcp")
    assert deployed["headers"]["Authorization"].startswith("Bearer ")
