from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.model import Heading, Image, Paragraph, Table
from docshelf.parsers import parse_bytes
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.markup.html import parse
from docshelf.tables import table_grid
from tests.unit.parsers import markup_measures as measures
from tests.unit.parsers.corpus_helpers import corpus_files, parse_corpus_file


def blocks_of(markup: str | bytes) -> list[object]:
    data = markup.encode("utf-8") if isinstance(markup, str) else markup
    return list(parse(data, filename="t.html", limits=ParseLimits()).blocks)


def test_block_elements_stay_separate_and_inline_text_keeps_spacing() -> None:
    blocks = blocks_of("<h1>FAQ</h1><p>All <b>good</b>, <i>really</i>.</p><div>Div text</div>")
    assert blocks == [
        Heading(text="FAQ", level=1, page=1),
        Paragraph(text="All good, really.", page=1),
        Paragraph(text="Div text", page=1),
    ]


def test_noise_elements_are_dropped() -> None:
    markup = """<html><head><title>T</title><style>p{}</style></head><body>
    <nav><a>Home</a></nav><script>var x = 1;</script><header><nav>Menu</nav></header>
    <div aria-hidden="true">hidden</div><div style="display: none">invisible</div>
    <div role="navigation">links</div><div id="cookie-banner">We use cookies</div>
    <main><p>Body text</p></main><aside>Related</aside><footer>Copyright</footer>
    <form><button>Send</button></form></body></html>"""
    content = parse(markup.encode(), filename="t.html", limits=ParseLimits())
    assert [block.text for block in content.blocks if isinstance(block, Paragraph)] == ["Body text"]
    assert content.title == "T"


def test_headings_lists_code_and_images() -> None:
    blocks = blocks_of(
        "<h2>Steps</h2><ol><li>One<ul><li>Nested</li></ul></li><li>Two</li></ol>"
        "<pre>  x = 1\n  y = 2</pre><p>See <img src='a.png' alt='A chart' width='40'> here</p>"
    )
    assert blocks[0] == Heading(text="Steps", level=2, page=1)
    assert blocks[1] == Paragraph(text="1. One", page=1, list_level=0)
    assert blocks[2] == Paragraph(text="Nested", page=1, list_level=1)
    assert blocks[3] == Paragraph(text="2. Two", page=1, list_level=0)
    assert blocks[4] == Paragraph(text="  x = 1\n  y = 2", page=1, code=True)
    assert blocks[5] == Paragraph(text="See here", page=1)
    assert blocks[6] == Image(page=1, alt_text="A chart", asset_ref="a.png", width=40)


def test_table_spans_header_rows_and_nested_table_text() -> None:
    blocks = blocks_of(
        "<table><thead><tr><th>Key</th><th colspan='2'>Values</th></tr></thead>"
        "<tbody><tr><td rowspan='2'>KMS</td><td>365 days</td><td>on</td></tr>"
        "<tr><td>30 days</td><td><table><tr><td>inner</td><td>cell</td></tr></table></td></tr></tbody></table>"
    )
    (table,) = blocks
    assert isinstance(table, Table)
    assert (table.n_rows, table.n_cols, table.header_rows) == (3, 3, 1)
    spans = {(cell.row, cell.col): (cell.rowspan, cell.colspan) for cell in table.cells}
    assert spans[(0, 1)] == (1, 2)
    assert spans[(1, 0)] == (2, 1)
    assert table_grid(table) == [
        ["Key", "Values", "Values"],
        ["KMS", "365 days", "on"],
        ["KMS", "30 days", "inner | cell"],
    ]


def test_layout_table_is_read_as_blocks() -> None:
    blocks = blocks_of("<table><tr><td><h3>Inside</h3><p>Layout cell</p></td></tr></table>")
    assert blocks == [Heading(text="Inside", level=3, page=1), Paragraph(text="Layout cell", page=1)]


def test_charset_from_meta_and_cp1252_without_declaration() -> None:
    declared = '<meta charset="shift_jis"><p>日本語のテキスト</p>'.encode("shift_jis")
    assert blocks_of(declared) == [Paragraph(text="日本語のテキスト", page=1)]
    undeclared = "<p>Der Preis betrug 15,50 €. L'été était très chaud.</p>".encode("cp1252")
    assert blocks_of(undeclared) == [Paragraph(text="Der Preis betrug 15,50 €. L'été était très chaud.", page=1)]


def test_cjk_line_breaks_add_no_space() -> None:
    assert blocks_of("<p>日本語の\n文章です。 English\ntext</p>") == [
        Paragraph(text="日本語の文章です。 English text", page=1)
    ]


def test_xhtml_with_xml_declaration() -> None:
    data = (
        b'<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>X</p></body></html>'
    )
    assert blocks_of(data) == [Paragraph(text="X", page=1)]


def test_navigation_measure_excludes_only_navigation_landmarks() -> None:
    page = b"""<html><body><nav><ul><li><a href="/">Home</a></li></ul></nav>
    <main><p>Body text</p><table><tr><td>Kept cell</td></tr></table></main>
    <div role="navigation" class="navbox"><table><tr><th>Authority <img alt="Edit"></th></tr>
    <tr><td><ul><li>France</li><li>Japan</li></ul></td></tr></table>
    <div role="navigation">nested, counted once</div></div><footer>Footer words</footer></body></html>"""
    text, cells = measures.html_navigation(page)
    assert measures.words(text) == [
        "home",
        "authority",
        "france",
        "japan",
        "nested",
        "counted",
        "once",
        "footer",
        "words",
    ]
    assert [" ".join(measures.words(cell)) for cell in cells] == ["authority edit", "france japan"]
    assert measures.without(["a", "b", "a", "c"], ["a", "c", "d"]) == ["b", "a"]


@pytest.mark.corpus
def test_corpus_html_files_parse(corpus_dir: Path) -> None:
    files = corpus_files(corpus_dir, "html")
    assert files
    for relative in files:
        document = parse_corpus_file(corpus_dir, relative)
        assert len(measures.document_text(document)) > 200, relative
    cp1252 = parse_corpus_file(corpus_dir, "html/fake-html-cp1252.html")
    assert "15,50 €" in measures.document_text(cp1252) and "très chaud" in measures.document_text(cp1252)
    ixbrl = parse_corpus_file(corpus_dir, "html/example-10k-1p.html")
    assert any(isinstance(block, Table) for block in ixbrl.blocks())
    assert "Galaxy Gaming, Inc." in measures.document_text(ixbrl)


@pytest.mark.corpus
@pytest.mark.parametrize("relative", ["html/wiki_duck.html", "html/html_rich_table_cells.html"])
def test_corpus_html_against_groundtruth(corpus_dir: Path, relative: str) -> None:
    document = parse_corpus_file(corpus_dir, relative)
    reference = measures.groundtruth_markdown(corpus_dir, relative)
    ours = measures.words(measures.document_text(document))
    # docling keeps navigation this parser drops on purpose: the source's nav/footer/aside and ARIA navigation
    # landmarks, and menus without a landmark (language lists: list items that are only links) are measured apart.
    navigation_text, navigation_cells = measures.html_navigation((corpus_dir / relative).read_bytes())
    raw_text = measures.recall(measures.words(measures.markdown_plain_text(reference)), ours)
    content_words = measures.words(measures.markdown_plain_text(measures.without_link_menus(reference)))
    text = measures.recall(measures.without(content_words, measures.words(navigation_text)), ours)
    headings = measures.heading_recall(measures.markdown_headings(reference), measures.document_headings(document))
    reference_cells = [
        " ".join(measures.words(measures.markdown_plain_text(cell)))
        for cell in measures.markdown_table_cells(reference)
    ]
    content_cells = measures.without(reference_cells, [" ".join(measures.words(cell)) for cell in navigation_cells])
    raw_cells = measures.cell_f1(reference_cells, measures.document_table_cells(document))
    cells = measures.cell_f1(content_cells, measures.document_table_cells(document))
    print(
        f"{relative}: text recall {text:.3f} ({raw_text:.3f} with navigation), heading recall {headings:.3f},"
        f" table cell F1 {cells:.3f} ({raw_cells:.3f} with navigation)"
    )
    assert text >= 0.95
    assert headings >= 0.8
    assert cells >= 0.9


def test_parse_bytes_routes_html() -> None:
    document = parse_bytes(b"<!doctype html><html><body><h1>Hi</h1><p>there</p></body></html>", "x.htm")
    assert document.title == "Hi"


def _texts(markup: str) -> list[str]:
    return [block.text for block in blocks_of(markup) if isinstance(block, Heading | Paragraph)]


def test_a_form_wrapping_the_page_keeps_its_content_and_a_search_form_is_dropped() -> None:
    markup = """<html><body><form id="aspnetForm" action="default.aspx"><h1>Travel Policy</h1>
    <p>Book travel at least 14 days ahead.</p><input type="hidden" name="__VIEWSTATE" value="x"/></form>
    <form action="/search"><label>Search the site</label><input name="q"/><button>Go</button></form></body></html>"""
    assert _texts(markup) == ["Travel Policy", "Book travel at least 14 days ahead."]


def test_an_articles_aside_and_footer_and_a_quotations_attribution_are_its_text() -> None:
    markup = """<body><article><h2>Widget</h2><p>Use it daily.</p>
    <aside><p>Note: never submerge the widget in water.</p></aside>
    <blockquote><p>A great widget.</p><footer>Jane Doe, CTO</footer></blockquote>
    <footer>Last reviewed by Legal.</footer></article>
    <aside><p>Popular posts</p></aside><footer>Copyright 2024 ACME</footer></body>"""
    assert _texts(markup) == [
        "Widget",
        "Use it daily.",
        "Note: never submerge the widget in water.",
        "A great widget.",
        "Jane Doe, CTO",
        "Last reviewed by Legal.",
    ]


def test_ordered_lists_are_numbered_as_a_browser_shows_them() -> None:
    markup = """<ol start="4"><li>Four</li><li>Five</li></ol><ol type="a"><li>Alpha</li><li>Beta</li></ol>
    <ol reversed><li>Three</li><li>Two</li><li>One</li></ol><ol type="I"><li value="9">Nine</li><li>Ten</li></ol>
    <ol start="x"><li>Plain</li></ol><ul><li>Bullet</li></ul>"""
    assert _texts(markup) == [
        "4. Four", "5. Five", "a. Alpha", "b. Beta", "3. Three", "2. Two", "1. One", "IX. Nine", "X. Ten",
        "1. Plain", "Bullet",
    ]  # fmt: skip


def test_a_div_layouts_sidebar_footer_and_navigation_bar_are_dropped() -> None:
    markup = """<body><div id="navbar"><ul><li><a href="/">Home</a></li><li><a href="/hr">HR</a></li></ul></div>
    <div id="content"><h1>Leave Policy</h1><p>Employees accrue 2 days of leave per month.</p>
    <div class="footer-note">Approved by the board.</div></div>
    <div id="sidebar" class="sidebar"><h3>Related links</h3><ul><li><a href="/x">Expense policy</a></li></ul></div>
    <div class="menu"><p>Soup of the day</p></div>
    <div id="footer">Copyright 2024 ACME Corp. All rights reserved.</div></body>"""
    assert _texts(markup) == [
        "Leave Policy",
        "Employees accrue 2 days of leave per month.",
        "Approved by the board.",
        "Soup of the day",
    ]


PANDOC_NOTES = """<body><h1>Summary</h1>
<p>Levels fell for the third year.<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref"><sup>1</sup></a>
Nitrate stayed below the limit except at Well 14.<a href="#fn2" class="footnote-ref" id="fnref2"
role="doc-noteref"><sup>2</sup></a></p><h1>Method</h1><p>Tapes were calibrated.</p>
<section class="footnotes footnotes-end-of-document" role="doc-endnotes"><hr /><ol>
<li id="fn1" role="doc-endnote"><p>Compared with the 2015 baseline.<a href="#fnref1" class="footnote-back"
role="doc-backlink">↩︎</a></p></li>
<li id="fn2" role="doc-endnote"><p>The limit is 50 mg/L.<a href="#fnref2" class="footnote-back"
role="doc-backlink">↩︎</a></p></li></ol></section></body>"""


def test_a_note_reference_is_marked_and_its_note_follows_the_citing_block() -> None:
    # pandoc's HTML: `Well 14.2` read as another number, and the notes a list `1. …↩︎` at the end.
    assert _texts(PANDOC_NOTES) == [
        "Summary",
        "Levels fell for the third year.[^1] Nitrate stayed below the limit except at Well 14.[^2]",
        "[^1]: Compared with the 2015 baseline.",
        "[^2]: The limit is 50 mg/L.",
        "Method",
        "Tapes were calibrated.",
    ]


@pytest.mark.parametrize(
    ("reference", "notes"),
    [
        pytest.param(  # MediaWiki: the note list's `^ a b` back-links
            '<sup id="cite_ref-h_1-0" class="reference"><a href="#cite_note-h-1">[1]</a></sup>',
            '<h2>References</h2><div class="reflist"><ol class="references"><li id="cite_note-h-1">'
            '<span class="mw-cite-backlink">^ <a href="#cite_ref-h_1-0"><sup><i><b>a</b></i></sup></a> '
            '<a href="#cite_ref-h_1-1"><sup><i><b>b</b></i></sup></a></span> '
            '<span class="reference-text">Hague (1994), p. 212.</span></li></ol></div>',
            id="wikipedia",
        ),
        pytest.param(  # Word's "Save as web page"
            '<a style="mso-footnote-id:ftn1" href="#_ftn1" name="_ftnref1"><span class="MsoFootnoteReference">'
            "[1]</span></a>",
            '<div style="mso-element:footnote-list"><hr><div style="mso-element:footnote" id="ftn1">'
            '<p class="MsoFootnoteText"><a style="mso-footnote-id:ftn1" href="#_ftnref1" name="_ftn1">'
            '<span class="MsoFootnoteReference">[1]</span></a> Hague (1994), p. 212.</p></div></div>',
            id="word",
        ),
        pytest.param(  # docutils' HTML5 writer (Sphinx): a label linking back inside an aside
            '<a class="footnote-reference brackets" href="#id3" id="id1" role="doc-noteref">'
            '<span class="fn-bracket">[</span>1<span class="fn-bracket">]</span></a>',
            '<aside class="footnote-list brackets"><aside class="footnote brackets" id="id3" role="doc-footnote">'
            '<span class="label"><span class="fn-bracket">[</span><a role="doc-backlink" href="#id1">1</a>'
            '<span class="fn-bracket">]</span></span><p>Hague (1994), p. 212.</p></aside></aside>',
            id="docutils-html5",
        ),
        pytest.param(  # docutils' older writer: a definition list
            '<a class="footnote-reference brackets" href="#id3" id="id1">1</a>',
            '<dl class="footnote brackets"><dt class="label" id="id3"><span class="brackets">'
            '<a class="fn-backref" href="#id1">1</a></span></dt><dd><p>Hague (1994), p. 212.</p></dd></dl>',
            id="docutils-dl",
        ),
        pytest.param(  # kramdown and other Markdown converters
            '<sup id="fnref:1" role="doc-noteref"><a href="#fn:1" class="footnote" rel="footnote">1</a></sup>',
            '<div class="footnotes" role="doc-endnotes"><ol><li id="fn:1"><p>Hague (1994), p. 212. '
            '<a href="#fnref:1" class="reversefootnote" role="doc-backlink">&#8617;</a></p></li></ol></div>',
            id="kramdown",
        ),
        pytest.param(  # nothing typed: the note links back to the reference
            '<a href="#n1" id="r1">1</a>',
            '<p id="n1"><a href="#r1">1</a> Hague (1994), p. 212.</p>',
            id="untyped",
        ),
    ],
)
def test_the_common_note_markups_give_a_marked_reference_and_its_note(reference: str, notes: str) -> None:
    markup = f"<body><p>Completed in 1836 to a design by Walker{reference} in sandstone.</p><p>Later.</p>{notes}</body>"
    texts = _texts(markup)
    assert texts[:3] == [
        "Completed in 1836 to a design by Walker[^1] in sandstone.",
        "[^1]: Hague (1994), p. 212.",
        "Later.",
    ]
    assert not any("212" in text for text in texts[3:])


def test_a_reference_without_its_note_is_set_off_and_a_link_to_a_section_is_left_alone() -> None:
    markup = """<body><p>Built in 1836<sup class="reference"><a href="#cite_note-9">[9]</a></sup> by Walker
    (see part <a href="#part2">2</a>).</p><h2 id="part2">History</h2><p>Text.</p></body>"""
    assert _texts(markup)[0] == "Built in 1836 [9] by Walker (see part 2)."


def test_permalinks_and_edit_links_are_not_part_of_headings() -> None:
    # Sphinx gave `# Configuring retries¶` on every heading (the sign is shown only on hover).
    markup = """<body><section id="retries"><h1>Configuring retries<a class="headerlink" href="#retries"
    title="Link to this heading">¶</a></h1><p>Calls are retried.</p>
    <h2 id="install"><a class="header-anchor" href="#install" aria-hidden="false">#</a> Install</h2>
    <h2 id="usage">Usage <a href="#usage">🔗</a></h2>
    <h2><span class="mw-headline" id="History">History</span><span class="mw-editsection">
    <span class="mw-editsection-bracket">[</span><a href="/w/index.php?action=edit">edit</a>
    <span class="mw-editsection-bracket">]</span></span></h2>
    <figure><figcaption><span class="caption-text">Retry delays</span><a class="headerlink"
    href="#id2">¶</a></figcaption></figure><p>See <a href="#usage">Usage</a> and § 4.</p></section></body>"""
    assert _texts(markup) == [
        "Configuring retries",
        "Calls are retried.",
        "Install",
        "Usage",
        "History",
        "Retry delays",
        "See Usage and § 4.",
    ]


def test_mediawiki_page_furniture_is_dropped() -> None:
    # The side panel (`<div id="mw-panel">`), "From Wikipedia…", the redirect line and the categories were kept.
    markup = """<body><div id="mw-page-base"></div><div id="mw-head-base"></div>
    <div id="mw-panel" class="vector-menu"><div class="mw-logo">Wikipedia<br>The Free Encyclopedia</div>
    <ul><li><a href="/wiki/Main_Page">Main page</a></li><li><a href="/wiki/Donate">Donate</a></li></ul></div>
    <div id="content" class="mw-body" role="main"><a class="mw-jump-link" href="#bodyContent">Jump to content</a>
    <div class="mw-indicators"><div class="mw-indicator"><img alt="Page semi-protected" src="lock.png"></div></div>
    <h1 id="firstHeading">Kestrel Point Lighthouse</h1><div id="bodyContent">
    <div id="siteSub">From Wikipedia, the free encyclopedia</div><div id="contentSub">(Redirected from Kestrel)</div>
    <div id="mw-content-text"><p>An active lighthouse on Kestrel Point.</p><div class="menu"><p>Lunch menu</p></div>
    </div><div class="printfooter">Retrieved from "https://en.wikipedia.org/w/index.php?oldid=1"</div>
    <div id="catlinks" class="catlinks"><a href="/wiki/Help:Category">Categories</a>: <ul><li>Lighthouses</li></ul>
    </div></div></div><div id="mw-navigation"><div id="mw-head"><div id="p-personal"><ul><li>Log in</li></ul></div>
    </div><div id="p-lang"><h3>Languages</h3><ul><li>Deutsch</li></ul></div></div></body>"""
    assert _texts(markup) == ["Kestrel Point Lighthouse", "An active lighthouse on Kestrel Point.", "Lunch menu"]
    assert not [block for block in blocks_of(markup) if isinstance(block, Image)]


def test_a_superscript_link_is_a_note_reference_and_its_notes_own_number_goes() -> None:
    # Untyped: `doubled1` (or `rose2`, its note in another file) read as another number.
    markup = """<body><p>Rainfall doubled<a href="#n1"><sup>1</sup></a> and the river
    rose<sup><a href="notes.html#n2">2</a></sup>.</p><p>Later.</p><h2>Notes</h2>
    <p id="n1">1. Measured at the Mill Bridge gauge.</p></body>"""
    assert _texts(markup) == [
        "Rainfall doubled[^1] and the river rose [2].",
        "[^1]: Measured at the Mill Bridge gauge.",
        "Later.",
        "Notes",
    ]


SITE_PAGE = """<html><body>
<a href="#main" class="element-invisible element-focusable">Skip to main content</a>
<div class="region-header"><ul class="nice-menu"><li><a href="/">Home</a></li>
<li><a href="/who-we-are">Who We Are</a><ul><li><a href="/staff">Staff</a></li></ul></li>
<li><a href="/research">Research</a></li></ul></div>
<ul><li>Open daily from 9 to 5</li><li>Closed on <a href="/holidays">holidays</a></li><li>Free entry</li></ul>
<div id="main"><h1>Harbour report</h1><p>The harbour reopened in March.
<a href="https://x.example/report.pdf">Report<span class="sr-only"> (opens in a new tab)</span></a></p>
<h2>See also</h2><ul><li><a href="/a">Tides</a></li><li><a href="/b">Lighthouses</a></li>
<li><a href="/c">Ferries</a></li></ul></div></body></html>"""


def test_a_sites_menus_before_the_title_and_screen_reader_text_are_dropped() -> None:
    """Lists whose every word is a link's, before the page's <h1>, are the site's menus; a list with words of its
    own before the title, and a list of links after it, are the page's."""
    assert [getattr(block, "text", None) for block in blocks_of(SITE_PAGE)] == [
        "Open daily from 9 to 5",
        "Closed on holidays",
        "Free entry",
        "Harbour report",
        "The harbour reopened in March. Report",
        "See also",
        "Tides",
        "Lighthouses",
        "Ferries",
    ]


def test_link_lists_stay_on_a_page_without_a_title() -> None:
    page = '<ul><li><a href="/a">Tides</a></li><li><a href="/b">Lighthouses</a></li><li><a href="/c">Ferries</a></li>'
    assert [getattr(block, "text", None) for block in blocks_of(page)] == ["Tides", "Lighthouses", "Ferries"]
