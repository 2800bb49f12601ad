"""Outlook's compressed RTF (parsers/markup/compressed_rtf.py) and the HTML an RTF body encapsulates
(parsers/markup/rtf_html.py)."""

from __future__ import annotations

import struct

from hypothesis import given, settings
from hypothesis import strategies as st

from docshelf.parsers.markup.compressed_rtf import MAX_RTF_BYTES, decompressed_rtf
from docshelf.parsers.markup.rtf_html import encapsulated_html
from tests.unit.parsers.rtf_compression import compressed

# MS-OXRTFCP's first example: "{\rtf1\ansi\ansicpg1252\pard hello world}" and CRLF, compressed by its rules.
SPEC_EXAMPLE = bytes.fromhex(
    "2d0000002b0000004c5a4675f1c5c7a703000a007263706731323542320af32068656c0900206277 05b06c647d0a800fa0".replace(
        " ", ""
    )
)


def test_the_specifications_example_decompresses() -> None:
    assert decompressed_rtf(SPEC_EXAMPLE) == b"{\\rtf1\\ansi\\ansicpg1252\\pard hello world}\r\n"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([b"{\\rtf1", b"\\par ", b"\\pard", b"hello ", b"x", b"\r\n", b"}", b"\\'e9", b"aaaa"]),
                max_size=80).map(b"".join))  # fmt: skip
def test_what_outlook_compresses_comes_back(rtf: bytes) -> None:
    assert decompressed_rtf(compressed(rtf)) == rtf


def test_stored_damaged_and_oversized_bodies() -> None:
    stored = struct.pack("<II4sI", 12 + 9, 9, b"MELA", 0) + b"{\\rtf1 x}"
    assert decompressed_rtf(stored) == b"{\\rtf1 x}"
    packed = compressed(b"{\\rtf1\\ansi Torque values for the M10 bolts}")
    assert decompressed_rtf(packed[:24]) == b"{\\rtf1\\ansi Torque"[: len(decompressed_rtf(packed[:24]) or b"")]
    assert decompressed_rtf(b"short") is None and decompressed_rtf(packed[:8] + b"ZZZZ" + packed[12:]) is None
    assert decompressed_rtf(struct.pack("<II4sI", 12, MAX_RTF_BYTES + 1, b"LZFu", 0)) is None


OUTLOOK_HTML_RTF = rb"""{\rtf1\ansi\ansicpg1252\fromhtml1 \fbidis \deff0{\fonttbl
{\f0\fswiss\fcharset0 Arial;}{\f1\fmodern Courier New;}}
{\colortbl\red0\green0\blue0;\red5\green99\blue193;}
{\*\generator Microsoft Exchange Server;}
{\*\formatConverter converted from html;}
\viewkind5\viewscale100
{\*\bkmkstart BM_BEGIN}{\*\htmltag64 <html>}{\*\htmltag64 <body>}
{\*\htmltag64 <h2>}\htmlrtf {\b\fs28 \htmlrtf0 Torque \'e9tape\htmlrtf }\htmlrtf0 {\*\htmltag72 </h2>}
{\*\htmltag64 <table>}{\*\htmltag64 <tr>}{\*\htmltag64 <td>}M10\htmlrtf \tab \htmlrtf0 {\*\htmltag72 </td>}
{\*\htmltag64 <td>}45 Nm{\*\htmltag72 </td>}{\*\htmltag72 </tr>}{\*\htmltag72 </table>}
{\*\htmltag64 <p>}Caf\u233?s &amp; {\*\htmltag84 &nbsp;}bolts\htmlrtf\par\htmlrtf0 {\*\htmltag72 </p>}
{\*\htmltag72 </body>}{\*\htmltag72 </html>}}"""


def test_the_html_inside_an_rtf_body_is_its_tags_and_text() -> None:
    html = encapsulated_html(OUTLOOK_HTML_RTF)
    assert html is not None
    assert html == (
        "<html><body><h2>Torque étape</h2><table><tr><td>M10</td><td>45 Nm</td></tr></table>"
        "<p>Cafés &amp; &nbsp;bolts</p></body></html>"
    )  # the RTF's own line breaks are no text; the RTF-only tab, bold and paragraph end are left out
    assert "Arial" not in html and "Exchange" not in html and "converted" not in html  # header destinations
    assert encapsulated_html(b"{\\rtf1\\ansi\\fromtext hello}") is None
