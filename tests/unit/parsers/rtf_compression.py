"""Compressed RTF as Outlook writes it (MS-OXRTFCP), for the tests: literals and references to the longest match
in the window, the window starting with the format's preamble, ended by a reference to the write position."""

from __future__ import annotations

import struct
import zlib

from docshelf.parsers.markup.compressed_rtf import PRELOADED

WINDOW = 4096


def compressed(rtf: bytes) -> bytes:
    window = bytearray(WINDOW)
    window[: len(PRELOADED)] = PRELOADED
    written, at, out = len(PRELOADED), 0, bytearray()
    items: list[bytes] = []  # each a literal byte or a two-byte reference, with its control bit
    flags: list[int] = []
    while at < len(rtf):
        offset, length = _longest(window, written, rtf, at)
        if length >= 2:
            items.append(struct.pack(">H", offset << 4 | (length - 2)))
            flags.append(1)
        else:
            length = 1
            items.append(rtf[at : at + 1])
            flags.append(0)
        for byte in rtf[at : at + length]:
            window[written] = byte
            written = (written + 1) % WINDOW
        at += length
    items.append(struct.pack(">H", written << 4))  # the end: a reference to where the next byte would go
    flags.append(1)
    for first in range(0, len(items), 8):
        out.append(sum(flag << bit for bit, flag in enumerate(flags[first : first + 8])))
        out += b"".join(items[first : first + 8])
    crc = zlib.crc32(bytes(out), 0xFFFFFFFF) ^ 0xFFFFFFFF  # the format's CRC starts at 0 and is not inverted
    return struct.pack("<II4sI", len(out) + 12, len(rtf), b"LZFu", crc) + bytes(out)


def _longest(window: bytearray, written: int, rtf: bytes, at: int) -> tuple[int, int]:
    """The window offset and length (2 to 17) of the longest earlier copy of what comes next, or (0, 0); never one
    reading bytes the copy itself overwrites."""
    best = (0, 0)
    if at + 2 > len(rtf):
        return best
    offset = window.find(rtf[at : at + 2])
    while offset >= 0:
        length = 0
        while (
            length < 17
            and at + length < len(rtf)
            and offset + length < WINDOW
            and not 0 <= (offset + length - written) % WINDOW < length + 1
            and window[offset + length] == rtf[at + length]
        ):
            length += 1
        if length > best[1] and offset != written:
            best = (offset, length)
        offset = window.find(rtf[at : at + 2], offset + 1)
    return best if best[1] >= 2 else (0, 0)
