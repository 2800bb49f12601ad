"""A mail message as a mail client shows it, whatever file it came in (`.eml`, Outlook's `.msg`): the subject a
heading; the sender, recipients and date; the body — HTML read as a web page is, else plain text; the attachments
named (their contents are documents of their own)."""

from __future__ import annotations

from dataclasses import dataclass, field

from docshelf.assets.collect import ImageSource
from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent
from docshelf.parsers.markup.html import parse_html_text
from docshelf.parsers.markup.html_blocks import HtmlBlockWalker
from docshelf.parsers.markup.text import text_blocks


@dataclass(frozen=True)
class Mail:
    subject: str
    sent: list[tuple[str, str]]  # (From, To, Cc, Date…, its value) in the order shown
    html: str | None = None  # the body as HTML, when the message has it
    text: str | None = None  # the body as plain text
    attachments: list[str] = field(default_factory=list)  # their names


def mail_content(mail: Mail, images: ImageSource) -> ParsedContent:
    """The message's blocks; `images` resolves the HTML body's pictures (`cid:` parts, `data:` URIs)."""
    subject = " ".join(mail.subject.split())
    blocks: list[Block] = [Heading(text=subject, level=1, page=1)] if subject else []
    sent = [f"{name}: {shown}" for name, value in mail.sent if (shown := " ".join(value.split()))]
    if sent:
        blocks.append(Paragraph(text="\n".join(sent), page=1))
    if mail.html is not None:
        root = parse_html_text(mail.html)
        body = root.find("body")
        walker = HtmlBlockWalker(page=1, images=images, read_looks=False)
        blocks += [_under_subject(block) for block in walker.walk(body if body is not None else root)]
    elif mail.text is not None:
        blocks += text_blocks(mail.text)
    if mail.attachments:
        blocks.append(Paragraph(text="Attachments: " + ", ".join(mail.attachments), page=1))
    return ParsedContent(blocks=blocks, page_count=1, title=subject, assets=images.collector.assets)


def _under_subject(block: Block) -> Block:
    """A message's own `<h1>` sits under its subject: a level down."""
    if isinstance(block, Heading):
        return Heading(text=block.text, level=min(block.level + 1, 6), page=block.page)
    return block
