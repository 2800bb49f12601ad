"""Corpus documents whose manifest notes images (or figures) yield assets: named by the sha256 of their bytes,
readable images within the size cap, each named by an Image block."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from PIL import Image

from docshelf.assets.prepare import MAX_SIDE
from docshelf.parsers import parse_with_assets


def _noted_images(corpus: Path) -> list[str]:
    rows = [line.split("\t") for line in (corpus / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    formats = (".pdf", ".docx", ".pptx", ".odt", ".epub", ".html")
    return [
        row[0]
        for row in rows
        if any(word in row[5] for word in ("image", "figure")) and "no text layer" not in row[5]
        and row[0].endswith(formats)
    ]  # fmt: skip


def test_corpus_documents_with_images_yield_assets(corpus_dir: Path) -> None:
    names = _noted_images(corpus_dir)
    assert {"docx/word_sample.docx", "pdf/amt_handbook_sample.pdf"} <= set(names)
    for name in names:
        document, assets = parse_with_assets((corpus_dir / name).read_bytes(), name)
        named = {block.asset_ref for block in document.blocks() if block.kind == "image"}
        assert assets, name
        assert set(assets) <= named, name
        for ref, data in assets.items():
            assert ref.split(".")[0] == hashlib.sha256(data).hexdigest()
            with Image.open(io.BytesIO(data)) as image:
                assert max(image.size) <= MAX_SIDE
                assert image.format == {"png": "PNG", "jpg": "JPEG"}[ref.split(".")[1]]


@pytest.mark.parametrize("name", ["docx/handbook-872p.docx", "epub/winter-sports.epub", "pdf/redp5110_sampled.pdf"])
def test_other_corpus_documents_with_pictures(corpus_dir: Path, name: str) -> None:
    _, assets = parse_with_assets((corpus_dir / name).read_bytes(), name)
    assert assets
