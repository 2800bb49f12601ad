"""E-mail messages (.eml): subject, sender and recipients, the body as a mail client shows it, attachments named."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from docshelf.errors import CorruptDocumentError
from docshelf.model import Heading, Image, Paragraph, Table
from docshelf.parsers import parse_bytes, parse_with_assets
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.detect import detect_format
from docshelf.parsers.markup.eml import parse
from docshelf.tables import table_grid
from tests.support.image_fixtures import logo


def message() -> EmailMessage:
    mail = EmailMessage()
    mail["Subject"] = "Pump PX-9 torque values"
    mail["From"] = "Ana Silva <ana@example.com>"
    mail["To"] = "ops@example.com, Bo <bo@example.com>"
    mail["Date"] = "Mon, 7 Dec 2026 10:00:00 +0000"
    mail.set_content("Hi team,\n\nThe M10 bolts take 45 Nm.\n\nAna")
    return mail


def test_the_html_body_is_read_as_a_page_with_its_embedded_pictures_and_attachments_named() -> None:
    mail = message()
    mail.add_alternative(
        "<html><body><h1>Torque</h1><p>Hi team,</p><table><tr><th>Bolt</th><th>Torque</th></tr>"
        "<tr><td>M10</td><td>45 Nm</td></tr></table><p><img src='cid:logo1' alt='ACME'>"
        "<img src='https://tracker.example.com/p.gif'></p><p>Ana</p></body></html>",
        subtype="html",
    )
    html_part = mail.get_body(preferencelist=("html",))
    assert isinstance(html_part, EmailMessage)
    html_part.add_related(logo((120, 60)), "image", "png", cid="<logo1>")
    mail.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="manual.pdf")
    forwarded = EmailMessage()
    forwarded["Subject"] = "Old values"
    forwarded.set_content("The M10 bolts took 40 Nm.")
    mail.add_attachment(forwarded)
    document, assets = parse_with_assets(bytes(mail), "mail.eml")
    blocks = list(document.blocks())
    assert document.title == "Pump PX-9 torque values"
    assert blocks[0] == Heading(text="Pump PX-9 torque values", level=1, page=1, tokens=blocks[0].tokens)
    assert isinstance(blocks[1], Paragraph) and blocks[1].text == (
        "From: Ana Silva <ana@example.com>\nTo: ops@example.com, Bo <bo@example.com>\n"
        "Date: Mon, 07 Dec 2026 10:00:00 +0000"
    )
    assert isinstance(blocks[2], Heading) and (blocks[2].text, blocks[2].level) == ("Torque", 2)  # under the subject
    table = next(block for block in blocks if isinstance(block, Table))
    assert table_grid(table) == [["Bolt", "Torque"], ["M10", "45 Nm"]]
    images = [block for block in blocks if isinstance(block, Image)]
    assert [(image.alt_text, image.asset_ref in assets) for image in images] == [("ACME", True)]  # no URL fetched
    attached = [block.text for block in blocks if isinstance(block, Heading | Paragraph)][-4:]
    assert attached == [
        "Attachments: manual.pdf, forwarded message 'Old values'",
        "Attachment: forwarded message 'Old values'",  # the broken PDF is named only
        "Old values",
        "The M10 bolts took 40 Nm.",
    ]
    levels = {block.text: block.level for block in blocks if isinstance(block, Heading)}
    assert levels["Attachment: forwarded message 'Old values'"] == 2 and levels["Old values"] == 3


def test_attachments_are_read_as_the_documents_they_are_but_an_attached_messages_are_only_named() -> None:
    mail = message()
    mail.add_attachment(b"Seal notes: replace every 6 months.", maintype="text", subtype="plain", filename="notes.txt")
    inner = EmailMessage()
    inner["Subject"] = "Older thread"
    inner.set_content("Earlier reply.")
    inner.add_attachment(b"Never read.", maintype="text", subtype="plain", filename="deep.txt")
    mail.add_attachment(inner)
    texts = [
        block.text for block in parse_bytes(bytes(mail), "m.eml").blocks() if isinstance(block, Heading | Paragraph)
    ]
    assert "Seal notes: replace every 6 months." in texts and "Earlier reply." in texts
    assert "Attachments: deep.txt" in texts and "Never read." not in texts


def test_a_plain_message_in_a_legacy_charset_with_an_encoded_subject() -> None:
    raw = (
        "From: =?utf-8?b?w4FuZ2VsYQ==?= <a@example.com>\r\nSubject: =?iso-8859-1?q?R=E9sum=E9_des_essais?=\r\n"
        "Date: not a date\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=iso-8859-1\r\n"
        "Content-Transfer-Encoding: 8bit\r\n\r\nLes essais de la pompe sont termin\xe9s.\r\n\r\n1. R\xe9sultats\r\n"
    ).encode("latin-1")
    content = parse(raw, filename="m.eml", limits=ParseLimits())
    assert content.title == "Résumé des essais"
    assert content.blocks[1] == Paragraph(text="From: Ángela <a@example.com>\nDate: not a date", page=1)
    assert Paragraph(text="Les essais de la pompe sont terminés.", page=1) in content.blocks


def test_what_is_no_message_or_nests_too_deeply_is_refused_clearly() -> None:
    with pytest.raises(CorruptDocumentError, match="not an e-mail message"):
        parse(b"Just some notes\n\nnothing else", filename="notes.eml", limits=ParseLimits())
    nested = b"From: a@example.com\nSubject: deep\nMIME-Version: 1.0\n"
    for level in range(3000):
        nested += b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (level, level)
    nested += b"Content-Type: text/plain\n\nhello\n"
    with pytest.raises(CorruptDocumentError, match="nest too deeply"):
        parse_bytes(nested, "deep.eml")


def test_an_eml_is_known_by_its_name_or_media_type() -> None:
    data = bytes(message())
    assert detect_format(data, "mail.eml") == "eml"
    assert detect_format(data, "upload", "message/rfc822") == "eml"


def test_the_messages_time_budget_running_out_in_an_attachment_ends_the_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An attachment is read under the message's budget: its end is the message's timeout, not a skipped file."""
    from docshelf.errors import ParseTimeoutError
    from docshelf.parsers.markup import text

    def out_of_time(*_args: object, **_kwargs: object) -> None:
        raise ParseTimeoutError("parsing took longer than the budget of 1s")

    mail = message()
    mail.add_attachment(b"Seal notes.", maintype="text", subtype="plain", filename="notes.txt")
    monkeypatch.setattr(text, "parse", out_of_time)
    with pytest.raises(ParseTimeoutError):
        parse_bytes(bytes(mail), "m.eml")


def test_outlooks_winmail_dat_gives_its_attachments_and_its_rich_body() -> None:
    from tests.unit.parsers.test_msg import RICH_TEXT, notes
    from tests.unit.parsers.tnef_fixtures import tnef

    mail = message()  # the plain body Outlook writes beside its TNEF part
    winmail = tnef(rtf=RICH_TEXT, attachments=[("seal notes.docx", notes()), ("logo.png", logo((90, 45)))])
    mail.add_attachment(winmail, maintype="application", subtype="ms-tnef", filename="winmail.dat")
    document, assets = parse_with_assets(mail.as_bytes(), "message.eml")
    blocks = list(document.blocks())
    texts = [block.text for block in blocks if isinstance(block, Paragraph | Heading)]
    assert "Attachments: seal notes.docx, logo.png" in texts and "winmail.dat" not in " ".join(texts)
    assert "Attachment: seal notes.docx" in texts and "Seal notes: replace every 6 months." in texts
    tables = [block for block in blocks if isinstance(block, Table)]
    assert table_grid(tables[0]) == [["M10", "45 Nm"], ["M12", "80 Nm"]]  # the rich body, not the plain one
    assert "Check them à la main." in texts and "The M10 bolts take 45 Nm." not in texts
    assert not assets  # the picture attachment holds no text: named only, as in any message


def test_a_damaged_winmail_dat_loses_only_what_follows_the_damage() -> None:
    from tests.unit.parsers.test_msg import notes
    from tests.unit.parsers.tnef_fixtures import tnef

    winmail = tnef(attachments=[("seal notes.docx", notes()), ("second.txt", b"The second attachment.")])
    for cut in (6, 40, len(winmail) // 2, len(winmail) - 30):
        mail = message()
        mail.add_attachment(winmail[:cut], maintype="application", subtype="ms-tnef", filename="winmail.dat")
        texts = [getattr(block, "text", "") for block in parse_bytes(mail.as_bytes(), "message.eml").blocks()]
        assert "The M10 bolts take 45 Nm." in texts  # the plain body stays
    mail = message()
    mail.add_attachment(b"not TNEF at all", maintype="application", subtype="ms-tnef", filename="winmail.dat")
    texts = [getattr(block, "text", "") for block in parse_bytes(mail.as_bytes(), "message.eml").blocks()]
    assert "Attachments: winmail.dat" in texts  # named as any other attachment it cannot read


def test_a_winmail_dat_html_body_shows_its_own_attachments_pictures() -> None:
    from tests.unit.parsers.tnef_fixtures import tnef

    rtf = (
        rb"{\rtf1\ansi\fromhtml1 {\*\htmltag64 <html><body>}{\*\htmltag64 <p>}See the pump:{\*\htmltag72 </p>}"
        rb'{\*\htmltag64 <img src="cid:pump1">}{\*\htmltag72 </body></html>}}'
    )
    winmail = tnef(rtf=rtf, attachments=[("pump.png", logo((120, 60)))], content_ids={"pump.png": "pump1"})
    mail = message()
    mail.add_attachment(winmail, maintype="application", subtype="ms-tnef", filename="winmail.dat")
    document, assets = parse_with_assets(mail.as_bytes(), "message.eml")
    blocks = list(document.blocks())
    assert "See the pump:" in [getattr(block, "text", "") for block in blocks]
    images = [block for block in blocks if isinstance(block, Image)]
    assert len(images) == 1 and set(assets) == {images[0].asset_ref}  # shown in the body, not read again
