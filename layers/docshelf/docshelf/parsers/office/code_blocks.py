"""Code in word-processor files: a paragraph in a code style (by name: pandoc's "Source Code", Word's "HTML
Preformatted" and "Macro Text", LibreOffice's "Preformatted Text"…) is a line of code, its spaces kept, and
consecutive code paragraphs make one code block, as a fenced block of Markdown or a <pre> of HTML does.
"""

from __future__ import annotations

import re
from dataclasses import replace

from docshelf.model import Block, Paragraph

CODE_STYLE_NAMES = frozenset(
    {
        "source code", "source text", "preformatted text", "html preformatted", "macro text", "plain text", "code",
        "code block", "verbatim",
    }
)  # fmt: skip
_ENCODED_SPACE = re.compile(r"_20_")


def is_code_style(name: str) -> bool:
    """A style name (OpenDocument's encoded `_20_` spaces read as spaces) that marks code."""
    return " ".join(_ENCODED_SPACE.sub(" ", name).lower().split()) in CODE_STYLE_NAMES


def verbatim(text: str) -> str:
    """Code text as written: each line's trailing spaces dropped, leading ones (the indentation) kept."""
    return "\n".join(line.rstrip() for line in text.split("\n"))


class CodeBlocks:
    """Joins the code paragraphs a reader meets in a row into one code block; empty ones between them are its
    blank lines (at its start or end, they are dropped)."""

    def __init__(self) -> None:
        self._last: Paragraph | None = None
        self._blank = 0

    def add(self, blocks: list[Block], text: str, page: int, list_level: int | None = None) -> None:
        text = verbatim(text).strip("\n")
        last = self._last
        joined = last is not None and bool(blocks) and blocks[-1] is last and last.page == page
        if not text.strip():
            self._blank += 1 + text.count("\n") if joined else 0
            return
        if last is not None and joined:
            block = replace(last, text=last.text + "\n" * (self._blank + 1) + text)
            blocks[-1] = block
        else:
            block = Paragraph(text=text, page=page, code=True, list_level=list_level)
            blocks.append(block)
        self._last, self._blank = block, 0
