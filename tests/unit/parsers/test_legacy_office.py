"""Word 97-2003 (.doc) and PowerPoint 97-2003 (.ppt) files, detected from their compound file's streams."""

from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from docshelf.errors import CorruptDocumentError, DocumentError, EncryptedDocumentError, UnsupportedFormatError
from docshelf.model import Document, Image
from docshelf.parsers import parse_bytes
from docshelf.parsers.detect import detect_format
from docshelf.parsers.office.doc import unword_pages
from docshelf.tables import block_text
from tests.unit.parsers.ole_fixtures import compound_file, powerpoint97_document, word6_document, word97_document

PARAGRAPHS = ["Pump maintenance manual", "Replace the seal every 500 hours of operation.", "Check the valve weekly."]


def test_a_word97_file_is_detected_by_its_streams_whatever_its_name() -> None:
    data = word97_document(PARAGRAPHS)
    assert detect_format(data, "upload.bin") == "doc"
    assert detect_format(data, "report.xls") == "doc"


def test_a_word97_file_gives_its_headings_pages_and_paragraphs_through_unword() -> None:
    paragraphs = ["Pump manual", "Replace the seal every 500 hours.", "\x0c", "Valves", "Check the valve weekly."]
    document = parse_bytes(word97_document(paragraphs, headings={0: 1, 3: 2}), "manual.doc")
    found = [
        (block.kind, getattr(block, "level", 0), getattr(block, "text", ""), block.page) for block in document.blocks()
    ]
    assert found == [
        ("heading", 1, "Pump manual", 1),
        ("paragraph", 0, "Replace the seal every 500 hours.", 1),
        ("heading", 2, "Valves", 2),
        ("paragraph", 0, "Check the valve weekly.", 2),
    ]
    assert len(document.pages) == 2 and document.warnings == ()
    assert document.title == "Pump manual"


def test_unword_output_is_read_by_its_own_three_rules_not_as_markdown() -> None:
    pages = unword_pages("# Title\n\na * b | c\n\n1. kept as text\n\n---\n\n### Deep\n\n")
    assert [[(type(block).__name__, getattr(block, "text", "")) for block in page] for page in pages] == [
        [("Heading", "Title"), ("Paragraph", "a * b | c"), ("Paragraph", "1. kept as text")],
        [("Heading", "Deep")],
    ]


def test_a_word97_file_unword_refuses_is_read_by_legacy_doc() -> None:
    document = parse_bytes(word97_document(PARAGRAPHS), "manual.doc")  # no stylesheet: unword refuses it
    texts = [block.text for block in document.blocks() if block.kind == "paragraph"]
    assert texts == PARAGRAPHS
    assert document.source.media_type == "application/msword"
    assert all(block.kind == "paragraph" and block.page == 1 for block in document.blocks())
    assert any("unword" in warning for warning in document.warnings)


def test_a_word_file_that_makes_unword_panic_is_read_by_legacy_doc() -> None:
    # unword (Rust) panics on this file; pyo3 raises that as a BaseException, which must not escape the parser.
    document = parse_bytes(word97_document(PARAGRAPHS, stylesheet=True), "styled.doc")
    assert [block.text for block in document.blocks() if block.kind == "paragraph"] == PARAGRAPHS
    assert any("PanicException" in warning for warning in document.warnings)


def test_an_encrypted_word97_file_is_encrypted_not_garbage() -> None:
    with pytest.raises(EncryptedDocumentError):
        parse_bytes(word97_document(PARAGRAPHS, encrypted=True), "locked.doc")


def test_a_word_stream_without_a_file_header_is_corrupt() -> None:
    data = compound_file({"WordDocument": b"\x00" * 8, "1Table": b""})
    with pytest.raises(CorruptDocumentError) as caught:
        parse_bytes(data, "broken.doc")
    assert "Traceback" not in caught.value.message


def test_a_powerpoint_file_is_detected_by_its_streams() -> None:
    data = compound_file({"Current User": b"\x00" * 32, "PowerPoint Document": b"\x00" * 64})
    assert detect_format(data, "deck.bin") == "ppt"


def test_a_powerpoint_97_file_without_records_is_corrupt_with_a_reason() -> None:
    current_user = b"\x00\x00\xf6\x0f\x14\x00\x00\x00" + b"\x00" * 24  # a CurrentUserAtom header, nothing else
    data = compound_file({"Current User": current_user, "PowerPoint Document": b"\x00" * 64})
    with pytest.raises(CorruptDocumentError, match=r"PowerPoint file 'deck\.ppt' could not be read: .*missing"):
        parse_bytes(data, "deck.ppt")


def test_a_powerpoint_95_file_is_unsupported_by_name() -> None:
    # A Current User stream without PowerPoint 97's CurrentUserAtom (record type 0x0FF6).
    data = compound_file({"Current User": b"\x00" * 32, "PowerPoint Document": b"\x00" * 64})
    with pytest.raises(UnsupportedFormatError, match="PowerPoint 95 and earlier"):
        parse_bytes(data, "old.ppt")


def test_powerpoint97_titles_are_headings_and_footers_and_slide_numbers_are_furniture() -> None:
    # ppt2pptx writes every placeholder as a plain text box; the .ppt's OEPlaceholderAtom (placementId) and
    # TextHeaderAtom (text type) say which are the titles, the subtitle, the footer and the slide number.
    center_title, subtitle, title, body, footer, slide_number = 0x0F, 0x10, 0x0D, 0x0E, 0x09, 0x08
    slides: list[list[tuple[int | None, int, str]]] = [
        [(center_title, 6, "Bus Network Redesign"), (subtitle, 5, "Board briefing"), (None, 4, "A plain text box")],
        [
            (title, 0, "Why redesign?"),
            (body, 1, "Ridership fell"),
            (footer, 4, "Transit Authority"),
            (slide_number, 4, "2"),
        ],
        # A title by its text type alone; the footer repeats, as footers do (one on a single slide is content).
        [(None, 0, "Next steps"), (None, 4, "Consult the public"), (footer, 4, "Transit Authority")],
    ]
    document = parse_bytes(powerpoint97_document(slides), "deck.ppt")
    found = [
        (block.kind, getattr(block, "level", 0), getattr(block, "text", ""), block.page) for block in document.blocks()
    ]
    assert found == [
        ("heading", 1, "Bus Network Redesign", 1),
        ("heading", 2, "Board briefing", 1),
        ("paragraph", 0, "A plain text box", 1),
        ("heading", 1, "Why redesign?", 2),
        ("paragraph", 0, "Ridership fell", 2),
        ("heading", 1, "Next steps", 3),
        ("paragraph", 0, "Consult the public", 3),
    ]
    assert document.title == "Bus Network Redesign"


def test_a_converted_slide_showing_only_a_slide_number_field_is_furniture() -> None:
    # ppt2pptx draws the slide number of the Header & Footer settings as a text box holding one slidenum field.
    import io

    import pptx
    from pptx.util import Inches

    from docshelf.parsers.office.ppt_placeholders import mark_slide, rewrite_slides

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    for text in ("Page", "7"):
        slide.shapes.add_textbox(Inches(1), Inches(1), Inches(2), Inches(1)).text_frame.text = text
    run = slide.shapes[1].text_frame.paragraphs[0].runs[0]._r
    field = run.makeelement(
        run.tag.replace("}r", "}fld"), {"id": "{00000000-0000-0000-0000-000000000005}", "type": "slidenum"}
    )
    field.extend(list(run))
    run.getparent().replace(run, field)
    saved = io.BytesIO()
    deck.save(saved)
    document = parse_bytes(rewrite_slides(saved.getvalue(), lambda _number, root: mark_slide(root, [])), "deck.pptx")
    assert [getattr(block, "text", "") for block in document.blocks()] == ["Page"]


def test_only_the_root_streams_decide_not_names_inside_the_bytes() -> None:
    # A workbook whose bytes hold another format's stream name (as an embedded object's directory would).
    workbook = compound_file({"Workbook": b"\x09\x08" + "WordDocument PowerPoint Document".encode("utf-16-le")})
    assert detect_format(workbook, "sheet.bin") == "xls"
    word = compound_file({"WordDocument": b"\x00" * 16, "1Table": "Workbook".encode("utf-16-le")})
    assert detect_format(word, "memo.bin") == "doc"


def test_an_unreadable_directory_falls_back_to_the_names_in_the_bytes() -> None:
    broken = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\xff" * 40 + "WordDocument".encode("utf-16-le")
    assert detect_format(broken, "old.doc") == "doc"


def test_damaged_word_files_end_as_a_status_never_an_escaping_error() -> None:
    rng = random.Random(7)
    bases = [word97_document(PARAGRAPHS, headings={0: 1}), word97_document(PARAGRAPHS, stylesheet=True)]
    codes: set[str] = set()
    for _ in range(150):
        data = bytearray(rng.choice(bases))
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            parse_bytes(bytes(data), "damaged.doc")
            codes.add("ok")
        except DocumentError as error:  # anything else (a Rust panic included) fails the test
            assert error.message and "Traceback" not in error.message
            codes.add(error.code)
    assert "ok" in codes and "corrupt" in codes


IN_CELL = bytes.fromhex("162401 496601000000")  # sprmPFInTable 1, sprmPItap 1
ROW_END = IN_CELL + bytes.fromhex("172401")  # and sprmPFTtp 1: this cell mark ends its row


def test_a_word97_table_with_empty_cells_keeps_its_rows_and_the_text_after_it() -> None:
    # An empty cell's mark looks like a row's end mark (BEL after BEL): only the row end's fTtp tells them apart.
    cells = [["Name", "Role", "Phone"], ["Ann", "Chair", ""], ["Bob", "", ""]]
    paragraphs = ["Before the table."]
    properties: dict[int, bytes] = {}
    for row in cells:
        for cell in row:
            properties[len(paragraphs)] = IN_CELL
            paragraphs.append(cell + "\x07")
        properties[len(paragraphs)] = ROW_END
        paragraphs.append("\x07")
    properties[len(paragraphs)] = IN_CELL  # a cell of two paragraphs, in the first cell of a row
    paragraphs += ["Two lines", "in one cell\x07"]
    properties[len(paragraphs)] = IN_CELL
    paragraphs.append("\x07")
    properties[len(paragraphs)] = IN_CELL
    paragraphs.append("\x07")
    properties[len(paragraphs)] = ROW_END
    paragraphs.append("\x07")
    paragraphs += ["After the table: this paragraph must survive.", "Next section", "Closing text."]
    data = word97_document(paragraphs, headings={len(paragraphs) - 2: 1}, properties=properties)
    document = parse_bytes(data, "contacts.doc")
    assert _kinds(document) == [
        ("paragraph", "Before the table.", 1),
        ("table", TABLE, 1),
        ("paragraph", "After the table: this paragraph must survive.", 1),
        ("heading", "Next section", 1),
        ("paragraph", "Closing text.", 1),
    ]
    assert document.warnings == ()


def _row_end(edges: list[int], flags: list[int], *, header: bool = False) -> bytes:
    """A row end's properties with sprmTDefTable: the row's cell edges (twips) and each cell's TC80 flags."""
    operand = bytes([len(edges) - 1]) + struct.pack(f"<{len(edges)}h", *edges)
    operand += b"".join(struct.pack("<H", flag) + bytes(18) for flag in flags)  # cells after these: no TC80
    table_header = bytes.fromhex("043401") if header else b""
    return ROW_END + table_header + bytes.fromhex("08d6") + struct.pack("<H", len(operand) + 1) + operand


VERT_RESTART, VERT_MERGED, HORZ_FIRST, HORZ_MERGED = 0x60, 0x20, 0x01, 0x02


def test_word97_merged_cells_span_the_columns_and_rows_they_cover() -> None:
    # "Region" is merged down two rows (vertMerge); "Sales" is one cell as wide as Jan and Feb (LibreOffice writes a
    # horizontal merge so); "Total" spans two columns by horzMerge flags (Word's older way), its edge 5 twips off
    # the column's. The first two rows repeat as the header (sprmTTableHeader).
    rows = [
        (["Region", "Sales"], [0, 1000, 3000], [VERT_RESTART], True),
        (["", "Jan", "Feb"], [0, 1000, 2000, 3000], [VERT_MERGED], True),
        (["Total", "", "9"], [0, 1005, 2000, 3000], [HORZ_FIRST, HORZ_MERGED], False),
    ]
    paragraphs: list[str] = ["Sales by region."]
    properties: dict[int, bytes] = {}
    for cells, edges, flags, header in rows:
        for cell in cells:
            properties[len(paragraphs)] = IN_CELL
            paragraphs.append(cell + "\x07")
        properties[len(paragraphs)] = _row_end(edges, flags, header=header)
        paragraphs.append("\x07")
    paragraphs.append("After the table.")
    document = parse_bytes(word97_document(paragraphs, properties=properties), "sales.doc")
    (table,) = [block for block in document.blocks() if block.kind == "table"]
    assert (table.n_rows, table.n_cols, table.header_rows) == (3, 3, 2)
    assert {(cell.text, cell.row, cell.col, cell.rowspan, cell.colspan) for cell in table.cells} == {
        ("Region", 0, 0, 2, 1), ("Sales", 0, 1, 1, 2), ("Jan", 1, 1, 1, 1), ("Feb", 1, 2, 1, 1),
        ("Total", 2, 0, 1, 2), ("9", 2, 2, 1, 1),
    }  # fmt: skip
    assert _kinds(document)[-1] == ("paragraph", "After the table.", 1)


def test_word97_rows_whose_cells_do_not_match_their_properties_stay_plain_rows() -> None:
    # A row end naming two cells for a row of three (as a nested table's cells would make it): no grid is guessed.
    paragraphs = ["a\x07", "b\x07", "c\x07", "\x07", "d\x07", "e\x07", "f\x07", "\x07"]
    properties = {0: IN_CELL, 1: IN_CELL, 2: IN_CELL, 3: _row_end([0, 1000, 2000], [0, 0]), 4: IN_CELL, 5: IN_CELL}
    properties |= {6: IN_CELL, 7: _row_end([0, 1000, 2000, 3000], [0, 0, 0])}
    document = parse_bytes(word97_document(paragraphs, properties=properties), "plain.doc")
    assert _kinds(document) == [("table", "| a | b | c |\n|---|---|---|\n| d | e | f |", 1)]


def test_word97_footnotes_and_text_boxes_follow_the_block_citing_them() -> None:
    # The stories after the main text: each note after the block citing it (its mark in the text, as DOCX notes
    # are), a text box after the paragraph anchoring its shape. An emoji takes two positions (UTF-16 units).
    paragraphs = [
        "Water report\x02",
        "Levels fell 📉 for the third year.\x02 Nitrate stayed low.\x08",
        "Zone\x07",
        "A\x02\x07",
        "\x07",
        "The end.",
    ]
    properties = {2: IN_CELL, 3: IN_CELL, 4: ROW_END}
    notes = ["Since 2021.", "Compared with the 2015 baseline.", "Zone A is the old town."]
    data = word97_document(
        paragraphs, headings={0: 1}, properties=properties, footnotes=notes, text_boxes=["At a glance: 42 wells."]
    )
    document = parse_bytes(data, "water.doc")
    assert [text for _, text, _ in _kinds(document)] == [
        "Water report[^1]",
        "[^1]: Since 2021.",
        "Levels fell 📉 for the third year.[^2] Nitrate stayed low.",
        "[^2]: Compared with the 2015 baseline.",
        "At a glance: 42 wells.",
        "| Zone | A[^3] |\n|---|---|",
        "[^3]: Zone A is the old town.",
        "The end.",
    ]
    assert [block.kind for block in document.blocks()][:2] == ["heading", "paragraph"]


def test_word97_list_paragraphs_are_list_items_with_their_labels() -> None:
    # A list paragraph names its list (sprmPIlfo) and level (sprmPIlvl), itself or through its style; the labels
    # come from the list definitions (PlfLst, its LVLs, PlfLfo), counted as Word counts them.
    def item(ilfo: int, ilvl: int) -> bytes:
        return bytes.fromhex("0b46") + struct.pack("<H", ilfo) + bytes.fromhex("0a26") + bytes([ilvl])

    paragraphs = [
        "Sampling",
        "Steps:",
        "Flush the tap.",
        "Fill the bottles:",
        "thiosulphate",
        "metals",
        "Seal.",
        "Pumps",
        "A bullet",
    ]
    properties = {2: item(2, 0), 3: item(2, 0), 4: item(2, 1), 5: item(2, 1), 6: item(2, 0), 8: item(3, 0)}
    lists = [[(0, "\x00"), (0, "\x00.\x01")], [(0, "\x00."), (4, "\x01)")], [(23, "\uf0b7")]]
    style_sprms = {1: item(1, 0)}  # Heading 1 numbered by list 1, as Word's outline numbering does
    data = word97_document(
        paragraphs, headings={0: 1, 7: 1}, properties=properties, lists=lists, style_sprms=style_sprms
    )
    document = parse_bytes(data, "steps.doc")
    found = [
        (block.kind, getattr(block, "text", ""), getattr(block, "list_level", None)) for block in document.blocks()
    ]
    assert found == [
        ("heading", "1 Sampling", None),
        ("paragraph", "Steps:", None),
        ("paragraph", "1. Flush the tap.", 0),
        ("paragraph", "2. Fill the bottles:", 0),
        ("paragraph", "a) thiosulphate", 1),
        ("paragraph", "b) metals", 1),
        ("paragraph", "3. Seal.", 0),
        ("heading", "2 Pumps", None),
        ("paragraph", "A bullet", 0),
    ]


def test_word97_code_paragraphs_keep_their_indentation_and_make_one_code_block() -> None:
    # A paragraph in a code style ("HTML Preformatted", here istd 9 renamed) is a line of code: its spaces and
    # line breaks (VT) are kept, and code paragraphs in a row, an empty one between them, make one block.
    paragraphs = ["Configuration:", "[defaults]\x0b    station = BREST", "", "    units = metric", "Done."]
    data = word97_document(paragraphs, headings={1: 9, 2: 9, 3: 9}, style_names={9: "HTML Preformatted"})
    blocks = list(parse_bytes(data, "readme.doc").blocks())
    assert [(block.kind, getattr(block, "text", ""), getattr(block, "code", False)) for block in blocks] == [
        ("paragraph", "Configuration:", False),
        ("paragraph", "[defaults]\n    station = BREST\n\n    units = metric", True),
        ("paragraph", "Done.", False),
    ]


def test_word97_headings_by_outline_level_of_a_style_of_its_own_or_of_the_paragraph() -> None:
    # unword knows the built-in heading styles only: "Appendix Title" (istd 9 renamed) has outline level 2 of its
    # own, and one paragraph of the body style sets outline level 3 itself.
    paragraphs = ["Report", "Introduction text.", "Appendix A", "Details.", "Raw data", "Tables follow."]
    outline = bytes.fromhex("4026")  # sprmPOutLvl, its operand after it
    data = word97_document(
        paragraphs,
        headings={0: 1, 2: 9},
        style_names={9: "Appendix Title"},
        style_sprms={9: outline + bytes([1])},
        properties={4: outline + bytes([2])},
    )
    assert [
        (block.kind, block_text(block), getattr(block, "level", 0)) for block in parse_bytes(data, "r.doc").blocks()
    ] == [
        ("heading", "Report", 1),
        ("paragraph", "Introduction text.", 0),
        ("heading", "Appendix A", 2),
        ("paragraph", "Details.", 0),
        ("heading", "Raw data", 3),
        ("paragraph", "Tables follow.", 0),
    ]


TABLE = "| Name | Role | Phone |\n|---|---|---|\n| Ann | Chair |  |\n| Bob |  |  |\n| Two lines in one cell |  |  |"
WORD6_TEXT = (
    "Pump maintenance manual\rReplace the seal every 500 hours.\r"
    "Bolt size\x07Torque (Nm)\x07\x07M10\x0745\x07\x07M12\x0780\x07\x07"
    "See \x13 PAGEREF torque \x14page 2\x15 for more.\x0cValves are checked weekly.\r"
)


def _kinds(document: object) -> list[tuple[str, str, int]]:
    from docshelf.tables import block_text

    return [(block.kind, block_text(block), block.page) for block in document.blocks()]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("n_fib", "version"), [(101, "Word 6.0"), (104, "Word 95")])
@pytest.mark.parametrize("fast_saved", [False, True])
def test_a_word6_or_95_file_gives_its_text_tables_and_pages(n_fib: int, version: str, fast_saved: bool) -> None:
    data = word6_document(WORD6_TEXT, n_fib=n_fib, fast_saved=fast_saved)
    assert detect_format(data, "old.doc") == "doc"
    document = parse_bytes(data, "old.doc")
    assert _kinds(document) == [
        ("paragraph", "Pump maintenance manual", 1),
        ("paragraph", "Replace the seal every 500 hours.", 1),
        ("table", "| Bolt size | Torque (Nm) |\n|---|---|\n| M10 | 45 |\n| M12 | 80 |", 1),
        ("paragraph", "See page 2 for more.", 1),
        ("paragraph", "Valves are checked weekly.", 2),
    ]
    assert document.warnings == (f"{version} document: read without headings",)


def test_a_word6_table_read_without_properties_keeps_empty_cells_after_its_first_row() -> None:
    # Without paragraph properties, an empty cell mark after a cell is a row's end only once the row has as many
    # cells as the first; text left in an open cell is kept.
    text = "Name\x07Phone\x07\x07Ann\x07\x07\x07Bob\x07\x07\x07After the table.\r"
    document = parse_bytes(word6_document(text), "old.doc")
    assert _kinds(document) == [
        ("table", "| Name | Phone |\n|---|---|\n| Ann |  |\n| Bob |  |", 1),
        ("paragraph", "After the table.", 1),
    ]


def test_a_japanese_word6_file_is_read_in_its_code_page() -> None:
    document = parse_bytes(word6_document("第1条（目的）\r髙橋の内線は3305です。\r", lid=0x0411), "規程.doc")
    assert [text for _, text, _ in _kinds(document)] == ["第1条（目的）", "髙橋の内線は3305です。"]


def test_a_file_older_than_word6_is_unsupported_naming_its_version_not_corrupt() -> None:
    data = bytearray(word6_document("Old text\r"))
    stream_at = data.index(b"\xdc\xa5")
    data[stream_at : stream_at + 4] = b"\x9b\xa5\x2d\x00"  # Word for Windows 2.0: wIdent 0xA59B, nFib 45
    with pytest.raises(UnsupportedFormatError) as caught:
        parse_bytes(bytes(data), "ancient.doc")
    assert "Word for Windows 1.x/2.0" in caught.value.message


SOFFICE = shutil.which("soffice")


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_a_word97_file_saved_by_libreoffice_keeps_its_headings_and_its_table(tmp_path: Path) -> None:
    import docx

    source = docx.Document()
    source.add_heading("Pump maintenance manual", level=1)
    source.add_paragraph("Replace the seal every 500 hours of operation.")
    source.add_heading("Torque values", level=2)
    table = source.add_table(rows=3, cols=2)
    for r, row in enumerate([("Bolt size", "Torque (Nm)"), ("M10", "45"), ("M12", "80")]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    source.add_paragraph("Use a calibrated wrench.")
    source.save(str(tmp_path / "manual.docx"))
    converted = _soffice(tmp_path, "manual.docx", "doc")
    document = parse_bytes(converted, "manual.doc")
    assert _kinds(document) == [
        ("heading", "Pump maintenance manual", 1),
        ("paragraph", "Replace the seal every 500 hours of operation.", 1),
        ("heading", "Torque values", 1),
        ("table", "| Bolt size | Torque (Nm) |\n|---|---|\n| M10 | 45 |\n| M12 | 80 |", 1),
        ("paragraph", "Use a calibrated wrench.", 1),
    ]
    assert [block.level for block in document.blocks() if block.kind == "heading"] == [1, 2]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_a_word97_file_saved_by_libreoffice_keeps_its_merged_cells_where_the_docx_has_them(tmp_path: Path) -> None:
    import docx

    source = docx.Document()
    table = source.add_table(rows=4, cols=4)
    for r, row in enumerate([("Region", "Q1", "", "Q2"), ("", "Jan", "Feb", "Mar"), ("North", "1", "2", "3")]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    table.cell(0, 0).merge(table.cell(1, 0)).text = "Region"
    table.cell(0, 1).merge(table.cell(0, 2)).text = "Q1"
    table.cell(2, 1).merge(table.cell(3, 2)).text = "Block"
    source.save(str(tmp_path / "merged.docx"))
    from_docx = parse_bytes((tmp_path / "merged.docx").read_bytes(), "merged.docx")
    from_doc = parse_bytes(_soffice(tmp_path, "merged.docx", "doc"), "merged.doc")
    expected = "\n".join(
        [
            "| Region | Q1 | Q1 | Q2 |",
            "|---|---|---|---|",
            "| Region | Jan | Feb | Mar |",
            "| North | Block | Block | 3 |",
            "|  | Block | Block |  |",
        ]
    )
    assert [block_text(block) for block in from_doc.blocks()] == [block_text(block) for block in from_docx.blocks()]
    assert [block_text(block) for block in from_doc.blocks()] == [expected]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_a_nested_table_in_a_word97_cell_reads_a_line_a_row_as_in_the_docx(tmp_path: Path) -> None:
    import docx

    source = docx.Document()
    table = source.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text, table.cell(1, 1).text = "Site", "Readings", "none"
    outer = table.cell(1, 0)
    outer.text = "North"
    inner = outer.add_table(rows=2, cols=2)
    for r, row in enumerate([("pH", "7.1"), ("Nitrate", "3.2")]):
        for c, value in enumerate(row):
            inner.cell(r, c).text = value
    source.save(str(tmp_path / "nested.docx"))
    from_docx = parse_bytes((tmp_path / "nested.docx").read_bytes(), "nested.docx")
    from_doc = parse_bytes(_soffice(tmp_path, "nested.docx", "doc"), "nested.doc")
    expected = "| Site | Readings |\n|---|---|\n| North pH \\| 7.1 Nitrate \\| 3.2 | none |"
    assert [block_text(block) for block in from_doc.blocks()] == [expected]
    assert [block_text(block) for block in from_docx.blocks()] == [expected]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_a_word97_style_based_on_a_heading_style_gives_headings_as_the_docx_does(tmp_path: Path) -> None:
    import docx
    from docx.enum.style import WD_STYLE_TYPE

    source = docx.Document()
    appendix = source.styles.add_style("Appendix Heading", WD_STYLE_TYPE.PARAGRAPH)
    appendix.base_style = source.styles["Heading 2"]
    source.add_heading("Water report", level=1)
    source.add_paragraph("Levels fell for the third year.")
    source.add_paragraph("REFERENCES", style="Appendix Heading")
    source.add_paragraph("First reference.")
    source.save(str(tmp_path / "report.docx"))
    from_docx = parse_bytes((tmp_path / "report.docx").read_bytes(), "report.docx")
    from_doc = parse_bytes(_soffice(tmp_path, "report.docx", "doc"), "report.doc")
    expected = [("heading", "Water report", 1), ("paragraph", "Levels fell for the third year.", 0)]
    expected += [("heading", "REFERENCES", 2), ("paragraph", "First reference.", 0)]
    for document in (from_docx, from_doc):
        assert [(block.kind, block_text(block), getattr(block, "level", 0)) for block in document.blocks()] == expected


def _soffice(folder: Path, name: str, fmt: str) -> bytes:
    env = {**os.environ, "HOME": str(folder)}  # LibreOffice's profile, private to the test
    done = subprocess.run(
        [str(SOFFICE), "--headless", "--convert-to", fmt, "--outdir", str(folder), str(folder / name)],
        check=True, capture_output=True, env=env, timeout=240,
    )  # fmt: skip
    converted = folder / f"{Path(name).stem}.{fmt}"
    if not converted.exists():  # soffice exits 0 when the module that opens the file (Impress, Calc) is missing
        pytest.skip(f"LibreOffice could not convert {name} to {fmt}: {done.stderr.decode(errors='replace')[-200:]}")
    return converted.read_bytes()


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_a_powerpoint97_table_saved_by_libreoffice_is_a_table(tmp_path: Path) -> None:
    import pptx
    from pptx.util import Inches

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Torque table"
    grid = slide.shapes.add_table(3, 2, Inches(1), Inches(2), Inches(6), Inches(2)).table
    for r, row in enumerate([("Bolt size", "Torque (Nm)"), ("M10", "45"), ("M12", "80")]):
        for c, value in enumerate(row):
            grid.cell(r, c).text = value
    deck.save(str(tmp_path / "deck.pptx"))
    document = parse_bytes(_soffice(tmp_path, "deck.pptx", "ppt"), "deck.ppt")
    tables = [block for block in document.blocks() if block.kind == "table"]
    assert [_kinds(document)[i] for i, b in enumerate(document.blocks()) if b.kind == "table"] == [
        ("table", "| Bolt size | Torque (Nm) |\n|---|---|\n| M10 | 45 |\n| M12 | 80 |", 1)
    ]
    assert len(tables) == 1


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_a_powerpoint97_table_with_empty_and_merged_cells_beside_a_text_box_reads_as_in_the_pptx(
    tmp_path: Path,
) -> None:
    # ppt2pptx rebuilds only complete grids of text cells; this table (an empty corner, a heading over two columns,
    # a cell over two rows) beside a note became text boxes read one by one.
    import pptx
    from pptx.util import Inches

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Readings"
    grid = slide.shapes.add_table(4, 3, Inches(1), Inches(2), Inches(6), Inches(2)).table
    for r, row in enumerate([("", "Week 1", ""), ("Site", "pH", "Nitrate"), ("North", "7.1", "3.2"), ("", "7.0", "")]):
        for c, value in enumerate(row):
            grid.cell(r, c).text = value
    grid.cell(0, 1).merge(grid.cell(0, 2))
    grid.cell(2, 0).merge(grid.cell(3, 0))
    note = slide.shapes.add_textbox(Inches(1), Inches(4.5), Inches(6), Inches(1))
    note.text_frame.text = "Nitrate in mg/l."
    deck.save(str(tmp_path / "readings.pptx"))
    from_pptx = parse_bytes((tmp_path / "readings.pptx").read_bytes(), "readings.pptx")
    from_ppt = parse_bytes(_soffice(tmp_path, "readings.pptx", "ppt"), "readings.ppt")
    rows = ["| North | 7.1 | 3.2 |", "| North | 7.0 |  |"]
    expected = [
        ("heading", "Readings", 1),
        ("table", "\n".join(["|  | Week 1 | Week 1 |", "|---|---|---|", "| Site | pH | Nitrate |", *rows]), 1),
        ("paragraph", "Nitrate in mg/l.", 1),
    ]
    assert _kinds(from_pptx) == expected
    assert _kinds(from_ppt) == expected


def test_word97_table_properties_of_a_damaged_file_never_make_a_broken_grid() -> None:
    # Random sprmTDefTable operands (cells out of order, edges backwards, zero widths): every table read from them
    # covers each position of its grid once, with spans of one or more, or falls back to plain rows.
    from docshelf.parsers.office.doc_tables import row_cells, word_table

    rng = random.Random(36)
    checked = 0
    for _ in range(3000):
        shapes = row_cells(bytes(rng.randrange(256) for _ in range(rng.randrange(80))))
        if not shapes:
            continue
        checked += 1
        table = word_table([["x"] * len(shapes), ["y"] * len(shapes)], [shapes, shapes], page=1)
        covered = [
            (row, col)
            for cell in table.cells
            for row in range(cell.row, cell.row + cell.rowspan)
            for col in range(cell.col, cell.col + cell.colspan)
        ]
        assert all(cell.colspan >= 1 and cell.rowspan >= 1 for cell in table.cells)
        assert len(covered) == len(set(covered)) and all(0 <= col < table.n_cols for _, col in covered)
    assert checked > 100


def test_word97_rows_whose_edges_never_meet_past_255_columns_stay_plain_rows() -> None:
    # 130 rows of two cells, every row's edges its own: one grid would need 390 columns, no table of Word's has.
    from docshelf.parsers.office.doc_tables import CellShape, word_table

    shapes: list[tuple[CellShape, ...]] = [
        (CellShape(100 * r, 100 * r + 30), CellShape(100 * r + 60, 100 * r + 90)) for r in range(130)
    ]
    table = word_table([["a", "b"] for _ in range(130)], shapes, page=1)
    assert (table.n_rows, table.n_cols) == (130, 2)
    assert all(cell.colspan == 1 for cell in table.cells)


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_a_powerpoint97_numbered_list_saved_by_libreoffice_keeps_its_numbers(tmp_path: Path) -> None:
    """Auto-numbering lives in a `.ppt`'s PowerPoint 2000 extension records, which ppt2pptx does not read: every
    numbered paragraph came out as a bullet. A text box with a line, then steps numbered `1.` and `a)` from 3, as
    the PPTX itself reads."""
    import pptx
    from lxml import etree
    from pptx.util import Inches

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    frame = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(6), Inches(4)).text_frame
    items = [("Before you start:", None), ("Close the valve", ("arabicPeriod", 1)), ("Drain the line", None),
             ("Fit the seal", ("alphaLcParenR", 3)), ("Open the valve", ("alphaLcParenR", 3))]  # fmt: skip
    for index, (text, numbering) in enumerate(items):
        paragraph = frame.paragraphs[0] if index == 0 else frame.add_paragraph()
        paragraph.text = text
        if numbering or text == "Drain the line":
            p_pr = paragraph._p.get_or_add_pPr()
            p_pr.set("marL", "342900")
            p_pr.set("indent", "-342900")
            namespace = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
            if numbering is None:
                etree.SubElement(p_pr, f"{namespace}buChar", char="•")
            else:
                etree.SubElement(p_pr, f"{namespace}buAutoNum", type=numbering[0], startAt=str(numbering[1]))
    deck.save(str(tmp_path / "steps.pptx"))
    from_pptx = [block_text(block) for block in parse_bytes((tmp_path / "steps.pptx").read_bytes(), "a.pptx").blocks()]
    from_ppt = [block_text(block) for block in parse_bytes(_soffice(tmp_path, "steps.pptx", "ppt"), "a.ppt").blocks()]
    assert from_ppt == from_pptx
    assert from_ppt[1:] == ["1. Close the valve", "Drain the line", "c) Fit the seal", "d) Open the valve"]


def test_damaged_numbering_records_read_as_no_numbering_never_an_error() -> None:
    """The numbering reader's two walkers over random bytes (a damaged `.ppt`): each returns, never raises, and a
    run or an entry never points past the text."""
    from docshelf.parsers.office.ppt_numbering import SCHEMES, _entries, _paragraph_runs

    rng = random.Random(36)
    for _ in range(3000):
        payload = rng.randbytes(rng.randint(0, 80))
        runs = _paragraph_runs(payload, rng.randint(0, 40))
        assert all(0 <= start < end for start, end in runs)
        entries = _entries(payload)
        assert entries is None or all(entry is None or entry[0] in SCHEMES.values() for entry in entries)


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_powerpoint97_speaker_notes_are_the_notes_body_without_the_pages_header_and_footer(tmp_path: Path) -> None:
    """A notes page with a header and a footer: the `.ppt` LibreOffice saves has them as text boxes of the page,
    which ppt2pptx put in the notes; the speaker notes are the PPTX's, the body's two paragraphs."""
    import copy

    import pptx

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Pump maintenance"
    slide.placeholders[1].text = "Seals and bearings"
    notes = slide.notes_slide
    notes.notes_text_frame.text = "Check the pump seals every week.\nReplace worn bearings at once."
    for placeholder in deck.notes_master.shapes:
        if placeholder.name.startswith(("Header", "Footer")):
            placeholder.text = f"Plant handbook {placeholder.name.split()[0].lower()}"
            notes.shapes._spTree.append(copy.deepcopy(placeholder._element))
    deck.save(str(tmp_path / "notes.pptx"))
    expected = ["Speaker notes: Check the pump seals every week.", "Replace worn bearings at once."]

    def speaker_notes(document: Document) -> list[str]:
        texts = [block_text(block) for block in document.blocks()]
        return texts[texts.index(expected[0]) :] if expected[0] in texts else texts

    assert speaker_notes(parse_bytes((tmp_path / "notes.pptx").read_bytes(), "notes.pptx")) == expected
    assert speaker_notes(parse_bytes(_soffice(tmp_path, "notes.pptx", "ppt"), "notes.ppt")) == expected


BOLD = struct.pack("<HB", 0x0835, 1)  # sprmCFBold on


def size(points: float) -> bytes:
    return struct.pack("<HH", 0x4A43, int(points * 2))  # sprmCHps, in half-points


def test_a_word97_file_without_heading_styles_takes_its_headings_from_bold_and_larger_lines() -> None:
    """Headings typed by hand: set bold or larger in the Normal style (its size the style's), as in a DOCX."""
    prose = "The pump is inspected every month; its seals and bearings are replaced when they wear out."
    paragraphs = ["Pump Manual", prose, "Daily checks", prose, "Note: the seals wear faster in salt air.", prose,
                  "第1条（目的）", prose, "第2条（適用範囲）", prose]  # fmt: skip
    data = word97_document(
        paragraphs,
        headings={},
        style_characters={0: size(11)},
        characters={0: BOLD + size(18), 2: BOLD, 4: BOLD},
    )
    document = parse_bytes(data, "manual.doc")
    headings = [(block.text, block.level) for block in document.blocks() if block.kind == "heading"]
    assert headings == [("Pump Manual", 1), ("Daily checks", 2), ("第1条（目的）", 3), ("第2条（適用範囲）", 3)]
    styled = parse_bytes(word97_document(paragraphs, headings={0: 1, 3: 2}, characters={2: BOLD}), "manual.doc")
    styled_headings = [block.text for block in styled.blocks() if block.kind == "heading"]
    assert styled_headings[:2] == ["Pump Manual", prose] and "Daily checks" not in styled_headings  # by styles


def test_a_word97_files_inline_pictures_are_images_after_their_paragraphs() -> None:
    from docshelf.parsers import parse_with_assets
    from tests.support.image_fixtures import logo

    picture, in_cell = logo((120, 60)), logo((90, 45), seed=2)
    paragraphs = ["Before the picture.", "", "After it.", "Part\x07", "\x07", "\x07", "The end."]
    properties = {3: IN_CELL, 4: IN_CELL, 5: _row_end([0, 1000, 2000], [0, 0])}
    data = word97_document(paragraphs, properties=properties, pictures={1: picture, 4: in_cell})
    document, assets = parse_with_assets(data, "pictures.doc")
    blocks = list(document.blocks())
    assert [block.kind for block in blocks] == ["paragraph", "image", "paragraph", "table", "image", "paragraph"]
    images = [block for block in blocks if isinstance(block, Image)]
    assert [(image.width, image.height) for image in images] == [(120, 60), (90, 45)]  # a cell's after its table
    assert {image.asset_ref for image in images} == set(assets)


def test_a_numbered_line_with_its_body_on_it_becomes_two_blocks_and_nothing_after_it_is_lost() -> None:
    """`第1条（目的） この規則は…` is a heading and a paragraph: the pages are regrouped by page, not by count."""
    paragraphs = [
        "第1条（目的） この規則は、従業員の労働条件を定めるものである。",
        "第2条（適用範囲） この規則は、全従業員に適用する。",
        "\x0c",
        "The last paragraph, on the second page.",
    ]
    document = parse_bytes(word97_document(paragraphs), "rules.doc")
    blocks = [(block.kind, block.text, block.page) for block in document.blocks() if block.kind != "table"]
    assert blocks == [
        ("heading", "第1条（目的）", 1),
        ("paragraph", "この規則は、従業員の労働条件を定めるものである。", 1),
        ("heading", "第2条（適用範囲）", 1),
        ("paragraph", "この規則は、全従業員に適用する。", 1),
        ("paragraph", "The last paragraph, on the second page.", 2),
    ]


def test_a_word97_file_with_heading_styles_never_reads_its_character_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    from docshelf.parsers.office.doc_looks import TextLooks

    def refused(*_args: object) -> None:
        raise AssertionError("a styled document's character runs were read")

    monkeypatch.setattr(TextLooks, "read", refused)
    paragraphs = ["Pump Manual", "The pump is inspected every month.", "Daily checks", "Check the seals."]
    document = parse_bytes(word97_document(paragraphs, headings={0: 1, 2: 2}, characters={2: BOLD}), "m.doc")
    assert [block.text for block in document.blocks() if block.kind == "heading"] == ["Pump Manual", "Daily checks"]


FRAME = (
    '<draw:frame draw:style-name="fr1" draw:name="{name}" text:anchor-type="paragraph" svg:width="4cm" '
    'svg:height="2cm">'
)
TEXT_BOX = "<draw:text-box><text:p>Boxed note: torque in Nm.</text:p></draw:text-box></draw:frame>"


def _floating_odt(pictures: dict[str, bytes]) -> bytes:
    """A text document whose pictures float beside the paragraphs they are anchored to, and a text box that floats."""
    import io
    import zipfile

    first, second = (
        FRAME.format(name=name) + f'<draw:image xlink:href="Pictures/{name}" xlink:show="embed"/></draw:frame>'
        for name in pictures
    )
    box = FRAME.format(name="Box") + TEXT_BOX
    prefixes = [
        ("office", "office"),
        ("text", "text"),
        ("draw", "drawing"),
        ("style", "style"),
        ("svg", "svg-compatible"),
    ]
    namespaces = " ".join(f'xmlns:{key}="urn:oasis:names:tc:opendocument:xmlns:{name}:1.0"' for key, name in prefixes)
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {namespaces} '
        'xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.2"><office:automatic-styles>'
        '<style:style style:name="fr1" style:family="graphic"><style:graphic-properties style:wrap="parallel"/>'
        "</style:style></office:automatic-styles><office:body><office:text>"
        "<text:p>The pump and its parts.</text:p>"
        f"<text:p>{first}The pump housing, seen from the left.</text:p>"
        f"<text:p>{box}Tighten the flange bolts crosswise.</text:p>"
        f"<text:p>{second}The seal kit SK-7.</text:p>"
        "<text:p>The end.</text:p></office:text></office:body></office:document-content>"
    )
    entries = [("/", "application/vnd.oasis.opendocument.text"), ("content.xml", "text/xml")]
    entries += [(f"Pictures/{name}", f"image/{name.rsplit('.', 1)[1]}") for name in pictures]
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        + "".join(
            f'<manifest:file-entry manifest:full-path="{path}" manifest:media-type="{kind}"/>' for path, kind in entries
        )
        + "</manifest:manifest>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as package:
        package.writestr("mimetype", "application/vnd.oasis.opendocument.text", compress_type=zipfile.ZIP_STORED)
        package.writestr("content.xml", content)
        package.writestr("META-INF/manifest.xml", manifest)
        for name, data in pictures.items():
            package.writestr(f"Pictures/{name}", data)
    return buffer.getvalue()


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_a_word97_files_floating_pictures_are_images_after_the_paragraphs_they_are_anchored_to(tmp_path: Path) -> None:
    import io

    from PIL import Image as PillowImage

    from docshelf.parsers import parse_with_assets
    from tests.support.image_fixtures import logo

    photo = io.BytesIO()
    PillowImage.open(io.BytesIO(logo((160, 90), seed=3))).convert("RGB").save(photo, "JPEG")
    (tmp_path / "floating.odt").write_bytes(
        _floating_odt({"housing.png": logo((200, 100)), "seal.jpg": photo.getvalue()})
    )
    document, assets = parse_with_assets(_soffice(tmp_path, "floating.odt", "doc"), "floating.doc")
    shown = [(block.kind, getattr(block, "text", ""), getattr(block, "width", None)) for block in document.blocks()]
    assert shown == [
        ("paragraph", "The pump and its parts.", None),
        ("paragraph", "The pump housing, seen from the left.", None),
        ("image", "", 200),
        ("paragraph", "Tighten the flange bolts crosswise.", None),
        ("paragraph", "Boxed note: torque in Nm.", None),  # the text box's text, after its paragraph; no image
        ("paragraph", "The seal kit SK-7.", None),
        ("image", "", 160),
        ("paragraph", "The end.", None),
    ]
    assert {block.asset_ref for block in document.blocks() if isinstance(block, Image)} == set(assets)


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_a_damaged_drawing_loses_its_floating_pictures_only(tmp_path: Path) -> None:
    import random
    import struct

    import olefile

    from docshelf.parsers.office.doc_shapes import FC_DGG_INFO, floating_pictures
    from tests.support.image_fixtures import logo

    (tmp_path / "floating.odt").write_bytes(_floating_odt({"a.png": logo((200, 100)), "b.png": logo((90, 40))}))
    converted = _soffice(tmp_path, "floating.odt", "doc")
    with olefile.OleFileIO(converted) as ole:
        word, table = ole.openstream("WordDocument").read(), ole.openstream("1Table").read()
    fc, lcb = struct.unpack_from("<II", word, FC_DGG_INFO)
    text = "The pump housing\x08 and the seal\x08."
    rng = random.Random(5)
    for _ in range(300):  # the drawing's bytes overwritten here and there, or cut short: never an exception
        damaged = bytearray(table)
        for _ in range(rng.randint(1, 12)):
            damaged[fc + rng.randrange(lcb)] = rng.randrange(256)
        floating_pictures(word, bytes(damaged[: fc + rng.randrange(lcb + 1)]), text)
    blank = bytearray(table)
    blank[fc : fc + lcb] = bytes(lcb)
    rebuilt = compound_file({"WordDocument": word, "1Table": bytes(blank)})
    document = parse_bytes(rebuilt, "floating.doc")
    assert [block.kind for block in document.blocks()].count("image") == 0
    assert "The seal kit SK-7." in [getattr(block, "text", "") for block in document.blocks()]
