from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.errors import CorruptDocumentError, DocumentError
from docshelf.model import Heading, Image, Paragraph, Table
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.markup.xml import parse
from docshelf.tables import table_grid
from tests.unit.parsers import markup_measures as measures
from tests.unit.parsers.corpus_helpers import parse_corpus_file

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<lolz>&lol3;</lolz>"""


def blocks_of(data: bytes) -> list[object]:
    return list(parse(data, filename="t.xml", limits=ParseLimits()).blocks)


def test_billion_laughs_is_refused() -> None:
    with pytest.raises(DocumentError) as error:
        parse(BILLION_LAUGHS, filename="bomb.xml", limits=ParseLimits())
    assert "entity" in str(error.value)


def test_external_entities_are_not_fetched() -> None:
    data = b'<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a><p>safe &x;</p></a>'
    text = " ".join(block.text for block in blocks_of(data) if isinstance(block, Paragraph))
    assert "root:" not in text and "safe" in text


def test_malformed_xml_is_corrupt() -> None:
    with pytest.raises(CorruptDocumentError):
        parse(b"<a><b></a>", filename="t.xml", limits=ParseLimits())


def test_generic_xml_text_extraction() -> None:
    data = b"<doc><section><title>Intro</title><para>Hello <b>bold</b> world</para></section><meta x='1'/></doc>"
    assert blocks_of(data) == [Heading(text="Intro", level=2, page=1), Paragraph(text="Hello bold world", page=1)]


def test_jats_article() -> None:
    data = b"""<article><front><article-meta><title-group><article-title>Ducks</article-title></title-group>
    <contrib-group><contrib><name><surname>Mallard</surname><given-names>A</given-names></name></contrib></contrib-group>
    <abstract><p>Short abstract.</p></abstract></article-meta></front>
    <body><sec><title>Intro</title><p>Ducks <italic>swim</italic>.</p>
    <sec><title>Detail</title><p>Text<table-wrap><label>Table 1</label><caption><p>Sizes</p></caption>
    <table><thead><tr><th>Duck</th><th>cm</th></tr></thead><tbody><tr><td>Teal</td><td>35</td></tr></tbody></table>
    </table-wrap></p><fig><label>Figure 1</label><caption><p>A duck</p></caption></fig></sec></sec></body>
    <back><ref-list><ref><element-citation><person-group><name><surname>Doe</surname><given-names>J</given-names></name>
    </person-group><article-title>On ducks</article-title><source>Nature</source><year>2001</year></element-citation>
    </ref></ref-list></back></article>"""
    content = parse(data, filename="a.nxml", limits=ParseLimits())
    assert content.title == "Ducks"
    blocks = content.blocks
    assert blocks[:6] == [
        Heading(text="Ducks", level=1, page=1),
        Paragraph(text="A Mallard", page=1),
        Heading(text="Abstract", level=2, page=1),
        Paragraph(text="Short abstract.", page=1),
        Heading(text="Intro", level=2, page=1),
        Paragraph(text="Ducks swim.", page=1),
    ]
    assert blocks[6] == Heading(text="Detail", level=3, page=1)
    table = blocks[8]
    assert isinstance(table, Table) and table.caption == "Table 1 Sizes" and table.header_rows == 1
    assert table_grid(table) == [["Duck", "cm"], ["Teal", "35"]]
    assert blocks[9] == Image(page=1, caption="Figure 1 A duck")
    assert blocks[10] == Heading(text="References", level=2, page=1)
    assert blocks[11] == Paragraph(text="Doe J. On ducks. Nature (2001)", page=1, list_level=0)


def test_uspto_patent_with_cals_table() -> None:
    data = b"""<us-patent-application><us-bibliographic-data-application><invention-title>Lamp</invention-title>
    </us-bibliographic-data-application><abstract><p>A lamp.</p></abstract><description>
    <heading level="1">BACKGROUND</heading><p>Old lamps.<tables><table><tgroup cols="3">
    <colspec colname="1"/><colspec colname="2"/><colspec colname="3"/>
    <thead><row><entry namest="1" nameend="2">Wide</entry><entry morerows="1">Tall</entry></row></thead>
    <tbody><row><entry>a</entry><entry>b</entry></row></tbody></tgroup></table></tables></p></description>
    <claims><claim><claim-text>1. A lamp.</claim-text></claim></claims></us-patent-application>"""
    content = parse(data, filename="p.xml", limits=ParseLimits())
    assert content.title == "Lamp"
    kinds = [(block.kind, getattr(block, "text", "")) for block in content.blocks if not isinstance(block, Table)]
    assert kinds == [
        ("heading", "Lamp"),
        ("heading", "Abstract"),
        ("paragraph", "A lamp."),
        ("heading", "BACKGROUND"),
        ("paragraph", "Old lamps."),
        ("heading", "Claims"),
        ("paragraph", "1. A lamp."),
    ]
    (table,) = [block for block in content.blocks if isinstance(block, Table)]
    assert table_grid(table) == [["Wide", "Wide", "Tall"], ["a", "b", "Tall"]]


@pytest.mark.corpus
@pytest.mark.parametrize("relative", ["xml/elife-56337.nxml", "xml/ipa20180000016.xml"])
def test_corpus_xml_against_groundtruth(corpus_dir: Path, relative: str) -> None:
    document = parse_corpus_file(corpus_dir, relative)
    reference = measures.groundtruth_markdown(corpus_dir, relative)
    text = measures.text_recall(measures.markdown_plain_text(reference), measures.document_text(document))
    headings = measures.heading_recall(measures.markdown_headings(reference), measures.document_headings(document))
    cells = measures.cell_f1(measures.markdown_table_cells(reference), measures.document_table_cells(document))
    print(f"{relative}: text recall {text:.3f}, heading recall {headings:.3f}, table cell F1 {cells:.3f}")
    assert text >= 0.95
    assert headings >= 0.8
    assert any(isinstance(block, Table) for block in document.blocks())
