"""RTF's tokens, for the RTF reader (office/rtf_reader.py) and the HTML an Outlook message keeps inside its RTF body
(markup/rtf_html.py): a control word with its number (the space ending it taken), a byte in hex (\\'hh), a control
symbol, a brace, a run of text, line breaks (which RTF ignores); and the characters control words and symbols stand
for."""

from __future__ import annotations

import re

TOKEN = re.compile(
    rb"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\'([0-9a-fA-F]{2})|\\([^a-zA-Z'])|([{}])|([^\\{}\r\n]+)|[\r\n]+", re.S
)

SYMBOLS = {
    "emdash": "\u2014", "endash": "\u2013", "bullet": "\u2022", "lquote": "\u2018", "rquote": "\u2019",
    "ldblquote": "\u201c", "rdblquote": "\u201d", "emspace": " ", "enspace": " ", "qmspace": " ",
    "tab": "\t", "line": "\n", "zwj": "", "zwnj": "", "ltrmark": "", "rtlmark": "",
}  # fmt: skip
CONTROL_SYMBOLS = {"~": "\u00a0", "-": "", "_": "\u2011", "\\": "\\", "{": "{", "}": "}", "|": "", ":": ""}
