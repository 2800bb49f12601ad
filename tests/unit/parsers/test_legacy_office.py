"""Word 97-2003 (.doc) and PowerPoint 97-2003 (.ppt) files, detected from their compound file's streams."""

from __future__ import annotations

import random

import pytest

from docshelf.errors import CorruptDocumentError, DocumentError, EncryptedDocumentError, UnsupportedFormatError
from docshelf.parsers import parse_bytes
from docshelf.parsers.detect import detect_format
from docshelf.parsers.doc import unword_pages
from tests.unit.parsers.ole_fixtures import compound_file, word97_document

PARAGRAPHS = ["Pump maintenance manual", "Replace the seal every 500 hours of operation.", "Check the valve weekly."]


def test_a_word97_file_is_detected_by_its_streams_whatever_its_name() -> None:
    data = word97_document(PARAGRAPHS)
    assert detect_format(data, "upload.bin") == "doc"
    assert detect_format(data, "report.xls") == "doc"


def test_a_word97_file_gives_its_headings_pages_and_paragraphs_through_unword() -> None:
    paragraphs = ["Pump manual", "Replace the seal every 500 hours.", "\x0c", "Valves", "Check the valve weekly."]
    document = parse_bytes(word97_document(paragraphs, headings={0: 1, 3: 2}), "manual.doc")
    found = [
        (block.kind, getattr(block, "level", 0), getattr(block, "text", ""), block.page) for block in document.blocks()
    ]
    assert found == [
        ("heading", 1, "Pump manual", 1),
        ("paragraph", 0, "Replace the seal every 500 hours.", 1),
        ("heading", 2, "Valves", 2),
        ("paragraph", 0, "Check the valve weekly.", 2),
    ]
    assert len(document.pages) == 2 and document.warnings == ()
    assert document.title == "Pump manual"


def test_unword_output_is_read_by_its_own_three_rules_not_as_markdown() -> None:
    pages = unword_pages("# Title\n\na * b | c\n\n1. kept as text\n\n---\n\n### Deep\n\n")
    assert [[(type(block).__name__, getattr(block, "text", "")) for block in page] for page in pages] == [
        [("Heading", "Title"), ("Paragraph", "a * b | c"), ("Paragraph", "1. kept as text")],
        [("Heading", "Deep")],
    ]


def test_a_word97_file_unword_refuses_is_read_by_legacy_doc() -> None:
    document = parse_bytes(word97_document(PARAGRAPHS), "manual.doc")  # no stylesheet: unword refuses it
    texts = [block.text for block in document.blocks() if block.kind == "paragraph"]
    assert texts == PARAGRAPHS
    assert document.source.media_type == "application/msword"
    assert all(block.kind == "paragraph" and block.page == 1 for block in document.blocks())
    assert any("unword" in warning for warning in document.warnings)


def test_a_word_file_that_makes_unword_panic_is_read_by_legacy_doc() -> None:
    # unword (Rust) panics on this file; pyo3 raises that as a BaseException, which must not escape the parser.
    document = parse_bytes(word97_document(PARAGRAPHS, stylesheet=True), "styled.doc")
    assert [block.text for block in document.blocks() if block.kind == "paragraph"] == PARAGRAPHS
    assert any("PanicException" in warning for warning in document.warnings)


def test_an_encrypted_word97_file_is_encrypted_not_garbage() -> None:
    with pytest.raises(EncryptedDocumentError):
        parse_bytes(word97_document(PARAGRAPHS, encrypted=True), "locked.doc")


def test_a_word_stream_without_a_file_header_is_corrupt() -> None:
    data = compound_file({"WordDocument": b"\x00" * 8, "1Table": b""})
    with pytest.raises(CorruptDocumentError) as caught:
        parse_bytes(data, "broken.doc")
    assert "Traceback" not in caught.value.message


def test_a_powerpoint_file_is_detected_by_its_streams() -> None:
    data = compound_file({"Current User": b"\x00" * 32, "PowerPoint Document": b"\x00" * 64})
    assert detect_format(data, "deck.bin") == "ppt"


def test_a_powerpoint_97_file_without_records_is_corrupt_with_a_reason() -> None:
    current_user = b"\x00\x00\xf6\x0f\x14\x00\x00\x00" + b"\x00" * 24  # a CurrentUserAtom header, nothing else
    data = compound_file({"Current User": current_user, "PowerPoint Document": b"\x00" * 64})
    with pytest.raises(CorruptDocumentError, match=r"PowerPoint file 'deck\.ppt' could not be read: .*missing"):
        parse_bytes(data, "deck.ppt")


def test_a_powerpoint_95_file_is_unsupported_by_name() -> None:
    # A Current User stream without PowerPoint 97's CurrentUserAtom (record type 0x0FF6).
    data = compound_file({"Current User": b"\x00" * 32, "PowerPoint Document": b"\x00" * 64})
    with pytest.raises(UnsupportedFormatError, match="PowerPoint 95 and earlier"):
        parse_bytes(data, "old.ppt")


def test_only_the_root_streams_decide_not_names_inside_the_bytes() -> None:
    # A workbook whose bytes hold another format's stream name (as an embedded object's directory would).
    workbook = compound_file({"Workbook": b"\x09\x08" + "WordDocument PowerPoint Document".encode("utf-16-le")})
    assert detect_format(workbook, "sheet.bin") == "xls"
    word = compound_file({"WordDocument": b"\x00" * 16, "1Table": "Workbook".encode("utf-16-le")})
    assert detect_format(word, "memo.bin") == "doc"


def test_an_unreadable_directory_falls_back_to_the_names_in_the_bytes() -> None:
    broken = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\xff" * 40 + "WordDocument".encode("utf-16-le")
    assert detect_format(broken, "old.doc") == "doc"


def test_damaged_word_files_end_as_a_status_never_an_escaping_error() -> None:
    rng = random.Random(7)
    bases = [word97_document(PARAGRAPHS, headings={0: 1}), word97_document(PARAGRAPHS, stylesheet=True)]
    codes: set[str] = set()
    for _ in range(150):
        data = bytearray(rng.choice(bases))
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            parse_bytes(bytes(data), "damaged.doc")
            codes.add("ok")
        except DocumentError as error:  # anything else (a Rust panic included) fails the test
            assert error.message and "Traceback" not in error.message
            codes.add(error.code)
    assert "ok" in codes and "corrupt" in codes
