from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.errors import InvalidNameError, InvalidQueryError
from docshelf.index.embedded import EmbeddedIndex
from docshelf.model import Chunk
from docshelf.search.evidence import format_pages, render_evidence
from docshelf.search.filters import SearchFilters
from docshelf.search.rrf import fuse_rrf
from docshelf.search.service import SearchRequest, search
from docshelf.store import LocalStore
from docshelf.tokens import count_tokens


def chunk(i: int, text: str, *, name: str = "manual.pdf", pages: tuple[int, ...] = (1,)) -> Chunk:
    return Chunk(
        chunk_id=f"c{i}", document_id="d1", namespace="ns", type="text", text=text, section_path=("Maintenance",),
        pages=pages, token_count=count_tokens(text), ordinal=i, source_file_name=name,
    )  # fmt: skip


def test_rrf_uses_weights_and_zero_based_ranks() -> None:
    fused = fuse_rrf({"content": ["a", "b"], "path": ["b"], "term": []})
    scores = {item: score for item, score, _ in fused}
    assert scores["a"] == pytest.approx(2.0 / 61)
    assert scores["b"] == pytest.approx(2.0 / 62 + 1.0 / 61)
    assert [item for item, _, _ in fused] == ["b", "a"]
    assert fused[0][2] == {"content": 1, "path": 0}


def test_evidence_fits_the_budget_with_citations() -> None:
    chunks = [chunk(i, f"Seal replacement step {i}. " * 20, pages=(i, i + 1)) for i in range(1, 6)]
    text, used = render_evidence(chunks, max_tokens=300)
    assert 1 <= used < 5
    assert count_tokens(text) <= 300
    assert text.startswith("[1] manual.pdf | Maintenance | pp. 1-2 | d1#c1\n")
    assert format_pages([3]) == "p. 3" and format_pages([1, 4]) == "pp. 1, 4"


def test_search_ranks_and_cites(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    texts = ["Replace the stem seal every 6 months.", "Torque the M12 bolts to 80 Nm."] + [
        f"Unrelated paragraph number {i} about shipping." for i in range(20)
    ]
    index.upsert("ns", "d1", "r", [chunk(i, t, pages=(i + 1,)) for i, t in enumerate(texts)])
    response = search(index, SearchRequest("ns", "how often replace the seal?", top_k=3))
    assert response.results[0].chunk.chunk_id == "c0"
    assert response.results[0].channel_ranks["content"] == 0
    assert response.total_chunks == 22
    assert response.answer_text == ""
    assert "[1] manual.pdf | Maintenance | p. 1" in response.evidence_text
    filtered = search(index, SearchRequest("ns", "seal", filters=SearchFilters(exclude_sections=("Maintenance",))))
    assert filtered.results == [] and filtered.total_chunks == 0


def test_small_corpus_returns_everything_in_document_order(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.upsert("ns", "d1", "r", [chunk(2, "second"), chunk(1, "first")])
    response = search(index, SearchRequest("ns", "anything", top_k=5))
    assert [r.chunk.text for r in response.results] == ["first", "second"]


def test_requests_are_validated() -> None:
    with pytest.raises(InvalidNameError):
        SearchRequest("Bad Namespace", "q")
    with pytest.raises(InvalidQueryError):
        SearchRequest("ns", "   ")
    with pytest.raises(InvalidQueryError):
        SearchRequest("ns", "q", top_k=51)


@pytest.mark.parametrize(
    "text",
    [
        "Seal replacement, step 4.",
        "  indented code\n    return x",
        "密封圈每六个月更换一次。",
        "\nstarts on a new line",
        "x",
    ],
)
def test_evidence_block_cost_equals_the_exact_token_count(text: str) -> None:
    from docshelf.search.evidence import _block_tokens

    item = chunk(7, text)
    header = "[2] manual.pdf | Maintenance > Seals | p. 1 | d1#c7\n"
    assert _block_tokens(header, item) == count_tokens(header + text)
