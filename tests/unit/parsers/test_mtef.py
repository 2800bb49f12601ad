"""Equation Editor equations (MTEF v3 in an OLE object's `Equation Native` stream) as LaTeX: from records written
here as the format lays them out, and through `.doc` files LibreOffice saves from Word equations."""

from __future__ import annotations

import io
import random
import struct
from pathlib import Path
from typing import Any

import docx
import pytest
from lxml import etree

from docshelf.parsers import parse_bytes
from docshelf.parsers.office.mtef import equation_latex
from docshelf.parsers.office.omml import M_NS
from docshelf.tables import block_text
from tests.unit.parsers.ooxml_fixtures import docx_with_objects
from tests.unit.parsers.test_legacy_office import SOFFICE, _soffice
from tests.unit.parsers.test_omml import QUADRATIC, _run

VARIABLE, FUNCTION, TEXT, SYMBOL, SPACE = 3, 2, 1, 6, 24


def native(*records: bytes, version: int = 3) -> bytes:
    """An `Equation Native` stream: its 28-byte header, MTEF's five-byte header, the records."""
    body = bytes([version, 1, 1, 3, 0]) + b"".join(records)
    return struct.pack("<HIHIIIII", 28, 0x00020000, 0xC1C6, len(body), 0, 0, 0, 0) + body


def char(text: str, face: int = VARIABLE, *, embellishments: tuple[int, ...] = (), nudge: bool = False) -> bytes:
    options = (0x2 if embellishments else 0) | (0x8 if nudge else 0)
    out = bytes([options << 4 | 2]) + (bytes([130, 126]) if nudge else b"") + bytes([face + 128])
    out += struct.pack("<H", ord(text))
    if embellishments:
        out += b"".join(bytes([6, kind]) for kind in embellishments) + b"\x00"
    return out


def chars(text: str, face: int = VARIABLE) -> bytes:
    return b"".join(char(letter, face) for letter in text)


def line(*objects: bytes) -> bytes:
    return b"\x01" + b"".join(objects) + b"\x00"


NULL_LINE = b"\x11"


def template(selector: int, variation: int, *objects: bytes) -> bytes:
    return bytes([3, selector, variation, 0]) + b"".join(objects) + b"\x00"


RECORDS = [
    (line(chars("x="), template(14, 0, line(chars("a")), line(chars("b")))), r"x=\frac{a}{b}"),
    (line(chars("E=mc"), template(15, 0, b"\x0b", NULL_LINE, line(chars("2", TEXT)))), "E=mc^{2}"),
    (line(template(21, 1, line(chars("f")), line(chars("0")), line(chars("1")), char("∫", SYMBOL))), r"\int_{0}^{1}f"),
    (line(template(29, 1, line(chars("a")), line(chars("i")), NULL_LINE)), r"\sum_{i}a"),
    (line(template(1, 0, line(chars("a+b")), char("(", 22), char(")", 22))), "(a+b)"),
    (line(template(6, 0, line(chars("x")))), r"\lfloor x\rfloor"),
    (line(template(13, 1, line(chars("x")), line(chars("3", TEXT)))), r"\sqrt[3]{x}"),
    (line(chars("sin", FUNCTION), char(" ", SPACE), chars("θ")), r"\sin \theta"),
    (line(chars("if", TEXT), chars("x")), r"\text{if}x"),
    (line(char("x", embellishments=(2,)), char("=", nudge=True), char("y", embellishments=(5,))), r"\dot{x}=y'"),
    (line(template(27, 0, line(chars("a+b")), line(chars("n")))), r"\underbrace{a+b}_{n}"),
    (b"\x04\x01\x00" + line(chars("a=1")) + line(chars("b=2")) + b"\x00", r"\begin{matrix}a=1 \\ b=2\end{matrix}"),
    (line(b"\x05\x00\x00\x00\x01\x02\x00\x00" + line(chars("1")) + line(chars("2")) + b"\x00"),
     r"\begin{matrix}1 & 2\end{matrix}"),
    # layout records read past: a size, a font, a ruler, line spacing and nudges
    (b"\x09\x65\x0c\x00" + b"\x08\x03\x00Times\x00" + b"\x61\x34\x00\x07\x01\x00\x10\x00" + chars("k") + b"\x00",
     "k"),
    (line(template(47, 1, line(chars("v")))), r"\vec{v}"),
    (line(template(45, 0, line(chars("a")), line(chars("b")))), r"\langle a|b\rangle"),
]  # fmt: skip


@pytest.mark.parametrize(("records", "latex"), RECORDS)
def test_mtef_records_read_as_latex(records: bytes, latex: str) -> None:
    assert equation_latex(native(b"\x0a", records)) == latex


def test_what_is_no_equation_editor_equation_is_none_and_damage_never_raises() -> None:
    assert equation_latex(native(line(chars("x")), version=5)) is None  # MathType 4+ writes MTEF 5
    assert equation_latex(b"\x1c\x00 too short") is None
    assert equation_latex(native(line())) is None  # an empty equation
    cut = native(line(chars("ab"), template(14, 0, line(chars("c")))))[:-3]
    assert equation_latex(cut) == r"ab\frac{c}{}"  # cut short: what came before
    rng = random.Random(3)
    whole = native(*(records for records, _ in RECORDS))
    for _ in range(2000):
        damaged = bytearray(whole)
        for _ in range(rng.randint(1, 6)):
            damaged[rng.randrange(33, len(damaged))] = rng.randrange(256)
        latex = equation_latex(bytes(damaged[: rng.randint(34, len(damaged))]))
        assert latex is None or isinstance(latex, str)
    deep = equation_latex(native(b"\x03\x0e\x00\x00\x01" * 5000))  # fractions nested past the reader's depth
    assert deep is not None and deep.count(r"\frac") < 100


CASES = {
    QUADRATIC: r"x=\frac{-b\pm \sqrt{b^{2}-4ac}}{2a}",
    _run("A=πr"): r"A=\pi r",
    "<m:sSubSup><m:e>" + _run("x") + "</m:e><m:sub>" + _run("i") + "</m:sub><m:sup>" + _run("2")
    + "</m:sup></m:sSubSup>": "x_{i}^{2}",
    "<m:nary><m:naryPr><m:chr m:val='∑'/></m:naryPr><m:sub>" + _run("k=0") + "</m:sub><m:sup>" + _run("n")
    + "</m:sup><m:e>" + _run("x") + "</m:e></m:nary>": r"\sum_{k=0}^{n}x",
    "<m:nary><m:sub>" + _run("0") + "</m:sub><m:sup>" + _run("1") + "</m:sup><m:e>" + _run("f(x)dx")
    + "</m:e></m:nary>": r"\int_{0}^{1}f(x)dx",
    "<m:d><m:dPr><m:begChr m:val='['/><m:endChr m:val=']'/></m:dPr><m:e>" + _run("a+b") + "</m:e></m:d>": "[a+b]",
    "<m:d><m:dPr><m:begChr m:val='|'/><m:endChr m:val='|'/></m:dPr><m:e>" + _run("x") + "</m:e></m:d>": "|x|",
    "<m:func><m:fName>" + _run("sin") + "</m:fName><m:e>" + _run("θ") + "</m:e></m:func>": r"\sin \theta",
    "<m:acc><m:accPr><m:chr m:val='⃗'/></m:accPr><m:e>" + _run("v") + "</m:e></m:acc>": r"\vec{v}",
    "<m:bar><m:e>" + _run("z") + "</m:e></m:bar>": r"\underline{z}",
    "<m:func><m:fName><m:limLow><m:e>" + _run("lim") + "</m:e><m:lim>" + _run("n→∞") + "</m:lim></m:limLow></m:fName>"
    "<m:e>" + _run("a") + "</m:e></m:func>": r"\lim_{n\to \infty}a",
    "<m:m><m:mr><m:e>" + _run("1") + "</m:e><m:e>" + _run("0") + "</m:e></m:mr><m:mr><m:e>" + _run("0") + "</m:e><m:e>"
    + _run("1") + "</m:e></m:mr></m:m>": r"\begin{matrix}1 & 0 \\ 0 & 1\end{matrix}",
    "<m:rad><m:deg>" + _run("3") + "</m:deg><m:e>" + _run("x") + "</m:e></m:rad>": r"\sqrt[3]{x}",
    _run("a≤b≠c×d"): r"a\leq b\neq c\times d",
}  # fmt: skip


def equations_document() -> Any:
    """A Word document of equations: the quadratic formula inline in a sentence, then each of CASES displayed."""
    source = docx.Document()
    inline = source.add_paragraph("The roots are ")
    inline._p.append(etree.fromstring(f'<m:oMath xmlns:m="{M_NS}">{QUADRATIC}</m:oMath>'))
    inline.add_run(" for every quadratic.")
    for body in CASES:
        source.add_paragraph()._p.append(
            etree.fromstring(f'<m:oMathPara xmlns:m="{M_NS}"><m:oMath>{body}</m:oMath></m:oMathPara>')
        )
    return source


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_the_equations_of_a_doc_libreoffice_saves_read_as_latex_where_they_stand(tmp_path: Path) -> None:
    """LibreOffice writes a Word equation as an Equation Editor 3 object when it saves `.doc`."""
    source = equations_document()
    table = source.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Energy"
    table.cell(0, 1).paragraphs[0]._p.append(
        etree.fromstring(f'<m:oMath xmlns:m="{M_NS}">{_run("E=m")}<m:sSup><m:e>{_run("c")}</m:e><m:sup>'
                         f"{_run('2')}</m:sup></m:sSup></m:oMath>")
    )  # fmt: skip
    out = io.BytesIO()
    source.save(out)
    (tmp_path / "equations.docx").write_bytes(out.getvalue())
    document = parse_bytes(_soffice(tmp_path, "equations.docx", "doc"), "equations.doc")
    texts = [block_text(block) for block in document.blocks()]
    assert texts[0] == r"The roots are $x=\frac{-b\pm \sqrt{b^{2}-4ac}}{2a}$ for every quadratic."
    assert texts[1 : 1 + len(CASES)] == [f"$${latex}$$" for latex in CASES.values()]
    assert "| Energy | $E=mc^{2}$ |" in texts[-1]


def test_equation_objects_a_docx_kept_from_a_doc_read_as_latex() -> None:
    from tests.unit.parsers.ole_fixtures import compound_file

    fraction = compound_file({"Equation Native": native(b"\x0a", RECORDS[0][0])})
    mathtype = compound_file({"Equation Native": native(line(chars("x")), version=5)})
    data = docx_with_objects(
        [
            ("The ratio ", fraction, "Equation.3"),
            ("", fraction, "Equation.3"),
            ("A MathType one", mathtype, "Equation.DSMT4"),
        ]
    )
    texts = [block_text(block) for block in parse_bytes(data, "converted.docx").blocks()]
    assert texts == [r"The ratio $x=\frac{a}{b}$ holds.", r"$$x=\frac{a}{b}$$", "A MathType one holds."]
