"""A mail message as a mail client shows it, whatever file it came in (`.eml`, Outlook's `.msg`): the subject a
heading; the sender, recipients and date; the body — HTML read as a web page is, else plain text; the attachments
named, then each read as the document it is under a heading of its name (a picture the body shows is not read again,
and a message attached to one has its own attachments named only)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from docshelf.assets.collect import ImageSource, data_uri_bytes
from docshelf.errors import DocumentError
from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup.compressed_rtf import decompressed_rtf
from docshelf.parsers.markup.html import embedded_html_blocks
from docshelf.parsers.markup.rtf_html import encapsulated_html
from docshelf.parsers.markup.text import text_blocks
from docshelf.parsers.nesting import inside_container, member_block, reading_members

_CID = re.compile(r"""cid:([^"'\s>)]+)""", re.IGNORECASE)
HEADER_SCAN = 4096  # where an RTF body says what it was made from (\\fromhtml1, \\fromtext)


@dataclass(frozen=True)
class Attachment:
    name: str  # as the message names it
    read: Callable[[], bytes | None]  # its bytes
    content_id: str = ""  # how the HTML body embeds it (`cid:`), if it does
    filename: str = ""  # the name its format is detected by, when not `name`
    content: Callable[[], ParsedContent | None] | None = None  # read by the message's own reader (an embedded message)


@dataclass(frozen=True)
class Mail:
    subject: str
    sent: list[tuple[str, str]]  # (From, To, Cc, Date…, its value) in the order shown
    html: str | None = None  # the body as HTML, when the message has it
    text: str | None = None  # the body as plain text
    rtf: bytes | None = None  # the body as RTF (an Outlook message written as rich text)
    attachments: list[Attachment] = field(default_factory=list)


def mail_content(mail: Mail, images: ImageSource, limits: ParseLimits) -> ParsedContent:
    """The message's blocks; `images` resolves the HTML body's pictures (`cid:` parts, `data:` URIs)."""
    subject = " ".join(mail.subject.split())
    blocks: list[Block] = [Heading(text=subject, level=1, page=1)] if subject else []
    sent = [f"{name}: {shown}" for name, value in mail.sent if (shown := " ".join(value.split()))]
    if sent:
        blocks.append(Paragraph(text="\n".join(sent), page=1))
    if mail.html is not None:
        blocks += [_under_subject(block) for block in embedded_html_blocks(mail.html, images)]
    assets = dict(images.collector.assets)
    warnings: list[str] = []
    if mail.html is None and mail.rtf is not None:
        blocks += _rich_text(mail.rtf, limits, assets)
    elif mail.html is None and mail.text is not None:
        blocks += text_blocks(mail.text)
    if mail.attachments:
        blocks.append(Paragraph(text="Attachments: " + ", ".join(item.name for item in mail.attachments), page=1))
        if not inside_container():
            embedded = {item.content_id for item in mail.attachments if item.content_id} & _embedded_ids(mail.html)
            blocks += _attached(mail.attachments, embedded, limits, assets, warnings)
    return ParsedContent(blocks=blocks, page_count=1, title=subject, assets=assets, warnings=warnings)


def _attached(
    attachments: list[Attachment],
    embedded: set[str],
    limits: ParseLimits,
    assets: dict[str, bytes],
    warnings: list[str],
) -> list[Block]:
    """Each attachment the body does not show as a picture, read as the document it is, under a heading of its name
    (its own headings below it); a message is one page, so its attachments' pages are the message's. One that cannot
    be read is named in `warnings` with the reason."""
    from docshelf.parsers import read_attached  # the registry, which imports this module's parsers

    blocks: list[Block] = []
    with reading_members():
        for item in attachments:
            if item.content is not None:
                content = item.content()
                read = (content.blocks, content.assets) if content is not None else None
            else:
                data = item.read() if item.content_id not in embedded else None
                document = read_attached(data, item.filename or item.name, limits) if data else None
                if isinstance(document, DocumentError):
                    warnings.append(f"attachment {item.name}: not read ({document.code}: {document})")
                    document = None
                read = (document[0].blocks(), document[1]) if document is not None else None
            if read is None:
                continue
            blocks.append(Heading(text=f"Attachment: {item.name}", level=2, page=1))
            blocks += [member_block(block, 2) for block in read[0]]
            assets.update(read[1])
    return blocks


def rich_body(packed: bytes | None, plain: str) -> tuple[str | None, bytes | None]:
    """What Outlook's compressed RTF body (PR_RTF_COMPRESSED) shows: (the HTML it encapsulates, None), or (None, the
    RTF) when it was written as rich text, or (None, None) when it says no more than `plain` (made from plain text)
    or cannot be read."""
    rtf = decompressed_rtf(packed) if packed else None
    if not rtf:
        return None, None
    html = encapsulated_html(rtf)
    if html is not None:
        return html, None
    from_text = b"\\fromtext" in rtf[:HEADER_SCAN]
    return None, rtf if not (from_text and plain) else None


def _rich_text(rtf: bytes, limits: ParseLimits, assets: dict[str, bytes]) -> list[Block]:
    """The RTF body read as an RTF file is, its headings under the subject; nothing when it cannot be read."""
    from docshelf.parsers import parse_attached  # the registry, which imports this module's parsers

    read = parse_attached(rtf, "body.rtf", limits)
    if read is None:
        return []
    assets.update(read[1])
    return [_under_subject(replace(block, page=1)) for block in read[0].blocks()]


def _embedded_ids(html: str | None) -> set[str]:
    return {content_id(found) for found in _CID.findall(html)} if html else set()


def content_id(value: str) -> str:
    """A Content-ID as a `cid:` reference names it: `<logo1@acme>` -> `logo1@acme`."""
    return value.strip().strip("<>")


def picture_resolver(parts: Mapping[str, Callable[[], bytes | None]]) -> Callable[[str], bytes | None]:
    """`src` -> the bytes of the message part whose Content-ID it names (`cid:`; `parts` by content ID), or of a
    `data:` URI; a URL is never fetched."""

    def resolve(src: str) -> bytes | None:
        if src.lower().startswith("data:"):
            return data_uri_bytes(src)
        read = parts.get(content_id(src[4:])) if src.lower().startswith("cid:") else None
        return read() if read is not None else None

    return resolve


def _under_subject(block: Block) -> Block:
    """A message's own `<h1>` sits under its subject: a level down."""
    if isinstance(block, Heading):
        return Heading(text=block.text, level=min(block.level + 1, 6), page=block.page)
    return block
