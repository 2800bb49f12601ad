"""Walk an lxml HTML tree into typed blocks: headings, paragraphs (lists, code), tables and images."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docshelf.assets.collect import ImageSource
from docshelf.model import Block, Heading, Image, Paragraph, Table
from docshelf.parsers.formatted_headings import Look
from docshelf.parsers.markup.css_looks import ClassStyles
from docshelf.parsers.markup.html_looks import DEFAULT, Set, element_set
from docshelf.parsers.markup.html_menus import menus_before_title
from docshelf.parsers.markup.html_notes import NOTE_LABEL_CLASSES, PageNotes, find_notes, is_backlink, note_text
from docshelf.parsers.markup.html_tables import local_name, table_from_element, table_rows
from docshelf.parsers.markup.mathml import math_image_latex, mathml_latex
from docshelf.parsers.numerals import roman
from docshelf.scripts import NO_SPACE
from docshelf.tables import table_text

if TYPE_CHECKING:
    from lxml import etree

DROPPED_TAGS = frozenset(
    {
        "script", "style", "noscript", "template", "nav", "button", "svg",
        "iframe", "object", "embed", "select", "textarea", "input", "head", "map", "canvas", "audio",
        "video", "dialog", "link", "meta", "base",
    }
)  # fmt: skip
DROPPED_ROLES = frozenset({"navigation", "search", "menubar", "menu", "toolbar"})
# A page's sidebar and footer are furniture; inside an article or a quotation they are its own (a note, a byline,
# an attribution), and a note (EPUB's footnotes are asides) is text wherever it is.
PAGE_FURNITURE_TAGS = frozenset({"aside", "footer"})
# The same parts of a page laid out with <div>s, named by an id or a class exactly (not `footer-note`; not `menu`,
# which a restaurant's page uses for its dishes).
# MediaWiki's skins name theirs: the side panel and header (logo, menus, languages), the page indicators, the
# "From Wikipedia" and "(Redirected from …)" lines, the printed "Retrieved from" footer and the category links.
FURNITURE_NAMES = frozenset(
    {"footer", "site-footer", "page-footer", "sidebar", "side-bar", "main-menu", "navbar", "nav", "topnav",
     "breadcrumb", "breadcrumbs",
     "mw-navigation", "mw-head", "mw-head-base", "mw-page-base", "mw-panel", "p-lang", "p-lang-btn", "mw-header",
     "vector-header-container", "mw-indicators", "sitesub", "contentsub", "printfooter", "catlinks", "mw-footer"}
)  # fmt: skip
_CONTENT_OWNERS = frozenset({"article", "blockquote"})
_NOTE_TYPES = frozenset({"footnote", "endnote", "rearnote", "note", "doc-footnote", "doc-endnote"})
_EPUB_TYPE = "{http://www.idpf.org/2007/ops}type"
# A form holding such elements wraps a page's content (ASP.NET and SharePoint pages put the whole body in one);
# one without them is a search box or a login, even under a heading of its own (Drupal's "Search form").
_CONTENT_TAGS = frozenset({"p", "table", "article", "main", "section", "ul", "ol", "blockquote", "pre"})
# Text for screen readers alone (Drupal's `element-invisible`, Bootstrap's `sr-only`, WordPress's
# `screen-reader-text`): "Skip to main content", an icon's name, "(opens in a new tab)".
NOISE_CLASSES = frozenset(
    {"mw-editsection", "mw-jump-link", "mw-portlet-lang", "mw-cite-backlink", "navbox", "skip-link", "skip-links",
     "skiplink", "headerlink", "element-invisible", "sr-only", "screen-reader-text", "visually-hidden",
     "visuallyhidden"}
)  # fmt: skip
# A same-page link showing only one of these is a permalink (of a heading, a caption, a term), shown on hover.
_PERMALINK_SIGNS = frozenset({"¶", "#", "§", "🔗", "⚓"})
_NOISE_NAME = re.compile(r"cookie[-_]?(banner|consent|notice|bar|popup|law)|gdpr[-_]?(banner|consent)", re.I)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)

BLOCK_TAGS = frozenset(
    {
        "p", "div", "section", "article", "main", "body", "html", "blockquote", "dd", "dt", "dl",
        "figcaption", "figure", "address", "caption", "summary", "details", "center", "fieldset",
        "legend", "hr", "header", "hgroup", "td", "th", "tr", "tbody", "thead", "tfoot", "option",
        "title", "frameset", "frame", "search", "output",
    }
)  # fmt: skip
HEADING_LEVELS = {f"h{n}": n for n in range(1, 7)}
LIST_TAGS = frozenset({"ul", "ol", "menu", "dir"})
# Python frames per nesting level are at most ~4 (through headings and table cells): well under the recursion limit.
MAX_WALK_DEPTH = 150

_BREAK = "\ue000"  # stands for <br> while whitespace is collapsed
_CJK_NEWLINE = re.compile(rf"(?<=[{NO_SPACE}])[ \t\r\f]*\n\s*(?=[{NO_SPACE}])")
_SPACES = re.compile(r"[ \t\n\r\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_INVISIBLE = re.compile(r"[\u200b\u200c\u200d\u2060\ufeff\u00ad]")


def normalise_inline(raw: str) -> str:
    """Collapse HTML whitespace like a browser; a line break between CJK characters adds no space."""
    text = _INVISIBLE.sub("", _CJK_NEWLINE.sub("", raw))
    text = _SPACES.sub(" ", text)
    lines = (line.strip() for line in text.split(_BREAK))
    return "\n".join(line for line in lines if line)


def is_dropped(element: etree._Element) -> bool:
    name = local_name(element)
    if name in DROPPED_TAGS:
        return True
    if name == "a" and _is_link_furniture(element):
        return True
    if (name in PAGE_FURNITURE_TAGS or _named_furniture(element)) and not _is_own_content(element):
        return True
    if name == "form" and not any(local_name(inner) in _CONTENT_TAGS for inner in element.iterdescendants()):
        return True
    get = element.get
    if get("hidden") is not None or str(get("aria-hidden", "")).lower() == "true":
        return True
    if str(get("role", "")).lower() in DROPPED_ROLES:
        return True
    style = get("style")
    if style and _HIDDEN_STYLE.search(str(style)):
        return True
    classes = str(get("class", "")).split()
    if any(cls in NOISE_CLASSES for cls in classes):
        return True
    return bool(_NOISE_NAME.search(" ".join([*classes, str(get("id", ""))])))


def _is_link_furniture(link: etree._Element) -> bool:
    """A note's link back to its reference (`↩`) or a permalink (`¶`): same-page links that are no text."""
    href = str(link.get("href") or "")
    if "#" not in href:
        return False
    if is_backlink(link):
        return True
    return href.startswith("#") and _link_text(link) in _PERMALINK_SIGNS


def _link_text(link: etree._Element) -> str:
    return "".join(str(part) for part in link.itertext()).strip().rstrip("\ufe0e\ufe0f")


def _named_furniture(element: etree._Element) -> bool:
    get = element.get
    names = f"{get('id', '')} {get('class', '')}".lower().split()
    return any(name in FURNITURE_NAMES for name in names)


def _is_own_content(element: etree._Element) -> bool:
    """Whether an aside or footer is a note, or belongs to an article or a quotation rather than to the page."""
    kinds = f"{element.get('role', '')} {element.get('epub:type', '')} {element.get(_EPUB_TYPE, '')}".lower().split()
    if any(kind in _NOTE_TYPES for kind in kinds):
        return True
    if any("footnote" in cls or "endnote" in cls for cls in str(element.get("class", "")).lower().split()):
        return True  # docutils' `aside.footnote-list`
    return any(local_name(ancestor) in _CONTENT_OWNERS for ancestor in element.iterancestors())


@dataclass(slots=True)
class _ListState:
    ordered: bool
    counter: int = 0  # the number of the item before the next one
    step: int = 1  # -1 in a reversed list
    style: str = "1"  # the `type` of an ordered list: 1, a, A, i or I

    @classmethod
    def of(cls, element: etree._Element) -> _ListState:
        """An <ol>'s numbering as a browser shows it: `start`, `reversed` and `type` honoured."""
        if local_name(element) != "ol":
            return cls(ordered=False)
        step = -1 if element.get("reversed") is not None else 1
        start = _integer(element.get("start"))
        if start is None:
            start = sum(1 for child in element if local_name(child) == "li") if step < 0 else 1
        style = str(element.get("type") or "1")
        return cls(ordered=True, counter=start - step, step=step, style=style if style in _LIST_STYLES else "1")

    def next_marker(self, item: etree._Element) -> str:
        value = _integer(item.get("value"))
        self.counter = value if value is not None else self.counter + self.step
        return f"{_list_label(self.counter, self.style)}. " if self.ordered else ""


_LIST_STYLES = frozenset("1aAiI")


def _integer(value: object) -> int | None:
    text = str(value or "").strip()
    digits = text.removeprefix("-")
    return int(text) if digits.isascii() and digits.isdigit() and len(digits) < 10 else None


def _list_label(number: int, style: str) -> str:
    """An item's number as its list's `type` writes it (browsers fall back to decimal where a style has no form)."""
    if style in "aA" and number > 0:
        letters = ""
        while number > 0:
            number, rest = divmod(number - 1, 26)
            letters = chr(ord("a") + rest) + letters
        return letters if style == "a" else letters.upper()
    if style in "iI":
        return roman(number).lower() if style == "i" else roman(number)
    return str(number)


class HtmlBlockWalker:
    """Collects blocks in source order; inline content is buffered until a block boundary flushes it.

    Elements nested deeper than MAX_WALK_DEPTH (counted across the walkers of headings and table cells)
    contribute their text as inline text, so that a hostile nesting depth cannot exhaust the Python stack.
    """

    def __init__(
        self,
        *,
        page: int = 1,
        depth: int = 0,
        images: ImageSource | None = None,
        notes: PageNotes | None = None,
        in_note: bool = False,
        document: str = "",
        read_looks: bool = False,
        sheet: ClassStyles | None = None,
    ) -> None:
        self.page = page
        self._read_looks = read_looks  # keep how each paragraph is set (`looks`), for headings typed by formatting
        self._sheet = sheet  # the page's style sheets, which set looks by element type and class
        self.images = images
        self._depth = depth
        self._notes = notes
        self._places_notes = False  # the walker of the whole page places the notes its blocks cite
        self._in_note = in_note
        self._document = document  # the page's file name, with which its links to itself may be written
        self.blocks: list[Block] = []
        self._inline: list[str] = []
        self._images: list[Image] = []
        self._lists: list[_ListState] = []
        self._in_item = 0
        self._marker = ""
        self._menus: set[etree._Element] = set()
        self._set: Set = DEFAULT  # the bold and size of the text being read
        self._inline_set: Counter[Set] = Counter()  # the buffered text's characters by their bold and size
        self.looks: dict[int, Look] = {}  # how each body paragraph is set, by its index in `blocks`

    def walk(self, root: etree._Element) -> list[Block]:
        if self._notes is None and self._depth == 0:
            self._notes = find_notes(root, is_dropped, document=self._document)
            self._places_notes = self._notes is not None
        if self._depth == 0:
            self._menus = menus_before_title(root)
        self._visit(root)
        self._flush()
        if self._notes is not None and self._places_notes:
            self._notes.pending.extend(self._notes.unplaced())
            self._place_notes()
        return self.blocks

    def walk_content(self, element: etree._Element) -> list[Block]:
        """The blocks of an element's content, the element itself not being interpreted."""
        self._children(element)
        self._flush()
        return self.blocks

    def _text(self, text: str | None) -> None:
        if text:
            self._inline.append(text)
            if self._read_looks:
                self._inline_set[self._set] += len(text) - text.count(" ") - text.count("\n")

    def _visit(self, element: etree._Element) -> None:
        if self._depth >= MAX_WALK_DEPTH:
            if local_name(element) and not is_dropped(element):
                self._inline.append("".join(str(part) for part in element.itertext()))
            return
        self._depth += 1
        outer = self._set
        if self._read_looks and (name := local_name(element)):
            self._set = element_set(element, name, outer, self._sheet)
        try:
            self._visit_element(element)
        finally:
            self._depth -= 1
            self._set = outer

    def _visit_element(self, element: etree._Element) -> None:  # noqa: PLR0912
        name = local_name(element)
        if not name or is_dropped(element) or (self._notes is not None and self._note_part(element, name)):
            return
        if element in self._menus:
            return
        if self._in_note and any(cls in NOTE_LABEL_CLASSES for cls in str(element.get("class", "")).split()):
            return
        if name in HEADING_LEVELS:
            self._flush()
            text = inline_text(element, depth=self._depth, notes=self._notes)
            if text:
                self.blocks.append(Heading(text=text.replace("\n", " "), level=HEADING_LEVELS[name], page=self.page))
                self._place_notes()
        elif name == "table":
            self._flush()
            self._table(element)
            self._place_notes()
        elif name in ("img", "math", "br"):
            self._inline_object(element, name)
        elif name == "pre":
            self._flush()
            code = preformatted_text(element)
            if code.strip():
                self.blocks.append(Paragraph(text=code, page=self.page, list_level=self._level(), code=True))
        elif name in LIST_TAGS:
            self._flush()
            self._lists.append(_ListState.of(element))
            self._children(element)
            self._flush()
            self._lists.pop()
        elif name == "li":
            self._flush()
            if self._lists:
                self._marker = self._lists[-1].next_marker(element)
            self._in_item += 1
            self._children(element)
            self._flush()
            self._in_item -= 1
            self._marker = ""
        elif name in BLOCK_TAGS:
            self._flush()
            self._children(element)
            self._flush()
        else:
            self._children(element)

    def _inline_object(self, element: etree._Element, name: str) -> None:
        """A line break, an equation (MathML, or a wiki's equation image) as LaTeX in the text, or an image."""
        if name == "br":
            self._inline.append(_BREAK)
            return
        equation = mathml_latex(element) if name == "math" else math_image_latex(element)
        if equation is None:
            self._image(element)
        else:
            self._inline.append(equation)

    def _note_part(self, element: etree._Element, name: str) -> bool:
        """Whether the element is a note read elsewhere, a note reference (its mark goes in), or a link back."""
        notes = self._notes
        if notes is None:
            return False
        if element in notes.hidden:
            return True
        if name != "a":
            return False
        if element in notes.marks:
            self._inline.append(notes.cite(element))
            return True
        return notes.is_backlink(element)

    def _place_notes(self) -> None:
        """The notes cited since the last call, each a paragraph `[^1]: text` (its paragraphs one line each)."""
        notes = self._notes
        if notes is None or not self._places_notes:
            return
        while notes.pending:
            for note in notes.take():
                walker = HtmlBlockWalker(page=self.page, depth=self._depth, notes=notes, in_note=True)
                parts = (block_as_text(block) for block in walker.walk_content(note.body))
                text = note_text("\n".join(part for part in parts if part).strip(), note.label)
                if text:
                    self.blocks.append(Paragraph(text=f"[^{note.label}]: {text}", page=self.page))

    def _children(self, element: etree._Element) -> None:
        self._text(element.text)
        for child in element:
            self._visit(child)
            self._text(child.tail)

    def _level(self) -> int | None:
        return len(self._lists) - 1 if self._in_item and self._lists else None

    def _flush(self) -> None:
        text = normalise_inline("".join(self._inline))
        self._inline.clear()
        set_as, self._inline_set = self._inline_set, Counter()
        if text:
            level = self._level()
            look = Look.of(set_as)
            if level is None and look is not None:
                self.looks[len(self.blocks)] = look
            self.blocks.append(Paragraph(text=self._marker + text, page=self.page, list_level=level))
            self._marker = ""
        self.blocks.extend(self._images)
        self._images.clear()
        if self._notes is not None and self._notes.pending:
            self._place_notes()

    def _image(self, element: etree._Element) -> None:
        alt = normalise_inline(str(element.get("alt") or element.get("title") or ""))
        src = str(element.get("src", ""))
        if self.images is not None:
            image = self.images.image(src, page=self.page, alt_text=alt, caption=_figure_caption(element))
            if image is not False:
                self._images.extend([image] if isinstance(image, Image) else [])
                return
        if not alt:
            return
        self._images.append(
            Image(
                page=self.page,
                alt_text=alt,
                asset_ref="" if src.startswith("data:") else src[:2048],
                width=_dimension(element.get("width")),
                height=_dimension(element.get("height")),
            )
        )

    def _table(self, element: etree._Element) -> None:
        if _is_layout_table(element):
            for row, _ in table_rows(element):
                for cell in row:
                    self._visit(cell)
            self._flush()
            return
        depth = self._depth + 1
        notes = self._notes
        caption = next((inline_text(c, depth=depth, notes=notes) for c in element if local_name(c) == "caption"), "")
        table = table_from_element(
            element, lambda cell: inline_text(cell, depth=depth, notes=notes), page=self.page, caption=caption
        )
        if table is not None:
            self.blocks.append(table)
            self.blocks.extend(self._cell_pictures(element))

    def _cell_pictures(self, table: etree._Element) -> list[Block]:
        """The pictures in a data table's cells whose bytes are here (a package member, a `data:` URI), after the
        table as in a DOCX; the cells keep their alt text."""
        if self.images is None:
            return []
        found: list[Block] = []
        for element in table.iter("img"):
            if is_dropped(element) or math_image_latex(element) is not None:
                continue
            alt = normalise_inline(str(element.get("alt") or element.get("title") or ""))
            image = self.images.image(str(element.get("src", "")), page=self.page, alt_text=alt)
            found += [image] if isinstance(image, Image) else []
        return found


def _dimension(value: object) -> int | None:
    digits = str(value or "").strip().removesuffix("px")
    return int(digits) if digits.isdigit() and len(digits) < 7 else None


def _is_layout_table(table: etree._Element) -> bool:
    """A one-cell or one-column table whose cells hold whole blocks is page layout, not data."""
    rows = [row for row, _ in table_rows(table)]
    cells = [cell for row in rows for cell in row if local_name(cell) in ("td", "th")]
    if len(cells) <= 1:
        return True
    if all(sum(1 for cell in row if local_name(cell) in ("td", "th")) <= 1 for row in rows):
        block_children = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table", "pre", "blockquote"}
        return any(local_name(child) in block_children for cell in cells for child in cell.iter())
    return False


def _figure_caption(image: etree._Element) -> str:
    """The <figcaption> of the <figure> the image is in (a few levels up at most), or ""."""
    parent = image.getparent()
    for _ in range(4):
        if parent is None:
            return ""
        if local_name(parent) == "figure":
            caption = next((child for child in parent if local_name(child) == "figcaption"), None)
            return inline_text(caption) if caption is not None else ""
        parent = parent.getparent()
    return ""


def inline_text(element: etree._Element, *, depth: int = 0, notes: PageNotes | None = None) -> str:
    """The visible text of an element as one string (blocks inside are joined by line breaks)."""
    blocks = HtmlBlockWalker(depth=depth, notes=notes).walk_content(element)
    return "\n".join(block_as_text(block) for block in blocks).strip()


def block_as_text(block: Block) -> str:
    if isinstance(block, Table):
        return table_text(block)
    if isinstance(block, Paragraph) and block.list_level is not None and not block.text[:1].isdigit():
        return f"- {block.text}"
    return block.text


def preformatted_text(element: etree._Element) -> str:
    """The text of a <pre> element as laid out, <br> as a line break (iterative: nesting depth is unbounded)."""
    parts: list[str] = [element.text or ""]
    stack = [(element, iter(element))]
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if stack:
                parts.append(node.tail or "")
        elif local_name(child) == "br":
            parts.append("\n" + (child.tail or ""))
        elif is_dropped(child):
            parts.append(child.tail or "")
        else:
            parts.append(child.text or "")
            stack.append((child, iter(child)))
    return "".join(parts).strip("\n").rstrip()
