"""Parsers stay bounded on hostile input: zip bombs end as too_large before anything is inflated, deep nesting and
pathological markup still yield their text. Sizes are asserted through memory peaks, never through time."""

from __future__ import annotations

import struct
import tracemalloc
from collections.abc import Callable
from importlib import import_module

import pytest

from docshelf.errors import CorruptDocumentError, DocumentTooLargeError, UnsupportedFormatError
from docshelf.model import Document
from docshelf.parsers import parse_bytes
from docshelf.parsers.base import ParseLimits
from tests.support.hostile_fixtures import (
    BOMB_POSITIONS,
    BOMB_SIZE,
    PROBE_TEXT,
    declare_size,
    nested_html,
    nested_zip_bomb_in,
    package,
    unclosed_emphasis_markdown,
    with_member,
    zip_bomb_in,
)

PARSER_MODULES = {
    "docx": "office.docx",
    "pptx": "office.pptx",
    "xlsx": "sheets.xlsx",
    "odt": "office.odt",
    "ods": "sheets.ods",
    "odp": "office.odp",
    "epub": "markup.epub",
}
# Well under the 64 MiB a bomb inflates to: the bomb was not inflated.
PEAK_BUDGET = 16 * 1024 * 1024
BOMB_CASES = [(fmt, member) for fmt, members in BOMB_POSITIONS.items() for member in members]


def peak_bytes(action: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        action()
    except (DocumentTooLargeError, CorruptDocumentError):
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def document_text(document: Document) -> str:
    return "\n".join(getattr(block, "text", "") for block in document.blocks())


@pytest.mark.parametrize("fmt", sorted(BOMB_POSITIONS))
def test_the_generated_packages_parse(fmt: str) -> None:
    assert PROBE_TEXT in document_text(parse_bytes(package(fmt), f"probe.{fmt}"))


@pytest.mark.parametrize(("fmt", "member"), BOMB_CASES)
def test_a_bomb_in_any_member_is_too_large_before_it_is_inflated(fmt: str, member: str) -> None:
    bomb = zip_bomb_in(fmt, member)
    with pytest.raises(DocumentTooLargeError, match="compression ratio") as raised:
        parse_bytes(bomb, f"bomb.{fmt}")
    assert member in str(raised.value)
    assert peak_bytes(lambda: parse_bytes(bomb, f"bomb.{fmt}")) < PEAK_BUDGET


@pytest.mark.parametrize(("fmt", "member"), BOMB_CASES)
def test_each_zip_parser_checks_the_limits_itself(fmt: str, member: str) -> None:
    parse = import_module(f"docshelf.parsers.{PARSER_MODULES[fmt]}").parse
    with pytest.raises(DocumentTooLargeError, match="zip bomb guard"):
        parse(zip_bomb_in(fmt, member), filename=f"bomb.{fmt}", limits=ParseLimits())


@pytest.mark.parametrize("fmt", sorted(BOMB_POSITIONS))
def test_declared_sizes_are_checked_from_the_central_directory(fmt: str) -> None:
    # The member's data is the valid, small original: only the central directory says it is huge.
    body = BOMB_POSITIONS[fmt][2]
    with pytest.raises(DocumentTooLargeError, match="expands to more than"):
        parse_bytes(declare_size(package(fmt), body, 2**31), f"big.{fmt}")


@pytest.mark.parametrize("fmt", sorted(BOMB_POSITIONS))
def test_the_decompressed_size_limit_holds_at_any_ratio(fmt: str) -> None:
    limits = ParseLimits(max_decompressed_bytes=4 * 1024 * 1024, max_compression_ratio=1e9)
    bomb = zip_bomb_in(fmt, BOMB_POSITIONS[fmt][3], size=8 * 1024 * 1024)
    with pytest.raises(DocumentTooLargeError, match="expands to more than 4194304 bytes"):
        parse_bytes(bomb, f"bomb.{fmt}", limits=limits)


@pytest.mark.parametrize("fmt", sorted(BOMB_POSITIONS))
def test_a_member_lying_about_its_size_is_not_inflated_past_it(fmt: str) -> None:
    body = BOMB_POSITIONS[fmt][2]
    lying = declare_size(zip_bomb_in(fmt, body), body, 1000)
    with pytest.raises(CorruptDocumentError, match=r"CRC|damaged"):
        parse_bytes(lying, f"lying.{fmt}")
    assert peak_bytes(lambda: parse_bytes(lying, f"lying.{fmt}")) < PEAK_BUDGET


@pytest.mark.parametrize("fmt", sorted(BOMB_POSITIONS))
def test_an_embedded_zip_bomb_is_never_opened(fmt: str) -> None:
    nested = nested_zip_bomb_in(fmt)
    assert PROBE_TEXT in document_text(parse_bytes(nested, f"nested.{fmt}"))
    assert peak_bytes(lambda: parse_bytes(nested, f"nested.{fmt}")) < PEAK_BUDGET


def test_a_central_directory_declaring_too_many_members_is_refused_before_it_is_read() -> None:
    data = bytearray(package("odt"))
    end = data.rfind(b"PK\x05\x06")
    struct.pack_into("<HH", data, end + 8, 60_000, 60_000)
    with pytest.raises(DocumentTooLargeError, match="60000 zip members"):
        parse_bytes(bytes(data), "many.odt")


def test_a_bomb_is_too_large_whatever_the_file_is_called() -> None:
    bomb = zip_bomb_in("docx", "mimetype")
    for name in ("bomb.docx", "bomb.bin", "bomb.txt"):
        with pytest.raises(DocumentTooLargeError):
            parse_bytes(bomb, name)
    assert BOMB_SIZE > PEAK_BUDGET


def test_with_member_keeps_the_package_readable() -> None:
    replaced = with_member(package("docx"), "word/media/extra.bin", b"x" * 10)
    assert PROBE_TEXT in document_text(parse_bytes(replaced, "extra.docx"))


@pytest.mark.parametrize(
    ("opener", "closer"),
    [
        ("<div>", "</div>"),
        ("<table><tr><td>", "</td></tr></table>"),
        ("<ul><li>", "</li></ul>"),
        ("<h1>", "</h1>"),
        ("<blockquote>", "</blockquote>"),
        ("<pre><span>", "</span></pre>"),
        ("<b>", "</b>"),
    ],
)
@pytest.mark.parametrize("depth", [250, 100_000])
def test_deeply_nested_html_yields_its_text(opener: str, closer: str, depth: int) -> None:
    document = parse_bytes(nested_html(depth, opener, closer), "deep.html")
    assert PROBE_TEXT in document_text(document)


def test_flattened_html_keeps_the_text_around_the_deep_part() -> None:
    page = (
        f"<html><body><p>before</p>{'<div>' * 5000}<p>deep</p>{PROBE_TEXT}{'</div>' * 5000}<p>after</p></body></html>"
    )
    text = document_text(parse_bytes(page.encode(), "deep.html"))
    assert text.index("before") < text.index("deep") < text.index(PROBE_TEXT) < text.index("after")


@pytest.mark.parametrize("marker", ["*a ", "_a ", "**a ", "~~a ", "[a ", "![a ", "[a](", "<a ", "`a "])
def test_pathological_markdown_yields_its_text(marker: str) -> None:
    text = document_text(parse_bytes((marker * 20_000 + PROBE_TEXT).encode(), "hostile.md"))
    assert PROBE_TEXT in text


def test_unclosed_emphasis_keeps_the_literal_markers() -> None:
    text = document_text(parse_bytes(unclosed_emphasis_markdown(10_000), "stars.md"))
    assert text.startswith("*a *a *a") and text.endswith(PROBE_TEXT)


def test_deeply_nested_xml_yields_its_text_runs() -> None:
    deep = ("<?xml version='1.0'?><r><t>first</t>" + "<a>" * 100_000 + PROBE_TEXT + "</a>" * 100_000 + "</r>").encode()
    document = parse_bytes(deep, "deep.xml")
    assert document_text(document) == f"first\n{PROBE_TEXT}"
    assert "nested too deeply" in document.warnings[0]


def test_deeply_nested_xml_still_refuses_entities_and_malformed_input() -> None:
    entity = b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "x">]><r>' + b"<a>" * 300 + b"&e;" + b"</a>" * 300 + b"</r>"
    with pytest.raises(UnsupportedFormatError):
        parse_bytes(entity, "entity.xml")
    with pytest.raises(CorruptDocumentError):
        parse_bytes(b"<r>" + b"<a>" * 300 + b"text</b>", "broken.xml")


def test_deeply_nested_json_and_rtf_yield_their_text() -> None:
    deep_json = ('{"a": ' * 100_000 + f'"{PROBE_TEXT}"' + "}" * 100_000).encode()
    assert PROBE_TEXT in document_text(parse_bytes(deep_json, "deep.json"))
    deep_rtf = ("{\\rtf1 " + "{" * 100_000 + PROBE_TEXT + "}" * 100_000 + "}").encode()
    assert PROBE_TEXT in document_text(parse_bytes(deep_rtf, "deep.rtf"))


@pytest.mark.parametrize(("fmt", "member"), [("xlsx", "xl/sharedStrings.xml"), ("xlsx", "xl/workbook.xml")])
def test_a_lying_member_read_whole_by_the_library_is_caught_first(fmt: str, member: str) -> None:
    lying = declare_size(with_member(package(fmt), member, bytes(BOMB_SIZE)), member, 1000)
    with pytest.raises(CorruptDocumentError, match="damaged"):
        parse_bytes(lying, f"lying.{fmt}")
    assert peak_bytes(lambda: parse_bytes(lying, f"lying.{fmt}")) < PEAK_BUDGET


def test_huge_table_spans_are_bounded_by_the_table() -> None:
    row = "<tr><td rowspan=65534 colspan=1000>x</td><td>y</td></tr>"
    document = parse_bytes(f"<table>{row * 3}<tr><td>{PROBE_TEXT}</td></tr></table>".encode(), "spans.html")
    tables = [block for block in document.blocks() if block.kind == "table"]
    assert PROBE_TEXT in [cell.text for table in tables for cell in table.cells]
