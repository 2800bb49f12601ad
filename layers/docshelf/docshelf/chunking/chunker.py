"""Pack a typed document's blocks into token-bounded text, table and image chunks."""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from dataclasses import replace

from docshelf.chunking.drafts import SEPARATOR, Anchor, Draft, Piece
from docshelf.chunking.images import image_chunk_text, image_drafts, nearby_text
from docshelf.chunking.joined_tokens import joined_count
from docshelf.chunking.split import split_sentences, split_text
from docshelf.chunking.tables import table_pieces, with_introduction
from docshelf.citations import citation_line, citation_of
from docshelf.config import ChunkConfig
from docshelf.ids import chunk_ids
from docshelf.model import Block, Chunk, Document, Heading, Image, Link, Paragraph, Table, is_asset_ref
from docshelf.structure import section_paths
from docshelf.tables import block_text
from docshelf.tokens import count_tokens

__all__ = ["SEPARATOR", "chunk_document", "overlap_tail"]


def chunk_document(
    document: Document,
    *,
    document_id: str,
    namespace: str,
    config: ChunkConfig | None = None,
    revision: str = "",
    source_key: str = "",
) -> list[Chunk]:
    """The document's chunks; `source_key` is the document's path in its namespace (default its file name)."""
    source_key = source_key or document.source.filename
    config = config or ChunkConfig()
    images = _ImageReader()
    drafts = [_with_text(draft) for draft in _drafts(document, config, images)]
    texts = [text for _, text in drafts]
    ids = chunk_ids(document_id, texts)
    chunks = []
    for ordinal, ((draft, text), chunk_id) in enumerate(zip(drafts, ids, strict=True)):
        section_path = _common_prefix(_cited_paths(draft.pieces))
        pages = tuple(sorted({piece.page for piece in draft.pieces}))
        chunk_citation = citation_of(source_key, section_path, pages, document_id, chunk_id)
        chunks.append(
            Chunk(
                chunk_id=chunk_id,
                document_id=document_id,
                namespace=namespace,
                type=draft.type,
                text=text,
                section_path=section_path,
                pages=pages,
                token_count=draft.tokens if draft.tokens >= 0 else count_tokens(text),
                ordinal=ordinal,
                source_file_name=document.source.filename,
                source_key=source_key,
                revision=revision or document.source.sha256,
                connect_to=tuple(draft.links),
                overlap_chars=draft.overlap_chars,
                citation_tokens=count_tokens(citation_line(chunk_citation)),
            )
        )
    return chunks


def _with_text(draft: Draft) -> tuple[Draft, str]:
    """The draft with its text and links, which its pieces then no longer hold: otherwise the pieces of a long
    paragraph's chunks would be as large as the chunks' texts (50 MB each for a 50 MB line)."""
    text = draft.text
    draft.links.extend(draft.anchored_links())
    for piece in draft.pieces:
        piece.text = ""
    return draft, text


class _ImageReader:
    """Image chunks, each distinct stored image once, with the text read from it."""

    def __init__(self) -> None:
        self.indexed: set[str] = set()

    def drafts(
        self, image: Image, blocks: list[Block], index: int, path: tuple[str, ...], config: ChunkConfig
    ) -> Iterator[Draft]:
        if is_asset_ref(image.asset_ref):
            if image.asset_ref in self.indexed:
                return
            self.indexed.add(image.asset_ref)
        text = image_chunk_text(image, image.ocr_text, *nearby_text(blocks, index))
        if text:
            yield from image_drafts(image, text, path, config.chunk_tokens)


def _drafts(document: Document, config: ChunkConfig, images: _ImageReader) -> Iterator[Draft]:
    blocks = document.blocks()
    total = sum(block.tokens for block in blocks) + len(blocks)
    if config.whole_document_tokens and total <= config.whole_document_tokens:
        yield from _whole_document(blocks)
        for index, (block, path) in enumerate(section_paths(blocks)):
            if isinstance(block, Image) and is_asset_ref(block.asset_ref):
                yield from images.drafts(block, blocks, index, path, config)
        return
    packer = _TextPacker(config)
    waiting: list[Draft] = []  # image chunks follow the text chunk their image sits in
    for index, (block, path) in enumerate(section_paths(blocks)):
        if isinstance(block, Table):
            table = with_introduction(block, blocks, index)
            headings = packer.take_lead(table.caption)
            yield from _then(packer.flush_all(Anchor("table", "related", f"table-{block.order}")), waiting)
            yield from waiting
            waiting.clear()
            yield from _table_drafts(_headed(table, headings), path, config)
        elif isinstance(block, Image):
            if is_asset_ref(block.asset_ref):
                packer.add_image(Anchor("image", "embeds", block.asset_ref))
            waiting.extend(images.drafts(block, blocks, index, path, config))
        elif block.text.strip():
            yield from _then(packer.add(block, path), waiting)
    yield from packer.flush_all()
    yield from waiting


def _then(text_drafts: Iterator[Draft], waiting: list[Draft]) -> Iterator[Draft]:
    """The text drafts, each followed by the image drafts waiting for it."""
    for draft in text_drafts:
        yield draft
        yield from waiting
        waiting.clear()


def _whole_document(blocks: list[Block]) -> Iterator[Draft]:
    """A document at or under `whole_document_tokens` stays one text chunk (tables inline as Markdown), which
    embeds its tables and stored images."""
    pieces: list[Piece] = []
    for block, path in section_paths(blocks):
        text = block_text(block)
        anchor = _inline_anchor(block)
        if text.strip():
            pieces.append(Piece(text, path, block.page, block.tokens, before=[anchor] if anchor else []))
        elif anchor is not None and pieces:
            pieces[-1].after.append(anchor)
    yield Draft("text", pieces)


def _inline_anchor(block: Block) -> Anchor | None:
    if isinstance(block, Table):
        return Anchor("table", "embeds", f"table-{block.order}")
    if isinstance(block, Image) and is_asset_ref(block.asset_ref):
        return Anchor("image", "embeds", block.asset_ref)
    return None


class _TextPacker:
    """Greedy packing of whole blocks in source order, exact on the joined text's token count."""

    def __init__(self, config: ChunkConfig) -> None:
        self.config = config
        self.current = Draft("text")
        self.used = 0
        self.tail: Piece | None = None  # overlap candidate: the end of the chunk just closed by size
        self.images: list[Anchor] = []  # images met since the last piece: inline before the next one
        self.related: list[Anchor] = []  # assets just before the next piece, in the chunk before it

    def add_image(self, anchor: Anchor) -> None:
        self.images.append(anchor)

    def add(self, block: Heading | Paragraph, path: tuple[str, ...]) -> Iterator[Draft]:
        limit = self.config.chunk_tokens
        if block.kind == "heading" and (
            self.used >= limit * self.config.section_break_fill or self._would_lose_its_section(path)
        ):
            self._close_images()
            yield from self.flush()
        text = block.text.strip("\n")
        if block.tokens > limit:
            yield from self._split_paragraph(text, path, block.page)
            return
        counted = len(text) == len(block.text)
        yield from self._append(
            Piece(text, path, block.page, block.tokens, heading=block.kind == "heading", counted=counted)
        )

    def take_lead(self, caption: str) -> list[str]:
        """Take out of the draft what it ends with that leads straight into the table after it, to head the table's
        chunks rather than make a chunk alone or repeat it (a sheet's or a slide's title, a section that opens with
        its table, a one-sentence paragraph that is the table's `caption`, as `with_introduction` made it); return
        the texts of the headings taken. Nothing is taken when an image comes between them and the table, when one
        of them holds an asset inline, or when together they would take more than a quarter of a chunk."""
        pieces = self.current.pieces
        overlap = self.current.overlap_chars > 0
        keep = len(pieces)
        last = pieces[-1] if pieces else None
        if caption and last and not last.heading and " ".join(last.text.split()) == caption and _only_related(last):
            keep -= 1
        while keep > overlap and pieces[keep - 1].heading and _only_related(pieces[keep - 1]):
            keep -= 1
        lead = pieces[keep:] if keep >= overlap else []
        carried = sum(piece.tokens + 1 for piece in lead)
        if not lead or self.images or carried > self.config.chunk_tokens // 4:
            return []
        del pieces[keep:]
        self.used -= carried
        if overlap and len(pieces) == 1:  # only the previous chunk's end would be left
            self.current, self.used = Draft("text"), 0
        return [piece.text for piece in lead if piece.heading]

    def _would_lose_its_section(self, path: tuple[str, ...]) -> bool:
        """Whether the draft has text under a section that shares no title with `path` (a chunk over two chapters
        would have no section path to cite)."""
        pieces = self.current.pieces
        current = _common_prefix([piece.section_path for piece in pieces])
        return bool(current and path and current[0] != path[0] and not all(piece.heading for piece in pieces))

    def _split_paragraph(self, text: str, path: tuple[str, ...], page: int) -> Iterator[Draft]:
        """An over-long paragraph in parts of a chunk each, the first with the headings that lead into it."""
        carried = yield from self._flush_keeping_headings()
        budget = (
            self.config.chunk_tokens - self.config.overlap_tokens - 1
            if self.config.overlap_tokens
            else self.config.chunk_tokens
        )
        parts = split_text(text, budget - carried)
        parts.reverse()
        number = -1
        while parts:  # popped, so that a part is released once its chunk's text is made
            part, number = parts.pop(), number + 1
            if part.strip():
                joiner = SEPARATOR if number == 0 else ""
                yield from self._append(Piece(part, path, page, count_tokens(part), joiner))
                yield from self.flush(by_size=True)

    def _flush_keeping_headings(self, *, by_size: bool = False, next_tokens: int = 0) -> Generator[Draft, None, int]:
        """Flush the draft but for the headings it ends with, which lead into what comes next (`next_tokens`
        long): they start the next draft, and their tokens are returned (0 when none are kept). Headings over a
        quarter of the chunk size, or that would not fit with what comes next, are flushed with the rest."""
        pieces = self.current.pieces
        keep = len(pieces)
        while keep > 0 and pieces[keep - 1].heading and keep - 1 >= (self.current.overlap_chars > 0):
            keep -= 1
        headings = pieces[keep:]
        carried = sum(h.tokens + 1 for h in headings)
        if not headings or carried > self.config.chunk_tokens // 4 or carried + next_tokens > self.config.chunk_tokens:
            yield from self.flush(by_size=by_size)
            return 0
        del pieces[keep:]
        self.used -= carried
        yield from self.flush(by_size=by_size and bool(pieces))
        for heading in headings:
            yield from self._append(heading)
        return carried

    def _append(self, piece: Piece) -> Iterator[Draft]:
        if self.current.pieces and self.used + piece.tokens + 1 > self.config.chunk_tokens:
            if self.images and self.current.pieces[-1].heading:  # it moves to the next chunk with its images
                self.current.pieces[-1].after.extend(self.images)
                self.images = []
            self._close_images()
            yield from self._flush_keeping_headings(by_size=True, next_tokens=piece.tokens)
        piece.before.extend(self.related + self.images)
        self.related, self.images = [], []
        if not self.current.pieces:
            self._start_with_overlap(piece)
        self.used += piece.tokens + (1 if self.current.pieces else 0)
        self.current.pieces.append(piece)

    def _start_with_overlap(self, piece: Piece) -> None:
        tail, self.tail = self.tail, None
        if tail is None or tail.section_path != piece.section_path:
            return
        if tail.page != piece.page and not self.config.overlap_across_pages:
            return
        if tail.tokens + 1 + piece.tokens > self.config.chunk_tokens:
            return
        self.current.pieces.append(tail)
        self.current.overlap_chars = len(tail.text) + len(piece.joiner)
        self.used = tail.tokens

    def _close_images(self) -> None:
        """The images met since the last piece are inline at the end of the current draft, and related to the
        piece that will start the next one."""
        if self.current.pieces and self.images:
            self.current.pieces[-1].after.extend(self.images)
            self.related.extend(Anchor(a.target, "related", a.ref) for a in self.images)
            self.images = []

    def flush_all(self, next_asset: Anchor | None = None) -> Iterator[Draft]:
        """Flush until nothing is left: a flush carries pieces its chunk could not hold into the next draft.
        `next_asset` (a table) follows: the last piece is related to it, and so is the next piece."""
        self._close_images()
        if next_asset is not None:
            if self.current.pieces:
                self.current.pieces[-1].after.append(next_asset)
            self.related.append(next_asset)
        while self.current.pieces:
            yield from self.flush()

    def flush(self, *, by_size: bool = False) -> Iterator[Draft]:
        draft, self.current, self.used = self.current, Draft("text"), 0
        self.tail = None
        if not draft.pieces:
            return
        draft.tokens = _draft_tokens(draft)
        overflow: list[Piece] = []
        while len(draft.pieces) > 1 + (draft.overlap_chars > 0) and draft.tokens > self.config.chunk_tokens:
            # Summed counts undercounted the joined text: carry trailing pieces into the next chunk.
            overflow.insert(0, draft.pieces.pop())
            draft.tokens = _draft_tokens(draft)
        if draft.overlap_chars and draft.tokens > self.config.chunk_tokens:
            del draft.pieces[0]
            draft.overlap_chars = 0
            draft.tokens = _draft_tokens(draft)
        # The tail is taken before the draft goes: chunk_document empties its pieces' texts once it has its text.
        tail = (
            overlap_tail(draft.pieces[-1], self.config.overlap_tokens)
            if by_size and self.config.overlap_tokens
            else None
        )
        yield draft
        self.tail = tail
        for piece in overflow:
            yield from self._append(piece)


def _draft_tokens(draft: Draft) -> int:
    """The exact token count of the draft's text: from its pieces' counts where the joins allow, else encoded."""
    pieces = draft.pieces
    if all(piece.counted for piece in pieces):
        joined = joined_count([p.text for p in pieces], [p.tokens for p in pieces], [p.joiner for p in pieces])
        if joined is not None:
            return joined
    return count_tokens(draft.text)


def overlap_tail(piece: Piece, max_tokens: int) -> Piece | None:
    """The trailing whole sentences of `piece` within `max_tokens` (else trailing words), or None."""
    sentences = split_sentences(piece.text)
    tail = ""
    for sentence in reversed(sentences):
        if not _within(sentence + tail, max_tokens):
            break
        tail = sentence + tail
    if not tail.strip():
        words = re.split(r"(?<=\s)(?=\S)", piece.text)
        for word in reversed(words):
            if not _within(word + tail, max_tokens):
                break
            tail = word + tail
    if not tail.strip():
        return None
    return Piece(tail, piece.section_path, piece.page, count_tokens(tail))


def _within(text: str, max_tokens: int) -> bool:
    """count_tokens(text) <= max_tokens; a text of no more UTF-8 bytes than that is, without encoding it (every
    token is at least one byte)."""
    return len(text.encode("utf-8")) <= max_tokens or count_tokens(text) <= max_tokens


def _only_related(piece: Piece) -> bool:
    """Whether the piece's assets are only related to it (none is inline beside it)."""
    return all(anchor.relation == "related" for anchor in (*piece.before, *piece.after))


def _headed(table: Table, headings: list[str]) -> Table:
    """The table with the headings that lead into it as the first lines of its caption."""
    if not headings:
        return table
    return replace(table, caption="\n".join([*headings, table.caption] if table.caption else headings))


def _table_drafts(table: Table, path: tuple[str, ...], config: ChunkConfig) -> Iterator[Draft]:
    for part, text in enumerate(table_pieces(table, config.chunk_tokens)):
        link = Link(target="table", relation="part_of", ref=f"table-{table.order}", position=part)
        tokens = count_tokens(text)
        yield Draft("table", [Piece(text, path, table.page, tokens)], [link], tokens)


def _cited_paths(pieces: list[Piece]) -> list[tuple[str, ...]]:
    """The section paths a chunk's text is under; a heading with nothing of its own in the chunk (a title followed by
    the first chapter) is left out, unless the chunk is headings only."""
    paths = [
        piece.section_path
        for piece, following in zip(pieces, [*pieces[1:], None], strict=True)
        if not piece.heading
        or (following is not None and following.section_path[: len(piece.section_path)] == piece.section_path)
    ]
    return paths or [piece.section_path for piece in pieces]


def _common_prefix(paths: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The titles every path starts with; text before the first heading (a title page, a preamble) is in no section
    and leaves the others' alone."""
    paths = [path for path in paths if path]
    if not paths:
        return ()
    prefix = paths[0]
    for path in paths[1:]:
        size = 0
        while size < min(len(prefix), len(path)) and prefix[size] == path[size]:
            size += 1
        prefix = prefix[:size]
    return prefix
