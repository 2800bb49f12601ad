"""A parse limit that cuts a document's content is never silent: the document is `partial`, indexed like `ok`,
and says what was kept and why in its registry record (`docshelf status`, `GET /documents`), its manifest and the
`docshelf ingest` summary."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

import docshelf.local.services
from docshelf.config import ParseLimits, PipelineConfig
from docshelf.local.cli import main
from docshelf.local.services import LocalServices
from docshelf.search.request import SearchRequest
from docshelf.search.service import search

CELL_LIMIT = 40
REASON = f"kept rows 1-13 of 30: over the {CELL_LIMIT}-cell limit"  # 3 cells a row: 13 rows are 39 cells


def parts_csv() -> str:
    return "part,quantity,bin\n" + "".join(f"P-{row:03d},{row},bin{row % 7}\n" for row in range(1, 30))


@pytest.fixture
def small_cell_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    limited = functools.partial(PipelineConfig, limits=ParseLimits(max_sheet_cells=CELL_LIMIT))
    monkeypatch.setattr(docshelf.local.services, "PipelineConfig", limited)


@pytest.mark.usefixtures("small_cell_limit")
def test_a_cut_csv_is_partial_everywhere_and_searchable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "parts.csv").write_text(parts_csv(), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("Bins are counted every Friday.\n", encoding="utf-8")
    store = str(tmp_path / "store")

    assert main(["ingest", str(tmp_path / "parts.csv"), str(tmp_path / "notes.txt"), "--store", store, "--quiet"]) == 0
    summary = capsys.readouterr().out
    assert summary.startswith("1 ok, 1 partial, 0 failed, ")
    assert f"parts.csv: partial [truncated] {REASON}" in summary

    assert main(["status", "--store", store, "--json"]) == 0
    records = {Path(r["source_key"]).name: r for r in json.loads(capsys.readouterr().out)}
    assert records["parts.csv"]["status"] == "partial" and records["parts.csv"]["error_message"] == REASON
    assert records["parts.csv"]["chunk_count"] > 0 and records["notes.txt"]["status"] == "ok"

    document_id = records["parts.csv"]["document_id"]
    manifest = json.loads((tmp_path / "store/docs/default" / document_id / "manifest.json").read_text("utf-8"))
    assert manifest["status"] == "partial" and manifest["truncation"] == REASON

    services = LocalServices.open(store)
    found = search(services.index, SearchRequest("default", "P-012", top_k=1)).results
    assert found and found[0].chunk.document_id == document_id and "P-012" in found[0].chunk.text
    cut = search(services.index, SearchRequest("default", "P-020", top_k=5)).results
    assert not any("P-020" in ranked.chunk.text for ranked in cut)  # past the limit: cut, and said so

    # Ingested again unchanged: answered from the registry, still partial, still exit 0.
    assert main(["ingest", str(tmp_path / "parts.csv"), "--store", store, "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("0 ok, 1 partial, 0 failed, ")


def test_the_manifest_of_a_partial_document_matches_its_schema(tmp_path: Path) -> None:
    from tests.functional.test_caches_and_artifacts import _validator

    services = LocalServices.open(tmp_path)
    services = LocalServices(services.store, services.registry, services.index,
                             PipelineConfig(limits=ParseLimits(max_sheet_cells=CELL_LIMIT)))  # fmt: skip
    result = services.ingest(parts_csv().encode(), namespace="ns", source_key="parts.csv")
    assert (result.status, result.error_message) == ("partial", REASON)
    manifest = json.loads((tmp_path / "docs/ns" / result.document_id / "manifest.json").read_text("utf-8"))
    _validator("manifest.schema.json").validate(manifest)
