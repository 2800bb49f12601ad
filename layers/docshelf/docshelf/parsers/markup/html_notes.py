"""Notes of a web page or an EPUB chapter: a same-page link to a note is a note reference.

A link `<a href="#x">` is a note reference when `x` is a note: an element typed as one (`role="doc-footnote"`,
`epub:type="footnote"`, a class `footnote`, Word's `mso-element:footnote`) or an item of a notes list (pandoc's
`section.footnotes`, Wikipedia's `ol.references`, docutils' `dl.footnote`); or when the link is typed as a reference
(`role="doc-noteref"`, a class `footnote-ref`, Wikipedia's `sup.reference`, Word's `_ftnref`, or a superscript
label) or its target links back to it, and it shows a short label. Its text becomes `[^label]` (the label it
shows, brackets off) and the note a paragraph `[^label]: text` right after the block citing it, as DOCX and Markdown
notes are; the note is not read again where it stands, and its links back to its references (`↩`, Wikipedia's
`^ a b`) are dropped. A typed reference whose note is not on the page (or is in another file, as an EPUB's notes
chapter) keeps its label, bracketed and set off from the word: `word [3]`, never `word3`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lxml import etree

from docshelf.parsers.markup.html_tables import local_name

if TYPE_CHECKING:
    from collections.abc import Callable

_EPUB_TYPE = "{http://www.idpf.org/2007/ops}type"
# One note: typed by ARIA or EPUB, or classed (docutils' `aside.footnote`, `table.footnote`).
_NOTE_TYPES = frozenset({"doc-footnote", "doc-endnote", "footnote", "endnote", "rearnote", "note"})
_NOTE_CLASSES = frozenset({"footnote", "endnote"})
# A list of notes: its items are notes (pandoc, kramdown, Python-Markdown, GitHub, Wikipedia, Hugo).
_NOTES_LIST_KINDS = frozenset({"doc-endnotes", "doc-footnotes", "references", "reflist", "mw-references-wrap", "notes"})
_NOTE_REF_KINDS = frozenset(
    {"doc-noteref", "noteref", "footnote", "footnote-ref", "footnote-reference", "footnoteref", "fnref", "endnote",
     "endnote-ref", "endnote-reference"}
)  # fmt: skip
# A link back from a note to its reference: typed, classed (pandoc, Python-Markdown, kramdown, docutils) or an arrow.
_BACK_KINDS = ("doc-backlink", "backref", "backlink", "footnote-back", "reversefootnote")
_BACK_SIGNS = frozenset({"↩", "↑", "^", "⤴", "⮐", "↵"})
_WORD_NOTE = re.compile(r"mso-element\s*:\s*(?:foot|end)note\s*(?:;|$)", re.I)
_WORD_REF_NAME = re.compile(r"_(?:ftn|edn)ref", re.I)
# What a note reference shows: a number, a letter or two, a roman numeral or a sign, bracketed or not.
_LABEL = re.compile(r"[\[(]?\s*([0-9]{1,4}|[A-Za-z]{1,2}|[ivxlcIVXLC]{1,6}|[*†‡§¶#]{1,3})\s*[\])]?")
_MAX_TYPED_LABEL = 16  # Wikipedia's `[note 12]`; longer link text is a cross-reference, not a note mark
_BLOCKS = frozenset(
    {"p", "div", "li", "dd", "dt", "aside", "section", "td", "th", "tr", "table", "footer", "blockquote", "body"}
)
_OUTER = frozenset({"section", "article", "main", "body", "html"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Within a note, docutils' label (`[1]`, linking back) and list of back-references are not its text.
NOTE_LABEL_CLASSES = frozenset({"label", "backrefs"})
_EMPTY_BRACKETS = re.compile(r"^(?:\[\s*\]|\(\s*[,\s]*\))\s*")


@dataclass(slots=True, eq=False)
class Note:
    label: str
    element: etree._Element  # the note where it stands
    body: etree._Element  # the element whose content is the note's text (a <dt>'s <dd>)


@dataclass(slots=True)
class PageNotes:
    """The page's note references and notes; the notes cited and not yet placed wait in `pending`."""

    marks: dict[etree._Element, str]  # reference link -> its mark
    notes: dict[etree._Element, Note]  # reference link -> the note it cites
    hidden: set[etree._Element]  # notes (and a <dt>'s <dd>) not read where they stand
    anchors: set[str]  # ids and names of references: a link to one is a back-link
    document: str = ""  # the file name links into the same document may carry (an EPUB chapter's)
    pending: list[Note] = field(default_factory=list)
    placed: set[int] = field(default_factory=set)

    def cite(self, link: etree._Element) -> str:
        note = self.notes.get(link)
        if note is not None and id(note) not in self.placed:
            self.placed.add(id(note))
            self.pending.append(note)
        return self.marks[link]

    def take(self) -> list[Note]:
        taken, self.pending = self.pending, []
        return taken

    def unplaced(self) -> list[Note]:
        """Notes whose every reference was in a part of the page not read (a hidden one, a menu)."""
        seen: set[int] = set()
        left = []
        for note in self.notes.values():
            if id(note) not in self.placed and id(note) not in seen:
                seen.add(id(note))
                left.append(note)
        return left

    def is_backlink(self, link: etree._Element) -> bool:
        return _fragment(str(link.get("href") or ""), self.document) in self.anchors


def find_notes(
    root: etree._Element, dropped: Callable[[etree._Element], bool], *, document: str = ""
) -> PageNotes | None:
    """The note references of a page and their notes (none in a part `dropped` leaves out); None without any.

    `document` is the page's file name, with which its links to itself may be written (`ch01.xhtml#fn1`).
    """
    fragments = {a: _fragment(str(a.get("href") or ""), document) for a in root.iter("a")}
    wanted = {fragment for fragment in fragments.values() if fragment}
    targets = _targets(root, wanted) if wanted else {}
    finder = _Finder(fragments, dropped)
    for link, fragment in fragments.items():
        if fragment and link not in finder.back:
            finder.reference(link, targets.get(fragment))
        elif not fragment and "#" in str(link.get("href") or ""):
            finder.reference(link, None)  # to a note in another file (an EPUB's notes chapter): set off only
    if not finder.marks:
        return None
    notes = finder.by_element.values()
    hidden = {note.element for note in notes} | {note.body for note in notes}
    return PageNotes(marks=finder.marks, notes=finder.notes, hidden=hidden, anchors=finder.anchors, document=document)


def _targets(root: etree._Element, wanted: set[str]) -> dict[str, etree._Element]:
    """The elements the wanted fragments name, by id (or an anchor's name), the first of each."""
    targets: dict[str, etree._Element] = {}
    found = root.xpath("//@id | //a/@name")  # the values only: far cheaper than the elements
    for value in found if isinstance(found, list) else ():
        key = str(value)
        if key in wanted and key not in targets and isinstance(value, etree._ElementUnicodeResult):
            element = value.getparent()
            if element is not None:
                targets[key] = element
    return targets


class _Finder:
    def __init__(self, fragments: dict[etree._Element, str], dropped: Callable[[etree._Element], bool]) -> None:
        self.fragments = fragments
        self.dropped = dropped
        self.marks: dict[etree._Element, str] = {}
        self.notes: dict[etree._Element, Note] = {}
        self.by_element: dict[etree._Element, Note] = {}
        self.anchors: set[str] = set()
        self.back: set[etree._Element] = set()  # links from a note found to its references
        self.left_out: dict[etree._Element, bool] = {}  # whether an element is in a part of the page not read

    def reference(self, link: etree._Element, target: etree._Element | None) -> None:
        """Record the link as a note reference if it is one."""
        text = " ".join("".join(str(part) for part in link.itertext()).split())
        if not text or len(text) > _MAX_TYPED_LABEL or is_backlink(link):
            return
        typed = _typed_reference(link)
        if not typed and (target is None or not _LABEL.fullmatch(text)):
            return
        found = _note_of(target, link, self.fragments, typed=typed) if target is not None else None
        if found is not None and self._in_dropped(found[0]):
            found = None
        label = _label(text)
        if found is None:
            if typed:
                self.marks[link] = f" [{label}]"
            return
        element, body = found
        note = self.by_element.get(element)
        if note is None:
            note = self.by_element[element] = Note(label=label, element=element, body=body)
        self.notes[link] = note
        self.marks[link] = f"[^{note.label}]"
        own = _anchors(link)
        self.anchors.update(own)
        for part in {element, body}:
            self.back.update(a for a in part.iter("a") if self.fragments.get(a) in own)

    def _in_dropped(self, element: etree._Element) -> bool:
        chain: list[etree._Element] = []
        node: etree._Element | None = element
        while node is not None and node not in self.left_out:
            chain.append(node)
            node = node.getparent()
        left_out = self.left_out[node] if node is not None else False
        for node in reversed(chain):
            left_out = self.left_out[node] = left_out or self.dropped(node)
        return left_out


def _fragment(href: str, document: str) -> str:
    """The id a link points to in its own document, or ''."""
    path, _, fragment = href.partition("#")
    if not fragment or (path and (not document or path.rsplit("/", 1)[-1] != document)):
        return ""
    return fragment


def is_backlink(link: etree._Element) -> bool:
    """Whether a same-page link leads back from a note to its reference (by its type, class or arrow)."""
    if "#" not in str(link.get("href") or ""):
        return False
    if link.get("data-footnote-backref") is not None:
        return True
    if any(sign in kind for kind in _kinds(link) for sign in _BACK_KINDS):
        return True
    text = "".join(str(part) for part in link.itertext()).strip().rstrip("\ufe0e\ufe0f")
    return text in _BACK_SIGNS


def note_text(text: str, label: str) -> str:
    """A note's text without its own label (`1.`, `[1]`) or what a dropped back-link left of it (`[]`, `(,)`)."""
    text = _EMPTY_BRACKETS.sub("", text, count=1)
    if text.startswith((label, f"[{label}]", f"({label})")):
        text = re.sub(rf"^[\[(]?{re.escape(label)}[\]).:]\s*", "", text, count=1)
    return text


def _label(text: str) -> str:
    stripped = text.strip().removeprefix("[").removesuffix("]").strip()
    return "-".join(stripped.split()) or text


def _kinds(element: etree._Element) -> list[str]:
    get = element.get
    return f"{get('role', '')} {get('epub:type', '')} {get(_EPUB_TYPE, '')} {get('class', '')}".lower().split()


def _typed_reference(link: etree._Element) -> bool:
    """Whether the link says it is a note reference: by its type or class, its superscript's, or by being one."""
    if link.get("data-footnote-ref") is not None or _WORD_REF_NAME.match(str(link.get("name") or "")):
        return True
    if any(kind in _NOTE_REF_KINDS for kind in _kinds(link)):
        return True
    if len(link) == 1 and local_name(link[0]) == "sup" and not (link.text or "").strip():
        return not (link[0].tail or "").strip()  # <a href="#n1"><sup>1</sup></a>
    parent = link.getparent()
    if parent is None or local_name(parent) not in ("sup", "span"):
        return False
    kinds = _kinds(parent)
    if local_name(parent) == "sup" and (
        "reference" in kinds or (len(parent) == 1 and not (parent.text or "").strip() and not (link.tail or "").strip())
    ):
        return True  # Wikipedia's sup.reference; <sup><a href="#n1">1</a></sup>
    return any(kind in _NOTE_REF_KINDS for kind in kinds)


def _is_note(element: etree._Element) -> bool:
    get = element.get
    types = f"{get('role', '')} {get('epub:type', '')} {get(_EPUB_TYPE, '')}".lower().split()
    if any(kind in _NOTE_TYPES for kind in types):
        return True
    if any(kind in _NOTE_CLASSES for kind in str(get("class", "")).lower().split()):
        return True
    style = get("style")
    return bool(style and _WORD_NOTE.search(str(style)))


def _is_notes_list(element: etree._Element | None) -> bool:
    """An <ol>, <ul> or <dl> holding notes, marked on itself or on one of its two parents."""
    for _ in range(3):
        if element is None:
            return False
        if any(kind in _NOTES_LIST_KINDS or "footnote" in kind or "endnote" in kind for kind in _kinds(element)):
            return True
        element = element.getparent()
    return False


def _in_note(link: etree._Element) -> bool:
    for depth, ancestor in enumerate(link.iterancestors()):
        if depth > 6 or local_name(ancestor) in _OUTER:
            return False
        if _is_note(ancestor) or (local_name(ancestor) == "li" and _is_notes_list(ancestor.getparent())):
            return True
    return False


def _note_of(
    target: etree._Element, link: etree._Element, fragments: dict[etree._Element, str], *, typed: bool
) -> tuple[etree._Element, etree._Element] | None:
    """The note (and the element holding its text) that `target` is or is in; None when it is no note."""
    if target is link or any(ancestor is target for ancestor in link.iterancestors()):
        return None
    element: etree._Element | None = target
    for _ in range(5):
        if element is None:
            break
        name = local_name(element)
        if name in _HEADINGS:
            return None
        if name == "li" and _is_notes_list(element.getparent()):
            return element, element
        if name == "dt" and _is_notes_list(element.getparent()):
            body = element.getnext()
            return (element, body) if body is not None and local_name(body) == "dd" else None
        if _is_note(element):
            return element, element
        if name in _OUTER:
            break
        element = element.getparent()
    block = target
    while local_name(block) not in _BLOCKS and (parent := block.getparent()) is not None:
        block = parent
    if local_name(block) in _OUTER or any(local_name(inner) in _HEADINGS for inner in block.iter()):
        return None
    if typed or (not _in_note(link) and _links_back(block, link, fragments)):
        return block, block
    return None


def _anchors(link: etree._Element) -> set[str]:
    """The ids and name a link back to this reference may point to (its own, its superscript's)."""
    found = {str(link.get(key)) for key in ("id", "name") if link.get(key)}
    parent = link.getparent()
    if parent is not None and local_name(parent) in ("sup", "span") and parent.get("id"):
        found.add(str(parent.get("id")))
    return found


def _links_back(block: etree._Element, link: etree._Element, fragments: dict[etree._Element, str]) -> bool:
    anchors = _anchors(link)
    return bool(anchors) and any(fragments.get(a) in anchors for a in block.iter("a"))
