"""EPUB: container.xml -> OPF package -> spine order of XHTML documents, each through the HTML walker.

Every spine document with content is one page, labelled with its first heading (or file name). A book without
headings of its own takes them from formatting and numbering, as HTML pages do.
"""

from __future__ import annotations

import posixpath
import zipfile
from typing import TYPE_CHECKING
from urllib.parse import unquote, urldefrag

from docshelf.assets.collect import AssetCollector, ImageSource
from docshelf.errors import CorruptDocumentError, EncryptedDocumentError
from docshelf.model import Block, Heading
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.formatted_headings import Look, formatted_headings, reads_formatting
from docshelf.parsers.markup.html import decode_html, has_headings, parse_html_text
from docshelf.parsers.markup.html_blocks import HtmlBlockWalker, normalise_inline
from docshelf.parsers.markup.html_looks import page_sheet
from docshelf.parsers.package_images import member_images
from docshelf.parsers.safe_zip import open_zip, read_member
from docshelf.parsers.xml_safety import local, parse_xml
from docshelf.structure import numbered_headings

if TYPE_CHECKING:
    from lxml import etree

CONTENT_TYPES = frozenset({"application/xhtml+xml", "text/html", "application/x-dtbook+xml"})
FONT_OBFUSCATION = frozenset({"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"})


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    with open_zip(data, limits, what="EPUB") as archive:
        names = set(archive.namelist())
        opf_path = _package_path(archive, names, limits)
        opf = parse_xml(read_member(archive, opf_path, limits, what="EPUB"), what="EPUB package document").getroot()
        title = next((_text(node) for node in opf.iter() if local(node.tag) == "title"), "")
        spine = _spine_documents(opf, posixpath.dirname(opf_path))
        _refuse_encrypted_content(archive, names, spine, limits)
        blocks: list[Block] = []
        looks: dict[int, Look] = {}  # how each body paragraph is set, by its index in `blocks`
        files: dict[int, str] = {}  # each chapter's page and file name
        collector = AssetCollector()
        for path in spine:
            if path not in names or len(files) >= limits.max_pages:
                continue
            page = len(files) + 1
            root = parse_html_text(decode_html(read_member(archive, path, limits, what="EPUB")))
            body = root.find("body")
            members = member_images(archive, limits, base=posixpath.dirname(path), what="EPUB")
            images = ImageSource(members, collector)
            name, read_looks = posixpath.basename(path), not has_headings(root)
            sheet = page_sheet(root, members) if read_looks else None
            walker = HtmlBlockWalker(page=page, images=images, document=name, read_looks=read_looks, sheet=sheet)
            chapter = walker.walk(body if body is not None else root)
            if not chapter:
                continue
            files[page] = name
            looks.update((len(blocks) + index, look) for index, look in walker.looks.items())
            blocks.extend(chapter)
    if not spine:
        raise CorruptDocumentError("EPUB spine lists no XHTML content documents")
    styled = not reads_formatting(blocks)
    if not styled:  # chapters titled by `<p><b>…</b></p>` or a larger font, as some converters write them
        blocks = formatted_headings(blocks, looks)
    blocks = numbered_headings(blocks, headings_are_styled=styled)  # `<p>CHAPTER IV</p>`
    headings: dict[int, str] = {}  # each page's first heading
    for block in blocks:
        if isinstance(block, Heading):
            headings.setdefault(block.page, block.text)
    labels = {page: headings.get(page, name) for page, name in files.items()}
    return ParsedContent(
        blocks=blocks, page_count=max(len(files), 1), title=title, page_labels=labels, assets=collector.assets
    )


def _text(element: etree._Element) -> str:
    return normalise_inline("".join(str(part) for part in element.itertext()))


def _package_path(archive: zipfile.ZipFile, names: set[str], limits: ParseLimits) -> str:
    if "META-INF/container.xml" in names:
        container = parse_xml(read_member(archive, "META-INF/container.xml", limits, what="EPUB"), what="container.xml")
        for rootfile in container.getroot().iter():
            if local(rootfile.tag) == "rootfile" and rootfile.get("full-path"):
                return str(rootfile.get("full-path"))
    fallback = sorted(name for name in names if name.lower().endswith(".opf"))
    if not fallback:
        raise CorruptDocumentError("EPUB has no container.xml rootfile and no .opf package document")
    return fallback[0]


def _spine_documents(opf: etree._Element, base: str) -> list[str]:
    manifest: dict[str, tuple[str, str]] = {}
    for item in opf.iter():
        if local(item.tag) == "item" and item.get("id") and item.get("href"):
            href = unquote(urldefrag(str(item.get("href"))).url)
            path = posixpath.normpath(posixpath.join(base, href)) if base else posixpath.normpath(href)
            manifest[str(item.get("id"))] = (path, str(item.get("media-type", "")))
    paths: list[str] = []
    for itemref in opf.iter():
        if local(itemref.tag) == "itemref":
            path, media_type = manifest.get(str(itemref.get("idref")), ("", ""))
            if path and media_type in CONTENT_TYPES and path not in paths:
                paths.append(path)
    return paths


def _refuse_encrypted_content(archive: zipfile.ZipFile, names: set[str], spine: list[str], limits: ParseLimits) -> None:
    """Font obfuscation is harmless; encrypted content documents (DRM) cannot be read."""
    if "META-INF/encryption.xml" not in names:
        return
    encryption = parse_xml(read_member(archive, "META-INF/encryption.xml", limits, what="EPUB"), what="encryption.xml")
    content = set(spine)
    for data in encryption.getroot().iter():
        if local(data.tag) != "EncryptedData":
            continue
        method = next((n for n in data.iter() if local(n.tag) == "EncryptionMethod"), None)
        reference = next((n for n in data.iter() if local(n.tag) == "CipherReference"), None)
        if method is not None and method.get("Algorithm") in FONT_OBFUSCATION:
            continue
        uri = unquote(str(reference.get("URI", ""))) if reference is not None else ""
        if posixpath.normpath(uri) in content:
            raise EncryptedDocumentError("EPUB content documents are encrypted (DRM-protected book)")
