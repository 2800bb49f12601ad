from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from docshelf.model import (
    Chunk,
    Document,
    Heading,
    Image,
    Link,
    Page,
    Paragraph,
    Source,
    Table,
    TableCell,
)
from docshelf.serde import (
    SchemaVersionError,
    chunk_from_dict,
    chunk_to_dict,
    chunks_from_dict,
    chunks_json,
    document_from_dict,
    document_json,
    document_to_dict,
    dumps,
    loads,
)
from docshelf.versions import SCHEMA_VERSION


def sample_document() -> Document:
    table = Table(
        cells=(TableCell(0, 0, "Part", colspan=2), TableCell(1, 0, "TX-100"), TableCell(1, 1, "189")),
        n_rows=2,
        n_cols=2,
        page=2,
        header_rows=1,
        order=2,
        tokens=9,
    )
    return Document(
        source=Source(
            uri="s3://b/ns/a.pdf", filename="a.pdf", media_type="application/pdf", size_bytes=10, sha256="ab"
        ),
        title="A",
        pages=(
            Page(1, (Heading("Intro", 1, 1, order=0, tokens=1), Paragraph("Body", 1, order=1, tokens=1, list_level=0))),
            Page(2, (table, Image(2, alt_text="diagram", asset_ref="img-1", width=10, height=5, order=3)), label="p2"),
        ),
        parser="pdf/1",
        warnings=("w",),
    )


def test_document_round_trips_through_json() -> None:
    document = sample_document()
    data = json.loads(dumps(document_to_dict(document)))
    assert data["schema_version"] == SCHEMA_VERSION
    assert document_from_dict(data) == document


def test_ocr_blocks_keep_their_mark_and_confidence_and_blocks_written_before_ocr_read_as_text_layer() -> None:
    scanned = Paragraph("Scanned words", 3, order=4, tokens=2, ocr=True, confidence=0.913)
    document = dataclasses.replace(sample_document(), pages=(Page(3, (scanned,)),))
    assert document_from_dict(loads(document_json(document))).pages[0].blocks == (scanned,)
    old = json.loads(dumps(document_to_dict(sample_document())))
    for page in old["pages"]:
        for block in page["blocks"]:
            block.pop("ocr", None), block.pop("confidence", None)  # an `_ori` cache of parser version 3
    blocks = document_from_dict(old).blocks()
    assert blocks == sample_document().blocks()
    assert all(not getattr(block, "ocr", False) and getattr(block, "confidence", None) is None for block in blocks)


def test_a_cut_document_keeps_its_truncation_and_a_whole_one_has_no_such_key() -> None:
    whole = sample_document()
    assert "truncation" not in document_to_dict(whole)
    cut = dataclasses.replace(whole, truncation="kept rows 1-4 of 10: over the 9-cell limit")
    assert document_from_dict(loads(dumps(document_to_dict(cut)))) == cut


def test_the_json_written_from_the_dataclasses_is_the_json_of_their_dicts() -> None:
    """document_json and chunks_json skip `asdict`'s copy of everything; their bytes must not change."""
    for document in (sample_document(), dataclasses.replace(sample_document(), truncation="kept rows 1-4 of 10")):
        assert document_json(document) == dumps(document_to_dict(document))
    chunk = Chunk(
        chunk_id="c1", document_id="d1", namespace="ns", type="table", text="| a |", section_path=("A", "B"),
        pages=(2, 3), token_count=3, ordinal=0, source_file_name="a.pdf", revision="ab", overlap_chars=1,
        connect_to=(Link(target="table", relation="part_of", ref="table-2", position=0),), citation_tokens=2,
    )  # fmt: skip
    expected = {"schema_version": SCHEMA_VERSION, "document_id": "d1", "chunks": [chunk_to_dict(chunk)] * 2}
    assert chunks_json([chunk, chunk], document_id="d1") == dumps(expected)


def test_chunks_round_trip_through_json() -> None:
    chunk = Chunk(
        chunk_id="c1", document_id="d1", namespace="ns", type="table", text="| a |", section_path=("A", "B"),
        pages=(2, 3), token_count=3, ordinal=0, source_file_name="a.pdf", revision="ab",
        connect_to=(Link(target="table", relation="part_of", ref="table-2", position=0),),
    )  # fmt: skip
    data = loads(chunks_json([chunk]))
    assert data["schema_version"] == SCHEMA_VERSION
    assert chunks_from_dict(data) == [chunk]


def test_every_chunk_field_survives_the_round_trip() -> None:
    """chunk_from_dict names the fields one by one: a field added to Chunk must be added there too."""
    defaults = {field.name: field.default for field in dataclasses.fields(Chunk)}
    chunk = Chunk(
        chunk_id="c1", document_id="d1", namespace="ns", type="text", text="t", section_path=("A",), pages=(1,),
        token_count=1, ordinal=2, source_file_name="a.md", source_key="docs/a.md", revision="r", overlap_chars=3,
        citation_tokens=4,
        connect_to=(Link(target="image", relation="part_of", ref="img-1", position=1),),
    )  # fmt: skip
    unset = [name for name, default in defaults.items() if getattr(chunk, name) == default]
    assert not unset, f"give {unset} a value other than the default here"
    assert chunks_from_dict(loads(chunks_json([chunk]))) == [chunk]


def test_a_chunk_written_without_its_optional_fields_takes_the_model_defaults() -> None:
    """A stored chunk without its optional fields loads with Chunk's own defaults."""
    required: dict[str, Any] = {
        "chunk_id": "c1", "document_id": "d1", "namespace": "ns", "type": "text", "text": "t",
        "section_path": ["A"], "pages": [1], "token_count": 1, "ordinal": 0, "source_file_name": "a.md",
    }  # fmt: skip
    assert chunk_from_dict(required) == Chunk(**{**required, "section_path": ("A",), "pages": (1,)})


def test_unknown_major_schema_version_is_refused() -> None:
    data = document_to_dict(sample_document())
    data["schema_version"] = "9.0"
    with pytest.raises(SchemaVersionError):
        document_from_dict(data)


def test_model_is_frozen() -> None:
    heading = Heading("Intro", 1, 1)
    with pytest.raises(AttributeError):
        heading.text = "changed"  # type: ignore[misc]


def test_dumps_writes_the_bytes_of_compact_utf8_json() -> None:
    # The bytes json.dumps writes for compact UTF-8 JSON, so stored objects stay plain JSON any reader parses;
    # orjson writes only exponents shorter (1e-7, not 1e-07).
    data: dict[str, object] = {
        "document": document_to_dict(sample_document()),
        "text": '阀门 TX-100 „Straße“ 😀 \u2028 tab\t quote" back\\slash \x01',
        "numbers": [0, -7, 2**53, 0.1, 1e22, 3.5, -0.0, 1.2345678901234568e17],
        "nested": {"empty": {}, "list": [], "none": None, "flags": [True, False]},
        "page_labels": {3: "iii"},
    }
    assert dumps(data) == json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    assert loads(dumps(data))["page_labels"] == {"3": "iii"}
    assert dumps({"small": 1e-07}) == b'{"small":1e-7}' and loads(dumps({"small": 1e-07})) == {"small": 1e-07}
