"""Word equations (OMML) read as LaTeX, from the elements Word writes, and through a whole DOCX."""

from __future__ import annotations

import io

import docx
import pytest
from lxml import etree

from docshelf.parsers import parse_bytes
from docshelf.parsers.office.omml import M_NS, omml_latex

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _run(text: str) -> str:
    return f"<m:r><m:t>{text}</m:t></m:r>"


def _math(body: str) -> etree._Element:
    return etree.fromstring(f'<m:oMath xmlns:m="{M_NS}">{body}</m:oMath>')


QUADRATIC = (
    _run("x=")
    + "<m:f><m:num>"
    + _run("-b±")
    + "<m:rad><m:radPr><m:degHide m:val='1'/></m:radPr><m:deg/><m:e>"
    + "<m:sSup><m:e>"
    + _run("b")
    + "</m:e><m:sup>"
    + _run("2")
    + "</m:sup></m:sSup>"
    + _run("-4ac")
    + "</m:e></m:rad></m:num><m:den>"
    + _run("2a")
    + "</m:den></m:f>"
)


@pytest.mark.parametrize(
    ("body", "latex"),
    [
        (QUADRATIC, r"$x=\frac{-b\pm \sqrt{b^{2}-4ac}}{2a}$"),
        (_run("A=πr") + "", r"$A=\pi r$"),
        ("<m:sSub><m:e>" + _run("k") + "</m:e><m:sub>" + _run("eff") + "</m:sub></m:sSub>", "$k_{eff}$"),
        (
            "<m:nary><m:naryPr><m:chr m:val='∑'/></m:naryPr><m:sub>"
            + _run("k=0")
            + "</m:sub><m:sup>"
            + _run("n")
            + "</m:sup><m:e>"
            + _run("x")
            + "</m:e></m:nary>",
            r"$\sum_{k=0}^{n}x$",
        ),
        ("<m:nary><m:sub/><m:sup/><m:e>" + _run("f(x)dx") + "</m:e></m:nary>", r"$\int{f(x)dx}$"),
        (
            "<m:d><m:dPr><m:begChr m:val='['/><m:endChr m:val=']'/></m:dPr><m:e>"
            + _run("a")
            + "</m:e><m:e>"
            + _run("b")
            + "</m:e></m:d>",
            "$[a|b]$",
        ),
        ("<m:func><m:fName>" + _run("sin") + "</m:fName><m:e>" + _run("θ") + "</m:e></m:func>", r"$\sin \theta$"),
        ("<m:acc><m:accPr><m:chr m:val='⃗'/></m:accPr><m:e>" + _run("v") + "</m:e></m:acc>", r"$\vec{v}$"),
        ("<m:bar><m:e>" + _run("z") + "</m:e></m:bar>", r"$\underline{z}$"),  # no position: below (ISO, Office)
        ("<m:bar><m:barPr><m:pos m:val='top'/></m:barPr><m:e>" + _run("z") + "</m:e></m:bar>", r"$\overline{z}$"),
        (
            "<m:func><m:fName><m:limLow><m:e>"
            + _run("lim")
            + "</m:e><m:lim>"
            + _run("n→∞")
            + "</m:lim></m:limLow></m:fName><m:e>"
            + _run("a")
            + "</m:e></m:func>",
            r"$\lim_{n\to \infty} a$",
        ),
        (
            "<m:m><m:mr><m:e>" + _run("1") + "</m:e><m:e>" + _run("0") + "</m:e></m:mr>"
            "<m:mr><m:e>" + _run("0") + "</m:e><m:e>" + _run("1") + "</m:e></m:mr></m:m>",
            r"$\begin{matrix}1 & 0 \\ 0 & 1\end{matrix}$",
        ),
        (
            "<m:f><m:fPr><m:type m:val='lin'/></m:fPr><m:num>"
            + _run("1")
            + "</m:num><m:den>"
            + _run("2")
            + "</m:den></m:f>",
            "$1/2$",
        ),
        ("<m:r><m:rPr><m:nor/></m:rPr><m:t>if x&gt;0</m:t></m:r>", r"$\text{if x>0}$"),
        (_run("50%") + _run("{a}"), r"$50\%\{a\}$"),
        ("<m:r><m:rPr><m:sty m:val='p'/></m:rPr></m:r>", ""),
    ],
)
def test_omml_constructs_read_as_latex(body: str, latex: str) -> None:
    assert omml_latex(_math(body)) == latex


def test_a_docx_keeps_its_equations_inline_and_displayed_as_latex() -> None:
    document = docx.Document()
    inline = document.add_paragraph("The roots are ")
    inline._p.append(etree.fromstring(f'<m:oMath xmlns:m="{M_NS}">{QUADRATIC}</m:oMath>'))
    inline.add_run(" for every quadratic.")
    display = document.add_paragraph()
    display._p.append(
        etree.fromstring(
            f'<m:oMathPara xmlns:m="{M_NS}"><m:oMath>'
            + _run("E=m")
            + "<m:sSup><m:e>"
            + _run("c")
            + "</m:e><m:sup>"
            + _run("2")
            + "</m:sup></m:sSup></m:oMath></m:oMathPara>"
        )
    )
    buffer = io.BytesIO()
    document.save(buffer)
    parsed = parse_bytes(buffer.getvalue(), "roots.docx")
    assert [block.text for block in parsed.blocks() if block.kind == "paragraph"] == [
        r"The roots are $x=\frac{-b\pm \sqrt{b^{2}-4ac}}{2a}$ for every quadratic.",
        "$$E=mc^{2}$$",
    ]


def test_an_equation_nested_past_the_stack_is_read_as_its_characters() -> None:
    import sys

    depth = sys.getrecursionlimit()
    body = "<m:sSup><m:e>" * depth + _run("x") + ("</m:e><m:sup>" + _run("2") + "</m:sup></m:sSup>") * depth
    element = etree.fromstring(f'<m:oMath xmlns:m="{M_NS}">{body}</m:oMath>', etree.XMLParser(huge_tree=True))
    assert omml_latex(element) == "$x" + "2" * depth + "$"


def test_a_pptx_keeps_its_equations_as_latex_where_they_stand() -> None:
    # PowerPoint writes an equation as markup compatibility content: OMML for readers of a14, a picture otherwise.
    import pptx
    from pptx.util import Inches

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    box = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(6), Inches(1))
    paragraph = box.text_frame.paragraphs[0]
    paragraph.text = "Roots: "
    paragraph._p.append(
        etree.fromstring(
            '<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
            'xmlns:a14="http://schemas.microsoft.com/office/drawing/2010/main" '
            'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
            f'<mc:Choice Requires="a14"><a14:m><m:oMathPara xmlns:m="{M_NS}"><m:oMath>{QUADRATIC}</m:oMath>'
            "</m:oMathPara></a14:m></mc:Choice><mc:Fallback><a:r><a:t> </a:t></a:r></mc:Fallback>"
            "</mc:AlternateContent>"
        )
    )
    run = paragraph._p.makeelement("{http://schemas.openxmlformats.org/drawingml/2006/main}r", {})
    text = run.makeelement("{http://schemas.openxmlformats.org/drawingml/2006/main}t", {})
    text.text = " for any quadratic."
    run.append(text)
    paragraph._p.append(run)
    buffer = io.BytesIO()
    deck.save(buffer)
    parsed = parse_bytes(buffer.getvalue(), "roots.pptx")
    assert [block.text for block in parsed.blocks() if block.kind == "paragraph"] == [
        r"Roots: $$x=\frac{-b\pm \sqrt{b^{2}-4ac}}{2a}$$ for any quadratic."
    ]
