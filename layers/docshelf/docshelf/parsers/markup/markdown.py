"""Markdown parser: decoding, front matter, then the block scanner."""

from __future__ import annotations

import re

from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup.markdown_blocks import markdown_blocks
from docshelf.parsers.textcodec import decode_text

_FRONT_MATTER = re.compile(r"\A(?:---|\+\+\+)[ \t]*\n(.*?\n)(?:---|\+\+\+|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_FRONT_TITLE = re.compile(r"^title\s*[:=]\s*[\"']?(.*?)[\"']?\s*$", re.M | re.I)


def split_front_matter(text: str) -> tuple[str, str]:
    """(title from YAML/TOML front matter or "", the text without the front matter)."""
    match = _FRONT_MATTER.match(text)
    if match is None or not re.search(r"^\s*[\w-]+\s*[:=]", match.group(1), re.M):
        return "", text
    title = _FRONT_TITLE.search(match.group(1))
    return (title.group(1).strip() if title else ""), text[match.end() :]


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    text, _ = decode_text(data)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    title, body = split_front_matter(text)
    return ParsedContent(blocks=markdown_blocks(body, page=1), page_count=1, title=title)
