"""LaTeX sources (`.tex`, `.ltx`): the document as its reader sees it. The title from `\\title`; sectioning commands
(`\\chapter` … `\\subsubsection`, starred too) as headings; paragraphs at blank lines with their text as typeset
(`\\emph{x}` is x, `\\'e` is é, `~` a space), citations `[key]`; math kept as LaTeX (`$…$` in text, an `equation` or
`align` environment or `\\[…\\]` as `$$…$$`); lists as list items; a `tabular` as a table; a figure's or table's
caption as a paragraph; `verbatim` and code listings as code; the abstract and the bibliography under headings of
their own. The preamble, comments, labels and figures' files are left out. Parsed with pylatexenc's walker, which
reads what it cannot follow as text (never an error)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexCommentNode,
    LatexEnvironmentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexMathNode,
    LatexNode,
    LatexSpecialsNode,
    LatexWalker,
    get_default_latex_context_db,
)
from pylatexenc.macrospec import EnvironmentSpec, MacroSpec

from docshelf.model import Block, Heading, Paragraph, Table
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup.text import text_blocks
from docshelf.parsers.textcodec import decode_report
from docshelf.tables import table_from_rows

MAX_CHARS = 20_000_000  # a source longer than this is read as plain text
_SECTIONS = {
    "part": 0,
    "chapter": 1,
    "section": 2,
    "subsection": 3,
    "subsubsection": 4,
    "paragraph": 5,
    "subparagraph": 6,
}
_DISPLAY_MATH = frozenset(
    {"equation", "equation*", "align", "align*", "gather", "gather*", "multline", "multline*", "eqnarray",
     "eqnarray*", "displaymath", "flalign", "flalign*", "alignat", "alignat*", "math"}
)  # fmt: skip
_LISTS = frozenset({"itemize", "enumerate", "description", "compactitem", "compactenum"})
_TABLES = frozenset({"tabular", "tabular*", "tabularx", "tabulary", "longtable", "supertabular"})
_CODE = frozenset({"verbatim", "verbatim*", "Verbatim", "lstlisting", "minted", "alltt", "comment"})
_FLOATS = frozenset({"figure", "figure*", "table", "table*", "wrapfigure", "wraptable", "subfigure", "sidewaystable"})
_THEOREMS = frozenset(
    {"theorem", "lemma", "proposition", "corollary", "definition", "remark", "example", "proof", "claim", "note"}
)  # fmt: skip
# Macros that put nothing a reader sees into the text.
_SILENT = frozenset(
    {"label", "includegraphics", "maketitle", "tableofcontents", "listoffigures", "listoftables", "newpage",
     "clearpage", "cleardoublepage", "vspace", "hspace", "vfill", "hfill", "centering", "bibliographystyle",
     "bibliography", "input", "include", "noindent", "medskip", "smallskip", "bigskip", "pagebreak", "linebreak",
     "nopagebreak", "thispagestyle", "pagestyle", "setlength", "addtolength", "newcommand", "renewcommand",
     "phantomsection", "addcontentsline", "appendix", "author", "date", "title", "thanks", "keywords", "index",
     "affiliation", "email", "orcid"}
)  # fmt: skip
_CITATIONS = frozenset(
    {"cite", "citep", "citet", "citealp", "citeauthor", "citeyear", "parencite", "textcite", "autocite"}
)
_REFERENCES = frozenset({"ref", "eqref", "autoref", "cref", "Cref", "pageref", "nameref"})
_RULES = re.compile(r"\\(?:hline|toprule|midrule|bottomrule|cline\{[^}]*\}|cmidrule(?:\([^)]*\))?\{[^}]*\})")
_ROW_END = re.compile(r"\\\\(?:\[[^\]]*\])?")
_CELL = re.compile(r"(?<!\\)&")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_LABEL = re.compile(r"\\label\{[^}]*\}")
_CODE_OPTIONS = re.compile(r"^[ \t]*(?:\[[^\]\n]*\])?(?:\{[^}\n]*\})?")
_TITLE = re.compile(r"\\title\s*(?:\[[^\]]*\])?\s*\{")


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    decoded = decode_report(data)
    source = decoded.text.replace("\r\n", "\n").replace("\r", "\n")
    warnings = decoded.document_warnings()
    try:
        body, title = _document(source)
        reader = _Reader()
        reader.read(_nodes(body))
        reader.flush()
    except RecursionError:  # groups nested past what the walker can follow: the source's text as it is
        warnings.append("LaTeX nested too deep to follow: read as plain text")
        return ParsedContent(blocks=text_blocks(source), warnings=warnings)
    blocks = reader.blocks
    if title:
        blocks.insert(0, Heading(text=title, level=1, page=1))
    return ParsedContent(blocks=_levelled(blocks, bool(title)), title=title, warnings=warnings)


def _context() -> object:
    """pylatexenc's macros and environments, with the arguments of those papers use that it does not know."""
    context = get_default_latex_context_db()
    macros = {"thanks": "{", "bibitem": "[{", "si": "[{", "SI": "[{{", "num": "[{", "qty": "[{{", "unit": "[{",
              "keywords": "{", "footnote": "[{", "href": "{{", "url": "{", "includegraphics": "*[{", "label": "{",
              "caption": "*[{", "subcaption": "[{", "affiliation": "{", "email": "{", "orcid": "{"}  # fmt: skip
    environments = {"thebibliography": "{", "wrapfigure": "[{{", "wraptable": "[{{", "minipage": "[{",
                    "tabularx": "{{", "tabular*": "{{", "longtable": "[{", "subfigure": "[{"}  # fmt: skip
    context.add_context_category(
        "docshelf",
        macros=[MacroSpec(name, spec) for name, spec in macros.items()],
        environments=[EnvironmentSpec(name, spec) for name, spec in environments.items()],
        prepend=True,
    )
    return context


_CONTEXT = _context()


def _nodes(source: str) -> list[LatexNode]:
    if len(source) > MAX_CHARS:
        return [LatexCharsNode(chars=source)]
    nodes, _, _ = LatexWalker(source, latex_context=_CONTEXT, tolerant_parsing=True).get_latex_nodes()
    return list(nodes)


def _document(source: str) -> tuple[str, str]:
    """The body (what `\\begin{document}` holds, or the whole source without one) and the `\\title`."""
    start = source.find("\\begin{document}")
    preamble, body = (source[:start], source[start + len("\\begin{document}") :]) if start >= 0 else ("", source)
    end = body.rfind("\\end{document}") if start >= 0 else -1
    body = body[:end] if end >= 0 else body
    title = ""
    for part in (preamble, body):
        found = _TITLE.search(part)
        if found is not None:
            title = " ".join(_text(_nodes(_braced(part, found.end() - 1))).split())
            break
    return body, title


def _braced(text: str, at: int) -> str:
    """The text of the brace group opening at `at`, without its braces."""
    depth = 0
    for position in range(at, len(text)):
        character = text[position]
        if character == "\\":
            continue
        if character == "{" and (position == 0 or text[position - 1] != "\\"):
            depth += 1
        elif character == "}" and text[position - 1] != "\\":
            depth -= 1
            if depth == 0:
                return text[at + 1 : position]
    return ""


_TO_TEXT = LatexNodes2Text(math_mode="verbatim", strict_latex_spaces="macros")


def _text(nodes: Iterable[LatexNode | None]) -> str:
    """Nodes as the reader sees them inline: citations as `[key]`, references as their labels, math as LaTeX."""
    parts: list[str] = []
    for node in nodes:
        if node is None or isinstance(node, LatexCommentNode):
            continue
        if isinstance(node, LatexMacroNode):
            parts.append(_macro_text(node))
        elif isinstance(node, LatexMathNode):
            parts.append(_math(node))
        elif isinstance(node, LatexGroupNode):
            parts.append(_text(node.nodelist))
        elif isinstance(node, LatexSpecialsNode) and node.specials_chars == "~":
            parts.append(" ")
        else:
            parts.append(_TO_TEXT.nodelist_to_text([node]))
    return "".join(parts)


def _macro_text(node: LatexMacroNode) -> str:
    name = node.macroname
    arguments = [argument for argument in (node.nodeargd.argnlist if node.nodeargd else []) if argument is not None]
    if name in _SILENT:
        return ""
    if name in _CITATIONS:
        return "[" + ", ".join(_verbatim(arguments[-1:]).split(",")).replace(" ,", ",") + "]" if arguments else ""
    if name in _REFERENCES:
        return _verbatim(arguments[-1:])
    if name == "footnote":
        return f" ({_text(arguments[-1:]).strip()})" if arguments else ""
    if name in ("url", "nolinkurl"):
        return _verbatim(arguments[-1:])
    if name in ("si", "unit"):
        return _unit(arguments[-1:])
    if name in ("SI", "qty"):
        return f"{_verbatim(arguments[-2:-1])} {_unit(arguments[-1:])}"
    if name == "num":
        return _verbatim(arguments[-1:])
    if name == "href":
        return _text(arguments[-1:])
    if name in ("\\", "newline"):
        return "\n"
    return str(_TO_TEXT.nodelist_to_text([node]))


_UNITS = {
    "micro": "µ", "milli": "m", "kilo": "k", "mega": "M", "giga": "G", "nano": "n", "centi": "c", "metre": "m",
    "meter": "m", "second": "s", "gram": "g", "hour": "h", "minute": "min", "newton": "N", "pascal": "Pa",
    "percent": "%", "degreeCelsius": "°C", "celsius": "°C", "kelvin": "K", "volt": "V", "ampere": "A", "watt": "W",
    "hertz": "Hz", "litre": "L", "liter": "L", "mole": "mol", "joule": "J", "bar": "bar", "ohm": "Ω",
    "per": "/", "squared": "²", "cubed": "³", "degree": "°",
}  # fmt: skip
_UNIT_MACRO = re.compile(r"\\([A-Za-z]+)\s*")


def _unit(nodes: Iterable[LatexNode | None]) -> str:
    """A siunitx unit (`\\micro\\metre`, `kg.m/s`) as it is printed (`µm`)."""
    return _UNIT_MACRO.sub(lambda match: _UNITS.get(match.group(1), match.group(1)), _verbatim(nodes)).strip()


def _verbatim(nodes: Iterable[LatexNode | None]) -> str:
    text = "".join(node.latex_verbatim() for node in nodes if node is not None)
    return text[1:-1] if text.startswith("{") and text.endswith("}") else text


def _math(node: LatexMathNode) -> str:
    inner = _LABEL.sub("", "".join(child.latex_verbatim() for child in node.nodelist)).strip()
    return f"$${inner}$$" if node.displaytype == "display" else f"${inner}$"


class _Reader:
    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.words: list[str] = []  # the paragraph being read
        self.list_level: int | None = None
        self.caption = ""  # the caption of the figure or table being read

    def flush(self) -> None:
        text = "\n".join(" ".join(line.split()) for line in "".join(self.words).split("\n")).strip()
        self.words = []
        if text:
            self.blocks.append(Paragraph(text=text, page=1, list_level=self.list_level))

    def read(self, nodes: Iterable[LatexNode | None]) -> None:
        for node in nodes:
            if node is None or isinstance(node, LatexCommentNode):
                continue
            if isinstance(node, LatexCharsNode):
                self._chars(node.chars)
            elif isinstance(node, LatexMacroNode) and node.macroname in _SECTIONS:
                self._heading(node)
            elif isinstance(node, LatexMacroNode) and node.macroname in ("item", "bibitem"):
                self.flush()
                label = node.nodeargd.argnlist[-1] if node.nodeargd and node.nodeargd.argnlist else None
                if label is not None:  # an item's own label (`\\item[Pump]`), a reference's key as it is cited
                    key = _text([label]).strip() if node.macroname == "item" else f"[{_verbatim([label])}]"
                    self.words.append(key + " ")
            elif isinstance(node, LatexMacroNode) and node.macroname == "caption":
                self.flush()
                self.caption = " ".join(_text(node.nodeargd.argnlist[-1:] if node.nodeargd else []).split())
            elif isinstance(node, LatexMathNode) and node.displaytype == "display":
                self.flush()
                self.blocks.append(Paragraph(text=_math(node), page=1))
            elif isinstance(node, LatexEnvironmentNode):
                self._environment(node)
            elif isinstance(node, LatexGroupNode):
                self.read(node.nodelist)
            else:
                self.words.append(_text([node]))

    def _chars(self, chars: str) -> None:
        """Text: a blank line ends a paragraph; a line end is a space."""
        for number, piece in enumerate(_BLANK_LINE.split(chars)):
            if number:
                self.flush()
            self.words.append(piece.replace("\n", " "))

    def _heading(self, node: LatexMacroNode) -> None:
        self.flush()
        arguments = node.nodeargd.argnlist if node.nodeargd else []
        text = " ".join(_text(arguments[-1:]).split())
        if text:
            self.blocks.append(Heading(text=text, level=_SECTIONS[node.macroname], page=1))

    def _environment(self, node: LatexEnvironmentNode) -> None:
        name = node.environmentname
        if name in _DISPLAY_MATH:
            self.flush()
            inner = _LABEL.sub("", "".join(child.latex_verbatim() for child in node.nodelist)).strip()
            self.blocks.append(Paragraph(text=f"$${inner}$$", page=1))
        elif name in _LISTS:
            self._list(node)
        elif name in _TABLES:
            self.flush()
            rows = _table_rows(node)
            if rows:
                self.blocks.append(table_from_rows(rows, page=1))
        elif name in _CODE:
            self.flush()
            code = _verbatim_body(node).strip("\n")
            if code.strip():
                self.blocks.append(Paragraph(text=code, page=1, code=True))
        elif name == "abstract":
            self.flush()
            self.blocks.append(Heading(text="Abstract", level=2, page=1))
            self.read(node.nodelist)
            self.flush()
        elif name == "thebibliography":
            self.flush()
            self.blocks.append(Heading(text="References", level=2, page=1))
            self._list(node)
        elif name in _FLOATS:
            self._float(node)
        elif name in ("center", "document", "minipage", "quote", "quotation"):
            self.flush()
            self.read(node.nodelist)
            self.flush()
        elif name.rstrip("*") in _THEOREMS:
            self.flush()
            self.words.append(name.rstrip("*").capitalize() + ". ")
            self.read(node.nodelist)
            self.flush()
        else:
            self.read(node.nodelist)

    def _float(self, node: LatexEnvironmentNode) -> None:
        """A figure or table: its table with its caption, or the caption as a paragraph (`Figure: …`)."""
        self.flush()
        start, outer = len(self.blocks), self.caption
        self.caption = ""
        self.read(node.nodelist)
        self.flush()
        tables = [at for at in range(start, len(self.blocks)) if isinstance(self.blocks[at], Table)]
        if self.caption and len(tables) == 1:
            self.blocks[tables[0]] = replace(self.blocks[tables[0]], caption=self.caption)  # type: ignore[arg-type]
        elif self.caption:
            kind = "Table" if node.environmentname.startswith(("table", "wraptable", "sidewaystable")) else "Figure"
            self.blocks.append(Paragraph(text=f"{kind}: {self.caption}", page=1))
        self.caption = outer

    def _list(self, node: LatexEnvironmentNode) -> None:
        self.flush()
        outer = self.list_level
        self.list_level = 0 if outer is None else outer + 1
        self.read(node.nodelist)
        self.flush()
        self.list_level = outer


def _verbatim_body(node: LatexEnvironmentNode) -> str:
    """What a verbatim environment holds as written (the walker keeps it only in the environment's source), its
    options (`lstlisting`'s `[language=…]`, `minted`'s `{python}`) left out."""
    source = node.latex_verbatim()
    body = source[source.find("}") + 1 : source.rfind("\\end{")]
    if node.environmentname in ("lstlisting", "minted", "Verbatim"):
        body = _CODE_OPTIONS.sub("", body, count=1)
    return str(body)


def _table_rows(node: LatexEnvironmentNode) -> list[list[str]]:
    """A tabular's rows of cell texts: rows at `\\\\`, cells at `&`, rules left out."""
    body = _RULES.sub("", "".join(child.latex_verbatim() for child in node.nodelist))
    rows = []
    for row in _ROW_END.split(body):
        cells = [" ".join(_text(_nodes(cell)).split()) for cell in _CELL.split(row)]
        if any(cells):
            rows.append(cells)
    width = max((len(row) for row in rows), default=0)
    return [row + [""] * (width - len(row)) for row in rows]


def _levelled(blocks: list[Block], titled: bool) -> list[Block]:
    """Headings renumbered from the document's highest sectioning level (a paper's `\\section` is level 1, or 2
    under its title)."""
    levels = sorted({block.level for block in blocks if isinstance(block, Heading)} - ({1} if titled else set()))
    if not levels:
        return blocks
    shift = levels[0] - (2 if titled else 1)
    out: list[Block] = []
    for index, block in enumerate(blocks):
        if isinstance(block, Heading) and not (titled and index == 0):
            out.append(Heading(text=block.text, level=max(1, min(6, block.level - shift)), page=1))
        else:
            out.append(block)
    return out
