"""Evidence text: ranked chunks under citation headers, as many as fit in the token budget."""

from __future__ import annotations

from collections.abc import Sequence

from docshelf.model import Chunk
from docshelf.tokens import count_tokens


def format_pages(pages: Sequence[int]) -> str:
    if not pages:
        return ""
    if len(pages) == 1:
        return f"p. {pages[0]}"
    if list(pages) == list(range(pages[0], pages[-1] + 1)):
        return f"pp. {pages[0]}-{pages[-1]}"
    return "pp. " + ", ".join(str(page) for page in pages)


def citation(chunk: Chunk) -> str:
    parts = [chunk.source_file_name]
    if chunk.section_path:
        parts.append(" > ".join(chunk.section_path))
    if chunk.pages:
        parts.append(format_pages(chunk.pages))
    parts.append(f"{chunk.document_id}#{chunk.chunk_id}")
    return " | ".join(parts)


def render_evidence(chunks: Sequence[Chunk], max_tokens: int) -> tuple[str, int]:
    """(evidence text, number of chunks included). The first chunk is cut to fit rather than dropped."""
    blocks: list[str] = []
    used = 0
    for number, chunk in enumerate(chunks, start=1):
        header = f"[{number}] {citation(chunk)}\n"
        block = header + chunk.text
        cost = _block_tokens(header, chunk) + (2 if blocks else 0)
        if used + cost > max_tokens:
            if not blocks:
                from docshelf.chunking.split import token_windows  # rare: the search path needs no chunker

                cut = next(iter(token_windows(block, max_tokens)), "")
                if cut:
                    blocks.append(cut)
            break
        blocks.append(block)
        used += cost
    return "\n\n".join(blocks), len(blocks)


def _block_tokens(header: str, chunk: Chunk) -> int:
    """Tokens of `header + chunk.text`. The chunker counted the text already; a header ending in a line
    break is its own pre-token, so the counts add up unless the text starts with white space."""
    if chunk.token_count > 0 and chunk.text and not chunk.text[0].isspace():
        return count_tokens(header) + chunk.token_count
    return count_tokens(header + chunk.text)
