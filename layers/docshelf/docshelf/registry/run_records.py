"""Run and step records of agentic searches: written once each, never updated (append-only).

A run's steps are written when the run ends, then the run itself, so a run record always has its steps. A search
served from the cache returns the run id of the search that filled the cache and writes no new run.
The registry keeps them: SQLite locally (`runs_local.py`), DynamoDB on AWS (`runs_dynamodb.py`).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import asdict, dataclass, fields
from typing import Any, Protocol

from docshelf.errors import DocshelfError


class RecordExistsError(DocshelfError):
    """A run or step record with that id is already written: records are never replaced."""


@dataclass(frozen=True, slots=True)
class StepRecord:
    run_id: str
    step_id: str
    action: str
    query: str
    depends_on: tuple[str, ...]
    status: str
    result_ids: tuple[str, ...]
    tokens: int
    latency_ms: float

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        return {**data, "depends_on": list(self.depends_on), "result_ids": list(self.result_ids)}


@dataclass(frozen=True, slots=True)
class RunRecord:
    run_id: str
    user: str
    namespace: str
    query: str
    planner: str
    fallback_reason: str
    plan_json: str  # the plan as the response shows it
    budget_tokens: int
    tokens_used: int
    truncated: bool
    latency_ms: float
    outcome: str  # "ok", "truncated" or "empty"
    created_at: float

    def to_dict(self, steps: list[StepRecord]) -> dict[str, Any]:
        data = asdict(self)
        data.pop("plan_json")
        return {
            **data,
            "fallback_reason": self.fallback_reason or None,
            "plan": json.loads(self.plan_json),
            "steps": [step.to_dict() for step in steps],
        }


RUN_FIELDS = [f.name for f in fields(RunRecord)]
STEP_FIELDS = [f.name for f in fields(StepRecord)]


def new_run_id() -> str:
    return uuid.uuid4().hex


class RunLog(Protocol):
    def append_step(self, record: StepRecord) -> None:
        """Write a step record; RecordExistsError if (run_id, step_id) was written before."""

    def append_run(self, record: RunRecord) -> None:
        """Write a run record; RecordExistsError if run_id was written before."""

    def get_run(self, run_id: str) -> tuple[RunRecord, list[StepRecord]] | None: ...
