"""Outlook messages (.msg): the same message shape as an .eml's, from the file's property streams."""

from __future__ import annotations

import datetime as dt
import struct

import docx
import pytest

from docshelf.errors import CorruptDocumentError
from docshelf.model import Heading, Image, Paragraph, Table
from docshelf.parsers import parse_bytes, parse_with_assets
from docshelf.parsers.detect import detect_format
from docshelf.tables import table_grid
from tests.support.image_fixtures import logo
from tests.unit.parsers.ole_fixtures import compound_file
from tests.unit.parsers.ooxml_fixtures import saved_bytes
from tests.unit.parsers.rtf_compression import compressed
from tests.unit.parsers.test_compressed_rtf import OUTLOOK_HTML_RTF

SENT = dt.datetime(2026, 12, 7, 10, 30, tzinfo=dt.UTC)


def unicode(tag: int, text: str) -> tuple[str, bytes]:
    return f"__substg1.0_{tag:04X}001F", text.encode("utf-16-le")


def properties(header: int, *entries: tuple[int, bytes]) -> bytes:
    return bytes(header) + b"".join(struct.pack("<II", tag, 6) + value.ljust(8, b"\0") for tag, value in entries)


def filetime(moment: dt.datetime) -> bytes:
    return struct.pack("<Q", int((moment - dt.datetime(1601, 1, 1, tzinfo=dt.UTC)).total_seconds() * 10_000_000))


def notes() -> bytes:
    document = docx.Document()
    document.add_paragraph("Seal notes: replace every 6 months.")
    return saved_bytes(document)


def outlook_message(
    *, html: bytes | None = None, attachments: bool = False, rtf: bytes | None = None, plain: bool = True
) -> bytes:
    streams = dict(
        [
            unicode(0x0037, "Pump PX-9 torque values"),
            unicode(0x0C1A, "Ana Silva"),
            unicode(0x0C1F, "/O=EXCHANGE/OU=FIRST/CN=RECIPIENTS/CN=ANA"),  # an Exchange address, no SMTP one
            unicode(0x5D01, "ana@example.com"),
            unicode(0x0E04, "Operations; Bo Chen"),
            unicode(0x1000, "Hi team,\r\n\r\nThe M10 bolts take 45 Nm.\r\n\r\nAna"),
        ]
    )
    streams["__properties_version1.0"] = properties(32, (0x00390040, filetime(SENT)))
    if not plain:
        del streams["__substg1.0_1000001F"]
    if rtf is not None:
        streams["__substg1.0_10090102"] = compressed(rtf)
    if html is not None:
        streams["__substg1.0_10130102"] = html
    if attachments:
        for number, (name, data, content_id) in enumerate(
            [("manual.pdf", b"%PDF-1.4", ""), ("logo.png", logo((120, 60)), "logo1@acme"), ("notes.docx", notes(), "")]
        ):
            storage = f"__attach_version1.0_#{number:08X}"
            streams[f"{storage}/__substg1.0_3707001F"] = name.encode("utf-16-le")
            streams[f"{storage}/__substg1.0_37010102"] = data
            if content_id:
                streams[f"{storage}/__substg1.0_3712001F"] = content_id.encode("utf-16-le")
            streams[f"{storage}/__properties_version1.0"] = bytes(8)
    return compound_file(streams)


def test_an_outlook_message_reads_as_a_mail_client_shows_it() -> None:
    document = parse_bytes(outlook_message(), "message.msg")
    blocks = list(document.blocks())
    assert document.title == "Pump PX-9 torque values"
    assert isinstance(blocks[0], Heading) and blocks[0].text == "Pump PX-9 torque values"
    assert isinstance(blocks[1], Paragraph) and blocks[1].text == (
        "From: Ana Silva <ana@example.com>\nTo: Operations; Bo Chen\nDate: Mon, 07 Dec 2026 10:30:00 +0000"
    )
    assert [block.text for block in blocks[2:] if isinstance(block, Paragraph)] == [
        "Hi team,", "The M10 bolts take 45 Nm.", "Ana",
    ]  # fmt: skip


def test_its_html_body_with_a_picture_by_content_id_and_its_attachments_named() -> None:
    html = (
        b"<html><head><meta charset='windows-1252'></head><body><p>Torque \x96 see below:</p><table><tr><th>Bolt"
        b"</th><th>Torque</th></tr><tr><td>M10</td><td>45 Nm</td></tr></table><p><img src='cid:logo1@acme'></p>"
        b"</body></html>"
    )
    document, assets = parse_with_assets(outlook_message(html=html, attachments=True), "message.msg")
    blocks = list(document.blocks())
    assert isinstance(blocks[2], Paragraph) and blocks[2].text == "Torque \u2013 see below:"
    table = next(block for block in blocks if isinstance(block, Table))
    assert table_grid(table) == [["Bolt", "Torque"], ["M10", "45 Nm"]]
    images = [block for block in blocks if isinstance(block, Image)]
    assert len(images) == 1 and images[0].asset_ref in assets and (images[0].width, images[0].height) == (120, 60)
    texts = [block.text for block in blocks if isinstance(block, Heading | Paragraph)]
    assert texts[-3:] == [
        "Attachments: manual.pdf, logo.png, notes.docx",
        "Attachment: notes.docx",  # the broken PDF named only, the logo shown in the body already
        "Seal notes: replace every 6 months.",
    ]


def test_detected_by_its_streams_and_refused_when_it_holds_no_message() -> None:
    assert detect_format(outlook_message(), "upload.bin") == "msg"
    with pytest.raises(CorruptDocumentError, match="no message properties"):
        parse_bytes(compound_file({"__properties_version1.0": bytes(32)}), "empty.msg")


def test_a_message_forwarded_as_an_attachment_is_read_with_its_own_attachments_named() -> None:
    """Outlook keeps a message attached to one as a storage inside the attachment's (`__substg1.0_3701000D`)."""
    streams = dict([unicode(0x0037, "FW: old values"), unicode(0x1000, "See the message below.")])
    streams["__properties_version1.0"] = bytes(32)
    attachment = "__attach_version1.0_#00000000"
    inner = f"{attachment}/__substg1.0_3701000D"
    streams[f"{attachment}/__properties_version1.0"] = bytes(8)
    streams[f"{inner}/__substg1.0_0037001F"] = "Old values".encode("utf-16-le")
    streams[f"{inner}/__substg1.0_1000001F"] = "The M10 bolts took 40 Nm.".encode("utf-16-le")
    streams[f"{inner}/__properties_version1.0"] = bytes(24)
    streams[f"{inner}/__attach_version1.0_#00000000/__substg1.0_3707001F"] = "deep.txt".encode("utf-16-le")
    streams[f"{inner}/__attach_version1.0_#00000000/__substg1.0_37010102"] = b"Never read."
    blocks = parse_bytes(compound_file(streams), "forward.msg").blocks()
    texts = [block.text for block in blocks if isinstance(block, Heading | Paragraph)]
    assert texts == [
        "FW: old values",
        "See the message below.",
        "Attachments: forwarded message 'Old values'",
        "Attachment: forwarded message 'Old values'",
        "Old values",
        "The M10 bolts took 40 Nm.",
        "Attachments: deep.txt",
    ]


RICH_TEXT = rb"""{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Calibri;}}
\pard\b\fs32 Torque table\b0\fs22\par
\trowd\cellx2000\cellx4000 M10\cell 45 Nm\cell\row
\trowd\cellx2000\cellx4000 M12\cell 80 Nm\cell\row
\pard Check them \'e0 la main.\par}"""


def test_a_body_kept_only_as_compressed_rich_text_is_read() -> None:
    document = parse_bytes(outlook_message(rtf=RICH_TEXT, plain=False), "message.msg")
    blocks = list(document.blocks())
    tables = [block for block in blocks if isinstance(block, Table)]
    assert len(tables) == 1 and table_grid(tables[0]) == [["M10", "45 Nm"], ["M12", "80 Nm"]]
    texts = [block.text for block in blocks if isinstance(block, Paragraph | Heading)]
    assert "Check them à la main." in texts and texts[0] == "Pump PX-9 torque values"
    assert all(block.page == 1 for block in blocks)


def test_rich_text_is_read_over_the_plain_body_which_stands_in_when_it_cannot_be() -> None:
    with_both = [b.text for b in parse_bytes(outlook_message(rtf=RICH_TEXT), "message.msg").blocks()
                 if isinstance(b, Paragraph)]  # fmt: skip
    assert "Check them à la main." in with_both and "The M10 bolts take 45 Nm." not in with_both
    damaged = outlook_message(rtf=RICH_TEXT)
    broken = damaged.replace(compressed(RICH_TEXT)[8:12], b"XXXX")  # not LZFu any more
    texts = [b.text for b in parse_bytes(broken, "message.msg").blocks() if isinstance(b, Paragraph)]
    assert "The M10 bolts take 45 Nm." in texts


def test_html_kept_inside_the_rich_text_body_is_read_as_html() -> None:
    document = parse_bytes(outlook_message(rtf=OUTLOOK_HTML_RTF), "message.msg")
    blocks = list(document.blocks())
    assert [(b.text, b.level) for b in blocks if isinstance(b, Heading)] == [
        ("Pump PX-9 torque values", 1), ("Torque étape", 3),
    ]  # fmt: skip
    tables = [block for block in blocks if isinstance(block, Table)]
    assert len(tables) == 1 and table_grid(tables[0]) == [["M10", "45 Nm"]]
    assert "Cafés & bolts" in " ".join(" ".join(b.text.split()) for b in blocks if isinstance(b, Paragraph))


def test_rich_text_made_from_plain_text_leaves_the_plain_body() -> None:
    from_text = rb"{\rtf1\ansi\fromtext \pard Hi team,\par The M10 bolts take 45 Nm.\par}"
    texts = [b.text for b in parse_bytes(outlook_message(rtf=from_text), "message.msg").blocks()
             if isinstance(b, Paragraph)]  # fmt: skip
    assert texts[1:] == ["Hi team,", "The M10 bolts take 45 Nm.", "Ana"]
