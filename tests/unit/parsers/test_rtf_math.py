"""Equations in RTF (`{\\mmath …}`: OMML written as RTF control words) read as LaTeX where they stand, as the DOCX
they were written from reads them."""

from __future__ import annotations

import io
import struct
from pathlib import Path

import pytest

from docshelf.parsers import parse_bytes
from docshelf.tables import block_text
from tests.unit.parsers.test_legacy_office import SOFFICE, _soffice
from tests.unit.parsers.test_mtef import CASES, equations_document


def rtf(body: str) -> bytes:
    return ("{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Cambria Math;}}" + body + "}").encode("latin-1")


PICTURE = "{\\mmathPict{\\*\\shppict{\\pict\\pngblip 89504e47}}}"
SAMPLES = [
    # a fraction and a square root with its degree hidden by a number, inline in text
    ("The ratio {\\mmath{\\*\\moMath{\\mr x}{\\mr =}{\\mf{\\mnum{\\mr a}}{\\mden{\\mr b}}}}" + PICTURE
     + "} holds.\\par", "The ratio $x=\\frac{a}{b}$ holds."),
    ("{\\mmath{\\*\\moMath{\\mrad{\\mradPr{\\mdegHide 1}}{\\mdeg}{\\me{\\mr x}}}}}\\par", "$$\\sqrt{x}$$"),
    # a property given as text (brackets), a Unicode character with its fallback byte, an n-ary sum
    ("{\\mmath{\\*\\moMath{\\md{\\mdPr{\\mbegChr [}{\\mendChr ]}}{\\me{\\mr a+b}}}}} and "
     "{\\mmath{\\*\\moMath{\\mnary{\\mnaryPr{\\mchr \\u8721\\'3f}}{\\msub{\\mr i}}{\\msup}"
     "{\\me{\\mr \\u945\\'3f}}}}}\\par",
     "$[a+b]$ and $\\sum_{i}\\alpha$"),
    ("{\\mmath{\\*\\moMathPara{\\*\\moMath{\\mr E=m}{\\msSup{\\me{\\mr c}}{\\msup{\\mr 2}}}}}}\\par", "$$E=mc^{2}$$"),
]  # fmt: skip


@pytest.mark.parametrize(("body", "text"), SAMPLES)
def test_rtf_math_groups_read_as_latex_where_they_stand(body: str, text: str) -> None:
    assert [block_text(block) for block in parse_bytes(rtf(body), "eq.rtf").blocks()] == [text]


def test_a_damaged_equation_group_never_ends_the_document() -> None:
    for cut in (
        "{\\mmath{\\*\\moMath{\\mf{\\mnum{\\mr a",
        "{\\mmath{\\*\\moMath{\\mr x}}} after}}}\\par",
        "{\\mmath}\\par",
    ):
        document = parse_bytes(rtf("Before.\\par " + cut + " Tail.\\par"), "cut.rtf")
        assert block_text(next(iter(document.blocks()))) == "Before."


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_the_equations_of_an_rtf_libreoffice_saves_read_as_the_docx_does(tmp_path: Path) -> None:
    out = io.BytesIO()
    equations_document().save(out)
    (tmp_path / "equations.docx").write_bytes(out.getvalue())
    from_rtf = [block_text(b) for b in parse_bytes(_soffice(tmp_path, "equations.docx", "rtf"), "e.rtf").blocks()]
    assert from_rtf == [block_text(b) for b in parse_bytes(out.getvalue(), "equations.docx").blocks()]
    assert from_rtf[0] == r"The roots are $x=\frac{-b\pm \sqrt{b^{2}-4ac}}{2a}$ for every quadratic."
    assert len(from_rtf) == 1 + len(CASES)


def _ole1(class_name: str, native_data: bytes) -> bytes:
    """An OLE 1.0 embedded object as RTF's \\objdata holds one ([MS-OLEDS] 2.2.4)."""

    def ansi(text: str) -> bytes:
        encoded = text.encode("ascii") + b"\x00"
        return struct.pack("<I", len(encoded)) + encoded

    header = struct.pack("<II", 0x00000501, 2) + ansi(class_name) + ansi("") + ansi("")
    return header + struct.pack("<I", len(native_data)) + native_data


def test_an_equation_editor_object_in_rtf_reads_as_latex_where_it_stands() -> None:
    """Word 97-2003 writes an Equation Editor equation in RTF as an OLE object: its class, its data (an OLE 1.0
    object holding the compound file), and a picture of it for other readers."""
    from tests.unit.parsers.ole_fixtures import compound_file
    from tests.unit.parsers.test_mtef import RECORDS, native

    data = _ole1("Equation.3", compound_file({"Equation Native": native(b"\x0a", RECORDS[0][0])}))
    hexed = "\n".join(data.hex()[at : at + 128] for at in range(0, len(data.hex()), 128))
    obj = ("{\\object\\objemb{\\*\\objclass Equation.3}{\\*\\objdata " + hexed + "}"
           "{\\result{\\pict\\wmetafile8 0100}}}")  # fmt: skip
    other = "{\\object{\\*\\objclass Excel.Sheet.8}{\\*\\objdata 0102}}"
    body = f"The ratio {obj} holds.\\par {obj}\\par {other}Next.\\par"
    assert [block_text(block) for block in parse_bytes(rtf(body), "eq.rtf").blocks()] == [
        r"The ratio $x=\frac{a}{b}$ holds.", r"$$x=\frac{a}{b}$$", "Next.",
    ]  # fmt: skip
