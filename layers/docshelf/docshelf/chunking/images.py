"""Image chunks: one per distinct image worth indexing, holding its caption, alt text, the text read from it
(`Image.ocr_text`, read at the parse stage: ocr/images.py) and the text around it.

An image is worth a chunk of its own when it says something itself: a caption, an alt text, or text read from
its pixels. An image with none of these keeps its asset and the `embeds`/`related` links of the text chunks
around it, but gets no chunk: a chunk made of nearby text alone would repeat what the text chunks already index
and spend the evidence budget twice on it. A stored image repeated in a document (a logo on every page) is
indexed once, at its first occurrence.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from docshelf.chunking.drafts import SEPARATOR, Draft, Piece
from docshelf.chunking.split import token_windows
from docshelf.model import Block, Heading, Image, Link, Paragraph
from docshelf.tokens import count_tokens, decode, encode

# How much of the paragraph before and after an image its chunk holds, in tokens each.
NEARBY_TOKENS = 60


def image_chunk_text(image: Image, read_text: str, before: str, after: str) -> str:
    """Caption, alt text (unless the caption says it), text read from the image, then the nearby text; "" when
    the image says nothing itself."""
    own = [image.caption.strip(), image.alt_text.strip() if image.alt_text.strip() != image.caption.strip() else ""]
    own.append(read_text.strip())
    own = [part for part in own if part]
    if not own:
        return ""
    return SEPARATOR.join([*own, *(part for part in (before, after) if part)])


def nearby_text(blocks: Sequence[Block], index: int) -> tuple[str, str]:
    """The end of the text block before `blocks[index]` and the start of the one after, `NEARBY_TOKENS` each;
    other images between are passed over, a table stops the search."""
    return _neighbour(blocks, range(index - 1, -1, -1), tail=True), _neighbour(blocks, range(index + 1, len(blocks)))


def _neighbour(blocks: Sequence[Block], indexes: range, *, tail: bool = False) -> str:
    for number in indexes:
        block = blocks[number]
        if isinstance(block, Image):
            continue
        if not isinstance(block, Paragraph | Heading):
            return ""
        text = " ".join(block.text.split())
        if not text:
            continue
        tokens = encode(text)
        if len(tokens) <= NEARBY_TOKENS:
            return text
        return decode(tokens[-NEARBY_TOKENS:] if tail else tokens[:NEARBY_TOKENS]).strip()
    return ""


def image_drafts(image: Image, text: str, path: tuple[str, ...], chunk_tokens: int) -> Iterator[Draft]:
    ref = image.asset_ref or f"image-{image.order}"
    for part, window in enumerate(token_windows(text, chunk_tokens)):
        link = Link(target="image", relation="describes", ref=ref, position=part)
        tokens = count_tokens(window)
        yield Draft("image", [Piece(window, path, image.page, tokens)], [link], tokens)
