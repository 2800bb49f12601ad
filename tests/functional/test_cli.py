from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from docshelf.index.embedded.analyzed_batch import AnalyzedBatch
from docshelf.local.cli import main
from docshelf.model import Chunk

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "manual.txt").write_text(
        "Chapter 1 Overview\n\nThe TX-100 valve is rated for 200 bar.\n\n"
        "Chapter 2 Maintenance\n\nReplace the stem seal every 6 months.\n",
        encoding="utf-8",
    )
    (folder / "notes.txt").write_text("Notes\n\nShipping takes five days.\n", encoding="utf-8")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7\n this is not really a pdf")
    (folder / "empty.txt").write_bytes(b"")
    return folder


def run(*argv: str) -> int:
    return main(list(argv))


def test_ingest_search_status_delete(docs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "store")
    assert run("ingest", str(docs), "--namespace", "acme", "--store", store, "--quiet") == 1
    summary = capsys.readouterr().out
    assert "2 ok, 2 failed" in summary
    assert "broken.pdf: failed [corrupt]" in summary
    assert "empty.txt: failed [empty]" in summary

    assert run("search", "how often is the seal replaced", "--namespace", "acme", "--store", store, "--json") == 0
    response = json.loads(capsys.readouterr().out)
    assert response["results"], response
    top = response["results"][0]
    assert top["source_file_name"] == "manual.txt" and top["pages"] == [1]
    assert "Replace the stem seal" in top["text"]
    assert "[1] manual.txt" in response["evidence_text"]

    assert run("status", "--namespace", "acme", "--store", store) == 0
    status = capsys.readouterr().out
    assert "manual.txt" in status and "ok" in status and "[corrupt]" in status

    assert run("delete", "notes.txt", "--namespace", "acme", "--store", store) == 0
    capsys.readouterr()
    assert run("search", "shipping", "--namespace", "acme", "--store", store, "--json") == 0
    assert all(r["source_file_name"] != "notes.txt" for r in json.loads(capsys.readouterr().out)["results"])


def test_ingest_leaves_a_snapshot_that_searches_load_instead_of_analyzing(
    docs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from docshelf.index.embedded import EmbeddedIndex

    monkeypatch.setattr(EmbeddedIndex, "SNAPSHOT_AFTER_CHUNKS", 1)  # the demo's few chunks are worth one
    store = tmp_path / "store"
    run("ingest", str(docs), "--namespace", "acme", "--store", str(store), "--quiet")
    snapshot = store / "index" / "acme.snapshot"
    assert snapshot.is_file()
    capsys.readouterr()

    def search() -> object:
        assert run("search", "stem seal TX-100", "--namespace", "acme", "--store", str(store), "--json") == 0
        response = json.loads(capsys.readouterr().out)
        return [(r["chunk_id"], r["score"]) for r in response["results"]]

    analyzed: list[int] = []
    analyze = EmbeddedIndex._analyzed

    def counted(self: EmbeddedIndex, documents: Sequence[tuple[str, Sequence[Chunk]]]) -> AnalyzedBatch:
        analyzed.append(len(documents))
        return analyze(self, documents)

    monkeypatch.setattr(EmbeddedIndex, "_analyzed", counted)
    with_snapshot = search()
    assert with_snapshot and not analyzed
    monkeypatch.undo()
    snapshot.unlink()
    assert search() == with_snapshot


def test_reingesting_unchanged_files_hits_the_caches(docs: Path, tmp_path: Path) -> None:
    from docshelf.local.services import LocalServices

    services = LocalServices.open(tmp_path / "store")
    data = (docs / "manual.txt").read_bytes()
    first = services.ingest(data, namespace="acme", source_key="manual.txt")
    again = services.ingest(data, namespace="acme", source_key="manual.txt")
    assert not first.parse_cache_hit and again.parse_cache_hit and again.chunk_cache_hit
    assert again.chunks == first.chunks


def test_batch_search_prints_one_line_per_query(docs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "store")
    run("ingest", str(docs), "--store", store, "--quiet")
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"qid": "1", "query": "seal"}\n{"qid": "2", "query": "shipping"}\n', encoding="utf-8")
    capsys.readouterr()
    assert run("search", "--queries", str(queries), "--store", store, "--json", "--top-k", "1") == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["qid"] for line in lines] == ["1", "2"]
    assert lines[1]["results"][0]["doc"] == "notes.txt"
    assert set(lines[0]["results"][0]) >= {"doc", "document_id", "chunk_id", "text", "score", "pages", "section_path"}


def test_parse_renders_markdown_html_and_json(docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("parse", str(docs / "manual.txt"), "--format", "md") == 0
    assert "# Chapter 1 Overview" in capsys.readouterr().out
    assert run("parse", str(docs / "manual.txt"), "--format", "html") == 0
    assert "<h1>Chapter 1 Overview</h1>" in capsys.readouterr().out
    assert run("parse", str(docs / "manual.txt"), "--format", "json") == 0
    assert json.loads(capsys.readouterr().out)["schema_version"]
    assert run("parse", str(docs / "broken.pdf")) == 1


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "docshelf.local.cli", "search", "--namespace", "acme", "--store", str(tmp_path)],
        capture_output=True, text=True, check=False, cwd=REPO,
    )  # fmt: skip
    assert result.returncode == 2
    assert run("search", "x", "--namespace", "Not Valid", "--store", str(tmp_path)) == 2
    assert run("ingest", str(tmp_path / "missing"), "--store", str(tmp_path)) == 2
    assert run("ingest", str(tmp_path), "--chunk-tokens", "20", "--overlap-tokens", "15", "--store", str(tmp_path)) == 2
    with pytest.raises(SystemExit) as exit_info:
        run("frobnicate")
    assert exit_info.value.code == 2


@pytest.mark.usefixtures("ocr_ready")
def test_a_scan_is_parsed_and_found_and_no_ocr_leaves_it_needing_ocr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.scans import PARAGRAPHS, encode, render_page

    monkeypatch.setenv("DOCSHELF_OCR", "on")  # restored after the test: --no-ocr sets it in this process
    scan = tmp_path / "scan.png"
    scan.write_bytes(encode([render_page(PARAGRAPHS["eng"], "eng")], "png"))
    assert run("parse", str(scan)) == 0
    assert "Three stem seals were replaced in March." in capsys.readouterr().out
    store = str(tmp_path / "store")
    assert run("ingest", str(scan), "--namespace", "scans", "--store", store, "--quiet") == 0
    capsys.readouterr()
    assert run("search", "stem seals replaced", "--namespace", "scans", "--store", store) == 0
    assert "scan.png" in capsys.readouterr().out
    assert run("parse", str(scan), "--no-ocr") == 1
    assert "needs_ocr: 'scan.png' is an image: OCR is turned off (DOCSHELF_OCR=off)" in capsys.readouterr().err


def test_a_documents_record_counts_its_pages(tmp_path: Path) -> None:
    from docshelf.local.services import LocalServices
    from tests.pdf_fixtures import long_pdf

    folder = tmp_path / "pdfs"
    folder.mkdir()
    (folder / "procedure.pdf").write_bytes(long_pdf(3))
    store = tmp_path / "store"
    assert main(["ingest", str(folder), "--store", str(store), "--namespace", "ns", "--quiet"]) == 0
    [record] = LocalServices.open(store).registry.list("ns")
    assert (record.status, record.pages) == ("ok", 3)
