"""Format registry: detect the format, import its parser lazily, assemble the typed Document."""

from __future__ import annotations

import hashlib
import importlib
import time
from collections import defaultdict
from dataclasses import replace

from docshelf.errors import (
    DocumentError,
    DocumentTooLargeError,
    EmptyDocumentError,
    EncryptedDocumentError,
    ParserFailedError,
    UnsupportedFormatError,
)
from docshelf.model import Block, Document, Page, Source
from docshelf.parsers.base import ParsedContent, ParseLimits, Parser
from docshelf.parsers.deadline import time_budget
from docshelf.parsers.detect import detect_format
from docshelf.parsers.formats import BY_NAME
from docshelf.tables import table_to_markdown
from docshelf.tokens import count_tokens_batch

PARSER_VERSION = "4"

__all__ = ["PARSER_VERSION", "ParseLimits", "load_parser", "parse_bytes", "supported_formats"]


def supported_formats() -> list[str]:
    return sorted(BY_NAME)


def load_parser(fmt: str) -> Parser:
    """Import the format's parser module only now: a process that never parses never loads its libraries."""
    entry = BY_NAME.get(fmt)
    if entry is None:
        raise UnsupportedFormatError(f"no parser for format {fmt!r}")
    try:
        module = importlib.import_module(f"docshelf.parsers.{entry.parser_module}")
    except ModuleNotFoundError as exc:
        raise UnsupportedFormatError(f"the {fmt} parser is not installed ({exc.name})") from exc
    parser: Parser = module.parse
    return parser


def parse_bytes(
    data: bytes,
    filename: str,
    *,
    uri: str = "",
    media_type: str | None = None,
    limits: ParseLimits | None = None,
) -> Document:
    """Parse one file's bytes into a Document, or raise a DocumentError with a readable reason."""
    limits = limits or ParseLimits()
    if len(data) > limits.max_bytes:
        raise DocumentTooLargeError(f"{len(data)} bytes is over the limit of {limits.max_bytes}")
    if not data.strip():
        raise EmptyDocumentError("the file is empty")
    fmt = detect_format(data, filename, media_type, limits=limits)
    if fmt == "ole-encrypted":
        raise EncryptedDocumentError("password-protected Office file (encrypted OLE package)")
    if fmt is None or fmt == "ole":
        kind = "a legacy Office binary file" if fmt == "ole" else "an unrecognised format"
        raise UnsupportedFormatError(f"{filename!r} is {kind}; supported: {', '.join(supported_formats())}")
    parser = load_parser(fmt)
    started = time.monotonic()
    with time_budget(limits.time_budget_s):
        try:
            content = parser(data, filename=filename, limits=limits)
        except DocumentError:
            raise
        except Exception as error:  # a parser defect: this document's status, not the end of the batch
            raise ParserFailedError(f"the {fmt} parser failed: {type(error).__name__}: {error}"[:500]) from error
    if content.page_count > limits.max_pages:
        raise DocumentTooLargeError(f"{content.page_count} pages is over the limit of {limits.max_pages}")
    source = Source(
        uri=uri or filename,
        filename=filename.rsplit("/", 1)[-1],
        media_type=BY_NAME[fmt].media_type,
        size_bytes=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
    )
    document = assemble(content, source, parser=f"{BY_NAME[fmt].parser_module}/{PARSER_VERSION}")
    if not any(has_text(block) for block in document.blocks()):
        raise EmptyDocumentError(f"no text found in {source.filename!r} ({time.monotonic() - started:.1f}s)")
    return document


def has_text(block: Block) -> bool:
    if block.kind == "table":
        return any(cell.text.strip() for cell in block.cells)
    return bool(block.text.strip())


def assemble(content: ParsedContent, source: Source, *, parser: str) -> Document:
    """Group blocks by page, number them in source order and count their tokens."""
    by_page: dict[int, list[Block]] = defaultdict(list)
    counts = count_tokens_batch([block_text(block) for block in content.blocks])
    for order, (block, tokens) in enumerate(zip(content.blocks, counts, strict=True)):
        by_page[block.page].append(replace(block, order=order, tokens=tokens))
    page_count = max([content.page_count, *by_page.keys()])
    pages = tuple(
        Page(number=n, blocks=tuple(by_page.get(n, ())), label=content.page_labels.get(n, ""))
        for n in range(1, page_count + 1)
    )
    return Document(
        source=source,
        title=content.title or _first_heading(content.blocks) or source.filename,
        pages=pages,
        parser=parser,
        warnings=tuple(content.warnings),
        truncation=content.truncation,
    )


def block_text(block: Block) -> str:
    if block.kind == "table":
        return table_to_markdown(block)
    return block.text


def _first_heading(blocks: list[Block]) -> str:
    return next((b.text for b in blocks if b.kind == "heading"), "")
