"""Outlook's compressed RTF (MS-OXRTFCP): the rich-text body of a `.msg` (PR_RTF_COMPRESSED), LZ77 over a 4 KB
window that starts out holding a stock RTF preamble. A control byte's bits, lowest first, tell a literal byte from a
two-byte reference (12 bits of window offset, 4 of length less 2); a reference to where the next byte would be
written ends the data. A header names the compressed size, the RTF's size and the kind (`LZFu`, or `MELA` for RTF
stored as it is)."""

from __future__ import annotations

import struct

PRELOADED = (
    b"{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript "
    b"\\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par "
    b"\\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx"
)
HEADER = 16
WINDOW_MASK = 0xFFF  # a 4,096-byte window
MAX_RTF_BYTES = 16 * 1024 * 1024  # a body larger than this is mostly pictures: the plain-text body stands in


def decompressed_rtf(data: bytes) -> bytes | None:
    """The RTF a PR_RTF_COMPRESSED value holds, or None when it is no such value or larger than MAX_RTF_BYTES (a
    damaged stream gives what it held before the damage)."""
    if len(data) < HEADER:
        return None
    size, raw_size, kind = struct.unpack_from("<II4s", data)
    if raw_size > MAX_RTF_BYTES:
        return None
    end = min(len(data), size + 4)  # the size counts the header's last 12 bytes and the data
    if kind == b"MELA":
        return data[HEADER : HEADER + raw_size]
    if kind != b"LZFu":
        return None
    window = bytearray(WINDOW_MASK + 1)
    window[: len(PRELOADED)] = PRELOADED
    written = len(PRELOADED)
    out = bytearray()
    at = HEADER
    while at < end and len(out) < raw_size:
        control = data[at]
        at += 1
        for bit in range(8):
            if control >> bit & 1 == 0:
                if at >= end:
                    break
                out.append(data[at])
                window[written] = data[at]
                written = (written + 1) & WINDOW_MASK
                at += 1
                continue
            if at + 1 >= end:
                break
            reference = data[at] << 8 | data[at + 1]
            at += 2
            offset = reference >> 4
            if offset == written:
                return bytes(out[:raw_size])
            for step in range((reference & 0xF) + 2):  # byte by byte: a reference may overlap what it writes
                byte = window[(offset + step) & WINDOW_MASK]
                out.append(byte)
                window[written] = byte
                written = (written + 1) & WINDOW_MASK
    return bytes(out[:raw_size])
