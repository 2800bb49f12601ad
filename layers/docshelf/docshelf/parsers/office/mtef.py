"""Equation Editor 3 equations as LaTeX: the MTEF v3 records of an OLE equation object's `Equation Native` stream
(Word 97-2003 `.doc` files, and what LibreOffice writes for a formula saved as `.doc`). Lines of characters,
templates (fractions, roots, scripts, fences, big operators, limits, bars, arrows), piles and matrices are read;
sizes, fonts, rulers and nudges are layout only. MathType's later MTEF versions (4, 5) are not read: None."""

from __future__ import annotations

import contextlib
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

from docshelf.parsers.math_latex import FUNCTIONS, command, grouped, matrix, spaced, symbols

OLE_HEADER = 28  # EQNOLEFILEHDR before the MTEF bytes
EQUATION_STREAM = "Equation Native"
MAX_EQUATION_BYTES = 1024 * 1024
OLE1_EMBEDDED = 2  # an OLE 1.0 object's FormatID when it is embedded (not linked)
MTEF_V3 = 3
MAX_DEPTH = 64  # templates nested deeper than this are read as nothing more
MAX_RECORDS = 200_000

# Record types (the tag byte's low four bits; its high four are the record's options).
_END, _LINE, _CHAR, _TMPL, _PILE, _MATRIX, _EMBELL, _RULER, _FONT, _SIZE = range(10)
_SIZES = range(10, 15)  # FULL, SUB, SUB2, SYM, SUBSYM: a size and nothing more
_NUDGE, _LINE_NULL, _LINE_SPACE, _RULER_FOLLOWS, _CHAR_EMBELLISHED = 0x8, 0x1, 0x4, 0x2, 0x2
_FUNCTION_FACE, _TEXT_FACE, _SPACE_FACE = 2, 1, 24

# Embellishments of a character (EMBELL records): (LaTeX accent, or a mark after it).
_EMBELLISHMENTS = {
    2: (r"\dot", ""), 3: (r"\ddot", ""), 4: (r"\dddot", ""), 5: ("", "'"), 6: ("", "''"), 8: (r"\tilde", ""),
    9: (r"\hat", ""), 10: (r"\not", ""), 11: (r"\vec", ""), 12: (r"\overleftarrow", ""),
    13: (r"\overleftrightarrow", ""), 16: (r"\bar", ""), 17: (r"\bar", ""), 18: ("", "'''"),
}  # fmt: skip
# Fence templates (selectors 0-12): the fences shown when the template's own fence characters are missing.
_FENCES = {
    0: (r"\langle ", r"\rangle "), 1: ("(", ")"), 2: (r"\{", r"\}"), 3: ("[", "]"), 4: ("|", "|"),
    5: (r"\|", r"\|"), 6: (r"\lfloor ", r"\rfloor "), 7: (r"\lceil ", r"\rceil "), 8: ("[", "["), 9: ("]", "]"),
    10: ("]", "["), 11: ("[", ")"), 12: ("(", "]"),
}  # fmt: skip
_ROOT, _FRACTION, _SCRIPT, _UNDERBAR, _OVERBAR = 13, 14, 15, 16, 17
_ARROWS = {18: r"\xleftarrow", 19: r"\xrightarrow", 20: r"\xleftrightarrow"}
# Big operators: the operator shown when the template's own operator character is missing.
_OPERATORS = {
    21: r"\int", 22: r"\iint", 23: r"\iiint", 24: r"\oint", 25: r"\oiint", 26: r"\oiiint", 29: r"\sum",
    30: r"\sum", 31: r"\prod", 32: r"\prod", 33: r"\coprod", 34: r"\coprod", 35: r"\bigcup", 36: r"\bigcup",
    37: r"\bigcap", 38: r"\bigcap", 42: r"\int", 43: r"\sum",
}  # fmt: skip
_UNDERBRACE, _OVERBRACE, _LIMIT, _SLASH_FRACTION, _INTEGRAL_OPERATOR, _SUM_OPERATOR = 27, 28, 39, 41, 42, 43
_LEFT_SCRIPT, _DIRAC = 44, 45
_ARROW_UNDER, _ARROW_OVER, _ARC = 46, 47, 48
_ARROW_ACCENTS = {0: (r"\overleftarrow", r"\underleftarrow"), 1: (r"\overrightarrow", r"\underrightarrow"),
                  2: (r"\overleftrightarrow", r"\underleftrightarrow")}  # fmt: skip


@dataclass
class Char:
    text: str
    face: int
    embellishments: list[int] = field(default_factory=list)


@dataclass
class Line:
    objects: list[Node]


@dataclass
class Template:
    selector: int
    variation: int
    objects: list[Node]


@dataclass
class Pile:
    lines: list[Node]


@dataclass
class Matrix:
    columns: int
    cells: list[Node]


Node = Char | Line | Template | Pile | Matrix


class _Cut(Exception):
    """The records end before their structure does."""


def equation_latex(native: bytes) -> str | None:
    """The LaTeX of an `Equation Native` stream, or None when it holds no MTEF v3 equation this reader can follow."""
    if len(native) < OLE_HEADER + 5:
        return None
    start = struct.unpack_from("<H", native)[0]
    if not OLE_HEADER <= start < len(native) - 5 or native[start] != MTEF_V3:
        return None
    reader = _Reader(native, start + 5)
    objects: list[Node] = []
    with contextlib.suppress(_Cut, IndexError, struct.error):  # damaged or cut short: what was read before
        reader.fill(objects, 0)
    latex = spaced(_latex(objects))
    return latex or None


def ole_equation_latex(compound: bytes | None) -> str | None:
    """The LaTeX of an embedded Equation Editor object kept as an OLE compound file (a DOCX's
    `embeddings/oleObject1.bin`), or None."""
    import olefile

    if not compound or not compound.startswith(b"\xd0\xcf\x11\xe0"):
        return None
    try:
        with olefile.OleFileIO(compound) as ole:
            if not ole.exists(EQUATION_STREAM) or ole.get_size(EQUATION_STREAM) > MAX_EQUATION_BYTES:
                return None
            native = ole.openstream(EQUATION_STREAM).read()
    except Exception:  # olefile raises anything from OSError to IndexError on a damaged file
        return None
    return equation_latex(native)


def ole1_native_data(data: bytes) -> bytes | None:
    """The native data of an OLE 1.0 embedded object ([MS-OLEDS] 2.2.4: version, format, class, topic and item
    names, then the data's size and the data), as RTF's \\objdata keeps an OLE object: for an OLE 2 object, its
    compound file. None when it is not one."""
    at = 8
    try:
        if struct.unpack_from("<I", data, 4)[0] != OLE1_EMBEDDED:
            return None
        for _ in range(3):  # the class, topic and item names, each a length-prefixed ANSI string
            at += 4 + struct.unpack_from("<I", data, at)[0]
        size = struct.unpack_from("<I", data, at)[0]
    except struct.error:
        return None
    native = data[at + 4 : at + 4 + size]
    return native if len(native) == size else None


class _Reader:
    """Reads records into a tree, each node put in its list before its own records are read, so that a stream cut
    short leaves every node read so far in place."""

    def __init__(self, data: bytes, at: int) -> None:
        self.data, self.at, self.records = data, at, 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            raise _Cut
        value = self.data[self.at]
        self.at += 1
        return value

    def skip(self, count: int) -> None:
        if self.at + count > len(self.data):
            raise _Cut
        self.at += count

    def fill(self, found: list[Node], depth: int) -> None:
        """Records into `found` up to the END that closes their list (or the stream's end, at the top)."""
        if depth > MAX_DEPTH:
            raise _Cut
        while self.at < len(self.data):
            self.records += 1
            if self.records > MAX_RECORDS:
                raise _Cut
            tag = self.byte()
            kind, options = tag & 0xF, tag >> 4
            if kind == _END:
                return
            if options & _NUDGE and kind in (_LINE, _CHAR, _TMPL, _PILE, _MATRIX):
                self._nudge()
            self._record(kind, options, found, depth)
        if depth:
            raise _Cut

    def _record(self, kind: int, options: int, found: list[Node], depth: int) -> None:
        if kind == _CHAR:
            face, code = self.byte() - 128, struct.unpack_from("<H", self.data, self._advance(2))[0]
            found.append(Char(chr(code), face))
            if options & _CHAR_EMBELLISHED:
                found[-1].embellishments = self._embellishments()  # type: ignore[union-attr]
            return
        node: Node
        if kind == _LINE:
            if options & _LINE_NULL:
                found.append(Line([]))
                return
            self.skip(2 if options & _LINE_SPACE else 0)
            if options & _RULER_FOLLOWS:
                self._ruler_record()
            node = Line([])
        elif kind == _TMPL:
            selector, variation = self.byte(), self.byte()
            self.skip(1)  # the template's own options
            node = Template(selector, variation, [])
        elif kind == _PILE:
            self.skip(2)  # alignments
            if options & _RULER_FOLLOWS:
                self._ruler_record()
            node = Pile([])
        elif kind == _MATRIX:
            self.skip(3)  # alignments
            rows, columns = self.byte(), self.byte()
            self.skip((2 * (rows + 1) + 7) // 8 + (2 * (columns + 1) + 7) // 8)  # partition lines
            node = Matrix(max(columns, 1), [])
        else:
            self._layout(kind)
            return
        found.append(node)
        self.fill(node.lines if isinstance(node, Pile) else node.cells if isinstance(node, Matrix) else node.objects,
                  depth + 1)  # fmt: skip

    def _layout(self, kind: int) -> None:
        """A record that only lays the equation out: its bytes are passed over."""
        if kind == _EMBELL:
            self.skip(1)
        elif kind == _RULER:
            self._ruler()
        elif kind == _FONT:
            self.skip(2)
            while self.byte():
                pass
        elif kind == _SIZE:
            first = self.byte()
            self.skip(2 if first in (100, 101) else 1)
            if first == 100:
                self.skip(1)
        elif kind not in _SIZES:
            raise _Cut  # a record type MTEF v3 does not have

    def _embellishments(self) -> list[int]:
        found = []
        while (tag := self.byte()) & 0xF != _END:
            if tag & 0xF != _EMBELL:
                raise _Cut
            if tag >> 4 & _NUDGE:
                self._nudge()
            found.append(self.byte())
        return found

    def _ruler_record(self) -> None:
        if self.byte() & 0xF != _RULER:
            raise _Cut
        self._ruler()

    def _ruler(self) -> None:
        self.skip(3 * self.byte())

    def _nudge(self) -> None:
        dx, dy = self.byte(), self.byte()
        if dx == 128 and dy == 128:
            self.skip(4)

    def _advance(self, count: int) -> int:
        at = self.at
        self.skip(count)
        return at


def _latex(objects: list[Node]) -> str:
    parts: list[str] = []
    word: list[Char] = []
    for node in objects:
        if isinstance(node, Char) and node.face in (_FUNCTION_FACE, _TEXT_FACE) and _letter(node):
            word.append(node)
            continue
        parts.append(_word(word))
        word = []
        parts.append(_node(node, parts))
    parts.append(_word(word))
    return "".join(parts)


def _letter(char: Char) -> bool:
    return not char.embellishments and char.text.isalpha()


def _word(chars: list[Char]) -> str:
    """A run of letters set as a function name or as text: `sin` as `\\sin`, another word as text."""
    text = "".join(char.text for char in chars)
    if not text:
        return ""
    if text in FUNCTIONS:
        return command("\\" + text)
    if len(text) > 1 and chars[0].face == _TEXT_FACE:
        return rf"\text{{{text}}}"
    return rf"\operatorname{{{text}}}" if len(text) > 1 else symbols(text)


def _node(node: Node, before: list[str]) -> str:
    if isinstance(node, Char):
        return _char(node)
    if isinstance(node, Line):
        return _latex(node.objects)
    if isinstance(node, Pile):
        return matrix([[_latex([line])] for line in node.lines]) if len(node.lines) > 1 else _latex(node.lines)
    if isinstance(node, Matrix):
        cells = [_latex([cell]) for cell in node.cells]
        return matrix([cells[at : at + node.columns] for at in range(0, len(cells), node.columns)])
    return _template(node, before)


def _char(char: Char) -> str:
    if char.face == _SPACE_FACE or "\ue000" <= char.text <= "\uf8ff":  # MathType's spaces and private symbols
        return " "
    latex = symbols(char.text)
    for embellishment in char.embellishments:
        accent, mark = _EMBELLISHMENTS.get(embellishment, ("", ""))
        latex = f"{accent}{{{latex.strip()}}}" if accent else latex.rstrip() + mark
    return latex


@dataclass
class _Parts:
    """A template being written: its slots' LaTeX (four at least, missing ones empty), what it draws and what
    precedes it on its line."""

    node: Template
    slot: list[str]
    drawn: list[Node]
    before: list[str]

    def limits(self) -> str:
        lower, upper = self.slot[1].strip(), self.slot[2].strip()
        return (f"_{{{self.slot[1]}}}" if lower else "") + (f"^{{{self.slot[2]}}}" if upper else "")

    def drawn_latex(self) -> str:
        return "".join(_node(item, self.before) for item in self.drawn).strip()


def _template(node: Template, before: list[str]) -> str:
    """A template's LaTeX: its slots (lines) and the characters it draws (fences, operators) by its selector."""
    slots = [_latex(item.objects) for item in node.objects if isinstance(item, Line)]
    parts = _Parts(node, slots + [""] * (4 - len(slots)), [i for i in node.objects if not isinstance(i, Line)], before)
    selector = node.selector
    if selector in _FENCES:
        return _fenced(parts)
    if selector in _OPERATORS or (parts.drawn and selector == _LIMIT):
        return _operator(parts, slots)
    write = _WRITERS.get(selector)
    return write(parts) if write is not None else " ".join(part for part in slots if part.strip())


def _fenced(parts: _Parts) -> str:
    chars = [_node(item, parts.before).strip() for item in parts.drawn]
    left, right = [*chars, "", ""][:2] if chars else _FENCES[parts.node.selector]
    return f"{left}{parts.slot[0]}{right}"


def _operator(parts: _Parts, slots: list[str]) -> str:
    """A big operator (sum, integral, union…) with its limits; a `lim` is an operator set as a line of its own."""
    operator = parts.drawn_latex() or _OPERATORS.get(parts.node.selector, "")
    if parts.node.selector in (_INTEGRAL_OPERATOR, _SUM_OPERATOR) and len(slots) > 3 and slots[3].strip():
        operator = slots[3].strip()
    limits = parts.limits()
    return f"{operator}{limits}{parts.slot[0]}" if limits else f"{command(operator)}{parts.slot[0]}"


def _root(parts: _Parts) -> str:
    radicand, index = parts.slot[0], parts.slot[1]
    return rf"\sqrt[{index}]{{{radicand}}}" if index.strip() else rf"\sqrt{{{radicand}}}"


def _scripts(parts: _Parts) -> str:
    """Scripts after what precedes them on the line (before nothing, or on the left, after an empty group)."""
    sub, sup = parts.slot[0], parts.slot[1]
    scripts = (f"_{{{sub}}}" if sub.strip() else "") + (f"^{{{sup}}}" if sup.strip() else "")
    has_base = parts.node.selector == _SCRIPT and any(part.strip() for part in parts.before)
    return scripts if has_base else "{}" + scripts


def _arrow_accent(parts: _Parts) -> str:
    over, under = _ARROW_ACCENTS.get(parts.node.variation, _ARROW_ACCENTS[1])
    base = parts.slot[0]
    if parts.node.selector == _ARROW_OVER and parts.node.variation == 1 and len(base.strip()) == 1:
        return rf"\vec{{{base.strip()}}}"
    return f"{over if parts.node.selector == _ARROW_OVER else under}{{{base}}}"


def _arrow(parts: _Parts) -> str:
    """An arrow with text over it (and under it)."""
    under = f"[{parts.slot[1]}]" if parts.slot[1].strip() else ""
    return f"{_ARROWS[parts.node.selector]}{under}{{{parts.slot[0]}}}"


def _brace(parts: _Parts) -> str:
    brace, script = (r"\underbrace", "_") if parts.node.selector == _UNDERBRACE else (r"\overbrace", "^")
    return f"{brace}{{{parts.slot[0]}}}" + (f"{script}{{{parts.slot[1]}}}" if parts.slot[1].strip() else "")


_WRITERS: dict[int, Callable[[_Parts], str]] = {
    _ROOT: _root,
    _FRACTION: lambda parts: rf"\frac{{{parts.slot[0]}}}{{{parts.slot[1]}}}",
    _SLASH_FRACTION: lambda parts: f"{grouped(parts.slot[0])}/{grouped(parts.slot[1])}",
    _SCRIPT: _scripts,
    _LEFT_SCRIPT: _scripts,
    _UNDERBAR: lambda parts: rf"\underline{{{parts.slot[0]}}}",
    _OVERBAR: lambda parts: rf"\overline{{{parts.slot[0]}}}",
    **dict.fromkeys(_ARROWS, _arrow),
    _LIMIT: lambda parts: f"{parts.slot[0]}{parts.limits()} ",
    _UNDERBRACE: _brace,
    _OVERBRACE: _brace,
    _DIRAC: lambda parts: rf"\langle {parts.slot[0]}|{parts.slot[1]}\rangle ",
    _ARROW_UNDER: _arrow_accent,
    _ARROW_OVER: _arrow_accent,
    _ARC: lambda parts: rf"\overset{{\frown}}{{{parts.slot[0]}}}",
}
