"""TNEF (`winmail.dat`, MS-OXTNEF): how Outlook sends a rich-text message to a mail client it does not know. The
MIME message carries a plain body and one `application/ms-tnef` part, which holds the real attachments and the rich
body. A stream of attributes (level, id, length, data, checksum) after a signature: attachment attributes after an
attachment's rendering data belong to it (its title, its data, its MAPI properties, which may name it again); the
message's MAPI properties hold its compressed RTF or HTML body."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

SIGNATURE = 0x223E9F78
ATTACH_LEVEL = 0x02
# attribute ids (their low 16 bits; the high 16 are a type the reader does not need)
SUBJECT, BODY, ATTACH_DATA, ATTACH_TITLE = 0x8004, 0x800C, 0x800F, 0x8010
ATTACH_START, MESSAGE_PROPS, ATTACH_PROPS = 0x9002, 0x9003, 0x9005
# MAPI properties read: (id, type)
RTF_COMPRESSED, HTML, PLAIN, PLAIN_8BIT = (0x1009, 0x0102), (0x1013, 0x0102), (0x1000, 0x001F), (0x1000, 0x001E)
LONG_NAME, LONG_NAME_8BIT, DATA = (0x3707, 0x001F), (0x3707, 0x001E), (0x3701, 0x0102)
CONTENT_ID, CONTENT_ID_8BIT = (0x3712, 0x001F), (0x3712, 0x001E)
_FIXED = {0x0001: 4, 0x0002: 4, 0x0003: 4, 0x0004: 4, 0x0005: 8, 0x0006: 8, 0x0007: 8, 0x000A: 4, 0x000B: 4,
          0x0014: 8, 0x0040: 8, 0x0048: 16}  # fmt: skip
_VARIABLE = frozenset({0x000D, 0x001E, 0x001F, 0x0102})
_MULTIPLE = 0x1000
MAX_ATTRIBUTES = 10_000
MAX_PROPERTIES = 10_000


@dataclass
class TnefAttachment:
    name: str = ""
    data: bytes | None = None
    content_id: str = ""


@dataclass
class Tnef:
    subject: str = ""
    body: str = ""  # the plain body, when the stream holds one
    html: bytes | None = None
    rtf_compressed: bytes | None = None
    attachments: list[TnefAttachment] = field(default_factory=list)


def read_tnef(data: bytes) -> Tnef | None:
    """What a TNEF stream holds, or None when it is none; a damaged stream gives what it held before the damage."""
    if len(data) < 6 or struct.unpack_from("<I", data)[0] != SIGNATURE:
        return None
    found = Tnef()
    at = 6
    for _ in range(MAX_ATTRIBUTES):
        if at + 9 > len(data):
            break
        level, attribute, length = struct.unpack_from("<BII", data, at)
        value = data[at + 9 : at + 9 + length]
        if len(value) < length:
            break
        at += 9 + length + 2  # and the checksum
        _take(found, level, attribute & 0xFFFF, value)
    return found


def _take(found: Tnef, level: int, attribute: int, value: bytes) -> None:
    if attribute == ATTACH_START and level == ATTACH_LEVEL:
        found.attachments.append(TnefAttachment())
    elif level == ATTACH_LEVEL and found.attachments:
        attachment = found.attachments[-1]
        if attribute == ATTACH_TITLE:
            attachment.name = attachment.name or _string8(value)
        elif attribute == ATTACH_DATA:
            attachment.data = value
        elif attribute == ATTACH_PROPS:
            props = mapi_properties(value)
            long_name = _text(props, LONG_NAME, LONG_NAME_8BIT)
            attachment.name = long_name or attachment.name
            attachment.data = props.get(DATA, attachment.data)
            attachment.content_id = _text(props, CONTENT_ID, CONTENT_ID_8BIT)
    elif attribute == SUBJECT:
        found.subject = _string8(value)
    elif attribute == BODY:
        found.body = _string8(value)
    elif attribute == MESSAGE_PROPS:
        props = mapi_properties(value)
        found.rtf_compressed = props.get(RTF_COMPRESSED)
        found.html = props.get(HTML)
        found.body = found.body or _text(props, PLAIN, PLAIN_8BIT)


def mapi_properties(data: bytes) -> dict[tuple[int, int], bytes]:
    """(property id, type) -> the first value's bytes, of an encoded MAPI property list; what comes before damage or
    an unknown type."""
    found: dict[tuple[int, int], bytes] = {}
    cursor = _Cursor(data)
    try:
        for _ in range(min(cursor.u32(), MAX_PROPERTIES)):
            kind, ident = cursor.u16(), cursor.u16()
            if ident >= 0x8000:  # a named property: its GUID, then a number or a name
                cursor.take(16)
                by_name = cursor.u32() == 1
                cursor.take(_padded(cursor.u32()) if by_name else 4)
            base = kind & ~_MULTIPLE
            if base not in _VARIABLE and base not in _FIXED:
                break
            count = cursor.u32() if kind & _MULTIPLE or base in _VARIABLE else 1
            values = [_value(cursor, base) for _ in range(min(count, MAX_PROPERTIES))]
            if values:
                found[(ident, base)] = values[0]
    except _Truncated:
        pass
    return found


class _Truncated(Exception):
    pass


class _Cursor:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, size: int) -> bytes:
        if self.at + size > len(self.data):
            raise _Truncated
        self.at += size
        return self.data[self.at - size : self.at]

    def u16(self) -> int:
        return int(struct.unpack("<H", self.take(2))[0])

    def u32(self) -> int:
        return int(struct.unpack("<I", self.take(4))[0])


def _value(cursor: _Cursor, base: int) -> bytes:
    if base in _VARIABLE:
        size = cursor.u32()
        value = cursor.take(size)
        cursor.take(-size % 4)
        return value
    return cursor.take(_FIXED[base])


def _padded(size: int) -> int:
    return size + (-size % 4)


def _text(props: dict[tuple[int, int], bytes], wide: tuple[int, int], narrow: tuple[int, int]) -> str:
    if wide in props:
        return props[wide].decode("utf-16-le", errors="replace").rstrip("\x00")
    return _string8(props.get(narrow, b""))


def _string8(value: bytes) -> str:
    return value.split(b"\x00", 1)[0].decode("cp1252", errors="replace")
