"""Word 97-2003 `.doc` files: `unword` (Rust, headings and page breaks as Markdown), `legacy-doc` (pure Python,
plain paragraphs) when unword cannot open the file.

unword renders headings from the Word styles as `#` lines and page breaks as `---` lines: each page's Markdown
goes through the Markdown block parser, so headings become Heading blocks and pages stay pages. legacy-doc gives
paragraphs only; it also reads compound files whose layout unword's strict OLE reader refuses.
"""

from __future__ import annotations

import struct

from docshelf.errors import CorruptDocumentError, EncryptedDocumentError
from docshelf.model import Block, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markdown_blocks import markdown_blocks

PAGE_BREAK = "---"
FIB_ENCRYPTED = 0x0100


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    _refuse_encrypted(data)
    try:
        pages = _unword_pages(data)
        warnings: list[str] = []
    except (KeyboardInterrupt, SystemExit, MemoryError):
        raise
    except BaseException as unword_error:  # Rust: bad input may panic, and pyo3's PanicException is a BaseException
        pages = [_legacy_doc_text(data, filename)]
        warnings = [f"read without headings or pages (unword: {type(unword_error).__name__}: {unword_error})"]
    blocks: list[Block] = []
    for number, text in enumerate(pages, start=1):
        blocks.extend(_page_blocks(text, number))
    return ParsedContent(blocks=blocks, page_count=max(1, len(pages)), warnings=warnings)


def _refuse_encrypted(data: bytes) -> None:
    """unword would read an encrypted file's ciphertext as text: check the FIB's fEncrypted flag first."""
    from legacy_doc import LegacyDocError
    from legacy_doc.ole import OleReader
    from legacy_doc.types import ExtractionOptions

    try:
        fib = OleReader(data, options=ExtractionOptions()).read_stream("WordDocument")[:12]
    except (LegacyDocError, ValueError, IndexError, KeyError, OSError, struct.error) as exc:
        raise CorruptDocumentError(f"not a readable Word compound file: {exc}") from exc
    if len(fib) < 12:
        raise CorruptDocumentError("the WordDocument stream is too short for a Word file header")
    if int.from_bytes(fib[10:12], "little") & FIB_ENCRYPTED:
        raise EncryptedDocumentError("password-protected Word document")


def _unword_pages(data: bytes) -> list[str]:
    import unword

    body: str = unword.parse_doc(data).body_text
    pages: list[list[str]] = [[]]
    for line in body.replace("\r\n", "\n").split("\n"):
        if line.strip() == PAGE_BREAK:
            pages.append([])
        else:
            pages[-1].append(line)
    texts = ["\n".join(lines) for lines in pages]
    while len(texts) > 1 and not texts[-1].strip():
        texts.pop()
    return texts


def _legacy_doc_text(data: bytes, filename: str) -> str:
    from legacy_doc import LegacyDocError, extract_text

    try:
        text: str = extract_text(data).text
        return text
    except LegacyDocError as exc:
        if "encrypted" in str(exc).lower():
            raise EncryptedDocumentError("password-protected Word document") from exc
        raise CorruptDocumentError(f"Word document {filename!r} could not be read: {exc}") from exc
    except (ValueError, IndexError, KeyError, OSError, struct.error) as exc:
        raise CorruptDocumentError(f"Word document {filename!r} could not be read: {exc}") from exc


def _page_blocks(text: str, page: int) -> list[Block]:
    if any(line.startswith("#") for line in text.split("\n")):
        return markdown_blocks(text, page=page)
    # Plain text (legacy-doc, or unword without heading styles): one paragraph a line, no Markdown reading of
    # characters that merely look like markup.
    return [Paragraph(text=" ".join(line.split()), page=page) for line in text.split("\n") if line.strip()]
