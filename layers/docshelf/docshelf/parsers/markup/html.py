"""HTML parser: charset sniffing, boilerplate removal and block extraction with lxml."""

from __future__ import annotations

import re
from itertools import islice

from lxml import etree, html

from docshelf.assets.collect import ImageSource, data_uri_bytes
from docshelf.errors import CorruptDocumentError, EmptyDocumentError
from docshelf.model import Block
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.formatted_headings import formatted_headings, reads_formatting
from docshelf.parsers.markup.html_blocks import HtmlBlockWalker, normalise_inline
from docshelf.parsers.markup.html_depth import DEPTH_ERROR, flatten_nesting
from docshelf.parsers.markup.html_looks import page_sheet
from docshelf.parsers.textcodec import decode_report
from docshelf.structure import numbered_headings

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_.:-]+)""", re.I)
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f]")
# Below libxml2's 256 levels, with room for the elements the parser adds (html, body, implied tbody).
FLATTENED_DEPTH = 100


def declared_charset(data: bytes) -> str | None:
    """The charset a <meta> tag (or an XML declaration) announces in the first bytes."""
    head = data[:4096]
    match = _META_CHARSET.search(head) or _XML_ENCODING.search(head)
    return match.group(1).decode("ascii").lower() if match else None


def decode_html(data: bytes) -> str:
    return decode_html_report(data)[0]


def decode_html_report(data: bytes) -> tuple[str, list[str]]:
    """The page's text (its charset read as browsers read the label) and the warnings about its decoding."""
    decoded = decode_report(data, declared=declared_charset(data))
    return _CONTROL.sub("", _XML_DECLARATION.sub("", decoded.text, count=1)), decoded.document_warnings()


def parse_html_text(text: str) -> etree._Element:
    """The document tree; one nested past libxml2's depth limit is parsed again with its nesting flattened."""
    root, parser = _parse_tree(text)
    if any(DEPTH_ERROR in error.message for error in parser.error_log):
        root, _ = _parse_tree(flatten_nesting(text, FLATTENED_DEPTH))
    return root


def _parse_tree(text: str) -> tuple[etree._Element, html.HTMLParser]:
    parser = html.HTMLParser(remove_comments=True, remove_pis=True, no_network=True, recover=True)
    try:
        root = html.document_fromstring(text, parser=parser)
    except (etree.ParserError, ValueError) as exc:
        if "empty" in str(exc).lower():
            raise EmptyDocumentError("the HTML document has no content") from exc
        raise CorruptDocumentError(f"unreadable HTML: {exc}") from exc
    if root is None:
        raise CorruptDocumentError("unreadable HTML: no document element")
    return root, parser


def has_headings(root: etree._Element) -> bool:
    """Whether a page has headings of its own (two `<h1>`-`<h6>` or more): it is read by them alone, and how its
    paragraphs are set need not be kept."""
    return next(islice(root.iter("h1", "h2", "h3", "h4", "h5", "h6"), 1, None), None) is not None


def html_title(root: etree._Element) -> str:
    for title in root.iter("title"):
        text = normalise_inline("".join(str(part) for part in title.itertext()))
        if text:
            return text
    return ""


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    text, warnings = decode_html_report(data)
    return html_content(text, ImageSource(data_uri_bytes), warnings)  # other images are URLs: never fetched


def embedded_html_blocks(text: str, images: ImageSource) -> list[Block]:
    """The blocks of HTML shown inside another document (a message's body, a notebook's output), its `<body>` if it
    has one: as written, no headings read from its looks."""
    root = parse_html_text(text)
    body = root.find("body")
    return HtmlBlockWalker(page=1, images=images, read_looks=False).walk(body if body is not None else root)


def html_content(text: str, images: ImageSource, warnings: list[str]) -> ParsedContent:
    """A page's blocks, its pictures from `images`."""
    root = parse_html_text(text)
    read_looks = not has_headings(root)
    sheet = page_sheet(root) if read_looks else None
    walker = HtmlBlockWalker(page=1, images=images, read_looks=read_looks, sheet=sheet)
    blocks = walker.walk(root)
    styled = not reads_formatting(blocks)
    if not styled:  # `<p><b>Scope</b></p>`: a page saved by a word processor
        blocks = formatted_headings(blocks, walker.looks)
    blocks = numbered_headings(blocks, headings_are_styled=styled)  # `<p>第1条（目的）</p>`
    assets = images.collector.assets
    return ParsedContent(blocks=blocks, page_count=1, title=html_title(root), assets=assets, warnings=warnings)
