"""Web pages saved as one file (`.mht`, `.mhtml`: a browser's "web page, single file" or web archive): a MIME message
whose HTML part is the page and whose other parts are its pictures, style sheets and frames, each named by the address
it was saved from (Content-Location) or by a Content-ID. Read as an HTML file is, its pictures from those parts
(relative addresses against the page's own); nothing is fetched."""

from __future__ import annotations

import email
from collections.abc import Callable
from email import policy
from functools import partial
from urllib.parse import urljoin

from docshelf.assets.collect import ImageSource
from docshelf.errors import CorruptDocumentError
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup.eml import part_payload, part_text
from docshelf.parsers.markup.html import html_content
from docshelf.parsers.markup.mail import content_id, picture_resolver

MAX_PARTS = 10_000


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    try:
        message = email.message_from_bytes(data, policy=policy.default)
        parts = [part for _, part in zip(range(MAX_PARTS), message.walk(), strict=False)]
    except RecursionError:
        raise CorruptDocumentError("web archive whose parts nest too deeply to read") from None
    page = next((part for part in parts if part.get_content_type() == "text/html"), None)
    if page is None:
        raise CorruptDocumentError("not a web archive: no HTML page among its parts")
    base = str(page.get("Content-Location", "") or message.get("Snapshot-Content-Location", "") or "")
    by_address: dict[str, Callable[[], bytes | None]] = {}
    by_id: dict[str, Callable[[], bytes | None]] = {}
    for part in parts:
        if part.is_multipart() or part is page:
            continue
        read = partial(part_payload, part)
        address = str(part.get("Content-Location", "") or "")
        if address:
            by_address[urljoin(base, address)] = read
        found_id = content_id(str(part.get("Content-ID", "") or ""))
        if found_id:
            by_id[found_id] = read
    parts_picture = picture_resolver(by_id)  # cid: and data: addresses

    def resolve(src: str) -> bytes | None:
        read = by_address.get(urljoin(base, src.strip()))
        return read() if read is not None else parts_picture(src)

    content = html_content(part_text(page), ImageSource(resolve), [])
    content.title = content.title or str(message.get("Subject", "") or "")
    return content
