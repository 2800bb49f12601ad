"""Equations on web pages and in EPUBs (MathML, MediaWiki's equation images) read as LaTeX in the text."""

from __future__ import annotations

import lxml.html
import pytest

from docshelf.parsers import parse_bytes
from docshelf.parsers.markup.mathml import mathml_latex

QUADRATIC = (
    "<mrow><mi>x</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>b</mi><mo>±</mo><msqrt><msup><mi>b</mi><mn>2</mn></msup>"
    "<mo>−</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></mrow>"
)


def _math(body: str, attributes: str = "") -> str:
    return f'<math xmlns="http://www.w3.org/1998/Math/MathML"{attributes}>{body}</math>'


@pytest.mark.parametrize(
    ("body", "latex"),
    [
        (QUADRATIC, r"$x=\frac{-b\pm \sqrt{b^{2}-4ac}}{2a}$"),
        ("<msub><mi>k</mi><mtext>eff</mtext></msub>", r"$k_{\text{eff}}$"),
        ("<msubsup><mo>∫</mo><mn>0</mn><mn>1</mn></msubsup><mi>x</mi><mi>d</mi><mi>x</mi>", r"$\int_{0}^{1}xdx$"),
        ("<munderover><mo>∑</mo><mrow><mi>k</mi><mo>=</mo><mn>0</mn></mrow><mi>n</mi></munderover><mi>k</mi>",
         r"$\sum_{k=0}^{n}k$"),
        ("<munder><mo>lim</mo><mrow><mi>n</mi><mo>→</mo><mi>∞</mi></mrow></munder><msub><mi>a</mi><mi>n</mi></msub>",
         r"$\lim_{n\to \infty}a_{n}$"),
        ("<mover accent='true'><mi>v</mi><mo>→</mo></mover>", r"$\vec{v}$"),
        ("<mroot><mi>x</mi><mn>3</mn></mroot>", r"$\sqrt[3]{x}$"),
        ("<mfenced open='[' close=']'><mi>a</mi><mi>b</mi></mfenced>", "$[a,b]$"),
        ("<mi>sin</mi><mi>θ</mi>", r"$\sin \theta$"),
        ("<mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd>"
         "</mtr></mtable>", r"$\begin{matrix}1 & 0 \\ 0 & 1\end{matrix}$"),
        (f"<semantics>{QUADRATIC}<annotation encoding='application/x-tex'>{{\\displaystyle x={{\\frac {{-b}}{{2a}}}}}}"
         "</annotation></semantics>", r"$x={\frac {-b}{2a}}$"),
    ],
)  # fmt: skip
def test_mathml_constructs_read_as_latex(body: str, latex: str) -> None:
    assert mathml_latex(lxml.html.fragment_fromstring(_math(body))) == latex


ENERGY = "<mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup>"
DISPLAY = ' display="block"'


def test_a_page_reads_its_equations_as_latex_where_they_stand() -> None:
    # A MathML equation in a paragraph, a block one, and Wikipedia's way: the MathML hidden for screen readers and
    # an image whose alt text is the TeX.
    page = (
        "<html><body><h1>Roots</h1>"
        f"<p>The roots are {_math(QUADRATIC)} for every quadratic.</p>"
        f"<p>{_math(ENERGY, DISPLAY)}</p>"
        '<p>Area: <span class="mwe-math-element"><span class="mwe-math-mathml-inline mwe-math-mathml-a11y" '
        f'style="display: none;">{_math("<mi>A</mi>")}</span><img src="//wiki/math/a.svg" '
        'class="mwe-math-fallback-image-inline" alt="{\\displaystyle A=\\pi r^{2}}"></span> of a disc.</p>'
        "</body></html>"
    )
    document = parse_bytes(page.encode(), "roots.html")
    assert [block.text for block in document.blocks() if block.kind == "paragraph"] == [
        r"The roots are $x=\frac{-b\pm \sqrt{b^{2}-4ac}}{2a}$ for every quadratic.",
        "$$E=mc^{2}$$",
        r"Area: $A=\pi r^{2}$ of a disc.",
    ]


def test_an_equation_nested_past_the_stack_is_read_as_its_characters() -> None:
    import sys

    from lxml import etree

    depth = sys.getrecursionlimit()
    body = "<mrow>" * depth + "<mi>x</mi>" + "</mrow>" * depth
    assert mathml_latex(etree.fromstring(_math(body), etree.XMLParser(huge_tree=True))) == "$x$"
