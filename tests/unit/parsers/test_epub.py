from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.errors import CorruptDocumentError, DocumentTooLargeError, EncryptedDocumentError
from docshelf.model import Heading, Paragraph
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.markup.epub import parse
from tests.support.zip_fixtures import build_zip, zip_bomb
from tests.unit.parsers import markup_measures as measures
from tests.unit.parsers.corpus_helpers import parse_corpus_file

EPUB_MIME = "application/epub+zip"
CONTAINER = b"""<?xml version="1.0"?>
<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles>
<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"""
OPF = b"""<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>The Book</dc:title></metadata>
<manifest><item id="c2" href="text/ch%202.xhtml" media-type="application/xhtml+xml"/>
<item id="c1" href="text/ch1.xhtml" media-type="application/xhtml+xml"/>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="css" href="style.css" media-type="text/css"/></manifest>
<spine><itemref idref="nav"/><itemref idref="c1"/><itemref idref="c2"/></spine></package>"""


def chapter(title: str, text: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title>'
        f"</head><body><h1>{title}</h1><p>{text}</p></body></html>"
    ).encode()


def epub(extra: dict[str, bytes] | None = None) -> bytes:
    members = {
        "META-INF/container.xml": CONTAINER,
        "OEBPS/content.opf": OPF,
        "OEBPS/nav.xhtml": b'<html xmlns="http://www.w3.org/1999/xhtml"><body><nav><ol><li>Ch</li></ol></nav></body></html>',
        "OEBPS/text/ch1.xhtml": chapter("One", "First chapter."),
        "OEBPS/text/ch 2.xhtml": chapter("Two", "Second &amp; last."),
        "OEBPS/style.css": b"p {}",
    }
    return build_zip({**members, **(extra or {})}, mimetype=EPUB_MIME)


def test_spine_order_one_page_per_chapter() -> None:
    content = parse(epub(), filename="b.epub", limits=ParseLimits())
    assert content.title == "The Book"
    assert content.page_count == 2
    assert content.page_labels == {1: "One", 2: "Two"}
    assert content.blocks == [
        Heading(text="One", level=1, page=1),
        Paragraph(text="First chapter.", page=1),
        Heading(text="Two", level=1, page=2),
        Paragraph(text="Second & last.", page=2),
    ]


def test_a_converted_book_takes_its_chapter_titles_from_its_style_sheet_classes() -> None:
    """A converter's book (Calibre's, say): no `<h1>`, chapter titles set bold and large by classes in a linked
    style sheet; the stylesheet is read once for the chapters sharing it."""
    prose = "The river froze early that year, and the village walked across it to the market every week."

    def page(title: str) -> bytes:
        return (
            '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title>'
            '<link href="../stylesheet.css" rel="stylesheet" type="text/css"/></head><body class="calibre">'
            f'<p class="calibre3"><span class="bold">{title}</span></p><p class="calibre1">{prose}</p>'
            f'<p class="calibre1">{prose}</p></body></html>'
        ).encode()

    css = b""".calibre { display: block; font-size: 1em } .calibre1 { display: block; margin: 0 0 1em }
    .calibre3 { display: block; font-size: 1.41667em; margin: 1em 0 } .bold { font-weight: bold }"""
    book = epub({"OEBPS/text/ch1.xhtml": page("The Frozen River"), "OEBPS/text/ch 2.xhtml": page("Spring"),
                 "OEBPS/stylesheet.css": css})  # fmt: skip
    content = parse(book, filename="b.epub", limits=ParseLimits())
    assert [(b.text, b.level) for b in content.blocks if isinstance(b, Heading)] == [
        ("The Frozen River", 1), ("Spring", 1),
    ]  # fmt: skip
    assert content.page_labels == {1: "The Frozen River", 2: "Spring"}


def test_font_obfuscation_is_fine_but_encrypted_content_is_not() -> None:
    def encryption(uri: str, algorithm: str) -> bytes:
        return (
            '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
            'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>'
            f'<enc:EncryptionMethod Algorithm="{algorithm}"/><enc:CipherData>'
            f'<enc:CipherReference URI="{uri}"/></enc:CipherData></enc:EncryptedData></encryption>'
        ).encode()

    fonts = epub({"META-INF/encryption.xml": encryption("OEBPS/font.otf", "http://www.idpf.org/2008/embedding")})
    assert parse(fonts, filename="b.epub", limits=ParseLimits()).page_count == 2
    drm = epub(
        {"META-INF/encryption.xml": encryption("OEBPS/text/ch1.xhtml", "http://www.w3.org/2001/04/xmlenc#aes128-cbc")}
    )
    with pytest.raises(EncryptedDocumentError):
        parse(drm, filename="b.epub", limits=ParseLimits())


def test_zip_bomb_and_missing_package() -> None:
    with pytest.raises(DocumentTooLargeError):
        parse(zip_bomb("OEBPS/text/ch1.xhtml", mimetype=EPUB_MIME), filename="bomb.epub", limits=ParseLimits())
    with pytest.raises(DocumentTooLargeError):
        parse(epub(), filename="b.epub", limits=ParseLimits(max_decompressed_bytes=100))
    with pytest.raises(CorruptDocumentError):
        parse(build_zip({"a.txt": b"x"}, mimetype=EPUB_MIME), filename="b.epub", limits=ParseLimits())


@pytest.mark.corpus
def test_corpus_epubs(corpus_dir: Path) -> None:
    winter = parse_corpus_file(corpus_dir, "epub/winter-sports.epub")
    assert winter.title == "Winter Sports in Switzerland" and len(winter.pages) > 3
    relative = "epub/epub_purvis_poetry.epub"
    document = parse_corpus_file(corpus_dir, relative)
    reference = measures.groundtruth_markdown(corpus_dir, relative)
    text = measures.text_recall(measures.markdown_plain_text(reference), measures.document_text(document))
    headings = measures.heading_recall(measures.markdown_headings(reference), measures.document_headings(document))
    print(f"{relative}: text recall {text:.3f}, heading recall {headings:.3f}")
    assert text >= 0.95
    assert headings >= 0.8


def test_a_footnote_aside_is_kept_where_the_chapter_puts_it() -> None:
    noted = (
        b'<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" '
        b'xmlns:epub="http://www.idpf.org/2007/ops"><head><title>x</title></head><body><h1>One</h1>'
        b'<p>The river rose three metres<a epub:type="noteref" href="#n1">1</a>.</p>'
        b'<aside epub:type="footnote" id="n1"><p>Measured at the Mill Bridge gauge.</p></aside>'
        b"<aside><p>Also in this series</p></aside></body></html>"
    )
    content = parse(epub({"OEBPS/text/ch1.xhtml": noted}), filename="b.epub", limits=ParseLimits())
    texts = [block.text for block in content.blocks if isinstance(block, Paragraph)]
    assert texts[:2] == ["The river rose three metres[^1].", "[^1]: Measured at the Mill Bridge gauge."]
    assert "Also in this series" not in texts


def test_a_chapters_notes_follow_the_paragraphs_citing_them() -> None:
    # pandoc's EPUB 3: the notes in a section at the chapter's end, `headlands.1` and `- 1. …↩︎` before.
    noted = (
        b'<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" '
        b'xmlns:epub="http://www.idpf.org/2007/ops"><head><title>x</title></head><body><h1>One</h1>'
        b'<p>Sailors relied on bonfires along the headlands.<a href="ch1.xhtml#fn1" class="footnote-ref" '
        b'id="fnref1" epub:type="noteref">1</a> These were unreliable.</p><p>The first tower fell.</p>'
        b'<section class="footnotes footnotes-end-of-document" epub:type="footnotes"><hr /><ol>'
        b'<li id="fn1" epub:type="footnote"><p>Parish records mention a fire in 1325.<a href="ch1.xhtml#fnref1" '
        b'class="footnote-back" role="doc-backlink">\xe2\x86\xa9\xef\xb8\x8e</a></p></li></ol></section></body></html>'
    )
    content = parse(epub({"OEBPS/text/ch1.xhtml": noted}), filename="b.epub", limits=ParseLimits())
    assert [block.text for block in content.blocks if isinstance(block, Heading | Paragraph) and block.page == 1] == [
        "One",
        "Sailors relied on bonfires along the headlands.[^1] These were unreliable.",
        "[^1]: Parish records mention a fire in 1325.",
        "The first tower fell.",
    ]


def test_a_reference_to_a_note_in_another_chapter_is_set_off_from_its_word() -> None:
    # An endnotes chapter (Calibre, many publishers): `metres1` read as another number.
    noted = (
        b'<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" '
        b'xmlns:epub="http://www.idpf.org/2007/ops"><head><title>x</title></head><body><h1>One</h1>'
        b'<p>The river rose three metres<a epub:type="noteref" href="notes.xhtml#n1" id="r1">1</a>.</p></body></html>'
    )
    content = parse(epub({"OEBPS/text/ch1.xhtml": noted}), filename="b.epub", limits=ParseLimits())
    texts = [block.text for block in content.blocks if isinstance(block, Paragraph)]
    assert texts[0] == "The river rose three metres [1]."


def test_a_book_without_headings_takes_its_chapters_from_bold_titles_and_numbered_lines() -> None:
    prose = "The river froze early that year, and the village skated to market for the first time in memory."

    def untitled(first: str, second: str) -> bytes:
        body = f"<p><b>{first}</b></p><p>{prose}</p><p>{second}</p><p>{prose}</p>"
        return f'<html xmlns="http://www.w3.org/1999/xhtml"><body>{body}</body></html>'.encode()

    book = epub({
        "OEBPS/text/ch1.xhtml": untitled("The Frozen River", "1. Skates"),
        "OEBPS/text/ch 2.xhtml": untitled("The Thaw", "2. Boats"),
    })  # fmt: skip
    content = parse(book, filename="b.epub", limits=ParseLimits())
    headings = [(block.text, block.level) for block in content.blocks if isinstance(block, Heading)]
    assert headings == [("The Frozen River", 1), ("1. Skates", 2), ("The Thaw", 1), ("2. Boats", 2)]
    assert content.page_labels == {1: "The Frozen River", 2: "The Thaw"}
