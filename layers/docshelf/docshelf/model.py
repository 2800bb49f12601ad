"""The typed document (`_ori`) and chunk model shared by every stage and backend."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from docshelf.versions import SCHEMA_VERSION

# An asset reference as the parsers write it in `Image.asset_ref`: the stored bytes' sha256 and extension.
_ASSET_REF = re.compile(r"[0-9a-f]{64}\.(png|jpg)")

ChunkType: TypeAlias = Literal["text", "table", "image"]
CHUNK_TYPES: tuple[ChunkType, ...] = ("text", "table", "image")


@dataclass(frozen=True, slots=True)
class Source:
    """Where a document came from and the exact bytes it was parsed from."""

    uri: str
    filename: str
    media_type: str
    size_bytes: int
    sha256: str
    fetched_at: str = ""  # ISO 8601 UTC time a web page was fetched (its uri is the URL); empty for files


@dataclass(frozen=True, slots=True)
class Heading:
    text: str
    level: int
    page: int
    order: int = 0
    tokens: int = 0
    # Text recognised from an image (OCR), with the engine's confidence in it (0..1); None for a text layer.
    ocr: bool = False
    confidence: float | None = None
    kind: Literal["heading"] = "heading"


@dataclass(frozen=True, slots=True)
class Paragraph:
    text: str
    page: int
    order: int = 0
    tokens: int = 0
    list_level: int | None = None
    code: bool = False
    ocr: bool = False
    confidence: float | None = None
    kind: Literal["paragraph"] = "paragraph"


@dataclass(frozen=True, slots=True)
class TableCell:
    row: int
    col: int
    text: str
    rowspan: int = 1
    colspan: int = 1


@dataclass(frozen=True, slots=True)
class Table:
    """A cell grid; spanned positions are covered by the cell that starts there."""

    cells: tuple[TableCell, ...]
    n_rows: int
    n_cols: int
    page: int
    header_rows: int = 0
    caption: str = ""
    order: int = 0
    tokens: int = 0
    ocr: bool = False
    confidence: float | None = None
    kind: Literal["table"] = "table"


@dataclass(frozen=True, slots=True)
class Image:
    page: int
    alt_text: str = ""
    caption: str = ""
    asset_ref: str = ""  # a stored asset's name (`is_asset_ref`) or the source's own reference, never fetched
    width: int | None = None
    height: int | None = None
    order: int = 0
    tokens: int = 0
    ocr_text: str = ""  # text read from the picture itself (ocr/images.py)
    kind: Literal["image"] = "image"

    @property
    def text(self) -> str:
        return "\n".join(part for part in (self.caption, self.alt_text, self.ocr_text) if part)


def is_asset_ref(ref: str) -> bool:
    """Whether `ref` names a stored asset (other parsers keep a source URL in `asset_ref`, never fetched)."""
    return bool(_ASSET_REF.fullmatch(ref))


Block: TypeAlias = Heading | Paragraph | Table | Image


@dataclass(frozen=True, slots=True)
class Page:
    number: int
    blocks: tuple[Block, ...] = ()
    label: str = ""


@dataclass(frozen=True, slots=True)
class Document:
    source: Source
    title: str
    pages: tuple[Page, ...]
    parser: str
    warnings: tuple[str, ...] = ()
    schema_version: str = SCHEMA_VERSION
    # Why and where a parse limit cut the content ("kept rows 1-1,000,000 of 2,000,000: ..."); "" when whole.
    truncation: str = ""

    def blocks(self) -> list[Block]:
        return [block for page in self.pages for block in page.blocks]

    def outline(self) -> list[Heading]:
        return [block for block in self.blocks() if isinstance(block, Heading)]


@dataclass(frozen=True, slots=True)
class Link:
    """A chunk's reference to the table or image asset it comes from (docs/architecture.md#chunks-and-artifacts)."""

    target: str
    relation: str
    ref: str
    position: int


@dataclass(frozen=True, slots=True)
class Chunk:
    chunk_id: str
    document_id: str
    namespace: str
    type: ChunkType
    text: str
    section_path: tuple[str, ...]
    pages: tuple[int, ...]
    token_count: int
    ordinal: int
    source_file_name: str
    # The document's path inside its namespace (the name citations and filters use); "" in chunks made before it.
    source_key: str = ""
    revision: str = ""
    connect_to: tuple[Link, ...] = field(default=())
    # Leading characters of `text` repeated from the previous chunk (the overlap), for stitching.
    overlap_chars: int = 0
    # Tokens of the chunk's citation line in evidence (`citations.citation_line`); 0 when not counted.
    citation_tokens: int = 0
