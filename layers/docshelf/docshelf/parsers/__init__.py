"""Format registry: detect the format, import its parser lazily, assemble the typed Document."""

from __future__ import annotations

import hashlib
import importlib
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from pathlib import PurePosixPath
from typing import TypeVar

from docshelf.errors import (
    DocumentError,
    DocumentTooLargeError,
    EmptyDocumentError,
    EncryptedDocumentError,
    NeedsOcrError,
    ParserFailedError,
    ParseTimeoutError,
    UnsupportedFormatError,
)
from docshelf.model import Block, Document, Page, Source
from docshelf.parsers.base import ParsedContent, ParseLimits, Parser
from docshelf.parsers.deadline import time_budget
from docshelf.parsers.detect import detect_format
from docshelf.parsers.formats import BY_NAME
from docshelf.parsers.unsupported import unsupported_description
from docshelf.tables import block_text
from docshelf.tokens import count_tokens, count_tokens_batch
from docshelf.versions import PARSER_VERSION

T = TypeVar("T")
TEXT_SNIFF_BYTES = 65_536  # a file without an extension is read as text when its start holds no NUL byte

__all__ = ["PARSER_VERSION", "ParseLimits", "load_parser", "parse_bytes", "parse_with_assets", "supported_formats"]


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
    return parse_with_assets(data, filename, uri=uri, media_type=media_type, limits=limits)[0]


def parse_with_assets(
    data: bytes,
    filename: str,
    *,
    uri: str = "",
    media_type: str | None = None,
    limits: ParseLimits | None = None,
    fetched_at: str = "",
) -> tuple[Document, dict[str, bytes]]:
    """`parse_bytes`, and the bytes of the image assets the document's Image blocks name (docshelf.assets)."""
    limits = limits or ParseLimits()
    if len(data) > limits.max_bytes:
        raise DocumentTooLargeError(f"{len(data)} bytes is over the limit of {limits.max_bytes}")
    if not data.strip():
        raise EmptyDocumentError("the file is empty")
    fmt = detect_format(data, filename, media_type, limits=limits)
    if fmt is None and not PurePosixPath(filename).suffix and b"\x00" not in data[:TEXT_SNIFF_BYTES]:
        fmt = "txt"  # `README`, `NOTES`: a name without an extension holding text (the text parser refuses binary)
    if fmt == "ole-encrypted":
        raise EncryptedDocumentError("password-protected Office file (encrypted OLE package)")
    if fmt is None or fmt == "ole":
        raise UnsupportedFormatError(unsupported_description(data, filename, fmt, limits))
    parser = load_parser(fmt)
    started = time.monotonic()
    content = run_parser(fmt, limits, lambda: parser(data, filename=filename, limits=limits))
    source = source_of(data, filename, fmt, uri, fetched_at)
    document = finish_document(content, source, fmt, limits=limits, started=started)
    return with_assets(document, content)


def parse_attached(data: bytes, filename: str, limits: ParseLimits) -> tuple[Document, dict[str, bytes]] | None:
    """A file inside another (an e-mail's attachment), read under the enclosing document's time budget (a budget of
    its own would end the enclosing one's); None when it cannot be read, which only the enclosing document notes."""
    read = read_attached(data, filename, limits)
    return None if isinstance(read, DocumentError) else read


def read_attached(data: bytes, filename: str, limits: ParseLimits) -> tuple[Document, dict[str, bytes]] | DocumentError:
    """`parse_attached`, or why the file cannot be read: the error its own reading would end with (a parser defect
    as ParserFailedError), for an enclosing document that names it."""
    if len(data) > limits.max_bytes:
        return DocumentTooLargeError(f"{len(data)} bytes is over the limit of {limits.max_bytes}")
    if not data.strip():
        return EmptyDocumentError("the file is empty")
    try:
        fmt = detect_format(data, filename, limits=limits)
        if fmt == "ole-encrypted":
            return EncryptedDocumentError("password-protected Office file (encrypted OLE package)")
        if fmt is None or fmt == "ole":
            return UnsupportedFormatError(unsupported_description(data, filename, fmt, limits))
        content = load_parser(fmt)(data, filename=filename, limits=limits)
        return with_assets(finish_document(content, source_of(data, filename, fmt), fmt, limits=limits), content)
    except ParseTimeoutError:  # the enclosing document's budget ran out
        raise
    except DocumentError as exc:
        return exc
    except MemoryError:
        return DocumentTooLargeError("out of memory reading it")
    except Exception as exc:  # a parser defect on the attachment: the enclosing document is read without it
        return ParserFailedError(f"{type(exc).__name__}: {exc}")


def with_assets(document: Document, content: ParsedContent) -> tuple[Document, dict[str, bytes]]:
    """The document, its Image blocks holding the text OCR reads from their pictures (when OCR can run here), and
    the bytes of the assets they name."""
    from docshelf.ocr.images import image_texts
    from docshelf.ocr.settings import ocr_settings, unavailable_reason

    referenced = {block.asset_ref for block in document.blocks() if block.kind == "image"}
    assets = {ref: body for ref, body in content.assets.items() if ref in referenced}
    settings = ocr_settings()
    texts = image_texts(assets, settings)
    if texts:
        pages = tuple(
            replace(page, blocks=tuple(_with_text(block, texts) for block in page.blocks)) for page in document.pages
        )
        document = replace(document, pages=pages)
    if not any(has_text(block) for block in document.blocks()):
        _raise_pictures_only(document.source.filename, unavailable_reason(settings))
    return document, assets


def _raise_pictures_only(filename: str, ocr_unavailable: str | None) -> None:
    """A document whose only content is pictures that hold no text OCR could read (finish_document lets it through
    to be read): needs_ocr when OCR cannot run here, empty when it ran."""
    if ocr_unavailable is not None:
        raise NeedsOcrError(f"{filename!r} holds only pictures, and OCR cannot read them here: {ocr_unavailable}")
    raise EmptyDocumentError(f"no text found in {filename!r}, in its text or its pictures")


def _with_text(block: Block, texts: dict[str, str]) -> Block:
    if block.kind != "image" or block.asset_ref not in texts:
        return block
    read = replace(block, ocr_text=texts[block.asset_ref])
    return replace(read, tokens=count_tokens(read.text))


def run_parser(fmt: str, limits: ParseLimits, call: Callable[[], T]) -> T:
    """A parser's work under the document's time budget; a parser defect becomes this document's status."""
    with time_budget(limits.time_budget_s):
        try:
            return call()
        except DocumentError:
            raise
        except MemoryError:
            raise DocumentTooLargeError(f"the {fmt} parser ran out of memory") from None
        except Exception as error:  # a parser defect: this document's status, not the end of the batch
            raise ParserFailedError(f"the {fmt} parser failed: {type(error).__name__}: {error}"[:500]) from error


def source_of(data: bytes, filename: str, fmt: str, uri: str = "", fetched_at: str = "") -> Source:
    return Source(
        uri=uri or filename,
        filename=filename.rsplit("/", 1)[-1],
        media_type=BY_NAME[fmt].media_type,
        size_bytes=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        fetched_at=fetched_at,
    )


def finish_document(
    content: ParsedContent, source: Source, fmt: str, *, limits: ParseLimits, started: float | None = None
) -> Document:
    """The typed Document of a parser's content, or the DocumentError that is its status."""
    if content.page_count > limits.max_pages:
        raise DocumentTooLargeError(f"{content.page_count} pages is over the limit of {limits.max_pages}")
    document = assemble(content, source, parser=f"{BY_NAME[fmt].parser_name}/{PARSER_VERSION}")
    blocks = document.blocks()
    if not any(has_text(block) or block.kind == "image" for block in blocks):
        took = f" ({time.monotonic() - started:.1f}s)" if started is not None else ""
        raise EmptyDocumentError(f"no text found in {source.filename!r}{took}")
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


def _first_heading(blocks: list[Block]) -> str:
    return next((b.text for b in blocks if b.kind == "heading"), "")
