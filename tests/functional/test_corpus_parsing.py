"""Every corpus document parses, or fails with the error code its MANIFEST tags imply."""

from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.errors import DocumentError
from docshelf.parsers import parse_bytes
from tests.conftest import CORPUS

# Documents whose only problem is a fact of the file itself, not a tag in the manifest.
KNOWN_OUTCOMES = {"xls/testEXCEL_95.xls": "empty"}  # formatting and a picture, no cell values
# Documents with fewer than five words of content (none now: the malformed deck's date placeholder is its text).
FEW_WORDS: dict[str, int] = {}


def manifest_rows() -> list[tuple[str, str]]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    lines = manifest.read_text(encoding="utf-8").splitlines()[1:]
    return [(fields[0], fields[5]) for fields in (line.split("\t") for line in lines if line.strip())]


def expected_outcome(name: str, notes: str) -> str:
    if name in KNOWN_OUTCOMES:
        return KNOWN_OUTCOMES[name]
    if "opens without password" in notes or "noisy OCR text layer" in notes:
        return "ok"
    if notes.startswith("encrypted"):
        return "encrypted"
    if "no text layer" in notes:
        return "ok"  # a scan, read by OCR
    if notes.startswith("broken"):
        return "corrupt"
    return "ok"  # malformed-but-readable files must still give their content


@pytest.mark.corpus
@pytest.mark.parametrize(("name", "notes"), manifest_rows() or [("(corpus absent)", "")])
def test_document_outcome_matches_its_manifest_tags(
    corpus_dir: Path, name: str, notes: str, request: pytest.FixtureRequest
) -> None:
    expected = expected_outcome(name, notes)
    if "no text layer" in notes:
        request.getfixturevalue("ocr_ready")
    try:
        document = parse_bytes((corpus_dir / name).read_bytes(), name)
    except DocumentError as error:
        assert error.code == expected, f"{name}: {error.code} ({error.message}), expected {expected}"
        assert error.message and "Traceback" not in error.message
        return
    assert expected == "ok", f"{name} parsed, expected {expected}"
    words = sum(len(block.text.split()) if block.kind != "table" else len(block.cells) for block in document.blocks())
    size = (corpus_dir / name).stat().st_size
    least = min(FEW_WORDS.get(name, 5), size // 10)
    assert words >= least, f"{name} parsed to almost nothing ({words} words from {size} bytes)"
    assert "None" not in {block.text for block in document.blocks() if block.kind != "table"}
