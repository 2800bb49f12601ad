"""`docshelf.client` stands alone: importing it loads no parser, index, search code or numpy, and a fresh venv
installs it (clients/python) with nothing else."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
HEAVY = ("numpy", "tiktoken", "pypdfium2", "docx", "pptx", "openpyxl", "lxml", "onnxruntime", "botocore", "mcp",
         "langchain_core", "llama_index", "pydantic", "opensearchpy", "waitress", "aws_lambda_powertools")  # fmt: skip


def loaded_after(statement: str, python: str = sys.executable) -> list[str]:
    probe = f"import sys; {statement}; print(__import__('json').dumps(sorted(sys.modules)))"
    out = subprocess.run([python, "-c", probe], check=True, capture_output=True, text=True, cwd="/")
    return list(json.loads(out.stdout))


def test_importing_the_client_loads_nothing_heavy() -> None:
    modules = loaded_after("import docshelf.client")
    docshelf = {m for m in modules if m.split(".")[0] == "docshelf"}
    assert docshelf == {"docshelf", "docshelf.client", "docshelf.client.api", "docshelf.client.auth",
                        "docshelf.client.transport", "docshelf.client.types"}  # fmt: skip
    assert not [m for m in modules if m.split(".")[0] in HEAVY]
    assert "ssl" not in modules and "http.client" not in modules  # loaded at the first request


def test_the_client_still_works_once_http_loads_lazily() -> None:
    code = "from docshelf.client import DocshelfClient, DocshelfApiError\n" + (
        "try:\n    DocshelfClient('http://127.0.0.1:9').list_documents('demo')\n"
        "except DocshelfApiError as error:\n    print(error.status)"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd="/")
    assert out.stdout.strip() == "0"  # nothing listens on port 9: the retries ran and ended in a readable error


@pytest.mark.slow
def test_a_fresh_venv_installs_the_client_alone(tmp_path: Path) -> None:
    """clients/python builds `docshelf-client` from the same source files; installed without its extras it has no
    dependency at all, and the parsers, numpy and the rest are not even there to import."""
    wheels = tmp_path / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(wheels)]
    subprocess.run([*build, str(REPO / "clients" / "python")], check=True, capture_output=True)
    venv.EnvBuilder(with_pip=True).create(tmp_path / "venv")
    python = str(tmp_path / "venv" / "bin" / "python")
    install = [python, "-m", "pip", "install", "--quiet", "--no-index", "--find-links", str(wheels), "docshelf-client"]
    subprocess.run(install, check=True, capture_output=True)
    listed = subprocess.run([python, "-m", "pip", "list", "--format=json"], check=True, capture_output=True, text=True)
    installed = {package["name"].lower() for package in json.loads(listed.stdout)}
    assert installed <= {"docshelf-client", "pip", "setuptools", "wheel"}
    modules = loaded_after("from docshelf.client import DocshelfClient", python)
    assert "docshelf.client.api" in modules and not [m for m in modules if m.split(".")[0] in HEAVY]
    assert subprocess.run([python, "-c", "import docshelf.parsers"], capture_output=True).returncode != 0
