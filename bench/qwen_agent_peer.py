"""Qwen-Agent 0.0.34, the peer, run over a list of files in its own venv, for the speed benches' same-run anchor.

Each file goes through what a Qwen-Agent RAG user runs: `DocParser.call` (its `SimpleDocParser`, then its chunking
at `parser_page_size` 500) with `max_ref_token` 0, so every document is split into chunks as docshelf splits it
(the default 20,000 would keep a short document whole and skip the chunker). Workspace and caches are a fresh
temporary folder, so nothing is read from an earlier run. A file the peer fails on is timed and counted as failed.

The venv is found through QWEN_AGENT_PYTHON (default /opt/qwen-agent-0.0.34/bin/python; `infra/qwen-agent-venv.sh`
makes one). `peer_python()` is None when it is absent, and `skip_line()` says so.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

PYTHON_ENV = "QWEN_AGENT_PYTHON"
DEFAULT_PYTHON = Path("/opt/qwen-agent-0.0.34/bin/python")
PAGE_SIZE = 500

# Runs inside the peer's interpreter: file list on stdin, one JSON line out.
_CHILD = r"""
import json, os, sys, time
started = time.perf_counter()
from qwen_agent.tools.doc_parser import DocParser
from qwen_agent.utils.tokenization_qwen import count_tokens
count_tokens("warm up")  # the vocabulary loads on first use: part of the import, not of the first file
imported = time.perf_counter() - started
request = json.load(sys.stdin)
parser = DocParser({"path": os.path.join(request["workspace"], "doc_parser"), "max_ref_token": 0,
                    "parser_page_size": request["page_size"]})
files = []
loop = time.perf_counter()
for path in request["files"]:
    began, began_cpu = time.perf_counter(), time.process_time()
    try:
        record = parser.call({"url": path})
        chunks, error = len(record["raw"]), ""
    except Exception as exc:  # the peer's own failure of this file: timed and counted, the run goes on
        chunks, error = 0, f"{type(exc).__name__}: {exc}"[:200]
    files.append({"path": path, "seconds": time.perf_counter() - began, "cpu": time.process_time() - began_cpu,
                  "chunks": chunks, "error": error})
print(json.dumps({"import_seconds": imported, "seconds": time.perf_counter() - loop, "files": files}))
"""


@dataclass(frozen=True, slots=True)
class PeerRun:
    seconds: float  # the files' wall time, interpreter start and imports excluded
    import_seconds: float
    chunks: int
    failed: int
    per_file: dict[str, float]  # path -> seconds
    per_file_cpu: dict[str, float]  # path -> CPU seconds


def peer_python() -> Path | None:
    configured = os.environ.get(PYTHON_ENV, "").strip()
    python = Path(configured) if configured else DEFAULT_PYTHON
    return python if python.is_file() and os.access(python, os.X_OK) else None


def skip_line() -> str:
    shown = os.environ.get(PYTHON_ENV, "").strip() or str(DEFAULT_PYTHON)
    return f"Qwen-Agent skipped: no interpreter at {shown} (set {PYTHON_ENV}, or run infra/qwen-agent-venv.sh)"


def run_peer(files: list[Path], *, page_size: int = PAGE_SIZE, timeout: float = 3600) -> PeerRun:
    """The peer's parse and chunking of `files`, in order, in a fresh workspace (one process for all)."""
    python = peer_python()
    if python is None:
        raise RuntimeError(skip_line())
    with tempfile.TemporaryDirectory(prefix="qwen-agent-bench-") as workspace:
        env = {**os.environ, "QWEN_AGENT_DEFAULT_WORKSPACE": workspace, "TQDM_DISABLE": "1"}
        env.pop("PYTHONPATH", None)
        request = {"files": [str(path.resolve()) for path in files], "workspace": workspace, "page_size": page_size}
        done = subprocess.run(
            [str(python), "-c", _CHILD], input=json.dumps(request), capture_output=True, text=True,
            cwd=workspace, env=env, timeout=timeout, check=False,
        )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"Qwen-Agent run failed ({done.returncode}): {done.stderr[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    per_file = {item["path"]: item["seconds"] for item in result["files"]}
    return PeerRun(
        seconds=result["seconds"],
        import_seconds=result["import_seconds"],
        chunks=sum(item["chunks"] for item in result["files"]),
        failed=sum(1 for item in result["files"] if item["error"]),
        per_file=per_file,
        per_file_cpu={item["path"]: item["cpu"] for item in result["files"]},
    )
