"""Text of XML nested deeper than libxml2 builds trees (256 levels): a streaming read without the structure."""

from __future__ import annotations

import xml.sax
from xml.sax.handler import ContentHandler

import defusedxml
import defusedxml.sax

from docshelf.errors import CorruptDocumentError, UnsupportedFormatError
from docshelf.model import Block, Paragraph

DEPTH_ERROR = "Excessive depth"
DEEP_WARNING = "XML nested too deeply for its structure to be kept: its text runs are read as paragraphs"


class _TextRuns(ContentHandler):
    """Every run of character data between two tags, as one paragraph (expat keeps no stack of its own)."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks: list[Block] = []
        self._run: list[str] = []

    def characters(self, content: str) -> None:
        self._run.append(content)

    def startElement(self, name: str, attrs: object) -> None:
        self.flush()

    def endElement(self, name: str) -> None:
        self.flush()

    def flush(self) -> None:
        text = " ".join("".join(self._run).split())
        self._run.clear()
        if text:
            self.blocks.append(Paragraph(text=text, page=1))


def deep_xml_blocks(data: bytes) -> list[Block]:
    handler = _TextRuns()
    try:
        defusedxml.sax.parseString(data, handler, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except defusedxml.DefusedXmlException as exc:
        raise UnsupportedFormatError(f"XML declares entities or external references ({exc})") from exc
    except xml.sax.SAXException as exc:
        raise CorruptDocumentError(f"malformed XML: {exc}") from exc
    handler.flush()
    return handler.blocks
