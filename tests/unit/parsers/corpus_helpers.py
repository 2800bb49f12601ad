"""Shared helpers for the markup-format corpus tests."""

from __future__ import annotations

import csv
from pathlib import Path

from docshelf.model import Document
from docshelf.parsers import parse_bytes


def corpus_files(corpus_dir: Path, fmt: str) -> list[str]:
    with (corpus_dir / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        return [row["file"] for row in csv.DictReader(handle, delimiter="\t") if row["format"] == fmt]


def parse_corpus_file(corpus_dir: Path, relative: str) -> Document:
    return parse_bytes((corpus_dir / relative).read_bytes(), relative)
