"""What the chunker builds before a chunk exists: pieces of text, the drafts they pack into, and the links a
draft's pieces carry to the image and table assets around them."""

from __future__ import annotations

from dataclasses import dataclass, field

from docshelf.model import ChunkType, Link

SEPARATOR = "\n\n"


@dataclass(frozen=True, slots=True)
class Anchor:
    """An asset a piece of text sits next to: `embeds` (the asset is inline there) or `related`."""

    target: str
    relation: str
    ref: str


@dataclass(slots=True)
class Piece:
    """A unit of chunk text with the citation data of the block it came from."""

    text: str
    section_path: tuple[str, ...]
    page: int
    tokens: int
    joiner: str = SEPARATOR  # what separates it from the piece before it in the source
    heading: bool = False
    counted: bool = True  # `tokens` is the exact count of `text` (a block's count may be of a longer text)
    before: list[Anchor] = field(default_factory=list)  # assets right before the piece's text
    after: list[Anchor] = field(default_factory=list)  # assets right after it


@dataclass(slots=True)
class Draft:
    type: ChunkType
    pieces: list[Piece] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    tokens: int = -1  # exact count of `text`, once known
    overlap_chars: int = 0  # leading characters repeated from the previous chunk

    @property
    def text(self) -> str:
        if not self.pieces:
            return ""
        return self.pieces[0].text + "".join(piece.joiner + piece.text for piece in self.pieces[1:])

    def anchored_links(self) -> list[Link]:
        """The links of the assets anchored to the draft's pieces, at their character position in `text`: each
        asset once, at its first position, `embeds` over `related`."""
        found: dict[tuple[str, str], Link] = {}
        offset = 0
        for number, piece in enumerate(self.pieces):
            if number:
                offset += len(piece.joiner)
            for anchors, position in ((piece.before, offset), (piece.after, offset + len(piece.text))):
                for anchor in anchors:
                    key = (anchor.target, anchor.ref)
                    known = found.get(key)
                    if known is None or (known.relation == "related" and anchor.relation == "embeds"):
                        found[key] = Link(anchor.target, anchor.relation, anchor.ref, position)
            offset += len(piece.text)
        return sorted(found.values(), key=lambda link: (link.position, link.target, link.ref))
