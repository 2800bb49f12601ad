"""JSON (and JSON Lines) to readable blocks: records become "key: value" paragraphs, element exports keep their text."""

from __future__ import annotations

import json
import re
from typing import Any

from docshelf.errors import CorruptDocumentError
from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup.markdown_blocks import html_fragment_blocks
from docshelf.parsers.textcodec import decode_text

MAX_HEADING_LEVEL = 6
DEEP_WARNING = "JSON nested too deeply for its structure to be kept: its string values are read as paragraphs"
_TITLE_TYPES = {"title", "header", "heading", "section-header", "section_header"}
_LIST_TYPES = {"listitem", "list-item", "list_item"}
_STRING_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"\s*(:)?')


class _TooDeepError(Exception):
    """Nesting past the interpreter's recursion limit: the text is read without the structure."""


def load_json(text: str, filename: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        lines = [line for line in text.splitlines() if line.strip()]
        if filename.lower().endswith((".jsonl", ".ndjson")) or (len(lines) > 1 and exc.msg == "Extra data"):
            try:
                return [json.loads(line) for line in lines]
            except json.JSONDecodeError:
                pass
        raise CorruptDocumentError(f"invalid JSON: {exc}") from exc
    except RecursionError as exc:
        raise _TooDeepError from exc


def deep_json_blocks(text: str) -> list[Block]:
    """The string values of JSON nested too deeply to load, as "key: value" paragraphs, in one linear scan."""
    blocks: list[Block] = []
    key = ""
    for match in _STRING_TOKEN.finditer(text):
        try:
            value = json.loads(f'"{match.group(1)}"')
        except json.JSONDecodeError:
            value = match.group(1)
        if match.group(2):
            key = value
        elif value.strip():
            blocks.append(Paragraph(text=f"{key}: {value}" if key else value, page=1))
            key = ""
    return blocks


def is_element_export(value: Any) -> bool:
    """An array of document elements (unstructured.io and similar): dicts with "type" and "text"."""
    records = [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
    return (
        bool(records) and sum(1 for r in records if isinstance(r.get("text"), str) and "type" in r) > len(records) / 2
    )


def element_blocks(records: list[Any]) -> list[Block]:
    blocks: list[Block] = []
    for record in records:
        if not isinstance(record, dict):
            continue
        kind = str(record.get("type", "")).lower()
        text = "\n".join(" ".join(line.split()) for line in str(record.get("text") or "").splitlines() if line.strip())
        metadata: dict[str, Any] = record["metadata"] if isinstance(record.get("metadata"), dict) else {}
        table_html = metadata.get("text_as_html") if kind == "table" else None
        if isinstance(table_html, str) and "<table" in table_html.lower():
            blocks.extend(html_fragment_blocks(table_html, page=1))
        elif not text:
            continue
        elif kind in _TITLE_TYPES:
            depth = metadata.get("category_depth")
            level = depth + 1 if isinstance(depth, int) and 0 <= depth < MAX_HEADING_LEVEL else 1
            blocks.append(Heading(text=" ".join(text.split()), level=level, page=1))
        else:
            blocks.append(Paragraph(text=text, page=1, list_level=0 if kind in _LIST_TYPES else None))
    return blocks


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


class _Flattener:
    """Objects become headed sections of "key: value" lines; arrays of records one paragraph per record."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []

    def value(self, value: Any, depth: int) -> None:
        if isinstance(value, dict):
            self.object(value, depth)
        elif isinstance(value, list):
            self.array(value, depth)
        elif _scalar(value).strip():
            self.blocks.append(Paragraph(text=_scalar(value), page=1))

    def object(self, obj: dict[str, Any], depth: int) -> None:
        lines = [f"{key}: {self.inline(item)}" for key, item in obj.items() if self.is_inline(item)]
        lines = [line for line in lines if not line.endswith(": ")]
        if lines:
            self.blocks.append(Paragraph(text="\n".join(lines), page=1))
        for key, item in obj.items():
            if not self.is_inline(item) and item:
                self.blocks.append(Heading(text=str(key), level=min(depth + 1, MAX_HEADING_LEVEL), page=1))
                self.value(item, depth + 1)

    def array(self, items: list[Any], depth: int) -> None:
        if all(_is_scalar(item) for item in items):
            text = "\n".join(_scalar(item) for item in items if _scalar(item).strip())
            if text:
                self.blocks.append(Paragraph(text=text, page=1))
            return
        for item in items:
            self.value(item, depth)

    @staticmethod
    def is_inline(value: Any) -> bool:
        return _is_scalar(value) or (isinstance(value, list) and all(_is_scalar(item) for item in value))

    @staticmethod
    def inline(value: Any) -> str:
        if isinstance(value, list):
            return ", ".join(_scalar(item) for item in value if _scalar(item).strip())
        return _scalar(value).strip()


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    text, _ = decode_text(data)
    try:
        value = load_json(text, filename)
    except _TooDeepError:
        return ParsedContent(blocks=deep_json_blocks(text), page_count=1, warnings=[DEEP_WARNING])
    if is_element_export(value):
        return ParsedContent(blocks=element_blocks(value), page_count=1)
    flattener = _Flattener()
    try:
        flattener.value(value, 0)
    except RecursionError:
        return ParsedContent(blocks=deep_json_blocks(text), page_count=1, warnings=[DEEP_WARNING])
    return ParsedContent(blocks=flattener.blocks, page_count=1)
