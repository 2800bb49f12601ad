"""The citation of a chunk, as evidence headers and the CLI print it: source key | section path | pages | ids.

The source key is the document's path inside its namespace (`groundtruth/MANIFEST.tsv`), the name `status` shows
and filters take, so two files of one name in different folders are never cited alike."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import PurePosixPath

from docshelf.model import Chunk

# Formats whose parsers read no pages (every block is on page 1): an evidence header names no page for them. Their
# extensions in parsers/formats.py, which the search side does not import (a test keeps the two equal).
PAGELESS_FORMATS = frozenset(
    {"csv", "tsv", "html", "md", "txt", "rst", "adoc", "json", "ipynb", "mhtml", "mbox", "subtitles", "xml", "rtf",
     "odt", "eml", "msg", "zip", "tar", "latex", "ics", "vcf"}
)  # fmt: skip
PAGELESS_SUFFIXES = frozenset(
    (".csv", ".tsv", ".tab", ".html", ".htm", ".xhtml", ".md", ".markdown", ".txt", ".text", ".log", ".tex", ".bib",
     ".org", ".srt", ".vtt", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".properties", ".rst", ".rest", ".adoc",
     ".asciidoc", ".json", ".jsonl", ".ipynb", ".mht", ".mhtml", ".mbox", ".mbx", ".xml", ".nxml", ".rtf", ".odt",
     ".ott", ".fodt", ".eml", ".msg", ".zip", ".tar", ".tgz", ".tbz2", ".tbz", ".txz", ".ltx", ".latex", ".ics",
     ".ical", ".ifb", ".vcf", ".vcard")
)  # fmt: skip
# A compressed file is cited as what it holds: `report.pdf.gz` has pages, `server.log.gz` none.
COMPRESSION_SUFFIXES = frozenset((".gz", ".bz2", ".xz"))


def format_pages(pages: Sequence[int]) -> str:
    if not pages:
        return ""
    if len(pages) == 1:
        return f"p. {pages[0]}"
    if list(pages) == list(range(pages[0], pages[-1] + 1)):
        return f"pp. {pages[0]}-{pages[-1]}"
    return "pp. " + ", ".join(str(page) for page in pages)


def citation_of(
    source_key: str, section_path: Sequence[str], pages: Sequence[int], document_id: str, chunk_id: str
) -> str:
    parts = [source_key]
    if section_path:
        parts.append(" > ".join(section_path))
    if pages:
        parts.append(format_pages(pages))
    parts.append(f"{document_id}#{chunk_id}")
    return " | ".join(parts)


def citation(chunk: Chunk) -> str:
    return citation_of(cited_name(chunk), chunk.section_path, chunk.pages, chunk.document_id, chunk.chunk_id)


def cited_name(chunk: Chunk) -> str:
    """The name a chunk is cited by: its source key (its file name in chunks made before they had one)."""
    return chunk.source_key or chunk.source_file_name


def citation_line(chunk_citation: str) -> str:
    """What follows `[n]` in an evidence header: the text whose tokens a chunk's `citation_tokens` counts."""
    return f" {chunk_citation}\n"


SECTION_TITLE_CHARS = 48  # a header names the innermost section, cut at a word to about this many characters


def evidence_header(number: int, chunk: Chunk, previous: Chunk | None = None) -> str:
    """The compact header line of an evidence block, `[n] source key › section, p. 3`: the innermost section title only,
    the file only when the block before (`previous`) is of another file, and the section only when it differs
    from that block's. The ids live in `results`, which name each block's `[n]`. The one place the header's
    format is decided."""
    same_file = previous is not None and previous.document_id == chunk.document_id
    header = f"[{number}]" if same_file else f"[{number}] {cited_name(chunk)}"
    if chunk.section_path and not _says_nothing_new(chunk, previous if same_file else None):
        header += f" › {short_title(chunk.section_path[-1])}"
    if chunk.pages and not is_pageless(chunk):
        header += f"{',' if ' ' in header else ''} {format_pages(chunk.pages)}"
    return header + "\n"


def is_pageless(chunk: Chunk) -> bool:
    """Whether the chunk's file is of a format without pages, whose page 1 says nothing."""
    return _is_pageless_name(cited_name(chunk))


# A search writes a header for each block it weighs, ten or twenty a search over the same few files and sections:
# the file-name and title work is kept per text.
@lru_cache(maxsize=4096)
def _is_pageless_name(name: str) -> bool:
    path = PurePosixPath(name)
    if path.suffix.casefold() in COMPRESSION_SUFFIXES:
        path = path.with_suffix("")
    return path.suffix.casefold() in PAGELESS_SUFFIXES


def _says_nothing_new(chunk: Chunk, previous: Chunk | None) -> bool:
    """The section title repeats the block before's, or the file's own name (a paper's title as its first
    heading, saved under that title)."""
    if previous is not None and previous.section_path == chunk.section_path:
        return True
    return _names_itself(chunk.section_path[-1], cited_name(chunk))


@lru_cache(maxsize=4096)
def _names_itself(title: str, name: str) -> bool:
    words = _words(title)
    return bool(words) and words[:24] in _words(PurePosixPath(name).stem)


def _words(text: str) -> str:
    return " ".join(re.sub(r"[\W_]+", " ", text.casefold()).split())


def short_title(title: str) -> str:
    if len(title) <= SECTION_TITLE_CHARS:
        return title
    cut = (
        title[: SECTION_TITLE_CHARS + 1].rsplit(" ", 1)[0]
        if " " in title[:SECTION_TITLE_CHARS]
        else title[:SECTION_TITLE_CHARS]
    )
    return cut.rstrip(" ,;:-") + "…"
