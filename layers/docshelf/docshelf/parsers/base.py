"""The contract every format parser implements, and the limits they run under."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from docshelf.model import Block


@dataclass(frozen=True, slots=True)
class ParseLimits:
    max_bytes: int = 200 * 1024 * 1024
    max_pages: int = 5000
    max_decompressed_bytes: int = 1024 * 1024 * 1024
    max_compression_ratio: float = 200.0
    max_sheet_cells: int = 5_000_000
    time_budget_s: float = 300.0


@dataclass(slots=True)
class ParsedContent:
    """What a format parser returns: blocks in source order, each knowing its 1-based page."""

    blocks: list[Block]
    page_count: int = 1
    title: str = ""
    page_labels: dict[int, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


class Parser(Protocol):
    def __call__(self, data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent: ...
