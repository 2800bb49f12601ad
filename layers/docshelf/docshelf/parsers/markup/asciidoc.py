"""AsciiDoc (`.adoc`): section titles by their `=` marks (`= Document title`, `== Section`, or Markdown's `#`),
listing and literal blocks (`----`, `....`, a paragraph indented) as code, `*` / `-` and `.` list items, admonition
paragraphs (`NOTE: …`) as text; comments (`//`, `////` blocks), attribute entries (`:toc:`), block attributes
(`[source,python]`) and anchors left out. Inline markup keeps its text: `*bold*`, `_italic_`, `` `code` ``,
`https://example.com[label]`.
"""

from __future__ import annotations

import re

from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup.text import read_lines
from docshelf.tables import table_from_rows

_TITLE = re.compile(r"^(={1,6}|#{1,6})\s+(\S.*?)\s*(?:\1)?$")
_LIST = re.compile(r"^(\*{1,5}|-|\.{1,5}|\d+\.)\s+(.*)$")
_DELIMITERS = {"----": True, "....": True, "____": False, "====": False, "****": False, "--": False, "|===": False}
_SKIPPED_LINE = re.compile(r"^(?://(?!/)|:[\w-]+!?:|\[[^\]]*\]$|\[\[[^\]]*\]\]$|ifn?def::|endif::|include::|toc::)")
_LINK = re.compile(r"(?:https?://\S+?|link:\S+?)\[([^\]]*)\]")
_INLINE = re.compile(r"(?<!\w)([*_`#]{1,2})(\S(?:.*?\S)?)\1(?!\w)")


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    return read_lines(data, _read)


def inline_text(text: str) -> str:
    return _INLINE.sub(r"\2", _LINK.sub(lambda match: match.group(1) or match.group(0).split("[", 1)[0], text))


def _read(lines: list[str]) -> list[Block]:
    reader = _Reader(lines)
    reader.read()
    return reader.blocks


class _Reader:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.at = 0
        self.blocks: list[Block] = []
        self.paragraph: list[str] = []
        self.numbers: dict[int, int] = {}  # the ordered list being read: its last number at each level

    def read(self) -> None:
        while self.at < len(self.lines):
            line = self.lines[self.at].rstrip()
            self.at += 1
            if line.startswith("////") or line in _DELIMITERS:
                self.flush()
                self.delimited(line)
            elif not line.strip() or _SKIPPED_LINE.match(line):
                self.flush()
            elif (title := _TITLE.match(line) if not self.paragraph else None) is not None:
                self.flush()
                self.blocks.append(Heading(text=inline_text(title.group(2)), level=len(title.group(1)), page=1))
            else:
                if _LIST.match(line) and self.paragraph:
                    self.flush()
                self.paragraph.append(line)
        self.flush()

    def delimited(self, fence: str) -> None:
        """The block from here to its closing fence: a comment (dropped), a listing (code), a table, or other
        content read as text."""
        body: list[str] = []
        closing = "////" if fence.startswith("////") else fence
        while self.at < len(self.lines) and not self.lines[self.at].rstrip().startswith(closing):
            body.append(self.lines[self.at])
            self.at += 1
        self.at += 1
        if closing == "////":
            return
        if fence == "|===":
            self.table(body)
        elif _DELIMITERS[fence]:
            if any(text.strip() for text in body):
                self.blocks.append(Paragraph(text="\n".join(body).strip("\n"), page=1, code=True))
        else:  # an example, quote, sidebar or open block: its content read as text
            self.blocks += _read(body)

    def table(self, body: list[str]) -> None:
        rows = [[inline_text(cell.strip()) for cell in line.strip()[1:].split("|")] for line in body if line.strip()]
        rows = [row for row in rows if any(row)]
        if rows:
            header = 1 if len(body) > 1 and body[0].strip() and not body[1].strip() else 0  # a blank line after row 1
            self.blocks.append(table_from_rows(rows, page=1, header_rows=header))

    def flush(self) -> None:
        if not self.paragraph:
            self.numbers.clear()
            return
        lines, self.paragraph = self.paragraph, []
        item = _LIST.match(lines[0])
        if item is None:
            self.numbers.clear()
            self.blocks.append(Paragraph(text=inline_text(" ".join(line.strip() for line in lines)), page=1))
            return
        marks = item.group(1)
        level = 0 if marks == "-" or marks[0].isdigit() else len(marks) - 1
        label = ""
        if marks[0] == ".":
            self.numbers[level] = self.numbers.get(level, 0) + 1
            label = f"{self.numbers[level]}."
        elif marks[0].isdigit():
            label = marks
        body = inline_text(" ".join([item.group(2), *(line.strip() for line in lines[1:])]))
        self.blocks.append(Paragraph(text=f"{label} {body}".strip(), page=1, list_level=level))
