"""The demo's torque question, asked as `make demo` asks it: the chunk it ranks first shows the torque."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from docshelf.local.services import LocalServices
from docshelf.search.request import SearchRequest
from docshelf.search.service import search

REPO = Path(__file__).resolve().parents[2]
PREVIEW_CHARS = 297  # what `docshelf search` prints of a result's text


def test_torque_question_is_answered_by_the_table_row_in_the_preview(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    subprocess.run([sys.executable, str(REPO / "examples" / "make_examples.py"), str(docs)], check=True)
    services = LocalServices.open(tmp_path / "store")
    files = [(path, path.relative_to(docs).as_posix()) for path in sorted(docs.iterdir())]
    assert all(result.status == "ok" for result in services.ingest_files(files, namespace="demo"))
    response = search(services.index, SearchRequest("demo", "What torque for M12 flange bolts?", top_k=3))
    top = response.results[0].chunk
    assert top.source_file_name == "tx-100-manual.pdf"
    assert top.type == "table"
    assert "| M12 | 80 |" in top.text[:PREVIEW_CHARS]
