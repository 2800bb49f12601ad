"""The API's agentic operations: a search in agentic mode through the cache, and reading a run's record.

Services that also offer the agentic parts (`AgenticParts`: the run log, the doc_nav source and the planner)
records its runs and navigates sections; any others run the rule-based plan without them.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from docshelf.agentic.navigate import NavSource
from docshelf.agentic.plan import PlanMaker
from docshelf.agentic.rules import RULES
from docshelf.agentic.service import AgenticRun, agentic_search
from docshelf.agentic.steps import StepContext
from docshelf.api.auth import Caller
from docshelf.api.errors import NotFoundError
from docshelf.api.service import ApiServices, cached_search, checked_request, passage_model_mode
from docshelf.registry.run_records import RunLog
from docshelf.search.request import SearchRequest


@runtime_checkable
class AgenticParts(Protocol):
    @property
    def run_log(self) -> RunLog | None: ...

    @property
    def nav_source(self) -> NavSource | None: ...

    @property
    def planner(self) -> PlanMaker: ...


def run_agentic_search(services: ApiServices, caller: Caller, request: SearchRequest) -> tuple[dict[str, Any], bool]:
    """(response body, served from the cache). The budget is the request's max_tokens, as in classic mode."""
    request = checked_request(services, caller, request)
    parts = services if isinstance(services, AgenticParts) else None
    planner = parts.planner if parts is not None else RULES
    run = AgenticRun(request.query, request.max_tokens, caller.user, request.min_score)

    def answer() -> dict[str, Any]:
        ctx = StepContext(
            services.index_for(request.namespace), request.namespace, request.top_k, request.filters,
            nav_source=parts.nav_source if parts is not None else None, embedder=services.embedder,
            asset_link=services.asset_link, graph_source=getattr(services, "graph_source", None),
            passage_model=model,
        )  # fmt: skip
        return agentic_search(ctx, run, planner=planner, run_log=parts.run_log if parts is not None else None)

    model = services.passage_model
    mode = {"mode": "agentic", "budget_tokens": run.budget_tokens, "planner": planner.name, **passage_model_mode(model)}
    return cached_search(services, caller, request, answer, mode)


def get_run(services: ApiServices, caller: Caller, run_id: str) -> dict[str, Any]:
    """The run's record with its steps, only to the user who ran it (anyone else is told it does not exist)."""
    run_log = services.run_log if isinstance(services, AgenticParts) else None
    stored = run_log.get_run(run_id) if run_log is not None else None
    if stored is None or stored[0].user != caller.user:
        raise NotFoundError(f"no run {run_id}")
    run, steps = stored
    caller.authorize(run.namespace)
    return run.to_dict(steps)
