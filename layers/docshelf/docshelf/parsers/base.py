"""The contract every format parser implements, and the limits they run under."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from docshelf.config import ParseLimits
from docshelf.model import Block

__all__ = ["ParseLimits", "ParsedContent", "Parser"]


@dataclass(slots=True)
class ParsedContent:
    """What a format parser returns: blocks in source order, each knowing its 1-based page."""

    blocks: list[Block]
    page_count: int = 1
    title: str = ""
    page_labels: dict[int, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    truncation: str = ""  # set when a limit cut the content: what was kept and why (Document.truncation)
    # The stored bytes of the images the blocks name (`Image.asset_ref`), by name (docshelf.assets).
    assets: dict[str, bytes] = field(default_factory=dict)


class Parser(Protocol):
    def __call__(self, data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent: ...
