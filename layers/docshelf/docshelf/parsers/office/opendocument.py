"""What the OpenDocument formats share (ODT, ODS, ODP): the package's content and styles, its title, and a refusal
when it is encrypted."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docshelf.errors import CorruptDocumentError, EncryptedDocumentError
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.markup.html_blocks import normalise_inline
from docshelf.parsers.safe_zip import read_member
from docshelf.parsers.xml_safety import local, parse_xml

if TYPE_CHECKING:
    from lxml import etree

OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"


@dataclass(frozen=True)
class OpenDocument:
    content: etree._Element  # content.xml's root
    styles: etree._Element | None  # styles.xml's root, when the package has one
    title: str  # meta.xml's dc:title, or ""

    @property
    def roots(self) -> list[etree._Element]:
        return [self.content] if self.styles is None else [self.content, self.styles]

    def body(self, kind: str, what: str) -> etree._Element:
        """The document's `office:<kind>` (text, spreadsheet, presentation)."""
        found = next(self.content.iter(f"{{{OFFICE}}}{kind}"), None)
        if found is None:
            found = next((node for node in self.content.iter() if local(node.tag) == "body"), None)
        if found is None:
            raise CorruptDocumentError(f"{what} content.xml has no office:body")
        return found


def read_package(archive: zipfile.ZipFile, limits: ParseLimits, *, what: str) -> OpenDocument:
    names = set(archive.namelist())
    if "META-INF/manifest.xml" in names:
        manifest = read_member(archive, "META-INF/manifest.xml", limits, what=what)
        if b"encryption-data" in manifest:
            raise EncryptedDocumentError("password-protected OpenDocument file (encrypted package members)")
    if "content.xml" not in names:
        raise CorruptDocumentError(f"{what} package has no content.xml")
    content = parse_xml(read_member(archive, "content.xml", limits, what=what), what=f"{what} content.xml")
    styles = None
    if "styles.xml" in names:
        styles = parse_xml(read_member(archive, "styles.xml", limits, what=what), what=f"{what} styles.xml").getroot()
    title = ""
    if "meta.xml" in names:
        meta = parse_xml(read_member(archive, "meta.xml", limits, what=what), what=f"{what} meta.xml")
        title = next((element_text(node) for node in meta.iter() if local(node.tag) == "title"), "")
    return OpenDocument(content.getroot(), styles, title)


def read_flat(data: bytes, *, what: str) -> OpenDocument:
    """A flat OpenDocument file: content, styles and meta in one `office:document`."""
    root = parse_xml(data, what=f"flat {what} file").getroot()
    if local(root.tag) != "document":
        raise CorruptDocumentError(f"flat {what} file without an office:document root")
    meta = next((child for child in root if local(child.tag) == "meta"), None)
    title = (
        next((element_text(node) for node in meta.iter() if local(node.tag) == "title"), "") if meta is not None else ""
    )
    return OpenDocument(root, None, title)


def frame_description(frame: etree._Element) -> str:
    """What a frame's title or description (`svg:title`, `svg:desc`) says of it, or ""."""
    described = next((child for child in frame if local(child.tag) in ("title", "desc")), None)
    return element_text(described) if described is not None else ""


def element_text(node: etree._Element) -> str:
    """An element's text, its whitespace as inline text's."""
    return normalise_inline("".join(str(part) for part in node.itertext()))
