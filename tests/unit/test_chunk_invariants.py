from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from docshelf.chunking import ChunkConfig, chunk_document
from docshelf.model import Block, Heading, Paragraph, Source
from docshelf.parsers import assemble
from docshelf.parsers.base import ParsedContent
from docshelf.tables import table_from_rows
from tests.chunk_checks import check_chunks

SOURCE = Source(uri="x", filename="doc.txt", media_type="text/plain", size_bytes=1, sha256="0" * 64)
WORDS = st.sampled_from(
    [
        "valve",
        "seal",
        "TX-100",
        "v2.3.1",
        "pressure.",
        "bar!",
        "why?",
        "阀门",
        "维修。",
        "東京",
        "です。",
        " ",
        "\n",
        "—",
    ]
)
TEXT = st.lists(WORDS, min_size=1, max_size=400).map(lambda words: " ".join(words))


@st.composite
def documents(draw: st.DrawFn) -> ParsedContent:
    blocks: list[Block] = []
    page = 1
    for _ in range(draw(st.integers(1, 25))):
        page += draw(st.sampled_from([0, 0, 0, 1]))
        kind = draw(st.sampled_from(["heading", "paragraph", "paragraph", "paragraph", "table"]))
        if kind == "heading":
            blocks.append(
                Heading(draw(st.sampled_from(["Intro", "1.2 Scope", "第一章 总则"])), draw(st.integers(1, 3)), page)
            )
        elif kind == "paragraph":
            blocks.append(Paragraph(draw(TEXT), page))
        else:
            cols = draw(st.integers(1, 4))
            rows = draw(
                st.lists(st.lists(TEXT.map(lambda t: t[:60]), min_size=cols, max_size=cols), min_size=1, max_size=30)
            )
            blocks.append(table_from_rows(rows, page=page))
    return ParsedContent(blocks=blocks, page_count=page)


@settings(max_examples=60, deadline=None)
@given(
    documents(),
    st.integers(min_value=32, max_value=300),
    st.integers(min_value=0, max_value=60),
    st.booleans(),
)
def test_chunking_invariants_hold_for_any_document(
    content: ParsedContent, chunk_tokens: int, overlap: int, across_pages: bool
) -> None:
    config = ChunkConfig(
        chunk_tokens=chunk_tokens, overlap_tokens=min(overlap, chunk_tokens // 2 - 1), overlap_across_pages=across_pages
    )
    document = assemble(content, SOURCE, parser="test/1")
    chunks = chunk_document(document, document_id="d", namespace="ns", config=config)
    check_chunks(document, chunks, config)
    again = chunk_document(document, document_id="d", namespace="ns", config=config)
    assert [c.chunk_id for c in again] == [c.chunk_id for c in chunks]
