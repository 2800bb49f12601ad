"""Image chunks and the links (`connect_to`) between text chunks and the image and table assets around them."""

from __future__ import annotations

from docshelf.chunking import ChunkConfig, chunk_document
from docshelf.model import Block, Chunk, Heading, Image, Link, Paragraph, Source
from docshelf.parsers import assemble
from docshelf.parsers.base import ParsedContent
from docshelf.tables import table_from_rows

SOURCE = Source(uri="x", filename="manual.docx", media_type="x", size_bytes=1, sha256="0" * 64)
PHOTO = "a" * 64 + ".jpg"
LOGO = "b" * 64 + ".png"
BEFORE = "Before the photo: the pump housing is cast iron."
AFTER = "After the photo: tighten the four bolts evenly."
CLOSING = "Closing words about maintenance intervals."


def _chunks(blocks: list[Block], **kwargs: object) -> list[Chunk]:
    document = assemble(ParsedContent(blocks=blocks, page_count=3), SOURCE, parser="test/1")
    config = ChunkConfig(overlap_tokens=0, **kwargs)  # type: ignore[arg-type]
    return chunk_document(document, document_id="d1", namespace="ns", config=config)


def _document_blocks() -> list[Block]:
    table = table_from_rows([["Part", "Torque"], ["Bolt", "40 Nm"]], page=1, header_rows=1)
    return [
        Heading("Pump", 1, 1),
        Paragraph(BEFORE, 1),
        Image(1, alt_text="Pump photo", asset_ref=PHOTO),
        Paragraph(AFTER, 1),
        table,
        Paragraph(CLOSING, 1),
    ]


def test_text_chunks_embed_their_images_and_relate_to_neighbouring_tables() -> None:
    chunks = _chunks(_document_blocks())
    assert [c.type for c in chunks] == ["text", "image", "table", "text"]
    text, image, table, closing = chunks
    assert text.text == f"Pump\n\n{BEFORE}\n\n{AFTER}"
    assert text.connect_to == (
        Link("image", "embeds", PHOTO, len(f"Pump\n\n{BEFORE}\n\n")),
        Link("table", "related", "table-4", len(text.text)),
    )
    assert image.text == f"Pump photo\n\n{BEFORE}\n\n{AFTER}"
    assert image.connect_to == (Link("image", "describes", PHOTO, 0),)
    assert table.connect_to == (Link("table", "part_of", "table-4", 0),)
    assert closing.connect_to == (Link("table", "related", "table-4", 0),)


def test_an_image_where_a_chunk_ends_is_embedded_there_and_related_to_the_next() -> None:
    blocks: list[Block] = [Paragraph("alpha " * 40, 1), Image(1, alt_text="Photo", asset_ref=PHOTO)]
    blocks.append(Paragraph("omega " * 40, 1))
    first, *images, second = _chunks(blocks, chunk_tokens=60)
    assert first.connect_to == (Link("image", "embeds", PHOTO, len(first.text)),)
    assert [image.type for image in images] == ["image", "image"]  # caption and nearby text over 60 tokens
    assert [image.connect_to[0].position for image in images] == [0, 1]
    assert second.connect_to == (Link("image", "related", PHOTO, 0),)


def test_a_repeated_logo_is_one_image_chunk_and_an_image_saying_nothing_gets_none() -> None:
    blocks: list[Block] = []
    for page in (1, 2, 3):
        blocks += [Image(page, alt_text="ACME logo", asset_ref=LOGO), Paragraph(f"Page {page} text.", page)]
    blocks.append(Image(3, asset_ref=PHOTO))  # no caption, alt text or text read from it
    chunks = _chunks(blocks)
    assert [c.type for c in chunks] == ["text", "image"]
    assert chunks[1].text == "ACME logo\n\nPage 1 text."
    assert chunks[0].connect_to == (
        Link("image", "embeds", LOGO, 0),
        Link("image", "embeds", PHOTO, len(chunks[0].text)),
    )  # the logo once, at its first place


def test_text_read_from_the_image_is_indexed() -> None:
    blocks: list[Block] = [Paragraph("Intro.", 1), Image(1, asset_ref=PHOTO, ocr_text="MAX PRESSURE 6 BAR")]
    document = assemble(ParsedContent(blocks=blocks, page_count=1), SOURCE, parser="t/1")
    chunks = chunk_document(document, document_id="d1", namespace="ns")
    assert [(c.type, c.text) for c in chunks] == [("text", "Intro."), ("image", "MAX PRESSURE 6 BAR\n\nIntro.")]


def test_a_whole_document_chunk_embeds_its_tables_and_images() -> None:
    chunks = _chunks(_document_blocks(), whole_document_tokens=1000)
    assert [c.type for c in chunks] == ["text", "image"]
    whole = chunks[0].text
    assert chunks[0].connect_to == (
        Link("image", "embeds", PHOTO, whole.index("Pump photo")),
        Link("table", "embeds", "table-4", whole.index("| Part")),
    )


def test_an_image_under_a_heading_that_starts_the_next_chunk_sits_after_the_heading() -> None:
    blocks: list[Block] = [Paragraph("alpha " * 30, 1), Heading("Section two", 1, 1)]
    blocks += [Image(1, alt_text="Photo", asset_ref=PHOTO), Paragraph("omega " * 30, 1)]
    chunks = _chunks(blocks, chunk_tokens=50, section_break_fill=0.99)
    assert [(c.type, c.connect_to) for c in chunks if c.type == "text"] == [
        ("text", ()),
        ("text", (Link("image", "embeds", PHOTO, len("Section two")),)),
    ]
