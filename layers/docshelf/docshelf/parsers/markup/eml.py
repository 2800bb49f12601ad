"""E-mail messages (`.eml`: RFC 5322 with MIME parts), as a mail client shows one: the subject a heading; the
sender, recipients and date; the body — its HTML part read as a web page is (with the pictures it embeds by `cid:`),
else its plain text; then the names of its attachments. An attachment's content is not read here: it is a document
of its own.
"""

from __future__ import annotations

import email
from collections.abc import Callable
from email import policy
from email.message import EmailMessage, Message

from docshelf.assets.collect import ImageSource, data_uri_bytes
from docshelf.errors import CorruptDocumentError
from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup.html import parse_html_text
from docshelf.parsers.markup.html_blocks import HtmlBlockWalker
from docshelf.parsers.markup.text import text_blocks

HEADERS = ("From", "To", "Cc", "Date")
MESSAGE_HEADERS = frozenset({"from", "to", "subject", "date", "message-id", "received", "mime-version", "sender"})
MAX_PARTS = 1_000  # MIME parts looked through; a message of more is read as far as that


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    try:
        return _parsed(email.message_from_bytes(data, policy=policy.default))
    except RecursionError:  # the standard library reads nested parts recursively
        raise CorruptDocumentError("e-mail message whose parts nest too deeply to read") from None


def _parsed(message: Message) -> ParsedContent:
    if not isinstance(message, EmailMessage) or not MESSAGE_HEADERS & {key.lower() for key in message}:
        raise CorruptDocumentError("not an e-mail message: none of From, To, Subject, Date or Message-ID")
    subject = " ".join(_header(message, "Subject").split())
    blocks: list[Block] = [Heading(text=subject, level=1, page=1)] if subject else []
    sent = [f"{name}: {value}" for name in HEADERS if (value := " ".join(_header(message, name).split()))]
    if sent:
        blocks.append(Paragraph(text="\n".join(sent), page=1))
    images = ImageSource(_cid_resolver(message))
    blocks += _body(message, images)
    attached = [_attachment_name(part) for part in _attachments(message)]
    if attached:
        blocks.append(Paragraph(text="Attachments: " + ", ".join(attached), page=1))
    return ParsedContent(blocks=blocks, page_count=1, title=subject, assets=images.collector.assets)


def _header(message: Message, name: str) -> str:
    try:
        return str(message.get(name, "") or "")
    except (ValueError, TypeError, IndexError):  # a malformed address or date header
        raw = message.get_all(name) or []
        return str(raw[0]) if raw else ""


def _body(message: EmailMessage, images: ImageSource) -> list[Block]:
    part = message.get_body(preferencelist=("html", "plain"))
    if part is None:
        return []
    text = _text(part)
    if part.get_content_subtype() != "html":
        return text_blocks(text)
    root = parse_html_text(text)
    body = root.find("body")
    walker = HtmlBlockWalker(page=1, images=images, read_looks=False)
    blocks = walker.walk(body if body is not None else root)
    return [_under_subject(block) for block in blocks]


def _under_subject(block: Block) -> Block:
    """A message's own `<h1>` sits under its subject: a level down."""
    if isinstance(block, Heading):
        return Heading(text=block.text, level=min(block.level + 1, 6), page=block.page)
    return block


def _text(part: Message) -> str:
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


def _attachment_name(part: Message) -> str:
    if part.get_content_type() == "message/rfc822":
        inner = part.get_payload(0) if part.is_multipart() else None
        subject = " ".join(_header(inner, "Subject").split()) if isinstance(inner, Message) else ""
        return f"forwarded message {subject!r}" if subject else "forwarded message"
    return part.get_filename() or part.get_content_type()


def _cid_resolver(message: EmailMessage) -> Callable[[str], bytes | None]:
    """`src` -> the bytes of the message part whose Content-ID it names (`cid:`), or of a `data:` URI."""
    parts: dict[str, Message] = {}
    for count, part in enumerate(message.walk()):
        if count >= MAX_PARTS:
            break
        content_id = str(part.get("Content-ID", "") or "").strip().strip("<>")
        if content_id:
            parts[content_id] = part

    def resolve(src: str) -> bytes | None:
        if src.lower().startswith("data:"):
            return data_uri_bytes(src)
        if not src.lower().startswith("cid:"):
            return None  # a URL is never fetched
        part = parts.get(src[4:].strip().strip("<>"))
        payload = part.get_payload(decode=True) if part is not None else None
        return payload if isinstance(payload, bytes) else None

    return resolve
