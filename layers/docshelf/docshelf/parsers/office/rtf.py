"""RTF parser: the reader in rtf_reader turns control words and groups into typed blocks."""

from __future__ import annotations

from docshelf.assets.collect import AssetCollector
from docshelf.errors import CorruptDocumentError
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.office.rtf_reader import RtfReader


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    start = data.lstrip()[:6]
    if not start.startswith(b"{\\rtf"):
        raise CorruptDocumentError("not an RTF document (missing the {\\rtf header)")
    collector = AssetCollector()
    reader = RtfReader(data.lstrip(), collector)
    blocks = reader.run()
    return ParsedContent(blocks=blocks, page_count=1, title=reader.document_title(), assets=collector.assets)
