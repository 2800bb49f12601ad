from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docshelf.agentic.budget import TokenBudget
from docshelf.agentic.executor import SEPARATOR_TOKENS, Ledger, execute, row_block
from docshelf.agentic.plan import ACTIONS, Action, Plan, Step, validate_plan
from docshelf.agentic.render import render
from docshelf.agentic.rules import rule_plan
from docshelf.agentic.service import AgenticRun, agentic_search
from docshelf.agentic.steps import StepContext
from docshelf.index.base import FirstPass, SearchBackend
from docshelf.index.plan import QueryPlan
from docshelf.local.services import LocalServices
from docshelf.tokens import count_tokens
from tests.agentic_fixtures import context, ingest_documents
from tests.support.backends import Delegating

QUERIES = ["TX-100 warranty", "pump seal hours", "tickets fixed in 2.3.1", "torque of flange bolts", "shipping pallets"]


@lru_cache(maxsize=1)
def services() -> LocalServices:
    import tempfile

    return ingest_documents(Path(tempfile.mkdtemp(prefix="agentic-")))


@pytest.fixture(scope="module")
def ctx() -> StepContext:
    return context(services())


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    """Random DAGs: each step may depend on any earlier ones; navigate steps always depend on something."""
    count = draw(st.integers(1, 6))
    steps = []
    for n in range(1, count + 1):
        earlier = [f"s{m}" for m in range(1, n)]
        depends = tuple(draw(st.lists(st.sampled_from(earlier), unique=True, max_size=3))) if earlier else ()
        action: Action = draw(st.sampled_from(ACTIONS)) if depends else "search"
        steps.append(Step(f"s{n}", action, draw(st.sampled_from(QUERIES)), depends))
    return validate_plan(Plan(tuple(steps)), "ns")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=plans(), budget=st.integers(1, 1500))
def test_the_budget_is_never_exceeded(ctx: StepContext, plan: Plan, budget: int) -> None:
    execution = execute(plan, ctx, budget)
    evidence, tokens, _ = render(execution, budget)
    assert execution.spent <= budget
    assert tokens == count_tokens(evidence) <= budget
    assert {run.step.id for run in execution.runs} == {step.id for step in plan.steps}
    claimed = [row.chunk.chunk_id for row in execution.evidence_rows]
    assert len(claimed) == len(set(claimed))  # a chunk two steps found is paid for once


def test_budget_shares_are_split_among_steps_and_returned() -> None:
    budget = TokenBudget(100, steps_left=3)
    first, second = budget.reserve_share(), budget.reserve_share()
    assert (first.left, second.left) == (34, 33)  # shares round up, never past what is free
    assert first.claim("a", 30) and not first.claim("b", 10) and not second.claim("a", 1)
    first.release()
    assert budget.free == 100 - 30 - 33
    third = budget.reserve_share()
    assert third.left == 37 and budget.spent == 30


def test_truncation_returns_the_best_evidence_so_far(ctx: StepContext) -> None:
    plan = rule_plan("the warranty of TX-100? the pump seal hours? the tickets fixed in 2.3.1?", "ns")
    assert len(plan.steps) == 3
    roomy = execute(plan, ctx, 5000)
    assert not roomy.truncated and all(run.status == "done" for run in roomy.runs)
    tight_budget = roomy.runs[0].tokens + 5
    tight = execute(plan, ctx, tight_budget)
    evidence, tokens, cited = render(tight, tight_budget)
    assert tight.truncated and tokens <= tight_budget and len(cited) >= 1
    assert {run.status for run in tight.runs} & {"truncated", "skipped"}
    best = roomy.runs[0].offered[0].chunk
    assert best.chunk_id in cited and cited[best.chunk_id][1] in evidence  # the first step's best row is kept


def test_steps_skip_once_the_budget_is_spent(ctx: StepContext) -> None:
    plan = rule_plan("TX-100 warranty? pump seal hours? tickets of 2.3.1?", "ns")
    execution = execute(plan, ctx, 2)
    assert [run.status for run in execution.runs] == ["truncated", "truncated", "skipped"]
    assert execution.truncated and not execution.evidence_rows
    assert execution.runs[2].result_ids == []


def test_a_navigate_step_without_found_documents_is_skipped(ctx: StepContext) -> None:
    plan = validate_plan(Plan((Step("s1", "search", "zzzqqq"), Step("s2", "navigate", "zzzqqq", ("s1",)))), "ns")
    assert [run.status for run in execute(plan, ctx, 500).runs] == ["done", "skipped"]


def test_results_order_by_agent_score_then_discovery_with_the_pool_last(ctx: StepContext) -> None:
    execution = execute(rule_plan("TX-100 warranty vs pump seal", "ns"), ctx, 3000)
    keys = [(row.agent_score <= 0, -row.agent_score, -row.discovery_score) for row in execution.results]
    assert keys == sorted(keys)
    scored = [row for row in execution.evidence_rows if row.chunk.chunk_id not in execution.fallback_ids]
    assert all(row.agent_score > 0 for row in scored)
    assert all(row.agent_score == 0 for row in execution.evidence_rows if row.chunk.chunk_id in execution.fallback_ids)


def test_each_component_of_a_composite_question_reaches_the_evidence(ctx: StepContext) -> None:
    body = agentic_search(ctx, AgenticRun("how often is the pump seal replaced and which tickets does 2.3.1 fix?", 400))
    assert "2000 operating hours" in body["evidence_text"] and "OPS-412" in body["evidence_text"]
    assert body["tokens_used"] <= 400 and [step["id"] for step in body["steps"]] == ["s1", "s2"]
    assert {result["step_id"] for result in body["results"]} == {"s1", "s2"}


class RecordingNavSource:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.namespaces: list[str] = []

    def load(self, namespace: str, document_id: str) -> Mapping[str, Any] | None:
        self.namespaces.append(namespace)
        loaded: Mapping[str, Any] | None = self.inner.load(namespace, document_id)
        return loaded


def test_every_step_stays_in_the_request_namespace(ctx: StepContext) -> None:
    nav = RecordingNavSource(ctx.nav_source)
    scoped = StepContext(ctx.index, "ns", 8, nav_source=nav)
    plan = rule_plan("give an overview of the salaries section and the TX-100 valve warranty money", "ns")
    execution = execute(plan, scoped, 5000)
    assert nav.namespaces and set(nav.namespaces) == {"ns"}
    assert execution.results and {row.chunk.namespace for row in execution.results} == {"ns"}
    evidence, _, _ = render(execution, 5000)
    assert "confidential" not in evidence


def test_navigation_opens_matching_sections_and_outlines_the_rest(ctx: StepContext) -> None:
    plan = validate_plan(
        Plan((Step("s1", "search", "TX-200 valve warranty"), Step("s2", "navigate", "valve storage", ("s1",)))), "ns"
    )
    execution = execute(plan, ctx, 5000)
    navigate = execution.runs[1]
    assert any("5 and 30 degrees" in row.chunk.text for row in navigate.offered)
    outlines = [line.text for line in execution.outlines]
    assert any(line.startswith("[outline] valves.md | Valves > Torque") for line in outlines)
    assert any("calibrated" in line for line in outlines)  # the summary says what the closed section holds


def test_a_chunk_larger_than_the_share_comes_as_its_best_sentences(ctx: StepContext) -> None:
    plan = rule_plan("which tickets does version 2.3.1 fix? how often is the pump seal replaced?", "ns")
    roomy = execute(plan, ctx, 5000)
    header = max(
        count_tokens(row_block(1, run.claimed[0], None)) - run.claimed[0].chunk.token_count for run in roomy.runs
    )
    budget = 2 * (header + 4 + 20)  # each share holds a header and 20 tokens of text: less than either chunk
    tight = execute(plan, ctx, budget)
    evidence, tokens, _ = render(tight, budget)
    assert tokens <= budget and tight.truncated
    cut = [row for row in tight.evidence_rows if row.excerpt]
    assert cut and all(part in row.chunk.text for row in cut for part in row.excerpt.split(" … "))
    assert "OPS-412" in evidence and "2000 operating hours" in evidence


def test_independent_steps_leave_no_thread_behind(ctx: StepContext) -> None:
    before = threading.active_count()
    execution = execute(rule_plan("TX-100 warranty? pump seal hours? tickets of 2.3.1?", "ns"), ctx, 3000)
    assert len(execution.runs) == 3 and all(run.status == "done" for run in execution.runs)
    assert threading.active_count() == before  # a process with threads left could no longer fork (forked.py)


class _SlowThread(Delegating):
    """The index answering the search of one thread late, so another step of its wave finishes first."""

    def __init__(self, inner: SearchBackend, slow_thread: str) -> None:
        super().__init__(inner)
        self.slow_thread = slow_thread

    def first_pass(self, namespace: str, plan: QueryPlan) -> FirstPass:
        if threading.current_thread().name == self.slow_thread:
            time.sleep(0.05)
        return super().first_pass(namespace, plan)


def test_the_evidence_does_not_depend_on_which_step_finishes_first(ctx: StepContext) -> None:
    query = "pump seal hours? pump seal replaced? seal of the pump?"  # three steps finding the same chunks
    bodies = [
        agentic_search(replace(ctx, index=_SlowThread(ctx.index, slow)), AgenticRun(query, 200))
        for slow in ("MainThread", "agentic-step-1", "agentic-step-2", "none")
    ]
    claims = {(body["evidence_text"], tuple(step["tokens"] for step in body["steps"])) for body in bodies}
    assert len(claims) == 1  # the same text, each part paid by the same step


def test_identical_requests_give_one_evidence_text_and_top_k_results(ctx: StepContext) -> None:
    # Steps on four threads that find the same chunks: the first in plan order claims each, never the fastest.
    query = "pump seal hours? pump seal replaced? seal of the pump? TX-100 warranty?"
    bodies = [agentic_search(ctx, AgenticRun(query, 300)) for _ in range(40)]
    assert len({body["evidence_text"] for body in bodies}) == 1
    assert len({json.dumps(body["results"], sort_keys=True) for body in bodies}) == 1
    assert all(len(body["results"]) <= ctx.top_k for body in bodies)


def test_a_step_claims_the_packers_best_block_first_when_its_share_is_tight(ctx: StepContext) -> None:
    # At 40 tokens "Warranty / 2 years" and the Torque chunk's "Valves / Torque" headings both fit, each paid at its
    # header as rendered; at 34 the share holds one of them: the packer's best.
    evidence = agentic_search(ctx, AgenticRun("How long is the valve warranty?", 40))["evidence_text"]
    assert "warranty of 2 years" in evidence and "Torque" in evidence
    evidence = agentic_search(ctx, AgenticRun("How long is the valve warranty?", 34))["evidence_text"]
    assert "warranty of 2 years" in evidence and "Torque" not in evidence


@pytest.mark.parametrize("budget", [60, 120, 300])
def test_a_step_pays_for_its_blocks_as_they_are_rendered(ctx: StepContext, budget: int) -> None:
    # Each block is paid at its header as rendered (the file named only when the block before is of another file)
    # and a separator: what the step paid is the evidence's tokens and at most a separator's worth a block more.
    body = agentic_search(ctx, AgenticRun("How long is the valve warranty?", budget))
    (step,) = body["steps"]
    blocks = body["evidence_chunks"] + body["evidence_text"].count("[outline]")
    assert body["evidence_chunks"] >= 2
    assert body["evidence_tokens"] <= step["tokens"] <= body["evidence_tokens"] + SEPARATOR_TOKENS * blocks


def test_the_ledger_charges_a_separator_between_blocks_and_none_before_the_first(ctx: StepContext) -> None:
    # The evidence joins its blocks with "\n\n": the first block has no separator before it, as the packer counts.
    first, second = execute(rule_plan("How long is the valve warranty?", "ns"), ctx, 400).evidence_rows[:2]
    assert Ledger().cost(first) == count_tokens(row_block(1, first, None))
    after = count_tokens(row_block(2, second, None, first.chunk)) + SEPARATOR_TOKENS
    assert Ledger(rows=[first]).cost(second) == after


def test_the_evidence_lists_each_steps_claims_in_plan_order_and_top_k_keeps_the_best(ctx: StepContext) -> None:
    from docshelf.agentic.service import within_top_k

    # s2's warranty chunks score above s1's pump seal chunk: ordered by score, s2's blocks would come first.
    execution = execute(rule_plan("pump seal hours? TX-100 warranty?", "ns"), ctx, 400)
    claimed = {row.chunk.chunk_id: run.step.id for run in execution.runs for row in run.claimed}
    steps = [claimed[row.chunk.chunk_id] for row in execution.evidence_rows if row.chunk.chunk_id in claimed]
    assert steps == sorted(steps) and set(steps) == {"s1", "s2"}  # s1's blocks, then s2's, as they were claimed
    kept = within_top_k(execution, 2).evidence_rows
    dropped = [row for row in execution.evidence_rows if row not in kept]
    assert len(kept) == 2 and dropped
    assert max(row.order for row in kept) <= min(row.order for row in dropped)  # the best by agent and discovery
    assert kept == [row for row in execution.evidence_rows if row in kept]  # in the evidence's order
