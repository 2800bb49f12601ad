"""An agentic search: plan, execute under one token budget, render, record. Evidence only, never an answer."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from typing import Any

from docshelf.agentic.executor import Execution, execute
from docshelf.agentic.plan import MAX_BUDGET_TOKENS, Plan, PlanMaker
from docshelf.agentic.render import render, result_dicts, step_dict
from docshelf.agentic.rules import RULES
from docshelf.agentic.steps import StepContext
from docshelf.errors import InvalidQueryError
from docshelf.registry.run_records import RunLog, RunRecord, StepRecord, new_run_id
from docshelf.search.confidence import GOOD_MATCH
from docshelf.search.empty import check_budget
from docshelf.search.rerank import model_identity, reading_model

MIN_STEP_TOP_K = 4


@dataclass(frozen=True, slots=True)
class AgenticRun:
    query: str
    budget_tokens: int  # the request's max_tokens: one budget for both modes
    user: str = "local"
    min_score: float = 0.0

    def __post_init__(self) -> None:
        if not 1 <= self.budget_tokens <= MAX_BUDGET_TOKENS:
            raise InvalidQueryError(f"budget_tokens must be between 1 and {MAX_BUDGET_TOKENS}")


def agentic_search(
    ctx: StepContext, run: AgenticRun, *, planner: PlanMaker = RULES, run_log: RunLog | None = None
) -> dict[str, Any]:
    """The response body of an agentic search (contracts: every classic field plus mode, run_id, plan, steps)."""
    started = time.perf_counter()
    plan = planner(run.query, ctx.namespace)
    step_ctx = replace(ctx, top_k=step_top_k(ctx.top_k, plan), min_score=run.min_score, vote=is_one_search(plan))
    executed = execute(plan, step_ctx, run.budget_tokens)
    execution = within_top_k(executed, ctx.top_k, first_claimed=is_one_search(plan))
    if execution.results:
        check_budget(execution.results[0].chunk, run.budget_tokens)
    evidence, tokens, cited = render(execution, run.budget_tokens)
    results = result_dicts(execution, run.query, cited)
    run_id = new_run_id()
    took_ms = round((time.perf_counter() - started) * 1000, 3)
    if run_log is not None:
        _record(run_log, run_id, ctx.namespace, run, plan, execution, tokens, took_ms)
    return {
        "mode": "agentic",
        "run_id": run_id,
        "evidence_text": evidence,
        "answer_text": "",
        "results": results,
        "total_chunks": len(executed.results),
        "evidence_chunks": len(cited),
        "evidence_tokens": tokens,
        "good_match": any(row.confidence >= GOOD_MATCH for row in executed.results),
        "passage_model": passage_model_of(ctx, run.query),
        "corrections": {},
        "cache": "miss",
        "took_ms": took_ms,
        "truncated": execution.truncated,
        "tokens_used": tokens,
        "budget_tokens": run.budget_tokens,
        "plan": plan.to_dict(),
        "steps": [step_dict(step_run) for step_run in execution.runs],
    }


def passage_model_of(ctx: StepContext, query: str) -> str | None:
    """The identity of the sentence model that ordered the steps' passages, as classic responses name theirs."""
    return model_identity(reading_model(ctx.passage_model, query, ctx.ranking)) or None


def within_top_k(execution: Execution, top_k: int, *, first_claimed: bool = False) -> Execution:
    """The execution's evidence and results held to `top_k` chunks, as a classic search's are: the best `top_k`
    evidence rows (agent_score, then discovery score; with `first_claimed`, the first claimed: a plan of one search
    claims classic search's evidence first, and what navigation and the leftover add comes after it) in their
    evidence order, and results made of those rows and then the best others, in result order; every `[n]` of the
    evidence names a result."""
    claimed = execution.evidence_rows if first_claimed else sorted(execution.evidence_rows, key=lambda row: row.order)
    best = {row.chunk.chunk_id for row in claimed[:top_k]}
    rows = [row for row in execution.evidence_rows if row.chunk.chunk_id in best]
    cited = {row.chunk.chunk_id for row in rows}
    others = [row for row in execution.results if row.chunk.chunk_id not in cited][: top_k - len(rows)]
    kept = cited | {row.chunk.chunk_id for row in others}
    results = [row for row in execution.results if row.chunk.chunk_id in kept]
    found = {row.chunk.chunk_id for row in execution.results}
    results += [row for row in rows if row.chunk.chunk_id not in found]
    return replace(execution, evidence_rows=rows, results=results)


def is_one_search(plan: Plan) -> bool:
    """A plan of a single search step: the question was not split, and its step searches as classic search does."""
    return len(plan.steps) == 1 and plan.steps[0].action == "search"


def step_top_k(top_k: int, plan: Plan) -> int:
    """Each search step's top_k: the request's shared among the searches, at least `MIN_STEP_TOP_K`. A step's share
    of the budget holds a few chunks at most, and every candidate fetched costs the search time."""
    searches = sum(1 for step in plan.steps if step.action == "search")
    return min(top_k, max(MIN_STEP_TOP_K, -(-top_k // max(1, searches))))


def _record(
    run_log: RunLog,
    run_id: str,
    namespace: str,
    run: AgenticRun,
    plan: Plan,
    execution: Execution,
    tokens: int,
    took_ms: float,
) -> None:
    """Each step, then the run: a run record that exists has all its steps."""
    for step_run in execution.runs:
        step = step_run.step
        run_log.append_step(
            StepRecord(
                run_id, step.id, step.action, step.query, step.depends_on, step_run.status,
                tuple(step_run.result_ids), step_run.tokens, step_run.latency_ms,
            )
        )  # fmt: skip
    outcome = "truncated" if execution.truncated else ("ok" if execution.evidence_rows else "empty")
    run_log.append_run(
        RunRecord(
            run_id=run_id, user=run.user, namespace=namespace, query=run.query, planner=plan.planner,
            fallback_reason=plan.fallback_reason or "", plan_json=json.dumps(plan.to_dict(), ensure_ascii=False),
            budget_tokens=run.budget_tokens, tokens_used=tokens, truncated=execution.truncated, latency_ms=took_ms,
            outcome=outcome, created_at=time.time(),
        )
    )  # fmt: skip
