"""E-mail messages (`.eml`: RFC 5322 with MIME parts), read by the standard library's email package (encoded
headers and charsets decoded) and shown as `mail.py` shows a message: its HTML part's pictures embedded by `cid:` kept.
"""

from __future__ import annotations

import email
from collections.abc import Callable
from email import policy
from email.message import EmailMessage, Message
from functools import partial

from docshelf.assets.collect import ImageSource
from docshelf.errors import CorruptDocumentError
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup.mail import Attachment, Mail, content_id, mail_content, picture_resolver, rich_body
from docshelf.parsers.markup.tnef import Tnef, read_tnef
from docshelf.parsers.textcodec import decode_report

HEADERS = ("From", "To", "Cc", "Date")
MESSAGE_HEADERS = frozenset({"from", "to", "subject", "date", "message-id", "received", "mime-version", "sender"})
MAX_PARTS = 1_000  # MIME parts looked through; a message of more is read as far as that
TNEF_TYPES = frozenset({"application/ms-tnef", "application/vnd.ms-tnef"})


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    try:
        return mail_message(email.message_from_bytes(data, policy=policy.default), limits)
    except RecursionError:  # the standard library reads nested parts recursively
        raise CorruptDocumentError("e-mail message whose parts nest too deeply to read") from None


def mail_message(message: Message, limits: ParseLimits) -> ParsedContent:
    """A parsed message's blocks, as `mail.py` shows a message."""
    if not isinstance(message, EmailMessage) or not MESSAGE_HEADERS & {key.lower() for key in message}:
        raise CorruptDocumentError("not an e-mail message: none of From, To, Subject, Date or Message-ID")
    body = message.get_body(preferencelist=("html", "plain"))
    html = part_text(body) if body is not None and body.get_content_subtype() == "html" else None
    text = part_text(body) if body is not None and html is None else None
    parts = _parts_by_content_id(message)
    attachments, rich = _attachments_read(message, parts)
    rtf = None
    if html is None and rich is not None:  # the rich body Outlook sent beside the plain one
        html, rtf = rich_body(rich.rtf_compressed, text or rich.body)
        html = html or (decode_report(rich.html).text if rich.html else None)
        text = text or rich.body or None
    mail = Mail(
        subject=_header(message, "Subject"),
        sent=[(name, _header(message, name)) for name in HEADERS],
        html=html,
        rtf=rtf if html is None else None,
        text=text if html is None and rtf is None else None,
        attachments=attachments,
    )
    return mail_content(mail, ImageSource(picture_resolver(parts)), limits)


def _attachments_read(
    message: EmailMessage, parts: dict[str, Callable[[], bytes | None]]
) -> tuple[list[Attachment], Tnef | None]:
    """The message's attachments, a winmail.dat's own in its place (their Content-IDs added to `parts`), and the
    first winmail.dat read."""
    attachments: list[Attachment] = []
    rich = None
    for part in _attachments(message):
        tnef = read_tnef(part_payload(part) or b"") if _is_tnef(part) else None
        if tnef is None:
            attachments.append(_attachment(part))
            continue
        for item in tnef.attachments:
            if item.data is not None:
                read = partial(bytes, item.data)
                attachments.append(Attachment(item.name or "attachment", read, item.content_id))
                if item.content_id:
                    parts[item.content_id] = read
        rich = rich or tnef
    return attachments, rich


def _is_tnef(part: Message) -> bool:
    named = (part.get_filename() or "").lower()
    return part.get_content_type() in TNEF_TYPES or named == "winmail.dat"


def _header(message: Message, name: str) -> str:
    try:
        return str(message.get(name, "") or "")
    except (ValueError, TypeError, IndexError):  # a header its parser cannot read: shown as written
        return next((str(value) for key, value in message.raw_items() if key.lower() == name.lower()), "")


def part_text(part: Message) -> str:
    """A MIME part's text, decoded by its charset (as UTF-8 when that is unknown or its encoding broken)."""
    try:
        content = part.get_content()  # type: ignore[attr-defined]
    except (LookupError, ValueError, AssertionError):  # an unknown charset or a broken transfer encoding
        payload = part.get_payload(decode=True)
        content = payload.decode("utf-8", errors="replace") if isinstance(payload, bytes) else str(payload or "")
    return content if isinstance(content, str) else content.decode("utf-8", errors="replace")


def _attachments(message: EmailMessage) -> list[EmailMessage]:
    found: list[EmailMessage] = []
    for count, part in enumerate(message.iter_attachments()):
        if count >= MAX_PARTS:
            break
        found.append(part)
    return found


def _attachment(part: Message) -> Attachment:
    found_id = content_id(str(part.get("Content-ID", "") or ""))
    if part.get_content_type() == "message/rfc822":
        inner = part.get_payload(0) if part.is_multipart() else None
        if not isinstance(inner, Message):
            return Attachment("forwarded message", lambda: None)
        subject = " ".join(_header(inner, "Subject").split())
        shown = f"forwarded message {subject!r}" if subject else "forwarded message"
        return Attachment(shown, inner.as_bytes, filename="forwarded.eml")
    return Attachment(part.get_filename() or part.get_content_type(), partial(part_payload, part), found_id)


def part_payload(part: Message) -> bytes | None:
    """A MIME part's bytes, its transfer encoding undone."""
    payload = part.get_payload(decode=True)
    return payload if isinstance(payload, bytes) else None


def _parts_by_content_id(message: EmailMessage) -> dict[str, Callable[[], bytes | None]]:
    parts: dict[str, Callable[[], bytes | None]] = {}
    for count, part in enumerate(message.walk()):
        if count >= MAX_PARTS:
            break
        found = content_id(str(part.get("Content-ID", "") or ""))
        if found:
            parts[found] = partial(part_payload, part)
    return parts
