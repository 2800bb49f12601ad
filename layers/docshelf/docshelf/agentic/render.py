"""The rendering phase: the claimed rows and outline lines as one cited evidence text within the budget, and the
response's results and steps."""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from docshelf.agentic.executor import Execution, StepRun, row_block
from docshelf.agentic.steps import Row
from docshelf.model import Chunk
from docshelf.search.highlights import highlight_terms, highlights
from docshelf.search.response import cited_fields as _cited_fields
from docshelf.search.response import table_fields
from docshelf.tokens import count_tokens

CHUNK_FIELDS = tuple(field.name for field in fields(Chunk))


def render(execution: Execution, budget_tokens: int) -> tuple[str, int, dict[str, tuple[int, str]]]:
    """(evidence text, its cl100k tokens, each cited chunk's [n] and excerpt). The claims already kept the sum
    within the budget; the text is counted once more as a whole and trimmed from the end if joining blocks ever
    cost more."""
    rows = list(execution.evidence_rows)
    while True:
        blocks, cited = _blocks(rows, execution.assets)
        if blocks:  # outlines say where else to look; without any chunk the best one, cut, says more
            blocks.extend(line.text for line in execution.outlines)
        elif execution.results and budget_tokens > 0:
            first = execution.results[0]
            cut = _cut_to_fit(first, budget_tokens)
            blocks = [cut] if cut else []
            cited = {first.chunk.chunk_id: (1, cut.split("\n", 1)[-1])} if cut else {}
        text = "\n\n".join(block for block in blocks if block)
        tokens = count_tokens(text)
        if tokens <= budget_tokens or not rows:
            return text, tokens, cited
        rows.pop()


def _blocks(rows: list[Row], assets: dict[str, str]) -> tuple[list[str], dict[str, tuple[int, str]]]:
    blocks, cited = [], {}
    previous = None
    for number, row in enumerate(rows, start=1):
        blocks.append(row_block(number, row, assets.get(row.chunk.chunk_id), previous))
        cited[row.chunk.chunk_id] = (number, row.excerpt or row.chunk.text)
        previous = row.chunk
    return blocks, cited


def _cut_to_fit(row: Row, budget_tokens: int) -> str:
    """The best row cut to the budget, as classic evidence does when not even one chunk fits (the run is then
    marked truncated by its steps)."""
    from docshelf.chunking.split import token_windows  # rare: the search path needs no chunker

    return next(iter(token_windows(row_block(1, row, None), budget_tokens)), "")


def result_dicts(execution: Execution, query: str, cited: dict[str, tuple[int, str]]) -> list[dict[str, Any]]:
    """Each result as classic results are (highlights of the whole query, table cells, its place in the
    evidence), with its step's scores."""
    terms = highlight_terms(query, {})
    return [
        {
            **_chunk_fields(row.chunk),
            "score": row.discovery_score,
            "lexical_score": row.lexical_score,
            "confidence": row.confidence,
            "channel_ranks": row.channel_ranks,
            **_cited_fields(cited.get(row.chunk.chunk_id)),
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
    """`result_chunk_fields` without its deep copies (a run returns every step's rows)."""
    data = {name: getattr(chunk, name) for name in CHUNK_FIELDS if name != "type"}
    data["connect_to"] = [asdict(link) for link in chunk.connect_to]
    data["chunk_type"] = chunk.type
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
