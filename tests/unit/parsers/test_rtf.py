from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.errors import CorruptDocumentError
from docshelf.model import Heading, Paragraph, Table
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.office.rtf import parse
from docshelf.tables import table_grid
from tests.unit.parsers import markup_measures as measures
from tests.unit.parsers.corpus_helpers import corpus_files, parse_corpus_file


def blocks_of(rtf: bytes) -> list[object]:
    return list(parse(rtf, filename="t.rtf", limits=ParseLimits()).blocks)


def test_paragraphs_skipped_destinations_and_symbols() -> None:
    rtf = (
        rb"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Times;}}{\colortbl;\red0\green0\blue0;}"
        rb"{\info{\title My title}{\author Me}}{\*\generator Writer;}"
        rb"{\pict\pngblip 89504e47}\pard Hello \b bold\b0  caf\'e9\emdash ok\par "
        rb"Second{\*\bkmkstart x} line\line next\par}"
    )
    content = parse(rtf, filename="t.rtf", limits=ParseLimits())
    assert content.title == "My title"
    assert content.blocks == [
        Paragraph(text="Hello bold café\u2014ok", page=1),
        Paragraph(text="Second line\nnext", page=1),
    ]


def test_a_header_left_open_is_closed_by_the_next_header_or_footer() -> None:
    """LibreOffice 7 writes a header holding a picture one `}` short (`{\\dbch` never closed): in the page style
    table and again in the section, so the rest of the document would be header, and skipped."""
    broken_header = rb"{\header\pard\plain{\dbch Title}{\dbch {\mmath {\*\shppict{\pict\pngblip 89504e47}}}\par }"
    rtf = (
        rb"{\rtf1\ansi{\fonttbl{\f0 Times;}}{\*\pgdsctbl{\pgdsc0" + broken_header + rb"{\footer\pard Page\par }}"
        rb"{\pgdsc1" + broken_header + rb"{\footerf\pard 1\par }}}"
        rb"\sectd" + broken_header + rb"{\footer\pard Page\par }\pard\plain Body text.\par "
        rb"{\header\pard In a header\par}\pard Second paragraph.\par}"
    )
    assert blocks_of(rtf) == [Paragraph(text="Body text.", page=1), Paragraph(text="Second paragraph.", page=1)]


def test_unicode_escapes_skip_fallbacks_and_join_surrogates() -> None:
    rtf = rb"{\rtf1\ansi\uc1 \u26085?\u26412?\uc2\u35486\'3f\'3f!\par \u-10240?\u-8398?\par}"
    assert blocks_of(rtf) == [Paragraph(text="日本語!", page=1), Paragraph(text="\U00010332", page=1)]


def test_code_pages_from_ansicpg_and_font_charset() -> None:
    shift_jis = "日本".encode("cp932")
    escaped = "".join(f"\\'{byte:02x}" for byte in shift_jis).encode()
    by_codepage = rb"{\rtf1\ansi\ansicpg932 " + escaped + rb"\par}"
    by_font = rb"{\rtf1\ansi{\fonttbl{\f0\fcharset0 Arial;}{\f1\fcharset128 MS Mincho;}}\f1 " + escaped + rb"\f0 \par}"
    assert blocks_of(by_codepage) == [Paragraph(text="日本", page=1)]
    assert blocks_of(by_font) == [Paragraph(text="日本", page=1)]


def test_headings_from_stylesheet_and_outline_level_and_lists() -> None:
    rtf = (
        rb"{\rtf1\ansi{\stylesheet{\s0 Normal;}{\s1\outlinelevel0 heading 1;}}"
        rb"\pard\s1 Intro\par\pard\outlinelevel1 Sub\par\pard\ls1\ilvl1 item\par\pard body\par}"
    )
    assert blocks_of(rtf) == [
        Heading(text="Intro", level=1, page=1),
        Heading(text="Sub", level=2, page=1),
        Paragraph(text="item", page=1, list_level=1),
        Paragraph(text="body", page=1),
    ]


def test_tables_and_fields() -> None:
    rtf = (
        rb"{\rtf1\ansi\trowd\cellx1000\cellx2000\pard\intbl A\cell B\cell\row"
        rb"\trowd\cellx1000\cellx2000\pard\intbl C\cell D\cell\row\pard after "
        rb"{\field{\*\fldinst HYPERLINK \"http://x\"}{\fldrslt link}}\par}"
    )
    table, paragraph = blocks_of(rtf)
    assert isinstance(table, Table) and table_grid(table) == [["A", "B"], ["C", "D"]]
    assert paragraph == Paragraph(text="after link", page=1)


def test_footnotes_follow_the_block_citing_them_and_binary_is_skipped() -> None:
    rtf = (
        rb"{\rtf1\ansi Text{\super\chftn{\footnote\pard{\super\chftn} Note text.\par Second line.}} more\par"
        rb"{\*\objdata \bin4 {}\}}\par Last{\super\chftn{\footnote\ftnalt End note.}}\par"
        rb"\trowd\cellx1000\pard\intbl Cell{\footnote In a cell.}\cell\row\pard After\par}"
    )
    blocks = blocks_of(rtf)
    assert blocks[:4] == [
        Paragraph(text="Text[^1] more", page=1),
        Paragraph(text="[^1]: Note text.\nSecond line.", page=1),
        Paragraph(text="Last[^i]", page=1),
        Paragraph(text="[^i]: End note.", page=1),
    ]
    assert isinstance(blocks[4], Table) and table_grid(blocks[4]) == [["Cell[^2]"]]
    assert blocks[5:] == [Paragraph(text="[^2]: In a cell.", page=1), Paragraph(text="After", page=1)]


def test_a_text_box_gives_its_paragraphs_after_the_paragraph_holding_it() -> None:
    # LibreOffice and Word write a text box as a shape, {\*\shpinst ... {\shptxt ...}}; the shape's properties,
    # its picture and Word's {\shprslt} copy for older readers are not text.
    rtf = (
        rb"{\rtf1\ansi\pard Overview{\super\chftn{\footnote Since 2021.}} {\field{\*\fldinst SHAPE }{\fldrslt"
        rb"{\shp{\*\shpinst\shpleft5670{\sp{\sn wzName}{\sv Textbox1}}{\sp{\sn pib}{\sv {\pict\pngblip 8950}}}"
        rb"{\shptxt \pard\plain At a glance: 412 km of mains.\par Three reservoirs.\par}}"
        rb"{\shprslt{\*\do\dptxbx{\dptxbxtext At a glance: 412 km of mains.\par}}}}}}The system draws water.\par"
        rb"\pard Next.\par}"
    )
    assert blocks_of(rtf) == [
        Paragraph(text="Overview[^1] The system draws water.", page=1),
        Paragraph(text="[^1]: Since 2021.", page=1),
        Paragraph(text="At a glance: 412 km of mains.", page=1),
        Paragraph(text="Three reservoirs.", page=1),
        Paragraph(text="Next.", page=1),
    ]


def test_monospace_paragraphs_are_code_with_their_spaces() -> None:
    # pandoc's RTF: a code block is a paragraph in \\f1 (\\fmodern Courier), lines split by \\line; a paragraph
    # with only some monospace text (inline code) is prose; a CJK fixed-pitch font (\\fmodern MS Gothic) is not code.
    rtf = (
        rb"{\rtf1\ansi\deff0{\fonttbl{\f0 \fswiss Helvetica;}{\f1 \fmodern Courier;}"
        rb"{\f2\fmodern\fcharset128 MS Gothic;}{\f3 Consolas;}}"
        rb"{\pard \f0 Install it from the package index, then claim a batch of jobs with a lease:\par}"
        rb"{\pard \f0 \f1 def claim(conn):\line"
        b"\n"
        rb"    with conn.transaction():\line"
        b"\n"
        rb"        return ids\par}"
        rb"{\pard \f3   second = block\par}"
        rb"{\pard \f0 Run {\f1 make check} first.\par}"
        rb"{\pard \f2 \'82\'a0\par}}"
    )
    assert blocks_of(rtf) == [
        Paragraph(text="Install it from the package index, then claim a batch of jobs with a lease:", page=1),
        Paragraph(
            text="def claim(conn):\n    with conn.transaction():\n        return ids\n  second = block",
            page=1,
            code=True,
        ),
        Paragraph(text="Run make check first.", page=1),
        Paragraph(text="\u3042", page=1),
    ]


def test_a_document_set_in_monospace_is_not_code() -> None:
    rtf = rb"{\rtf1\ansi\deff0{\fonttbl{\f0 \fmodern Courier New;}}\pard Dear   Sir,\par\pard Thank you.\par}"
    assert blocks_of(rtf) == [Paragraph(text="Dear Sir,", page=1), Paragraph(text="Thank you.", page=1)]


def test_tracked_deletions_are_dropped_and_list_numbers_kept() -> None:
    rtf = (
        rb"{\rtf1\ansi{\*\revtbl{Unknown;}{Alice;}}"
        rb"\pard The fee is {\deleted\revauthdel1 100 dollars}{\revised\revauth1 250 dollars} per month.\par"
        rb"\pard {\deleted gone}{\deleted0 kept}\par"
        rb"{\listtext 1.\tab}\ls1\ilvl0 Sign the contract\par{\listtext\pard\plain\f3 \'b7\tab}\ls1\ilvl1 Bullet\par"
        rb"{\listtext\pard\plain\f3 o\tab}\ls1\ilvl1 Hollow bullet\par{\listtext b)\tab}\ls1\ilvl1 Lettered\par}"
    )
    assert blocks_of(rtf) == [
        Paragraph(text="The fee is 250 dollars per month.", page=1),
        Paragraph(text="kept", page=1),
        Paragraph(text="1. Sign the contract", page=1, list_level=0),
        Paragraph(text="Bullet", page=1, list_level=1),
        Paragraph(text="Hollow bullet", page=1, list_level=1),
        Paragraph(text="b) Lettered", page=1, list_level=1),
    ]


def test_not_rtf_is_corrupt() -> None:
    with pytest.raises(CorruptDocumentError):
        parse(b"hello", filename="t.rtf", limits=ParseLimits())


@pytest.mark.corpus
def test_corpus_rtf_files(corpus_dir: Path) -> None:
    assert len(corpus_files(corpus_dir, "rtf")) == 2
    japanese = measures.document_text(parse_corpus_file(corpus_dir, "rtf/testRTFJapanese.rtf"))
    assert "ゾルゲと尾崎、淡々と最期" in japanese and "古書店で処刑記録見つかる" in japanese
    various = parse_corpus_file(corpus_dir, "rtf/testRTFVarious.rtf")
    text = measures.document_text(various)
    for expected in (
        "Bullet 1",
        "Row 2 Col 3",
        "ゾルゲと尾崎",
        "\U00010332",
        "This is a footnote.",
        "Here is a text box",
    ):
        assert expected in text
    assert "Michael McCandless" not in text
    assert any(isinstance(block, Table) for block in various.blocks())


def test_png_and_jpeg_pictures_are_images_after_their_paragraphs() -> None:
    """Word writes a picture twice: {\\*\\shppict{\\pict\\pngblip …}} and a metafile copy in {\\nonshppict} for older
    readers; a header's logo is page furniture, and a metafile is not read."""
    from docshelf.model import Image
    from docshelf.parsers import parse_with_assets
    from tests.support.image_fixtures import logo

    png, jpeg = logo((120, 60)), logo((90, 45), seed=1, fmt="JPEG")
    rtf = (
        rb"{\rtf1\ansi{\fonttbl{\f0 Times;}}{\header\pard{\pict\pngblip " + png.hex().encode() + rb"}\par}"
        rb"\pard Before {\*\shppict{\pict{\*\picprop{\sp{\sn wzName}{\sv logo}}}\picw120\pngblip" + b"\n"
        + png.hex().encode() + rb"}}{\nonshppict{\pict\wmetafile8 0100090000}} after.\par"
        rb"\pard{\pict\jpegblip\bin" + str(len(jpeg)).encode() + b" " + jpeg + rb"}\par"
        rb"\pard{\pict\wmetafile8 010009000003}\par\pard The end.\par}"
    )  # fmt: skip
    document, assets = parse_with_assets(rtf, "t.rtf")
    blocks = list(document.blocks())
    assert [block.kind for block in blocks] == ["paragraph", "image", "image", "paragraph"]
    assert isinstance(blocks[0], Paragraph) and blocks[0].text == "Before after."
    sizes = [(block.width, block.height) for block in blocks if isinstance(block, Image)]
    assert sizes == [(120, 60), (90, 45)] and len(assets) == 2


def test_a_metafile_given_by_bin_is_not_taken_for_the_next_pictures_bytes() -> None:
    from docshelf.model import Image
    from docshelf.parsers import parse_with_assets
    from tests.support.image_fixtures import logo

    png = logo((120, 60))
    rtf = (
        rb"{\rtf1\ansi\pard{\pict\wmetafile8\bin4 ABCD}\par\pard{\pict\pngblip " + png.hex().encode() + rb"}\par"
        rb"\pard The end.\par}"
    )
    document, assets = parse_with_assets(rtf, "t.rtf")
    images = [block for block in document.blocks() if isinstance(block, Image)]
    assert [(image.width, image.height) for image in images] == [(120, 60)] and len(assets) == 1
