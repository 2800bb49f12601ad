"""Evidence text: ranked chunks under citation headers, as many as fit in the token budget."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from docshelf.citations import citation, citation_line
from docshelf.model import Chunk
from docshelf.tokens import count_tokens

# cl100k_base tokens of an evidence header's `[n]` for 1 <= n <= 999: `[`, the number and `]` are pre-tokens of
# their own, each one token (a test checks every n against the encoder).
RANK_TOKENS = 3


def render_evidence(
    chunks: Sequence[Chunk], max_tokens: int, assets: Mapping[str, str] | None = None
) -> tuple[str, int]:
    """(evidence text, number of chunks included). The first chunk is cut to fit rather than dropped. An image
    chunk with a link in `assets` (by chunk id) ends with a line `[image: <link>]`."""
    text, included, _ = render_counted_evidence(chunks, max_tokens, assets)
    return text, included


def render_counted_evidence(
    chunks: Sequence[Chunk], max_tokens: int, assets: Mapping[str, str] | None = None
) -> tuple[str, int, int]:
    """`render_evidence` and the tokens the budget counted: the text's own count or a few more, where a block
    joined to the next merges tokens across the join."""
    blocks: list[str] = []
    used = 0
    for number, chunk in enumerate(chunks, start=1):
        block, cost = evidence_block(number, chunk, (assets or {}).get(chunk.chunk_id))
        cost += 2 if blocks else 0
        if used + cost > max_tokens:
            if not blocks:
                from docshelf.chunking.split import token_windows  # rare: the search path needs no chunker

                cut = next(iter(token_windows(block, max_tokens)), "")
                if cut:
                    blocks.append(cut)
                    used = count_tokens(cut)
            break
        blocks.append(block)
        used += cost
    return "\n\n".join(blocks), len(blocks), used


def evidence_block(number: int, chunk: Chunk, asset: str | None = None) -> tuple[str, int]:
    """(block, tokens) of one chunk in evidence: its `[number]` citation header, its text and, for an image chunk
    with a link, the image line; the two-token separator between blocks is not counted here."""
    header = f"[{number}]{citation_line(citation(chunk))}"
    block = header + chunk.text
    cost = _block_tokens(number, header, chunk)
    if asset is not None:
        block += image_line(asset)
        cost += count_tokens(image_line(asset)) + 1  # the line break may merge with the text's last token
    return block, cost


def image_line(link: str) -> str:
    return f"\n[image: {link}]"


def _block_tokens(number: int, header: str, chunk: Chunk) -> int:
    """Tokens of `header + chunk.text`, without the tokenizer when the chunker counted the text and the citation
    line: `]` ends a pre-token, and so does the header's final line break, unless the text starts with white
    space. So a search that renders evidence need not load the encoder (about 200 ms in a new process)."""
    if chunk.token_count > 0 and chunk.text and not chunk.text[0].isspace():
        if chunk.citation_tokens > 0 and 1 <= number <= 999:
            return RANK_TOKENS + chunk.citation_tokens + chunk.token_count
        return count_tokens(header) + chunk.token_count
    return count_tokens(header + chunk.text)
