"""`docshelf ingest` of a long PDF under a shard plan of several ranges (DOCSHELF_SHARD_TEXT_PAGES), read by
forked workers: the same parse, chunks and search results as one range."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from docshelf import forked
from docshelf.config import SHARD_TEXT_PAGES_ENV, local_limits
from docshelf.errors import InvalidConfigError
from docshelf.ids import sha256_hex
from docshelf.keys import parse_cache_key
from docshelf.local.services import LocalServices
from docshelf.parsers.pdf.pdf_ranges import plan_pdf
from tests.pdf_fixtures import long_pdf


def _ingest(root: Path, data: bytes) -> tuple[bytes | None, int]:
    services = LocalServices.open(root)
    result = services.ingest(data, namespace="acme", source_key="manual.pdf")
    assert result.status == "ok", result
    return services.store.get(parse_cache_key(sha256_hex(data))), result.chunks


@pytest.mark.skipif(not hasattr(os, "fork"), reason="ranges are read by forked workers")
def test_a_sharded_local_ingest_equals_a_whole_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = long_pdf(90)
    monkeypatch.setattr(forked, "spare_cpus", lambda: 2)
    whole = _ingest(tmp_path / "whole", data)
    monkeypatch.setenv(SHARD_TEXT_PAGES_ENV, "25")
    assert len(plan_pdf(data, "manual.pdf", limits=local_limits()).ranges) == 4
    assert _ingest(tmp_path / "sharded", data) == whole


def test_a_malformed_range_size_is_refused_readably(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SHARD_TEXT_PAGES_ENV, "many")
    with pytest.raises(InvalidConfigError, match="DOCSHELF_SHARD_TEXT_PAGES"):
        local_limits()
