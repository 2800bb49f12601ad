"""Calendars (.ics) and contact cards (.vcf) read as a calendar or an address book shows them."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from docshelf.errors import CorruptDocumentError
from docshelf.parsers import parse_bytes
from docshelf.parsers.detect import detect_format
from docshelf.tables import block_text

INVITE = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//EN\r\nX-WR-CALNAME:Plant maintenance\r\n"
    "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nEND:STANDARD\r\n"
    "END:VTIMEZONE\r\n"
    "BEGIN:VEVENT\r\nUID:1@example.com\r\nSUMMARY:Seal replacement on pump PX-9\r\n"
    "DTSTART;TZID=Europe/Berlin:20261207T100000\r\nDTEND;TZID=Europe/Berlin:20261207T113000\r\n"
    "LOCATION:Pump room 2\\, building B\r\nORGANIZER;CN=Ana Ng:mailto:ana@example.com\r\n"
    "ATTENDEE;CN=Bo Ruiz;ROLE=REQ-PARTICIPANT:mailto:bo@example.com\r\n"
    "DESCRIPTION:Replace the SK-7 seal kit.\\nTorque the M10 bolts to 45 Nm.\\n\\nBring the calibrated wr\r\n"
    " ench.\r\n"
    "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder that never shows\r\nEND:VALARM\r\nEND:VEVENT\r\n"
    "BEGIN:VTODO\r\nSUMMARY:Order spare seals\r\nDUE;VALUE=DATE:20261215\r\nEND:VTODO\r\n"
    "END:VCALENDAR\r\n"
)
CARD = (
    "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Ng;Ana;;;\r\nFN:Ana Ng\r\nORG:Acme Pumps;Maintenance\r\nTITLE:Lead engineer\r\n"
    "EMAIL;TYPE=work:ana@example.com\r\nTEL;TYPE=cell:+49 30 1234567\r\n"
    "ADR;TYPE=work:;;Hauptstr. 1;Berlin;;10115;Germany\r\nNOTE:Knows the PX-9 line\\, ask her first.\r\n"
    "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQ\r\nEND:VCARD\r\n"
    "BEGIN:VCARD\r\nVERSION:4.0\r\nN:Ruiz;Bo;;;\r\nTEL:+34 600 000 000\r\nEND:VCARD\r\n"
)


def test_an_invite_reads_as_a_calendar_shows_it() -> None:
    data = INVITE.encode()
    assert detect_format(data, "invite.ics") == "ics" and detect_format(data, "upload") == "ics"
    document = parse_bytes(data, "invite.ics")
    assert document.title == "Plant maintenance"
    assert [block_text(block) for block in document.blocks()] == [
        "Seal replacement on pump PX-9",
        "When: 2026-12-07 10:00 – 2026-12-07 11:30\nWhere: Pump room 2, building B\nOrganizer: ana@example.com\n"
        "Attendees: bo@example.com",
        "Replace the SK-7 seal kit.\nTorque the M10 bolts to 45 Nm.",
        "Bring the calibrated wrench.",
        "To do: Order spare seals",
        "When: 2026-12-15",
    ]  # fmt: skip


def test_contact_cards_read_as_an_address_book_shows_them() -> None:
    data = CARD.encode()
    assert detect_format(data, "team.vcf") == "vcf"
    assert [block_text(block) for block in parse_bytes(data, "team.vcf").blocks()] == [
        "Ana Ng",
        "Organization: Acme Pumps, Maintenance\nTitle: Lead engineer\nE-mail: ana@example.com\n"
        "Telephone: +49 30 1234567\nAddress: Hauptstr. 1, Berlin, 10115, Germany",
        "Knows the PX-9 line, ask her first.",
        "Bo Ruiz",
        "Telephone: +34 600 000 000",
    ]  # fmt: skip
    with pytest.raises(CorruptDocumentError, match="no event, to-do or card"):
        parse_bytes(b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n", "empty.ics")


def test_an_invite_attached_to_a_message_is_read_with_it() -> None:
    message = EmailMessage()
    message["Subject"], message["From"] = "Maintenance window", "ana@example.com"
    message.set_content("See the invite.")
    message.add_attachment(INVITE.encode(), maintype="text", subtype="calendar", filename="invite.ics")
    texts = [block_text(block) for block in parse_bytes(message.as_bytes(), "mail.eml").blocks()]
    assert "Attachment: invite.ics" in texts and "Seal replacement on pump PX-9" in texts
