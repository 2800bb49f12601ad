"""Word 97-2003 `.doc` files: `unword` (Rust; headings from the built-in heading styles, page breaks), and
`legacy-doc` (pure Python; paragraphs only) when unword refuses or fails on a file.

Neither gives tables as tables: a Word table's cells come out as the text of their paragraphs.
"""

from __future__ import annotations

import re
import struct

from docshelf.errors import CorruptDocumentError, EncryptedDocumentError
from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits

PAGE_BREAK = "---"
_HEADING = re.compile(r"^(#{1,9}) (\S.*)$")
FIB_ENCRYPTED = 0x0100


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    _refuse_encrypted(data)
    try:
        pages = _unword_pages(data)
        warnings: list[str] = []
    except (KeyboardInterrupt, SystemExit, MemoryError):
        raise
    except BaseException as unword_error:  # Rust: bad input may panic, and pyo3's PanicException is a BaseException
        pages = [_legacy_doc_blocks(_legacy_doc_text(data, filename))]
        warnings = [f"read without headings or pages (unword: {type(unword_error).__name__}: {unword_error})"]
    blocks = [block for page in pages for block in page]
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


def _unword_pages(data: bytes) -> list[list[Block]]:
    import unword

    body: str = unword.parse_doc(data).body_text
    return unword_pages(body)


def unword_pages(body: str) -> list[list[Block]]:
    """unword's output as pages of blocks. It writes one paragraph a block (blank-line separated), a heading
    style's paragraph as `#`-prefixed, a page break as `---`, and does not escape anything else: so its output
    is read by those three rules only, never as Markdown (a paragraph holding `*` or `|` stays text)."""
    pages: list[list[Block]] = [[]]
    for raw in body.replace("\r\n", "\n").split("\n\n"):
        text = " ".join(raw.split())
        if text == PAGE_BREAK:
            pages.append([])
            continue
        heading = _HEADING.match(text)
        page = len(pages)
        if heading:
            pages[-1].append(Heading(text=heading.group(2), level=len(heading.group(1)), page=page))
        elif text:
            pages[-1].append(Paragraph(text=text, page=page))
    while len(pages) > 1 and not pages[-1]:
        pages.pop()
    return pages


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


def _legacy_doc_blocks(text: str) -> list[Block]:
    """legacy-doc's text: one paragraph a line, on one page (it reports neither headings nor page breaks)."""
    return [Paragraph(text=" ".join(line.split()), page=1) for line in text.split("\n") if line.strip()]
