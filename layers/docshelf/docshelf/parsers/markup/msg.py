"""Outlook messages (`.msg`, MS-OXMSG): an OLE compound file whose root streams are the message's properties
(`__substg1.0_<id><type>`: 001F UTF-16 text, 001E text in the message's code page, 0102 binary), with a storage for
each attachment (`__attach_version1.0_#…`) and recipient; fixed-size properties such as the dates are entries of the
`__properties_version1.0` stream. Shown as `mail.py` shows a message: its HTML body (PR_HTML), else its rich-text
body (PR_RTF_COMPRESSED: the HTML it encapsulates, or the RTF itself when it was written as rich text), else the plain
text (PR_BODY).
"""

from __future__ import annotations

import datetime as dt
import io
import struct
from collections.abc import Callable
from functools import partial
from typing import Any

from docshelf.assets.collect import ImageSource
from docshelf.errors import CorruptDocumentError
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup.mail import Attachment, Mail, content_id, mail_content, picture_resolver, rich_body
from docshelf.parsers.textcodec import code_page_codec, decode_report

PROPERTIES = "__properties_version1.0"
ATTACHMENT = "__attach_version1.0_#"
SUBJECT, BODY, HTML, RTF_COMPRESSED = 0x0037, 0x1000, 0x1013, 0x1009
SENDER_NAME, SENDER_EMAIL, SENDER_SMTP = 0x0C1A, 0x0C1F, 0x5D01
DISPLAY_TO, DISPLAY_CC = 0x0E04, 0x0E03
SENT_TIME, DELIVERY_TIME = 0x0039, 0x0E06
CODE_PAGE, INTERNET_CODE_PAGE = 0x3FFD, 0x3FDE
ATTACH_LONG_NAME, ATTACH_NAME, ATTACH_DISPLAY_NAME, ATTACH_DATA, ATTACH_CONTENT_ID = (
    0x3707,
    0x3704,
    0x3001,
    0x3701,
    0x3712,
)
UNICODE, STRING8, BINARY, TIME, LONG = 0x001F, 0x001E, 0x0102, 0x0040, 0x0003
TOP_HEADER = 32  # the root's property stream header; an attachment's is 8 bytes, an embedded message's 24
EMBEDDED_HEADER = 24
EMBEDDED_MESSAGE = "__substg1.0_3701000D"  # an attachment's embedded message (PR_ATTACH_DATA_OBJ) storage
MAX_PROPERTY_BYTES = 64 * 1024 * 1024
MAX_ATTACHMENTS = 1_000
_FILETIME_EPOCH = dt.datetime(1601, 1, 1, tzinfo=dt.UTC)


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    import olefile

    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except (OSError, ValueError, struct.error) as exc:
        raise CorruptDocumentError(f"not a readable Outlook message: {exc}") from exc
    with ole:
        try:
            return _read(_Storage(ole, []), limits)
        except (OSError, ValueError, struct.error, IndexError) as exc:  # olefile's reports of a damaged file
            raise CorruptDocumentError(f"unreadable Outlook message: {exc}") from exc


class _Storage:
    """The message's (or an attachment's) properties: `path` is the storage's place in the file."""

    def __init__(self, ole: Any, path: list[str]) -> None:
        self.ole, self.path = ole, path
        self.code_page = "cp1252"

    def raw(self, name: str) -> bytes | None:
        path = [*self.path, name]
        if not self.ole.exists(path):
            return None
        if self.ole.get_size(path) > MAX_PROPERTY_BYTES:
            return None
        return bytes(self.ole.openstream(path).read())

    def text(self, tag: int) -> str:
        found = self.raw(f"__substg1.0_{tag:04X}{UNICODE:04X}")
        if found is not None:
            return found.decode("utf-16-le", errors="replace").rstrip("\x00")
        found = self.raw(f"__substg1.0_{tag:04X}{STRING8:04X}")
        return found.decode(self.code_page, errors="replace").rstrip("\x00") if found is not None else ""

    def binary(self, tag: int) -> bytes | None:
        return self.raw(f"__substg1.0_{tag:04X}{BINARY:04X}")

    def fixed(self, header: int) -> dict[int, bytes]:
        """The fixed-size properties (`__properties_version1.0` entries) by property tag."""
        stream = self.raw(PROPERTIES) or b""
        found: dict[int, bytes] = {}
        for at in range(header, len(stream) - 15, 16):
            tag = struct.unpack_from("<I", stream, at)[0]
            if tag:
                found[tag] = stream[at + 8 : at + 16]
        return found


def _read(message: _Storage, limits: ParseLimits, header: int = TOP_HEADER) -> ParsedContent:
    fixed = message.fixed(header)
    code_page = fixed.get(INTERNET_CODE_PAGE << 16 | LONG) or fixed.get(CODE_PAGE << 16 | LONG)
    if code_page is not None:
        message.code_page = code_page_codec(struct.unpack_from("<I", code_page)[0])
    html = (message.binary(HTML) or b"").rstrip(b"\0") or None
    subject, body, sender = message.text(SUBJECT), message.text(BODY), message.text(SENDER_NAME)
    shown_html, rtf = (decode_report(html).text, None) if html else rich_body(message.binary(RTF_COMPRESSED), body)
    if not (subject or body or shown_html or rtf or sender):
        raise CorruptDocumentError("not an Outlook message: no message properties (subject, body or sender)")
    address = message.text(SENDER_SMTP) or message.text(SENDER_EMAIL)
    if address and "@" in address and address != sender:
        sender = f"{sender} <{address}>" if sender else address
    attachments = _attachments(message)
    mail = Mail(
        subject=subject,
        sent=[("From", sender), ("To", message.text(DISPLAY_TO)), ("Cc", message.text(DISPLAY_CC)),
              ("Date", _date(fixed.get(SENT_TIME << 16 | TIME) or fixed.get(DELIVERY_TIME << 16 | TIME)))],
        html=shown_html,
        rtf=rtf,
        text=body if shown_html is None and rtf is None else None,
        attachments=[
            Attachment(name, read, found_id, content=_embedded(message, storage, limits))
            for name, found_id, read, storage in attachments
        ],
    )  # fmt: skip
    parts = {found_id: read for _, found_id, read, _ in attachments if found_id}
    return mail_content(mail, ImageSource(picture_resolver(parts)), limits)


def _embedded(message: _Storage, storage: str, limits: ParseLimits) -> Callable[[], ParsedContent | None] | None:
    """A reader of the Outlook message an attachment embeds (its `3701000D` storage), or None when it embeds none."""
    path = [*message.path, storage, EMBEDDED_MESSAGE]
    if not message.ole.exists(path):
        return None

    def read() -> ParsedContent | None:
        inner = _Storage(message.ole, path)
        inner.code_page = message.code_page
        try:
            return _read(inner, limits, EMBEDDED_HEADER)
        except CorruptDocumentError:
            return None

    return read


def _attachments(message: _Storage) -> list[tuple[str, str, Callable[[], bytes | None], str]]:
    """Each attachment's name, Content-ID, a reader of its bytes and its storage's name, in their order."""
    depth = len(message.path)
    names = sorted(
        {entry[depth] for entry in message.ole.listdir(streams=False, storages=True)
         if len(entry) == depth + 1 and entry[:depth] == message.path and entry[depth].startswith(ATTACHMENT)}
    )[:MAX_ATTACHMENTS]  # fmt: skip
    found: list[tuple[str, str, Callable[[], bytes | None], str]] = []
    for name in names:
        storage = _Storage(message.ole, [*message.path, name])
        storage.code_page = message.code_page
        shown = storage.text(ATTACH_LONG_NAME) or storage.text(ATTACH_NAME) or storage.text(ATTACH_DISPLAY_NAME)
        if not shown and message.ole.exists([*message.path, name, EMBEDDED_MESSAGE]):
            inner = _Storage(message.ole, [*message.path, name, EMBEDDED_MESSAGE]).text(SUBJECT)
            shown = f"forwarded message {inner!r}" if inner else "forwarded message"
        found_id = content_id(storage.text(ATTACH_CONTENT_ID))
        found.append((shown or "attachment", found_id, partial(storage.binary, ATTACH_DATA), name))
    return found


def _date(value: bytes | None) -> str:
    if value is None or len(value) != 8:
        return ""
    ticks = struct.unpack("<Q", value)[0]
    try:
        return (_FILETIME_EPOCH + dt.timedelta(microseconds=ticks // 10)).strftime("%a, %d %b %Y %H:%M:%S +0000")
    except OverflowError:
        return ""
