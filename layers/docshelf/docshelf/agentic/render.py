"""The rendering phase: the claimed rows and outline lines as one cited evidence text within the budget, and the
response's results and steps."""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from docshelf.agentic.executor import Execution, StepRun, row_block
from docshelf.agentic.steps import Row
from docshelf.model import Chunk
from docshelf.search.evidence import evidence_block
from docshelf.search.highlights import highlight_terms, highlights
from docshelf.search.service import table_fields
from docshelf.tokens import count_tokens

CHUNK_FIELDS = tuple(field.name for field in fields(Chunk))


def render(execution: Execution, budget_tokens: int) -> tuple[str, int, int]:
    """(evidence text, its cl100k tokens, chunks in it). The claims already kept the sum within the budget;
    the text is counted once more as a whole and trimmed from the end if joining blocks ever cost more."""
    blocks = [
        row_block(number, row, execution.assets.get(row.chunk.chunk_id))[0]
        for number, row in enumerate(execution.evidence_rows, start=1)
    ]
    chunk_blocks = len(blocks)
    if blocks:  # outlines say where else to look; without any chunk the best one, cut, says more
        blocks.extend(line.text for line in execution.outlines)
    elif execution.results and budget_tokens > 0:
        blocks = [_cut_to_fit(execution.results[0], budget_tokens)]
        chunk_blocks = 1 if blocks[0] else 0
    text = "\n\n".join(block for block in blocks if block)
    tokens = count_tokens(text)
    while tokens > budget_tokens and blocks:
        blocks.pop()
        chunk_blocks = min(chunk_blocks, len(blocks))
        text = "\n\n".join(blocks)
        tokens = count_tokens(text)
    return text, tokens, chunk_blocks


def _cut_to_fit(row: Row, budget_tokens: int) -> str:
    """The best row cut to the budget, as classic evidence does when not even one chunk fits (the run is then
    marked truncated by its steps)."""
    from docshelf.chunking.split import token_windows  # rare: the search path needs no chunker

    block = evidence_block(1, row.chunk)[0]
    return next(iter(token_windows(block, budget_tokens)), "")


def result_dicts(execution: Execution, query: str) -> list[dict[str, Any]]:
    """Each result as classic results are (highlights of the whole query, table cells), with its step's scores."""
    terms = highlight_terms(query, {})
    return [
        {
            **_chunk_fields(row.chunk),
            "chunk_type": row.chunk.type,
            "score": row.discovery_score,
            "channel_ranks": row.channel_ranks,
            "step_id": row.step_id,
            "agent_score": row.agent_score,
            "discovery_score": row.discovery_score,
            **({"asset": execution.assets[row.chunk.chunk_id]} if row.chunk.chunk_id in execution.assets else {}),
            "highlights": highlights(terms, row.chunk.text),
            **table_fields(row.chunk),
        }
        for row in execution.results
    ]


def _chunk_fields(chunk: Chunk) -> dict[str, Any]:
    """`asdict(chunk)` without its deep copies (a run returns every step's rows)."""
    data = {name: getattr(chunk, name) for name in CHUNK_FIELDS}
    data["connect_to"] = [asdict(link) for link in chunk.connect_to]
    return data


def step_dict(run: StepRun) -> dict[str, Any]:
    return {
        "id": run.step.id,
        "action": run.step.action,
        "query": run.step.query,
        "status": run.status,
        "result_ids": run.result_ids,
        "tokens": run.tokens,
        "latency_ms": run.latency_ms,
    }
