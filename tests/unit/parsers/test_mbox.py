"""Mailboxes (.mbox): each message read as an .eml is, one after the other; an unreadable one left out."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from docshelf.errors import CorruptDocumentError
from docshelf.model import Heading, Paragraph
from docshelf.parsers import parse_bytes
from docshelf.parsers.detect import detect_format
from tests.unit.parsers.test_msg import notes


def mail(subject: str, body: str, *, attachment: bytes | None = None) -> bytes:
    message = EmailMessage()
    message["Subject"], message["From"], message["Date"] = subject, "ana@example.com", "Mon, 7 Dec 2026 10:00:00 +0000"
    message.set_content(body)
    if attachment is not None:
        message.add_attachment(
            attachment, maintype="application", subtype="vnd.openxmlformats-officedocument.wordprocessingml.document",
            filename="seal notes.docx",
        )  # fmt: skip
    return message.as_bytes()


def mailbox(*messages: bytes) -> bytes:
    """As mail clients write mbox: a `From ` line before each message, `>From ` for a body line starting so."""
    parts = []
    for message in messages:
        quoted = b"\n".join(
            b">" + line if line.startswith((b"From ", b">From ")) else line for line in message.split(b"\n")
        )
        parts.append(b"From ana@example.com Mon Dec  7 10:00:00 2026\n" + quoted.rstrip(b"\n") + b"\n")
    return b"\n".join(parts)


def test_every_message_of_a_mailbox_in_order_with_its_attachments() -> None:
    data = mailbox(
        mail("Pump PX-9 torque values", "The M10 bolts take 45 Nm.\n\nFrom now on, use the new wrench."),
        mail("Seal kit", "Notes attached.", attachment=notes()),
        mail("Warranty", "Two years from delivery."),
    )
    assert detect_format(data, "takeout.mbox") == "mbox"
    blocks = list(parse_bytes(data, "takeout.mbox").blocks())
    assert [b.text for b in blocks if isinstance(b, Heading) and b.level == 1] == [
        "Pump PX-9 torque values", "Seal kit", "Warranty",
    ]  # fmt: skip
    texts = [b.text for b in blocks if isinstance(b, Paragraph)]
    assert "From now on, use the new wrench." in texts  # its `>From ` unquoted
    assert "Seal notes: replace every 6 months." in texts and "Two years from delivery." in texts


def test_an_unreadable_message_is_left_out_and_a_mailbox_of_none_refused() -> None:
    data = mailbox(mail("Readable", "Kept."), b"\x00\x01 not a message at all", mail("Also readable", "Kept too."))
    document = parse_bytes(data, "box.mbox")
    assert [b.text for b in document.blocks() if isinstance(b, Heading)] == ["Readable", "Also readable"]
    assert any(warning.startswith("message 2 left out") for warning in document.warnings)
    with pytest.raises(CorruptDocumentError, match="no message of the mailbox"):
        parse_bytes(mailbox(b"\x00 junk", b"\x00 more junk"), "box.mbox")
