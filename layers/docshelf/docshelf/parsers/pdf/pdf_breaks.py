"""Line breaks that stand for no space: inside a web address or an e-mail address, and inside a number range.

A line that ends inside an address ends with a piece of it: a token that starts like an address (`https://`,
`www.`, `name@`) and ends on a character an address breaks after (`/ . - _ ? & = # @`). The next line goes on
with the address when its first token may: after `/` it holds more of an address (a slash, a dot, a digit, ...);
after `.` it starts in lower case or with a digit (a sentence after a full stop starts with a capital); after the
others it starts with a letter or a digit. A number range broken after its dash (`2015-` / `2019`) goes on with
a digit; a number broken after its hyphen goes on with a word or a bracket too (`5-` / `year`, `2-` / `methyl`,
`1-` / `(mean`).
"""

from __future__ import annotations

import re

_ADDRESS_START = re.compile(r"^[(<\[\"']?(?:(?:https?|ftp)://|www\.|[\w.+-]+@)", re.IGNORECASE)
_ADDRESS_BREAKS = "/.-_?&=#@"
_ADDRESS_PIECE = re.compile(r"[/.\-_?&=#%~@\d]")
_RANGE_END = re.compile(r"\d[-–]$")


def unspaced(tail: str, head: str) -> bool:
    """Whether the line ending in `tail` and the next line starting with `head` join without a space."""
    if _RANGE_END.search(tail):
        return head[:1].isdigit() or (tail.endswith("-") and (head[:1].isalpha() or head[:1] == "("))
    last = tail.rsplit(maxsplit=1)[-1] if tail.strip() else ""
    first = head.split(maxsplit=1)[0] if head.strip() else ""
    if not first[:1].isalnum() or last[-1:] not in _ADDRESS_BREAKS or not _ADDRESS_START.match(last):
        return False
    if last.endswith("/"):
        return _ADDRESS_PIECE.search(first.rstrip(".,;:!?)]>\"'")) is not None
    if last.endswith("."):
        return first[0].islower() or first[0].isdigit()
    return True
