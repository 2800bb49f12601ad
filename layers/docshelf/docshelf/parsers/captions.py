"""A caption's label opening a line: `Figure 1:`, `Table 2.`, `Fig. 3 Overview`, `图 2`; not running text that names
one (`Table 2 compares…`). Such a line belongs to its figure or table, not to the text's flow or its outline."""

from __future__ import annotations

import re

CAPTION = re.compile(
    r"^(?:(?i:fig(?:ure)?\.?|table|chart|diagram)\s*[\dA-Z][\d.\-–]*\s*(?:[:.|—–-]|\s[A-Z])"
    r"|(?:图|圖|図|表)\s*[\d一二三四五六七八九十])"
)


def is_caption(text: str) -> bool:
    return CAPTION.match(text) is not None
