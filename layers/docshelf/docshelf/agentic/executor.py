"""Runs a plan: waves of independent steps run together on threads, in dependency order, under one token budget.

Each step is given its share of the budget before it starts (so the split does not depend on which thread is
faster). The steps of a wave gather on threads (discovery and navigation), then claim in plan order, so the same
request always claims the same evidence: each packs its rows into passages within its share (search/packing.py,
as classic evidence is packed) and hands back what it did not use. Rows whose `agent_score` is 0 wait in a
fallback pool, claimed from what is left once every step ran. When the budget is spent, the steps not started
are skipped and the evidence gathered so far is what the run returns. The evidence lists its blocks in the order
they were claimed (`Ledger`), so each is paid at its header as rendered.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Literal, TypeAlias

from docshelf.agentic.budget import Allowance, TokenBudget
from docshelf.agentic.plan import Plan, Step, topological_levels
from docshelf.agentic.steps import Found, OutlineLine, Row, StepContext, discover, query_terms_of, walk
from docshelf.assets.links import image_asset
from docshelf.citations import evidence_header
from docshelf.model import Chunk
from docshelf.search.abbreviations import NO_ALIASES, Aliases
from docshelf.search.packing import image_line, pack_evidence
from docshelf.search.rerank import reading_model
from docshelf.search.service import expansion_only
from docshelf.tokens import count_tokens

StepStatus: TypeAlias = Literal["done", "skipped", "truncated"]
SEPARATOR_TOKENS = 2  # "\n\n" between evidence blocks
MIN_NAVIGATION_TOKENS = 24  # below this an outline line hardly fits: not worth reading doc_nav.json


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
    evidence_rows: list[Row]  # claimed, in claim order, which is the evidence's order
    outlines: list[OutlineLine]
    results: list[Row]  # every distinct row found, in result order
    fallback_ids: set[str]
    assets: dict[str, str]
    spent: int
    truncated: bool


@dataclass
class Ledger:
    """The evidence rows in the order they were claimed, which is the order they are rendered in: claims happen one
    at a time (steps claim in plan order), so each row's cost is that of its block as rendered, its header
    shortened against the block before it (citations.evidence_header)."""

    assets: dict[str, str] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)

    def cost(self, row: Row) -> int:
        previous = self.rows[-1].chunk if self.rows else None
        block = row_block(len(self.rows) + 1, row, self.assets.get(row.chunk.chunk_id), previous)
        return count_tokens(block) + (SEPARATOR_TOKENS if self.rows else 0)  # no separator before the first

    def claim(self, allowance: Allowance, row: Row) -> bool:
        if not allowance.claim(row.chunk.chunk_id, self.cost(row)):
            return False
        self.rows.append(row)
        return True


def execute(plan: Plan, ctx: StepContext, budget_tokens: int) -> Execution:
    budget = TokenBudget(budget_tokens, steps_left=len(plan.steps))
    ledger = Ledger()
    runs: dict[str, StepRun] = {}
    waves = topological_levels(plan)
    for wave in waves:
        allowances = [(step, budget.reserve_share()) for step in wave]
        jobs = [partial(_gather, ctx, step, _earlier(step, runs), allowance) for step, allowance in allowances]
        for (step, allowance), gathered in zip(allowances, _together(jobs), strict=True):
            runs[step.id] = _claim_step(ctx, step, gathered, allowance, ledger)
    ordered = [runs[step.id] for step in plan.steps]
    fallback = _claim_what_is_left(ordered, budget, ctx, ledger)
    _settle_statuses(ordered, {row.chunk.chunk_id for row in ledger.rows})
    assets = ledger.assets
    return Execution(
        runs=ordered,
        evidence_rows=ledger.rows,
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


def _together(jobs: Sequence[Callable[[], Gathered | None]]) -> list[Gathered | None]:
    """Every job's result, the first run by the caller and the others by threads of their own (a search spends
    much of its time in numpy or waiting on OpenSearch, outside the GIL). The threads are joined before this
    returns: a process left with threads could no longer fork (`forked.py`), and `docshelf serve` ingests too."""
    if len(jobs) == 1:
        return [jobs[0]()]
    results: list[Gathered | None] = [None] * len(jobs)
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
    return results


def _earlier(step: Step, runs: dict[str, StepRun]) -> list[Row]:
    return [row for dep in step.depends_on for row in runs[dep].offered]


@dataclass(frozen=True, slots=True)
class Gathered:
    """What a step found before claiming anything: its discovered rows, and what navigation would add."""

    terms: set[str]
    weights: dict[str, float]
    discovered: list[Row]
    walked: Found
    latency_ms: float
    further: list[Row] = field(default_factory=list)  # Discovery.further
    aliases: Aliases = field(default_factory=dict)  # Discovery.aliases


def _gather(ctx: StepContext, step: Step, earlier: Sequence[Row], allowance: Allowance) -> Gathered | None:
    """The step's discovery and navigation (None: skipped, for want of tokens or of documents to navigate)."""
    if allowance.left <= 0 or (step.depends_on and not earlier and step.action == "navigate"):
        return None
    started = time.perf_counter()
    terms = query_terms_of(step.query)
    discovery = discover(ctx, step, terms)
    basis = discovery.rows if step.action == "search" else earlier
    walked = walk(ctx, step, terms, basis) if allowance.left >= MIN_NAVIGATION_TOKENS else Found([], [])
    weights = discovery.weights or dict.fromkeys(terms, 1.0)
    took = round((time.perf_counter() - started) * 1000, 3)
    return Gathered(terms, weights, discovery.rows, walked, took, discovery.further, discovery.aliases)


def _claim_step(
    ctx: StepContext, step: Step, gathered: Gathered | None, allowance: Allowance, ledger: Ledger
) -> StepRun:
    """The step's claims from its share, in plan order: its discovered rows' passages, then, when the share still
    holds an outline line, what navigation found."""
    run = StepRun(step)
    if gathered is None:
        allowance.release()
        run.status = "skipped"
        return run
    run.offered = list(gathered.discovered)
    _claim_rows(
        run, run.offered, gathered.weights, allowance, ctx, ledger,
        discovered=True, further=gathered.further, aliases=gathered.aliases,
    )  # fmt: skip
    if allowance.left >= MIN_NAVIGATION_TOKENS:  # navigation only spends what discovery left of the share
        known = {row.chunk.chunk_id for row in run.offered}
        fresh = [row for row in gathered.walked.rows if row.chunk.chunk_id not in known]
        run.offered.extend(fresh)
        _claim_rows(run, fresh, gathered.weights, allowance, ctx, ledger, aliases=gathered.aliases)
        for line in gathered.walked.outlines:
            if allowance.claim(line.key, count_tokens(line.text) + SEPARATOR_TOKENS):
                run.outlines.append(line)
    run.tokens = allowance.used
    allowance.release()
    run.latency_ms = gathered.latency_ms
    return run


def _claim_rows(
    run: StepRun,
    rows: Sequence[Row],
    weights: dict[str, float],
    allowance: Allowance,
    ctx: StepContext,
    ledger: Ledger,
    *,
    discovered: bool = False,
    further: Sequence[Row] = (),
    aliases: Aliases = NO_ALIASES,
) -> None:
    """The passages of `rows` (search/packing.py) that fit the step's share, each claimed with its chunk; rows
    with agent_score 0 go to the pool. The discovered rows of a plan of one search are packed as classic search
    packs its results: every row, the voted chunks after them (`further`), expansion-only matches last, `top_k`
    chunks at most; a chunk of `further` claimed joins the step's offered rows, so it is among the results."""
    run.pool.extend(row for row in rows if row.agent_score <= 0)
    classic = discovered and ctx.vote and not ledger.rows
    if classic:
        open_rows = [*rows, *further]
    else:
        open_rows = [row for row in rows if row.agent_score > 0 and not allowance.budget.is_claimed(row.chunk.chunk_id)]
    if not open_rows or allowance.left <= 0:
        return
    assets = ledger.assets
    for row in open_rows:
        _asset_of(row, ctx, assets)
    by_id = {row.chunk.chunk_id: row for row in open_rows}
    model = reading_model(ctx.passage_model, run.step.query, ctx.ranking)
    packed = pack_evidence(
        [row.chunk for row in open_rows],
        weights,
        allowance.left if classic else allowance.left - SEPARATOR_TOKENS,
        assets=assets,
        deferred=expansion_only(open_rows) if classic else frozenset(),
        passage_model=model,
        query=run.step.query,
        max_blocks=ctx.top_k if classic else None,
        aliases=aliases,
    )
    later = {row.chunk.chunk_id for row in further}
    # Classic evidence is claimed in its reading order, the first claims of the run, paid as the packer counted
    # them; after other steps' rows, the best first, should the share run out.
    for block in packed.blocks if classic else sorted(packed.blocks, key=lambda block: block.priority):
        row = by_id[block.chunk.chunk_id]
        cut = row if block.whole else replace(row, excerpt=block.excerpt)
        if ledger.claim(allowance, cut):
            run.claimed.append(cut)
            if row.chunk.chunk_id in later:
                run.offered.append(row)


def _asset_of(row: Row, ctx: StepContext, assets: dict[str, str]) -> None:
    name = image_asset(row.chunk)
    if name is not None and ctx.asset_link is not None:
        assets[row.chunk.chunk_id] = ctx.asset_link(row.chunk, name)


def row_block(number: int, row: Row, asset: str | None, previous: Chunk | None = None) -> str:
    """A row's evidence block: its compact header, then its excerpt or its whole chunk (and an image's link)."""
    header = evidence_header(number, row.chunk, previous)
    if row.excerpt:
        return header + row.excerpt
    return header + row.chunk.text + (image_line(asset) if asset is not None else "")


def _claim_what_is_left(runs: Sequence[StepRun], budget: TokenBudget, ctx: StepContext, ledger: Ledger) -> list[Row]:
    """Once every step ran, what the shares left pays first for the rows with an agent_score that did not fit
    (best first), then for the fallback pool (best discovery first). Returns the pool's rows it claimed."""
    allowance = budget.reserve_rest()
    pending = sorted(
        (row for run in runs for row in run.offered if row.agent_score > 0 and row not in run.claimed),
        key=lambda row: row.order,
    )
    pool = sorted((row for run in runs for row in run.pool), key=lambda row: -row.discovery_score)
    for row in pending + pool:
        _asset_of(row, ctx, ledger.assets)
    for row in pending:
        if allowance.left > 0:
            ledger.claim(allowance, row)
    fallback = [row for row in pool if allowance.left > 0 and ledger.claim(allowance, row)]
    allowance.release()
    return fallback


def _results(runs: Sequence[StepRun]) -> list[Row]:
    """Every row once (the first step that found it): agent_score, then discovery_score; the pool last."""
    seen: set[str] = set()
    rows = []
    for row in sorted((r for run in runs for r in run.offered), key=lambda r: (r.agent_score <= 0, *r.order)):
        if row.chunk.chunk_id not in seen:
            seen.add(row.chunk.chunk_id)
            rows.append(row)
    return rows
