"""Word `.doc` files: the main text read from the file itself (parsers/office/doc_text.py: paragraphs, tables from their
cell marks, page breaks; in Word 97 files, the footnotes, endnotes and text boxes it cites), with headings where
`unword` (Rust) finds the built-in heading styles. Word 6.0/95 files are read without headings; a Word 97 file
whose piece table cannot be read is unword's alone, or `legacy-doc`'s (pure Python; paragraphs only) when unword
refuses or fails on it. Files older than Word 6.0 are unsupported.
"""

from __future__ import annotations

import re
import struct

from docshelf.assets.collect import AssetCollector
from docshelf.errors import CorruptDocumentError, EncryptedDocumentError
from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.office.doc_equations import placed_equations
from docshelf.parsers.office.doc_text import WORD97, WordText, main_text, word_pages, word_version
from docshelf.parsers.office.mtef import EQUATION_STREAM, MAX_EQUATION_BYTES

PAGE_BREAK = "---"
_HEADING = re.compile(r"^(#{1,9}) (\S.*)$")
FIB_ENCRYPTED = 0x0100
MAX_EQUATIONS = 10_000


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    word = _word_text(data)
    collector = AssetCollector()
    if word.version != WORD97:  # Word 6.0/95: neither unword nor legacy-doc reads it; its styles are not read
        pages = word_pages(word, [])
        warnings = [f"{word.version} document: read without headings"]
    else:
        pages, warnings = _word97_pages(data, word if word.text else None, collector)
    blocks = placed_equations([block for page in pages for block in page], word.equations)
    return ParsedContent(blocks=blocks, page_count=max(1, len(pages)), warnings=warnings, assets=collector.assets)


def _word97_pages(data: bytes, word: WordText | None, collector: AssetCollector) -> tuple[list[list[Block]], list[str]]:
    """The text with its tables (cell marks) and page breaks, headings where unword finds heading styles. A file
    whose piece table this reader cannot read (`word` None) is unword's or legacy-doc's, without tables."""
    try:
        unword = _unword_pages(data)
    except (KeyboardInterrupt, SystemExit, MemoryError):
        raise
    except BaseException as unword_error:  # Rust: bad input may panic, and pyo3's PanicException is a BaseException
        if word is not None:
            pages = word_pages(word, [], collector)
            return pages, [f"read without headings (unword: {_named(unword_error)})"]
        pages = [_legacy_doc_blocks(_legacy_doc_text(data))]
        return pages, [f"read without headings or pages (unword: {_named(unword_error)})"]
    if word is None:
        return unword, []
    headings = [(block.text, block.level) for page in unword for block in page if isinstance(block, Heading)]
    return word_pages(word, headings, collector), []


def _named(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _word_text(data: bytes) -> WordText:
    """The main text as the file stores it, the encryption flag checked first. A Word 97 file whose piece table
    this reader cannot follow gives a WordText without text (unword and legacy-doc read it then)."""
    from legacy_doc import LegacyDocError
    from legacy_doc.ole import OleReader
    from legacy_doc.types import ExtractionOptions

    try:
        ole = OleReader(data, options=ExtractionOptions())
        stream = ole.read_stream("WordDocument")
        tables = {name: ole.read_stream(name) for name in ("0Table", "1Table", "Data") if ole.has_stream(name)}
    except (LegacyDocError, ValueError, IndexError, KeyError, OSError, struct.error) as exc:
        raise CorruptDocumentError(f"not a readable Word compound file: {exc}") from exc
    if ole.has_stream(EQUATION_STREAM):
        tables |= _equation_streams(data)
    if len(stream) < 12:
        raise CorruptDocumentError("the WordDocument stream is too short for a Word file header")
    if int.from_bytes(stream[10:12], "little") & FIB_ENCRYPTED:
        raise EncryptedDocumentError("password-protected Word document")
    try:
        return main_text(stream, tables)
    except CorruptDocumentError:
        if word_version(stream)[1] != WORD97:
            raise
        return WordText(WORD97, "")


def _equation_streams(data: bytes) -> dict[str, bytes]:
    """The `Equation Native` streams of the file's embedded objects, by path (`ObjectPool/_12/Equation Native`);
    none when the compound file's directory cannot be followed by path."""
    import olefile

    found: dict[str, bytes] = {}
    try:
        with olefile.OleFileIO(data) as ole:
            for entry in ole.listdir(streams=True, storages=False):
                wanted = len(entry) == 3 and entry[0] == "ObjectPool" and entry[2] == EQUATION_STREAM
                if wanted and ole.get_size(entry) <= MAX_EQUATION_BYTES and len(found) < MAX_EQUATIONS:
                    found["/".join(entry)] = ole.openstream(entry).read()
    except Exception:  # olefile raises anything from OSError to IndexError on a damaged directory
        return {}
    return found


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


def _legacy_doc_text(data: bytes) -> str:
    from legacy_doc import LegacyDocError, extract_text

    try:
        text: str = extract_text(data).text
        return text
    except LegacyDocError as exc:
        if "encrypted" in str(exc).lower():
            raise EncryptedDocumentError("password-protected Word document") from exc
        raise CorruptDocumentError(f"the Word document could not be read: {exc}") from exc
    except (ValueError, IndexError, KeyError, OSError, struct.error) as exc:
        raise CorruptDocumentError(f"the Word document could not be read: {exc}") from exc


def _legacy_doc_blocks(text: str) -> list[Block]:
    """legacy-doc's text: one paragraph a line, on one page (it reports neither headings nor page breaks)."""
    return [Paragraph(text=" ".join(line.split()), page=1) for line in text.split("\n") if line.strip()]
