"""Equations in RTF (`{\\mmath …}`, as Word 2007+ and LibreOffice write them): RTF's math control words are OMML's
elements with an `m` before their names (`{\\mf {\\mnum …}{\\mden …}}` is `<m:f><m:num/><m:den/></m:f>`), so the
group is rebuilt as OMML and read by parsers/office/omml.py. A property's value is its number (`{\\mdegHide 1}`) or
its text (`{\\mbegChr [}`); a run's text is its `m:t`. The equation's picture for older readers (`\\mmathPict`) is
passed over."""

from __future__ import annotations

from lxml import etree

from docshelf.parsers.office.omml import M_NS, OMATH, OMATH_PARA, m, omml_latex

MAX_ELEMENTS = 100_000
_PICTURE = "mmathPict"
_VALUE = m("val")


class RtfMath:
    """One `{\\mmath …}` group as the RTF reader meets it: groups opened and closed at their depth, control words and
    text. `latex()` when the group closes."""

    def __init__(self, depth: int) -> None:
        self.depth = depth  # the \\mmath group's depth in the reader's stack
        self.root = etree.Element(m("mathRoot"), nsmap={"m": M_NS})
        self.open: list[tuple[int, etree._Element]] = [(depth, self.root)]
        self.passed_over = 0  # the depth of a group passed over (the picture), or 0
        self.elements = 0

    def control(self, word: str, number: int | None, depth: int) -> None:
        """A control word at group `depth`: the first of its group names the group's element; a later one with a
        number is a property of the element it is in."""
        if self.passed_over or not word.startswith("m") or word == "mmath" or self.elements >= MAX_ELEMENTS:
            return
        if word == _PICTURE:
            self.passed_over = depth
            return
        self.elements += 1
        if depth > self.open[-1][0]:
            self.open.append((depth, etree.SubElement(self.open[-1][1], m(word[1:]))))
        elif number is not None:
            etree.SubElement(self.open[-1][1], m(word[1:])).set(_VALUE, str(number))

    def text(self, text: str) -> None:
        if self.passed_over or len(self.open) < 2:
            return
        element = self.open[-1][1]
        if element.tag == m("r"):
            run_text = element.find(m("t"))
            element = run_text if run_text is not None else etree.SubElement(element, m("t"))
        element.text = (element.text or "") + text

    def close(self, depth: int) -> None:
        """The group at `depth` closes."""
        if self.passed_over:
            if depth <= self.passed_over:
                self.passed_over = 0
            return
        while len(self.open) > 1 and self.open[-1][0] >= depth:
            _, element = self.open.pop()
            if element.tag != m("t") and len(element) == 0 and (element.text or "").strip() and element.tag != m("r"):
                element.set(_VALUE, (element.text or "").strip())  # a property given as text: {\\mbegChr [}
                element.text = None

    def latex(self) -> str:
        """The equations read, each as `$…$` (an `\\moMathPara`'s as `$$…$$`), a space apart."""
        found = [omml_latex(child) for child in self.root.iter(OMATH_PARA, OMATH) if _outermost(child)]
        return " ".join(latex for latex in found if latex)


def _outermost(element: etree._Element) -> bool:
    parent = element.getparent()
    return parent is None or parent.tag not in (OMATH, OMATH_PARA)
