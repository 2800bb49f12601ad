"""Footnotes and endnotes of a WordprocessingML document, numbered in the order the body cites them.

A reference leaves its mark `[^1]` in the body text; the note it cites waits to be placed right after the block
holding the reference. Footnotes count 1, 2, 3 and endnotes i, ii, iii (Word's default number formats); the
separator and continuation notes Word keeps in the same parts are not notes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docshelf.parsers.office.docx_numbering import format_number, w

if TYPE_CHECKING:
    from lxml import etree

_NUMBER_FORMATS = {"footnote": "decimal", "endnote": "lowerRoman"}
REFERENCES = {w("footnoteReference"): "footnote", w("endnoteReference"): "endnote"}


class Notes:
    def __init__(self, footnotes: etree._Element | None, endnotes: etree._Element | None) -> None:
        self._notes = {"footnote": _by_id(footnotes, "footnote"), "endnote": _by_id(endnotes, "endnote")}
        self._cited = {"footnote": 0, "endnote": 0}
        self._pending: list[tuple[str, etree._Element]] = []

    def cite(self, kind: str, note_id: str) -> str:
        """The mark of a reference to a note ('' when the part has no such note); the note is queued."""
        note = self._notes[kind].get(note_id)
        if note is None:
            return ""
        self._cited[kind] += 1
        mark = f"[^{format_number(self._cited[kind], _NUMBER_FORMATS[kind])}]"
        self._pending.append((mark, note))
        return mark

    def take(self) -> list[tuple[str, etree._Element]]:
        """The notes cited since the last call, each with its mark, in citation order."""
        taken, self._pending = self._pending, []
        return taken


def _by_id(part: etree._Element | None, kind: str) -> dict[str, etree._Element]:
    if part is None:
        return {}
    notes = part.iterfind(w(kind))
    return {str(note.get(w("id"))): note for note in notes if note.get(w("type"), "normal") == "normal"}
