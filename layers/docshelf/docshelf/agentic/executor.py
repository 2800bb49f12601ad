"""Runs a plan: waves of independent steps run together on threads, in dependency order, under one token budget.

Each step is given its share of the budget before it starts (so the split does not depend on which thread is
faster), claims its rows best first while they fit, and hands back what it did not use. Rows whose
`agent_score` is 0 wait in a fallback pool, claimed from what is left once every step ran. When the budget is
spent, the steps not started are skipped and the evidence gathered so far is what the run returns.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Literal, TypeAlias

from docshelf.agentic.budget import Allowance, TokenBudget
from docshelf.agentic.excerpt import best_excerpt
from docshelf.agentic.plan import Plan, Step, topological_levels
from docshelf.agentic.steps import OutlineLine, Row, StepContext, discover, query_terms_of, walk
from docshelf.assets.links import image_asset
from docshelf.citations import citation, citation_line
from docshelf.search.evidence import evidence_block
from docshelf.tokens import count_tokens

StepStatus: TypeAlias = Literal["done", "skipped", "truncated"]
SEPARATOR_TOKENS = 2  # "\n\n" between evidence blocks
MIN_NAVIGATION_TOKENS = 24  # below this an outline line hardly fits: not worth reading doc_nav.json
EXCERPT_SLACK_TOKENS = 2  # the header and the excerpt may tokenize apart differently than joined


@dataclass
class StepRun:
    step: Step
    status: StepStatus = "done"
    offered: list[Row] = field(default_factory=list)  # everything the step found, best first
    claimed: list[Row] = field(default_factory=list)  # the rows its share paid for
    outlines: list[OutlineLine] = field(default_factory=list)  # the outline lines its share paid for
    pool: list[Row] = field(default_factory=list)  # rows with agent_score 0
    tokens: int = 0
    latency_ms: float = 0.0

    @property
    def result_ids(self) -> list[str]:
        return [row.chunk.chunk_id for row in self.offered]


@dataclass
class Execution:
    runs: list[StepRun]
    evidence_rows: list[Row]  # claimed, in evidence order
    outlines: list[OutlineLine]
    results: list[Row]  # every distinct row found, in result order
    fallback_ids: set[str]
    assets: dict[str, str]
    spent: int
    truncated: bool


def execute(plan: Plan, ctx: StepContext, budget_tokens: int) -> Execution:
    budget = TokenBudget(budget_tokens, steps_left=len(plan.steps))
    assets: dict[str, str] = {}
    runs: dict[str, StepRun] = {}
    waves = topological_levels(plan)
    for wave in waves:
        allowances = [(step, budget.reserve_share()) for step in wave]
        jobs = [partial(_run, ctx, step, _earlier(step, runs), allowance, assets) for step, allowance in allowances]
        for (step, _), run in zip(allowances, _together(jobs), strict=True):
            runs[step.id] = run
    ordered = [runs[step.id] for step in plan.steps]
    leftovers, fallback = _claim_what_is_left(ordered, budget, ctx, assets)
    claimed = sorted([*(row for run in ordered for row in run.claimed), *leftovers], key=lambda row: row.order)
    _settle_statuses(ordered, {row.chunk.chunk_id for row in claimed})
    return Execution(
        runs=ordered,
        evidence_rows=claimed + fallback,
        outlines=[line for run in ordered for line in run.outlines],
        results=_results(ordered),
        fallback_ids={row.chunk.chunk_id for row in fallback},
        assets=assets,
        spent=budget.spent,
        truncated=any(run.status != "done" for run in ordered),
    )


def _settle_statuses(runs: Sequence[StepRun], in_evidence: set[str]) -> None:
    """A step that ran is truncated when one of its rows with an agent_score is not in the evidence (neither its
    share nor what other steps left could pay for it) or is there only as an excerpt."""
    for run in runs:
        if run.status != "skipped":
            missing = any(row.agent_score > 0 and row.chunk.chunk_id not in in_evidence for row in run.offered)
            run.status = "truncated" if missing or any(row.excerpt for row in run.claimed) else "done"


def _together(jobs: Sequence[Callable[[], StepRun]]) -> list[StepRun]:
    """Every job's result, the first run by the caller and the others by threads of their own (a search spends
    much of its time in numpy or waiting on OpenSearch, outside the GIL). The threads are joined before this
    returns: a process left with threads could no longer fork (`forked.py`), and `docshelf serve` ingests too."""
    if len(jobs) == 1:
        return [jobs[0]()]
    results: list[StepRun | None] = [None] * len(jobs)
    errors: list[BaseException] = []

    def work(at: int) -> None:
        try:
            results[at] = jobs[at]()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=work, args=(at,), name=f"agentic-step-{at}") for at in range(1, len(jobs))]
    for thread in threads:
        thread.start()
    work(0)
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return [result for result in results if result is not None]


def _earlier(step: Step, runs: dict[str, StepRun]) -> list[Row]:
    return [row for dep in step.depends_on for row in runs[dep].offered]


def _run(ctx: StepContext, step: Step, earlier: Sequence[Row], allowance: Allowance, assets: dict[str, str]) -> StepRun:
    started = time.perf_counter()
    run = StepRun(step)
    if allowance.left <= 0 or (step.depends_on and not earlier and step.action == "navigate"):
        allowance.release()
        run.status = "skipped"
        return run
    terms = query_terms_of(step.query)
    run.offered = discover(ctx, step, terms)
    _claim_rows(run, run.offered, terms, allowance, ctx, assets)
    if allowance.left >= MIN_NAVIGATION_TOKENS:  # navigation only spends what discovery left of the share
        walked = walk(ctx, step, terms, run.offered if step.action == "search" else earlier)
        known = {row.chunk.chunk_id for row in run.offered}
        fresh = [row for row in walked.rows if row.chunk.chunk_id not in known]
        run.offered.extend(fresh)
        _claim_rows(run, fresh, terms, allowance, ctx, assets)
        for line in walked.outlines:
            if allowance.claim(line.key, count_tokens(line.text) + SEPARATOR_TOKENS):
                run.outlines.append(line)
    run.tokens = allowance.used
    allowance.release()
    run.latency_ms = round((time.perf_counter() - started) * 1000, 3)
    return run


def _claim_rows(
    run: StepRun, rows: Sequence[Row], terms: set[str], allowance: Allowance, ctx: StepContext, assets: dict[str, str]
) -> None:
    """`rows` best first while they fit the step's share; when even the step's best does not, the best sentences
    of it. Rows with agent_score 0 go to the pool."""
    for row in rows:
        if row.agent_score <= 0:
            run.pool.append(row)
        elif allowance.budget.is_claimed(row.chunk.chunk_id):
            continue
        elif allowance.claim(row.chunk.chunk_id, _row_cost(row, ctx, assets)):
            run.claimed.append(row)
        elif not run.claimed and (cut := _excerpt_row(row, terms, allowance.left)) is not None:
            cost = row_block(1, cut, None)[1] + SEPARATOR_TOKENS
            if allowance.claim(row.chunk.chunk_id, cost):
                run.claimed.append(cut)


def _row_cost(row: Row, ctx: StepContext, assets: dict[str, str]) -> int:
    name = image_asset(row.chunk)
    if name is not None and ctx.asset_link is not None:
        assets[row.chunk.chunk_id] = ctx.asset_link(row.chunk, name)
    return row_block(1, row, assets.get(row.chunk.chunk_id))[1] + SEPARATOR_TOKENS


def row_block(number: int, row: Row, asset: str | None) -> tuple[str, int]:
    """A row's evidence block and its tokens: the chunk's, or for an excerpt the header and the excerpt."""
    if not row.excerpt:
        return evidence_block(number, row.chunk, asset)
    block = f"[{number}]{citation_line(citation(row.chunk))}{row.excerpt}"
    return block, count_tokens(block)


def _excerpt_row(row: Row, terms: set[str], left: int) -> Row | None:
    """The row cut to its best sentences when its whole chunk does not fit the step's share (an image keeps
    its whole text or nothing: its asset line is not cut)."""
    if row.chunk.type == "image":
        return None
    header = f"[1]{citation_line(citation(row.chunk))}"
    room = left - count_tokens(header) - SEPARATOR_TOKENS - EXCERPT_SLACK_TOKENS
    excerpt = best_excerpt(row.chunk.text, terms, room)
    return replace(row, excerpt=excerpt) if excerpt else None


def _claim_what_is_left(
    runs: Sequence[StepRun], budget: TokenBudget, ctx: StepContext, assets: dict[str, str]
) -> tuple[list[Row], list[Row]]:
    """Once every step ran, what the shares left pays first for the rows with an agent_score that did not fit
    (best first), then for the fallback pool (best discovery first)."""
    allowance = budget.reserve_rest()
    pending = sorted(
        (row for run in runs for row in run.offered if row.agent_score > 0 and row not in run.claimed),
        key=lambda row: row.order,
    )
    pool = sorted((row for run in runs for row in run.pool), key=lambda row: -row.discovery_score)
    picked = [
        [row for row in rows if allowance.left > 0 and allowance.claim(row.chunk.chunk_id, _row_cost(row, ctx, assets))]
        for rows in (pending, pool)
    ]
    allowance.release()
    return picked[0], picked[1]


def _results(runs: Sequence[StepRun]) -> list[Row]:
    """Every row once (the first step that found it): agent_score, then discovery_score; the pool last."""
    seen: set[str] = set()
    rows = []
    for row in sorted((r for run in runs for r in run.offered), key=lambda r: (r.agent_score <= 0, *r.order)):
        if row.chunk.chunk_id not in seen:
            seen.add(row.chunk.chunk_id)
            rows.append(row)
    return rows
