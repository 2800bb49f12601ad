from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from docshelf.chunking import ChunkConfig, chunk_document
from docshelf.chunking import split as split_module
from docshelf.chunking.split import split_sentences, split_text, token_windows
from docshelf.model import Block, Chunk, Document, Heading, Image, Page, Paragraph, Source
from docshelf.parsers import assemble
from docshelf.parsers.base import ParsedContent
from docshelf.tables import table_from_rows
from docshelf.tokens import count_tokens

SOURCE = Source(uri="x", filename="doc.txt", media_type="text/plain", size_bytes=1, sha256="0" * 64)


def make_document(blocks: list[Block], pages: int = 1) -> Document:
    return assemble(ParsedContent(blocks=blocks, page_count=pages), SOURCE, parser="test/1")


def chunks_of(blocks: list[Block], **config: Any) -> list[Chunk]:
    config.setdefault("overlap_tokens", 0)
    return chunk_document(make_document(blocks), document_id="d1", namespace="ns", config=ChunkConfig(**config))


def test_sentences_concatenate_back_exactly() -> None:
    text = "First one. Second!  Third? 第一句。第二句！最后"
    pieces = split_sentences(text)
    assert "".join(pieces) == text
    assert pieces[0] == "First one. "
    assert "第一句。" in pieces


_LOOK_BEHIND_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？．!?])(?=\S)|(?<=[。！？．])\s*")


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from([*"ab .!?。！？．\u3000\n", "  ", "x.y", "e.g. "]), max_size=30).map("".join))
def test_sentence_ends_are_where_the_look_behind_pattern_ends_them(text: str) -> None:
    ends = [match.end() for match in _LOOK_BEHIND_SENTENCE_END.finditer(text)]
    found = [match.end() for match in split_module._SENTENCE_END.finditer(text)]
    assert found == ends


def test_token_windows_respect_the_bound_and_lose_nothing() -> None:
    text = "x" * 5000 + " 阀门维修" * 300
    windows = list(token_windows(text, 50))
    assert "".join(windows) == text
    assert all(count_tokens(w) <= 50 for w in windows)


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=1, max_size=3000), st.integers(min_value=16, max_value=200))
def test_split_text_is_bounded_and_lossless(text: str, limit: int) -> None:
    pieces = split_text(text, limit)
    assert "".join(pieces) == text
    assert all(count_tokens(p) <= limit for p in pieces)


def test_blocks_are_packed_in_order_under_the_bound() -> None:
    blocks: list[Block] = [Heading("Intro", 1, 1)]
    blocks += [Paragraph(f"Paragraph {i} " + "word " * 40, 1) for i in range(30)]
    chunks = chunks_of(blocks, chunk_tokens=120)
    assert len(chunks) > 5
    assert all(c.token_count <= 120 and c.token_count == count_tokens(c.text) for c in chunks)
    joined = "\n\n".join(c.text for c in chunks)
    assert [joined.index(f"Paragraph {i} ") for i in range(30)] == sorted(
        joined.index(f"Paragraph {i} ") for i in range(30)
    )
    assert all(c.section_path == ("Intro",) for c in chunks)
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))


def test_pages_and_sections_come_from_the_blocks_held() -> None:
    blocks: list[Block] = [
        Heading("A", 1, 1),
        Paragraph("alpha " * 100, 1),
        Heading("B", 1, 2),
        Paragraph("beta " * 100, 2),
    ]
    chunks = chunks_of(blocks, chunk_tokens=150)
    assert [(c.section_path, c.pages) for c in chunks] == [(("A",), (1,)), (("B",), (2,))]


def test_table_splits_by_rows_repeating_the_header() -> None:
    rows = [["Part", "Price"]] + [[f"TX-{i}", str(i * 10)] for i in range(200)]
    table = table_from_rows(rows, page=1)
    chunks = chunks_of([Paragraph("Prices follow.", 1), table], chunk_tokens=100)
    tables = [c for c in chunks if c.type == "table"]
    assert len(tables) > 3
    # Every part starts with the sentence that introduces the table, then the header row.
    assert all(c.text.startswith("Prices follow.\n| Part | Price |\n|---|---|") for c in tables)
    assert all(c.token_count <= 100 for c in tables)
    body = [line for c in tables for line in c.text.splitlines()[3:]]
    assert body == [f"| TX-{i} | {i * 10} |" for i in range(200)]
    assert all(link.target == "table" for c in tables for link in c.connect_to)


def test_headings_that_lead_straight_into_a_table_head_its_chunks_instead_of_making_one_alone() -> None:
    prices = [["Part", "Price"], *[[f"TX-{i}", f"{i}.00"] for i in range(40)]]
    crew = [["Name", "Shift"], ["Ada", "early"], ["Lin", "late"]]
    blocks: list[Block] = [
        Heading("Price list", 1, 1),
        table_from_rows(prices, page=1),
        Heading("Crew", 1, 1),  # right after a table: related to it, and still led into the next
        Heading("Shifts", 2, 1),
        table_from_rows(crew, page=1),
    ]
    chunks = chunks_of(blocks, chunk_tokens=100)
    assert [c.type for c in chunks] == ["table"] * len(chunks)  # no chunk of headings alone
    price_parts = [c for c in chunks if c.connect_to[0].ref == "table-1"]
    assert len(price_parts) > 1 and all(c.text.startswith("Price list\n| Part | Price |") for c in price_parts)
    assert all(c.section_path == ("Price list",) for c in price_parts)
    shifts = [c for c in chunks if c.connect_to[0].ref == "table-4"]
    assert [c.text.split("\n")[:3] for c in shifts] == [["Crew", "Shifts", "| Name | Shift |"]]
    assert shifts[0].section_path == ("Crew", "Shifts")


def test_a_one_sentence_introduction_moves_into_the_table_with_its_headings_a_longer_paragraph_stays() -> None:
    rows = [["Bolt", "Torque"], ["M12", "80 Nm"]]
    introduced = chunks_of([Heading("Torque", 1, 1), Paragraph("The limits are:", 1), table_from_rows(rows, page=1)])
    assert [(c.type, c.text.split("\n")[:3]) for c in introduced] == [
        ("table", ["Torque", "The limits are:", "| Bolt | Torque |"])
    ]  # fmt: skip
    paragraph = Paragraph("Bolts rust in salt air. The limits are:", 1)
    longer = chunks_of([Heading("Torque", 1, 1), paragraph, table_from_rows(rows, page=1)])
    assert [(c.type, c.text.split("\n")[0]) for c in longer] == [("text", "Torque"), ("table", "The limits are:")]
    assert longer[0].text == "Torque\n\nBolts rust in salt air. The limits are:"


def test_a_heading_with_a_picture_inline_before_the_table_keeps_its_text_chunk() -> None:
    rows = [["Bolt", "Torque"], ["M12", "80 Nm"]]
    picture = "ab" * 32 + ".png"
    shown = chunks_of([Image(1, asset_ref=picture), Heading("Torque", 1, 1), table_from_rows(rows, page=1)])
    assert (shown[0].type, shown[0].text) == ("text", "Torque")  # the picture stays inline before it
    assert any(link.ref == picture and link.relation == "embeds" for link in shown[0].connect_to)


def test_images_with_text_become_image_chunks() -> None:
    chunks = chunks_of([Paragraph("Text.", 1), Image(1, alt_text="Wiring diagram of the TX-100", asset_ref="img1")])
    assert [c.type for c in chunks] == ["text", "image"]
    assert chunks[1].text == "Wiring diagram of the TX-100\n\nText."  # with the text before it
    assert chunks[1].connect_to[0].ref == "img1"


def test_chunk_ids_are_stable_and_unique() -> None:
    blocks: list[Block] = [Paragraph("same text " * 60, 1), Paragraph("same text " * 60, 1)]
    first = chunks_of(blocks, chunk_tokens=130)
    second = chunks_of(blocks, chunk_tokens=130)
    assert [c.chunk_id for c in first] == [c.chunk_id for c in second]
    assert len({c.chunk_id for c in first}) == len(first) == 2


def test_whole_document_tokens_keeps_a_small_document_whole() -> None:
    blocks: list[Block] = [Heading("A", 1, 1), Paragraph("short " * 50, 1), Paragraph("more " * 50, 1)]
    assert len(chunks_of(blocks, chunk_tokens=40, whole_document_tokens=1000)) == 1
    assert len(chunks_of(blocks, chunk_tokens=40, whole_document_tokens=0)) > 1


def test_document_pages_are_assembled_in_order() -> None:
    document = make_document([Paragraph("one", 1), Paragraph("three", 3)], pages=3)
    assert [p.number for p in document.pages] == [1, 2, 3]
    assert [b.order for b in document.blocks()] == [0, 1]
    assert document.pages[1] == Page(2)


def test_an_oversized_row_is_cut_between_cells_not_inside_them() -> None:
    wide = [["Field", "Value", "Notes"], ["alpha " * 30, "beta " * 30, "gamma " * 30]]
    chunks = chunks_of([table_from_rows(wide, page=1)], chunk_tokens=60)
    assert all(c.token_count <= 60 for c in chunks)
    bodies = [c.text.split("\n", 2)[2] for c in chunks]
    assert bodies == [f"| {word.strip()} |" for word in ("alpha " * 30, "beta " * 30, "gamma " * 30)]


def test_a_heading_leads_its_over_long_paragraph_instead_of_making_a_chunk_of_its_own() -> None:
    long_paragraph = " ".join(f"Sentence {i} about the valve seal and its service interval." for i in range(60))
    for overlap in (0, 10):
        chunks = chunks_of([Heading("Seal service", 1, 1), Paragraph(long_paragraph, 1)], chunk_tokens=120,
                           overlap_tokens=overlap)  # fmt: skip
        assert chunks[0].text.startswith("Seal service\n\nSentence 0 about")
        assert all(c.token_count <= 120 for c in chunks)
        assert "Sentence 59" in chunks[-1].text


def test_a_heading_that_no_longer_fits_moves_to_the_chunk_of_its_section() -> None:
    blocks: list[Block] = [
        Heading("Intro", 1, 1),
        Paragraph("word " * 60, 1),
        Heading("Maintenance", 1, 1),
        Paragraph("Replace the stem seal every six months. " * 8, 1),
    ]
    chunks = chunks_of(blocks, chunk_tokens=120, section_break_fill=0.9)
    assert [c.text.split("\n\n")[0] for c in chunks] == ["Intro", "Maintenance"]
    assert not any(c.text.rstrip().endswith("Maintenance") for c in chunks)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.booleans(), st.integers(min_value=1, max_value=116)),
        min_size=1,
        max_size=12,
    )
)
def test_every_block_lands_in_a_chunk_and_a_heading_leads_its_content(shape: list[tuple[bool, int]]) -> None:
    blocks: list[Heading | Paragraph] = [
        Heading(f"Heading {i}", 1, 1) if is_heading else Paragraph(f"Block {i} " + "word " * words, 1)
        for i, (is_heading, words) in enumerate(shape)
    ]
    chunks = chunks_of(list(blocks), chunk_tokens=120)
    texts = [c.text for c in chunks]
    for block in blocks:
        assert any(block.text in text for text in texts), block.text
    assert all(c.token_count <= 120 for c in chunks)
    for text in texts:
        if text.startswith("Heading") and "\n\n" not in text:  # alone only when its content cannot join it
            index = int(text.split()[1])
            following = blocks[index + 1] if index + 1 < len(blocks) else None
            assert following is None or following.kind == "heading" or count_tokens(f"{text}\n\n{following.text}") > 120
