from __future__ import annotations

import json
from pathlib import Path

import pytest

from docshelf.errors import CorruptDocumentError
from docshelf.model import Heading, Paragraph, Table
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.markup.json import parse
from tests.unit.parsers import markup_measures as measures
from tests.unit.parsers.corpus_helpers import parse_corpus_file


def blocks_of(value: object, filename: str = "t.json") -> list[object]:
    return list(parse(json.dumps(value).encode(), filename=filename, limits=ParseLimits()).blocks)


def test_objects_become_sections_and_records_paragraphs() -> None:
    blocks = blocks_of({"name": "x", "tags": ["a", "b"], "items": [{"id": 1, "ok": True}, {"id": 2, "n": None}]})
    assert blocks == [
        Paragraph(text="name: x\ntags: a, b", page=1),
        Heading(text="items", level=1, page=1),
        Paragraph(text="id: 1\nok: true", page=1),
        Paragraph(text="id: 2", page=1),
    ]


def test_element_exports_keep_their_text_and_kinds() -> None:
    records = [
        {"type": "Title", "text": "Weather", "metadata": {"category_depth": 0}},
        {"type": "NarrativeText", "text": "Spring   is\nhere", "element_id": "abc"},
        {"type": "ListItem", "text": "Bring a coat"},
        {"type": "Table", "text": "a b", "metadata": {"text_as_html": "<table><tr><td>a</td><td>b</td></tr></table>"}},
    ]
    blocks = blocks_of(records)
    assert blocks[:3] == [
        Heading(text="Weather", level=1, page=1),
        Paragraph(text="Spring is\nhere", page=1),
        Paragraph(text="Bring a coat", page=1, list_level=0),
    ]
    assert isinstance(blocks[3], Table) and [cell.text for cell in blocks[3].cells] == ["a", "b"]


def test_json_lines_and_invalid_json() -> None:
    data = b'{"a": "one"}\n{"a": "two"}\n'
    assert parse(data, filename="t.jsonl", limits=ParseLimits()).blocks == [
        Paragraph(text="a: one", page=1),
        Paragraph(text="a: two", page=1),
    ]
    with pytest.raises(CorruptDocumentError):
        parse(b'{"a": ', filename="t.json", limits=ParseLimits())


def test_deep_nesting_yields_its_string_values_not_a_crash() -> None:
    deep = b'{"outer": ' * 100_000 + b'{"name": "deep \\"value\\"", "n": 1, "list": ["a", "b"]}' + b"}" * 100_000
    content = parse(deep, filename="t.json", limits=ParseLimits())
    assert content.blocks == [
        Paragraph(text='name: deep "value"', page=1),
        Paragraph(text="list: a", page=1),
        Paragraph(text="b", page=1),
    ]
    assert content.warnings and "nested too deeply" in content.warnings[0]
    assert parse(b"[" * 100_000 + b"]" * 100_000, filename="t.json", limits=ParseLimits()).blocks == []


@pytest.mark.corpus
def test_corpus_element_export(corpus_dir: Path) -> None:
    document = parse_corpus_file(corpus_dir, "json/spring-weather.html.json")
    text = measures.document_text(document)
    assert "News Around NOAA" in text and "element_id" not in text
    records = json.loads((corpus_dir / "json/spring-weather.html.json").read_text(encoding="utf-8"))
    wanted = " ".join(record["text"] for record in records)
    assert measures.text_recall(wanted, text) == 1.0
