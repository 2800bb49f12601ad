"""TNEF streams (`winmail.dat`) as Outlook writes them for the tests: a version, a message class, the message's MAPI
properties (its compressed RTF body), then each attachment's rendering data, title, data and MAPI properties, which
name it again in full and carry named properties of Outlook's own."""

from __future__ import annotations

import struct
from collections.abc import Sequence

from tests.unit.parsers.rtf_compression import compressed

SIGNATURE = 0x223E9F78
OUTLOOK_GUID = bytes(range(16))


def tnef(
    *,
    rtf: bytes | None = None,
    attachments: Sequence[tuple[str, bytes]] = (),
    content_ids: dict[str, str] | None = None,
) -> bytes:
    out = struct.pack("<IH", SIGNATURE, 0x0B0E)
    out += _attribute(1, 0x00089006, struct.pack("<I", 0x00010000))  # attTnefVersion
    out += _attribute(1, 0x00078008, b"IPM.Microsoft Mail.Note\0")  # attMessageClass
    message = [(0x0003, 0x0E07, struct.pack("<I", 1))]  # PR_MESSAGE_FLAGS, then a named property, then the body
    message.append((0x001F, 0x8001, "Outlook internal".encode("utf-16-le") + b"\0\0"))
    if rtf is not None:
        message.append((0x0102, 0x1009, compressed(rtf)))
    out += _attribute(1, 0x00069003, _properties(message))  # attMsgProps
    for name, data in attachments:
        out += _attribute(2, 0x00069002, bytes(14))  # attAttachRendData: a new attachment
        out += _attribute(2, 0x00018010, name[:8].encode("cp1252") + b"\0")  # attAttachTitle: its 8.3 name
        out += _attribute(2, 0x0006800F, data)  # attAttachData
        properties = [
            (0x001F, 0x3707, name.encode("utf-16-le") + b"\0\0"),
            (0x0003, 0x0E20, struct.pack("<I", len(data))),
        ]
        if content_ids and name in content_ids:
            properties.append((0x001F, 0x3712, content_ids[name].encode("utf-16-le") + b"\0\0"))
        out += _attribute(2, 0x00069005, _properties(properties))  # attAttachment
    return out


def _attribute(level: int, ident: int, value: bytes) -> bytes:
    return struct.pack("<BII", level, ident, len(value)) + value + struct.pack("<H", sum(value) & 0xFFFF)


def _properties(properties: list[tuple[int, int, bytes]]) -> bytes:
    out = struct.pack("<I", len(properties))
    for kind, ident, value in properties:
        out += struct.pack("<HH", kind, ident)
        if ident >= 0x8000:  # named: by name (kind 1), the name's UTF-16 padded to 4 bytes
            name = "x-docshelf-test".encode("utf-16-le") + b"\0\0"
            out += OUTLOOK_GUID + struct.pack("<II", 1, len(name)) + name + bytes(-len(name) % 4)
        if kind in (0x001F, 0x001E, 0x0102):
            out += struct.pack("<II", 1, len(value)) + value + bytes(-len(value) % 4)
        else:
            out += value
    return out
