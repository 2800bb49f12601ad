"""The shard plan of long PDFs, and the property that reading page ranges apart and merging them gives the
Document of a whole-document parse (furniture and headings are whole-document steps, run by the merge)."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from docshelf import forked
from docshelf.errors import DocumentError
from docshelf.model import Document
from docshelf.parsers import parse_bytes, parse_with_assets
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.pdf import pdf
from docshelf.parsers.pdf.pdf_ranges import PdfPlan, merge_pdf_ranges, plan_pdf, read_pdf_range
from docshelf.parsers.pdf.pdf_shards import image_only_pages, plan_ranges
from docshelf.serde import dumps, loads
from tests.pdf_fixtures import heading, long_pdf

WHOLE = ParseLimits(text_pages_per_range=10**6, scanned_pages_per_range=10**6)


def small_ranges(text: int, scanned: int) -> ParseLimits:
    return ParseLimits(text_pages_per_range=text, scanned_pages_per_range=scanned)


def _covers(ranges: list[tuple[int, int]], pages: int) -> bool:
    return ranges[0][0] == 0 and ranges[-1][1] == pages and all(a[1] == b[0] for a, b in itertools.pairwise(ranges))


def test_a_document_within_one_range_of_work_is_one_range() -> None:
    limits = small_ranges(1000, 50)
    assert plan_ranges([False] * 1000, limits) == [(0, 1000)]
    assert plan_ranges([True] * 50, limits) == [(0, 50)]
    assert plan_ranges([], limits) == [(0, 0)]


def test_long_documents_get_ranges_of_bounded_work() -> None:
    limits = small_ranges(1000, 50)
    assert plan_ranges([True] * 300, limits) == [(start, start + 50) for start in range(0, 300, 50)]
    assert plan_ranges([False] * 2500, limits) == [(0, 1000), (1000, 2000), (2000, 2500)]
    mixed = [index % 2 == 0 for index in range(400)]  # a scan, a text page, ...: 200 of each
    ranges = plan_ranges(mixed, limits)
    assert _covers(ranges, 400)
    for start, end in ranges:
        scanned = sum(mixed[start:end])
        assert scanned / 50 + (end - start - scanned) / 1000 <= 1.0
    assert len(ranges) == 5  # 200 scans are 4 ranges' work, 200 text pages a fifth of one more


def test_the_survey_tells_image_pages_from_text_pages() -> None:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(long_pdf(8, scanned={2, 3, 8}))
    try:
        assert image_only_pages(document, 8) == [False, True, True, False, False, False, False, True]
    finally:
        document.close()


def merged(data: bytes, filename: str, limits: ParseLimits) -> tuple[Document, dict[str, bytes]]:
    """Plan, read each range and merge, every step's result through JSON as between Lambda invocations: the
    Document and its image assets."""
    plan = PdfPlan.from_dict(loads(dumps(plan_pdf(data, filename, limits=limits, uri=filename).to_dict())))
    pages = [loads(dumps(read_pdf_range(data, filename, span, limits=limits))) for span in plan.ranges]
    return merge_pdf_ranges(plan, pages, limits=limits)


def test_merged_ranges_are_the_whole_document_parse() -> None:
    data = long_pdf(130, scanned={40, 41})
    plan = plan_pdf(data, "manual.pdf", limits=small_ranges(30, 3))
    assert len(plan.ranges) > 4 and _covers(plan.ranges, 130)
    whole, assets = parse_with_assets(data, "manual.pdf", limits=WHOLE)
    assert merged(data, "manual.pdf", small_ranges(30, 3)) == (whole, assets)
    # furniture found across ranges is removed, headings kept, page numbers true
    texts = [block.text for block in whole.blocks() if block.kind != "table"]
    assert not any("Distribution Restricted" in text for text in texts)
    headings = {(block.page, block.text) for block in whole.blocks() if block.kind == "heading"}
    assert (129, heading(129)) in headings and (41, heading(41)) not in headings  # 41 is a scan


def test_a_scan_fails_alike_whole_and_in_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCSHELF_OCR", "off")
    data = long_pdf(12, scanned=set(range(1, 13)))
    with pytest.raises(DocumentError) as whole:
        parse_bytes(data, "scan.pdf", limits=WHOLE)
    with pytest.raises(DocumentError) as ranged:
        merged(data, "scan.pdf", small_ranges(5, 2))
    assert (
        (ranged.value.code, ranged.value.message)
        == (whole.value.code, whole.value.message)
        == (
            "needs_ocr",
            whole.value.message,
        )
    )


@pytest.mark.corpus
def test_corpus_pdfs_merge_to_their_whole_parse(corpus_dir: Path) -> None:
    compared = with_images = 0
    for path in sorted((corpus_dir / "pdf").glob("*.pdf")):
        data = path.read_bytes()
        try:
            whole, assets = parse_with_assets(data, path.name, limits=WHOLE)
        except DocumentError as error:
            with pytest.raises(DocumentError) as ranged:
                merged(data, path.name, small_ranges(7, 2))
            assert ranged.value.code == error.code, path.name
            continue
        if len(whole.pages) < 2:
            continue
        assert merged(data, path.name, small_ranges(7, 2)) == (whole, assets), path.name
        compared += 1
        with_images += bool(assets)
    assert compared >= 5 and with_images >= 1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="ranges are read by forked workers")
def test_locally_the_plan_runs_in_worker_processes(monkeypatch: pytest.MonkeyPatch, forks: list[int]) -> None:
    data = long_pdf(120, scanned={7})
    whole = parse_bytes(data, "manual.pdf", limits=WHOLE)
    monkeypatch.setattr(forked, "spare_cpus", lambda: 2)
    monkeypatch.setattr(pdf, "worker_count", lambda _pages: 1)  # no page workers: only the ranges fork
    before = len(forks)
    assert parse_bytes(data, "manual.pdf", limits=small_ranges(40, 4)) == whole
    assert len(forks) - before == 2  # three ranges (40 text pages' work each) over two workers


def test_the_lambdas_read_the_range_sizes_from_their_environment() -> None:
    from docshelf.aws.settings import Settings

    env = {"ARTIFACTS_BUCKET": "a", "REGISTRY_TABLE": "r", "SHARD_TEXT_PAGES": "200", "SHARD_SCANNED_PAGES": "10"}
    limits = Settings.from_env(env).pipeline.limits
    assert (limits.text_pages_per_range, limits.scanned_pages_per_range) == (200, 10)
    defaults = Settings.from_env({"ARTIFACTS_BUCKET": "a", "REGISTRY_TABLE": "r"}).pipeline.limits
    assert (defaults.text_pages_per_range, defaults.scanned_pages_per_range) == (1000, 50)
