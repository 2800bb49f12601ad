"""Markdown block structure (CommonMark/GFM subset): headings, paragraphs, lists, code, tables, HTML blocks.

A GFM footnote keeps its reference `[^1]` in the text; its definition `[^1]: text` becomes a paragraph placed
right after the first block citing it (where it is defined when nothing cites it, at the end when only code does).
"""

from __future__ import annotations

import re

from lxml import etree, html

from docshelf.model import Block, Heading, Image, Paragraph, Table
from docshelf.parsers.markup.html_blocks import HtmlBlockWalker
from docshelf.parsers.markup.markdown_inline import LinkReferences, link_references, render_inline
from docshelf.scripts import NO_SPACE
from docshelf.tables import table_from_rows

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_FENCE = re.compile(r"^( *)(`{3,}|~{3,})(.*)$")
_ITEM = re.compile(r"^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*)|$)")
_QUOTE = re.compile(r"^ {0,3}> ?(.*)$")
_TABLE_RULE = re.compile(r"^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$")
_LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*\S+")
_FOOTNOTE_DEFINITION = re.compile(r"^ {0,3}\[\^([^\]\s]+)\]:[ \t]*(.*)$")
_FOOTNOTE_REFERENCE = re.compile(r"\[\^([^\]\s]+)\]")
_LINK_LABEL = re.compile(r"^ {0,3}(?:> ?)*\[([^\]\n]+)\]:[ \t]*\S", re.M)
_HTML_START = re.compile(
    r"^ {0,3}<(?:!--|/?(?:address|article|aside|blockquote|center|details|dl|div|figure|footer|h[1-6]|header|hr|"
    r"main|nav|ol|p|pre|section|summary|table|ul|script|style)\b)",
    re.I,
)
_HTML_CLOSER = {"<!--": "-->", "<table": "</table>", "<pre": "</pre>", "<script": "</script>", "<style": "</style>"}
_CJK_JOIN = re.compile(rf"(?<=[{NO_SPACE}])\n(?=[{NO_SPACE}])")


MAX_QUOTE_DEPTH = 32


class _Footnotes:
    """The document's footnote definitions (label -> raw text), the labels cited and the labels already placed."""

    def __init__(self, lines: list[str]) -> None:
        self.definitions: dict[str, str] = {}
        self.cited: set[str] = set()
        self.placed: set[str] = set()
        i = 0
        while i < len(lines):
            if "[^" not in lines[i]:  # most lines: no footnote mark at all
                i += 1
            elif definition := _FOOTNOTE_DEFINITION.match(lines[i]):
                i, text = _footnote_extent(lines, i, definition)
                self.definitions.setdefault(definition.group(1), text)
            else:
                self.cited.update(_FOOTNOTE_REFERENCE.findall(lines[i]))
                i += 1


def markdown_blocks(
    text: str,
    *,
    page: int = 1,
    depth: int = 0,
    references: LinkReferences | None = None,
    footnotes: _Footnotes | None = None,
) -> list[Block]:
    lines = text.expandtabs(4).split("\n")
    if references is None:
        references = link_references([label for label in _LINK_LABEL.findall(text) if not label.startswith("^")])
    return _BlockScanner(lines, page, depth, references, footnotes or _Footnotes(lines)).scan()


class _BlockScanner:
    def __init__(
        self, lines: list[str], page: int, depth: int, references: LinkReferences, footnotes: _Footnotes
    ) -> None:
        self.lines = lines
        self.page = page
        self.depth = depth
        self.references = references
        self.footnotes = footnotes
        self.blocks: list[Block] = []
        self.list_indents: list[int] = []  # content column of each open list item, outermost first
        self.item_kinds: list[tuple[str, int]] = []  # each open item's (marker kind, number), as list_indents
        self.closed_items: dict[int, tuple[str, int]] = {}  # depth -> the item just closed there, in a list still open
        self.i = 0

    def scan(self) -> list[Block]:
        while self.i < len(self.lines):
            emitted = len(self.blocks)
            self._next_block()
            if not self.footnotes.definitions:
                continue
            for block in self.blocks[emitted:]:
                for label in _FOOTNOTE_REFERENCE.findall(_cited_text(block)):
                    if label in self.footnotes.definitions:
                        self._footnote(label, self.footnotes.definitions[label])
        if self.depth == 0:
            for label, raw in self.footnotes.definitions.items():
                self._footnote(label, raw)
        return self.blocks

    def _footnote(self, label: str, raw: str) -> None:
        if label in self.footnotes.placed:
            return
        self.footnotes.placed.add(label)
        text, images = render_inline(raw, page=self.page, references=self.references)
        self.blocks.append(Paragraph(text=f"[^{label}]: {text}", page=self.page))
        self.blocks.extend(images)

    def _next_block(self) -> None:  # noqa: PLR0912
        line = self.lines[self.i]
        if not line.strip():
            self.i += 1
            return
        indent = len(line) - len(line.lstrip(" "))
        if not _ITEM.match(line):
            while self.list_indents and indent < self.list_indents[-1]:
                self._close_item()
            self._forget_lists_below(len(self.list_indents))
        if heading := _ATX.match(line):
            self.i += 1
            self._heading(heading.group(2) or "", len(heading.group(1)))
        elif fence := _FENCE.match(line):
            if len(fence.group(1)) <= 3 or self.list_indents:
                self._fenced_code(fence)
            else:
                self._paragraph()
        elif indent >= 4 and not self.list_indents:
            self._indented_code()
        elif _RULE.match(line):
            self.i += 1
        elif item := _ITEM.match(line):
            self._list_item(item)
        elif _QUOTE.match(line):
            self._blockquote()
        elif _HTML_START.match(line):
            self._html_block()
        elif self._at_table():
            self._table()
        elif _LINK_DEFINITION.match(line) or _FOOTNOTE_DEFINITION.match(line):
            self._definition(line)
        else:
            self._paragraph()

    def _definition(self, line: str) -> None:
        """A link reference definition is dropped; a footnote's is placed here when nothing cites it."""
        footnote = _FOOTNOTE_DEFINITION.match(line)
        if footnote is None:
            self.i += 1
            return
        self.i, raw = _footnote_extent(self.lines, self.i, footnote)
        if footnote.group(1) not in self.footnotes.cited:
            self._footnote(footnote.group(1), raw)

    def _heading(self, raw: str, level: int) -> None:
        text, images = render_inline(raw, page=self.page, references=self.references)
        while self.list_indents:
            self._close_item()
        self.closed_items.clear()
        if text:
            self.blocks.append(Heading(text=text.replace("\n", " "), level=level, page=self.page))
        self.blocks.extend(images)

    def _fenced_code(self, fence: re.Match[str]) -> None:
        indent, marker = len(fence.group(1)), fence.group(2)
        body: list[str] = []
        self.i += 1
        while self.i < len(self.lines):
            line = self.lines[self.i]
            self.i += 1
            if line.strip().startswith(marker[0] * len(marker)) and not line.strip().strip(marker[0]):
                break
            body.append(line[min(indent, len(line) - len(line.lstrip(" "))) :])
        self._code("\n".join(body))

    def _indented_code(self) -> None:
        body: list[str] = []
        while self.i < len(self.lines):
            line = self.lines[self.i]
            if line.strip() and not line.startswith("    "):
                break
            body.append(line[4:])
            self.i += 1
        self._code("\n".join(body))

    def _code(self, code: str) -> None:
        code = code.strip("\n").rstrip()
        if code.strip():
            self.blocks.append(Paragraph(text=code, page=self.page, code=True, list_level=self._list_level()))

    def _item_number(self, marker: str) -> int:
        """An ordered item's number as rendered: the list's first item gives its start, and each item after it in the
        same list (same depth, same delimiter) counts on from there, whatever it says (`1.` `1.` `1.` is 1, 2, 3)."""
        kind = marker[-1] if marker[0].isdigit() else marker
        before = self.closed_items.get(len(self.list_indents))
        written = int(marker[:-1]) if kind in ".)" else 0
        number = before[1] + 1 if before is not None and before[0] == kind else written
        self.item_kinds.append((kind, number))
        return number

    def _close_item(self) -> None:
        self.list_indents.pop()
        self.closed_items[len(self.list_indents)] = self.item_kinds.pop()

    def _forget_lists_below(self, depth: int) -> None:
        """Lists at `depth` and deeper have ended: an item there starts a new one."""
        for ended in [key for key in self.closed_items if key >= depth]:
            del self.closed_items[ended]

    def _list_level(self) -> int | None:
        return len(self.list_indents) - 1 if self.list_indents else None

    def _list_item(self, item: re.Match[str]) -> None:
        indent = len(item.group(1))
        while self.list_indents and indent < self.list_indents[-1]:
            self._close_item()
        self._forget_lists_below(len(self.list_indents) + 1)
        marker = item.group(2)
        first = item.group(3) or ""
        gap = len(self.lines[self.i]) - indent - len(marker) - len(first.lstrip(" ")) if first.strip() else 1
        number = self._item_number(marker)
        self.list_indents.append(indent + len(marker) + min(max(gap, 1), 4))
        if first.startswith(("[ ] ", "[x] ", "[X] ")):
            first = first[4:]
        prefix = f"{number}. " if marker[0].isdigit() else ""
        self.i += 1
        self._emit_paragraph([first, *self._continuation(lazy=True)], prefix=prefix, list_level=self._list_level())

    def _blockquote(self) -> None:
        inner: list[str] = []
        while self.i < len(self.lines) and (quote := _QUOTE.match(self.lines[self.i])):
            inner.append(quote.group(1))
            self.i += 1
        if self.depth >= MAX_QUOTE_DEPTH:
            self._emit_paragraph(inner, prefix="", list_level=None)
        else:
            self.blocks.extend(
                markdown_blocks(
                    "\n".join(inner),
                    page=self.page,
                    depth=self.depth + 1,
                    references=self.references,
                    footnotes=self.footnotes,
                )
            )

    def _html_block(self) -> None:
        first = self.lines[self.i].lstrip().lower()
        closer = next((end for start, end in _HTML_CLOSER.items() if first.startswith(start)), None)
        chunk: list[str] = []
        while self.i < len(self.lines):
            line = self.lines[self.i]
            if closer is None and not line.strip():
                break
            chunk.append(line)
            self.i += 1
            if closer is not None and closer in line.lower():
                break
        source = "\n".join(chunk)
        if source.lstrip().startswith("<!--"):
            return
        self.blocks.extend(html_fragment_blocks(source, page=self.page))

    def _at_table(self) -> bool:
        line = self.lines[self.i]
        nxt = self.lines[self.i + 1] if self.i + 1 < len(self.lines) else ""
        return "|" in line and "|" in nxt and "-" in nxt and bool(_TABLE_RULE.match(nxt))

    def _table(self) -> None:
        rows = [_split_row(self.lines[self.i])]
        self.i += 2
        while self.i < len(self.lines) and "|" in self.lines[self.i] and self.lines[self.i].strip():
            rows.append(_split_row(self.lines[self.i]))
            self.i += 1
        width = len(rows[0])
        images: list[Image] = []
        rendered: list[list[str]] = []
        for row in rows:
            cells = [*row[:width], *[""] * (width - len(row))]
            texts = []
            for cell in cells:
                text, cell_images = render_inline(cell, page=self.page, references=self.references)
                texts.append(text)
                images.extend(cell_images)
            rendered.append(texts)
        self.blocks.append(table_from_rows(rendered, page=self.page, header_rows=1))
        self.blocks.extend(images)

    def _paragraph(self) -> None:
        lines = [self.lines[self.i]]
        self.i += 1
        if self.i < len(self.lines) and (setext := _SETEXT.match(self.lines[self.i])):
            self.i += 1
            self._heading(lines[0].strip(), 1 if setext.group(1)[0] == "=" else 2)
            return
        lines.extend(self._continuation(lazy=False))
        if self.i < len(self.lines) and (setext := _SETEXT.match(self.lines[self.i])) and not self.list_indents:
            self.i += 1
            self._heading(" ".join(line.strip() for line in lines), 1 if setext.group(1)[0] == "=" else 2)
            return
        self._emit_paragraph(lines, prefix="", list_level=self._list_level())

    def _continuation(self, *, lazy: bool) -> list[str]:
        """Following lines of the same paragraph: up to a blank line or the start of another block."""
        lines: list[str] = []
        while self.i < len(self.lines):
            line = self.lines[self.i]
            if not line.strip() or _starts_block(line) or self._at_table():
                break
            if not lazy and _SETEXT.match(line):
                break
            lines.append(line)
            self.i += 1
        return lines

    def _emit_paragraph(self, lines: list[str], *, prefix: str, list_level: int | None) -> None:
        joined = "\n".join(_hard_break(line) for line in lines)
        joined = _CJK_JOIN.sub("", joined).replace("\n", " ").replace("\ue002", "\n")
        text, images = render_inline(joined, page=self.page, references=self.references)
        if text:
            self.blocks.append(Paragraph(text=prefix + text, page=self.page, list_level=list_level))
        self.blocks.extend(images)


def _footnote_extent(lines: list[str], start: int, definition: re.Match[str]) -> tuple[int, str]:
    """Where a footnote definition ends, and its raw text: the first line, lines continuing it, and further
    paragraphs indented by four spaces (one line each in the text)."""
    paragraphs = [definition.group(2).strip()]
    i = start + 1
    while i < len(lines):
        line = lines[i]
        if line.strip() and not _starts_block(line) and not _FOOTNOTE_DEFINITION.match(line):
            paragraphs[-1] += " " + line.strip()
            i += 1
            continue
        following = next((j for j in range(i, len(lines)) if lines[j].strip()), len(lines))
        if following > i and following < len(lines) and lines[following].startswith("    "):
            paragraphs.append(lines[following].strip())
            i = following + 1
            continue
        break
    return i, "\n".join(paragraph for paragraph in paragraphs if paragraph)


def _cited_text(block: Block) -> str:
    if isinstance(block, Table):
        return " ".join(cell.text for cell in block.cells)
    return "" if isinstance(block, Image) or (isinstance(block, Paragraph) and block.code) else block.text


def _hard_break(line: str) -> str:
    stripped = line.strip()
    if line.endswith("  ") or (stripped.endswith("\\") and not stripped.endswith("\\\\")):
        return stripped.rstrip("\\").rstrip() + "\ue002"
    return stripped


def _starts_block(line: str) -> bool:
    return bool(
        _ATX.match(line)
        or (_FENCE.match(line) and len(line) - len(line.lstrip()) <= 3)
        or _RULE.match(line)
        or _ITEM.match(line)
        or _QUOTE.match(line)
        or _HTML_START.match(line)
    )


def _split_row(line: str) -> list[str]:
    row = line.strip()
    row = row.removeprefix("|")
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    cells: list[str] = []
    current: list[str] = []
    in_code = False
    for index, char in enumerate(row):
        if char == "`":
            in_code = not in_code
        if char == "|" and not in_code and (index == 0 or row[index - 1] != "\\"):
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    cells.append("".join(current).strip())
    return [cell.replace("\\|", "|") for cell in cells]


def html_fragment_blocks(source: str, *, page: int) -> list[Block]:
    """Blocks of raw HTML embedded in Markdown, through the HTML walker."""
    parser = html.HTMLParser(remove_comments=True, no_network=True, recover=True)
    try:
        root = html.document_fromstring(f"<html><body>{source}</body></html>", parser=parser)
    except (etree.ParserError, ValueError):
        return []
    body = root.find("body")
    return HtmlBlockWalker(page=page).walk_content(body if body is not None else root)
