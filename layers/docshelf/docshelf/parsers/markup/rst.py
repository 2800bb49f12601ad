"""reStructuredText (`.rst`): sections by their title adornments (a line of one punctuation character under the title,
perhaps over it too; levels in the order the styles first appear, as docutils assigns them), literal blocks (after
`::`, and `code-block` / `code` / `sourcecode` directives) as code, bullet and enumerated lists, other directives'
content as text and comments (`..`) left out. Inline markup keeps its text: ``code``, *emphasis*, `link <url>`_.
"""

from __future__ import annotations

import re

from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup.text import read_lines

_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")
_BULLET = re.compile(r"^(\s*)([-*+•‣⁃])\s+(.*)$")
_ENUMERATED = re.compile(r"^(\s*)(\(?(?:\d+|[a-zA-Z]|[ivxlcdmIVXLCDM]+|#)[.)])\s+(.*)$")
_DIRECTIVE = re.compile(r"^\.\.\s+([\w:-]+)::\s*(.*)$")
_CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "literalinclude"})
MAX_DEPTH = 16  # directives read inside directives
_ADDRESS_DIRECTIVES = frozenset({"image", "figure", "include", "literalinclude", "raw", "toctree", "automodule"})
_FIELD = re.compile(r"^\s+:[\w-]+:.*$")
_FIELD_LINE = re.compile(r"^\s*:([\w][\w -]*):\s*(.*)$")
_LINK = re.compile(r"`([^`<]*?)\s*<[^`>]*>`__?")
_ROLE = re.compile(r":[\w-]+:`([^`]*)`")
_INLINE = re.compile(r"``(.+?)``|\*\*(.+?)\*\*|\*(.+?)\*|`([^`]+)`_{0,2}")


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    return read_lines(data, lambda lines: _Reader(lines).blocks())


def inline_text(text: str) -> str:
    """Inline markup's text: roles, links, literals, emphasis and references without their marks."""
    text = _ROLE.sub(r"\1", _LINK.sub(r"\1", text))
    return _INLINE.sub(lambda match: next(group for group in match.groups() if group is not None), text)


class _Reader:
    def __init__(self, lines: list[str], depth: int = 0) -> None:
        self.lines = lines
        self.depth = depth  # directives this one's content sits in
        self.at = 0
        self.styles: list[tuple[str, bool]] = []  # (character, overlined) in order of first appearance
        self.found: list[Block] = []

    def blocks(self) -> list[Block]:
        while self.at < len(self.lines):
            if not self._section() and not self._directive():
                self._paragraph()
        return self.found

    def _line(self, offset: int = 0) -> str:
        at = self.at + offset
        return self.lines[at] if 0 <= at < len(self.lines) else ""

    def _section(self) -> bool:
        line, next_line = self._line(), self._line(1)
        over = _ADORNMENT.match(line)
        if over and self._line(1).strip() and _ADORNMENT.match(self._line(2) or ""):
            title, style, used = self._line(1).strip(), (over.group(1), True), 3
        elif line.strip() and not line.startswith(" ") and _ADORNMENT.match(next_line):
            if len(next_line.rstrip()) < len(line.rstrip()) * 0.5:
                return False
            title, style, used = line.strip(), (next_line.strip()[0], False), 2
        else:
            return False
        if style not in self.styles:
            self.styles.append(style)
        self.found.append(Heading(text=inline_text(title), level=min(self.styles.index(style) + 1, 6), page=1))
        self.at += used
        return True

    def _directive(self) -> bool:
        if not self._line().startswith(".."):
            return False
        found = _DIRECTIVE.match(self._line())
        self.at += 1
        body = self._indented()
        if found is None:
            return True  # a comment, a link target or a substitution definition: nothing shown
        name, argument = found.group(1).lower(), found.group(2).strip()
        if name in _CODE_DIRECTIVES:
            self._code(body)
            return True
        if argument and name not in _ADDRESS_DIRECTIVES:  # `.. note:: Text`, `.. topic:: Title`
            self.found.append(Paragraph(text=inline_text(argument), page=1))
        content = [line for line in body if not _FIELD.match(" " + line)]
        if self.depth < MAX_DEPTH:
            self.found += _Reader(content, self.depth + 1).blocks()
        elif text := " ".join(" ".join(line for line in content if not line.lstrip().startswith("..")).split()):
            self.found.append(Paragraph(text=inline_text(text), page=1))  # nested past the bound: one paragraph
        return True

    def _indented(self) -> list[str]:
        """The indented lines (and blank lines among them) from here, dedented."""
        body: list[str] = []
        while self.at < len(self.lines) and (not self._line().strip() or self._line()[:1] in " \t"):
            body.append(self._line())
            self.at += 1
        while body and not body[-1].strip():
            body.pop()
        margin = min((len(line) - len(line.lstrip()) for line in body if line.strip()), default=0)
        return [line[margin:] for line in body]

    def _code(self, body: list[str]) -> None:
        lines = [line for line in body if not _FIELD.match(" " + line) or line.startswith(" ")]
        while lines and not lines[0].strip():
            lines.pop(0)
        if lines:
            self.found.append(Paragraph(text="\n".join(lines), page=1, code=True))

    def _paragraph(self) -> None:
        if not self._line().strip():
            self.at += 1
            return
        lines: list[str] = []
        while self.at < len(self.lines) and self._line().strip() and not self._starts_block(bool(lines)):
            lines.append(self._line())
            self.at += 1
        if not lines:  # a transition (a line of punctuation alone)
            self.at += 1
            return
        if all(_FIELD_LINE.match(line) for line in lines):  # a field list (`:Author: Ana`): a line each
            text = "\n".join(_FIELD_LINE.sub(r"\1: \2", line.strip()) for line in lines)
            self.found.append(Paragraph(text=inline_text(text), page=1))
            return
        item = _BULLET.match(lines[0]) or _ENUMERATED.match(lines[0])
        text = " ".join(line.strip() for line in lines)
        literal = text.endswith("::")
        if literal:
            text = text[:-1] if text[-3:-2] != " " else text[:-3].rstrip()
        if item is not None:
            level = len(item.group(1)) // 2
            label = item.group(2) if item.group(2) not in "-*+•‣⁃" else ""
            body = " ".join([item.group(3), *(line.strip() for line in lines[1:])]).removesuffix("::")
            self.found.append(Paragraph(text=inline_text(f"{label} {body}".strip()), page=1, list_level=level))
        elif text.strip():
            self.found.append(Paragraph(text=inline_text(text), page=1))
        if literal:
            while self.at < len(self.lines) and not self._line().strip():
                self.at += 1
            self._code(self._indented())

    def _starts_block(self, inside: bool) -> bool:
        line = self._line()
        if line.startswith(".. ") or _ADORNMENT.match(line):
            return True
        if inside and (_BULLET.match(line) or _ENUMERATED.match(line)) and not line.startswith(" "):
            return True
        return inside and _ADORNMENT.match(self._line(1)) is not None
