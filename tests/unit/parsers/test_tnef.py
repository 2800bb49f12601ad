"""TNEF streams (parsers/markup/tnef.py): attachments and the rich body of Outlook's winmail.dat, and damage read up
to where it starts."""

from __future__ import annotations

import random
import struct

from docshelf.parsers.markup.tnef import mapi_properties, read_tnef
from tests.unit.parsers.tnef_fixtures import tnef


def test_attachments_by_their_full_names_and_the_compressed_body() -> None:
    stream = tnef(rtf=b"{\\rtf1 x}", attachments=[("quarterly report.pdf", b"%PDF-1.4"), ("a.txt", b"text")])
    found = read_tnef(stream)
    assert found is not None and found.rtf_compressed is not None
    assert [(item.name, item.data) for item in found.attachments] == [
        ("quarterly report.pdf", b"%PDF-1.4"),  # the long name of its MAPI properties over its 8.3 title
        ("a.txt", b"text"),
    ]
    assert read_tnef(b"not a TNEF stream") is None


def test_properties_after_named_ones_of_both_kinds_and_multiple_values() -> None:
    by_number = struct.pack("<HH", 0x0003, 0x8002) + bytes(16) + struct.pack("<II", 0, 7) + struct.pack("<I", 1)
    several = struct.pack("<HHI", 0x101F, 0x3A40, 2) + b"".join(
        struct.pack("<I", len(v)) + v + bytes(-len(v) % 4) for v in ("a".encode("utf-16-le"), b"bc\0\0")
    )
    body = struct.pack("<HH", 0x001E, 0x1000) + struct.pack("<II", 1, 6) + b"Hello\0" + bytes(2)
    properties = mapi_properties(struct.pack("<I", 3) + by_number + several + body)
    assert properties[(0x1000, 0x001E)] == b"Hello\0" and properties[(0x3A40, 0x001F)] == "a".encode("utf-16-le")


def test_damage_never_raises_and_keeps_what_came_before() -> None:
    stream = tnef(rtf=b"{\\rtf1 x}", attachments=[("one.txt", b"first"), ("two.txt", b"second")])
    rng = random.Random(3)
    for _ in range(2_000):
        damaged = bytearray(stream[: rng.randrange(len(stream) + 1)])
        for _ in range(rng.randint(0, 6)):
            if damaged:
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        read_tnef(bytes(damaged))
    cut = read_tnef(stream[: stream.index(b"second") - 4])
    assert cut is not None and [item.data for item in cut.attachments][:1] == [b"first"]
