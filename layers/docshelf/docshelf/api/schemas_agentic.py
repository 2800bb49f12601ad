"""The agentic mode's part of the HTTP contract (issue #24): request fields, response fields and components,
merged into `docshelf.api.schemas` by name so the classic schemas stay as they are."""

from __future__ import annotations

from docshelf.agentic.plan import ACTIONS, MAX_BUDGET_TOKENS, MAX_STEPS
from docshelf.api.schema_parts import STRINGS as _STRINGS
from docshelf.api.schema_parts import Schema
from docshelf.api.schema_parts import closed as _closed
from docshelf.api.schema_parts import ref as _ref

AGENTIC_BODY_FIELDS: dict[str, Schema] = {
    "mode": {"type": "string", "enum": ["classic", "agentic"], "default": "classic"},
    "budget_tokens": {
        "type": "integer",
        "minimum": 1,
        "maximum": MAX_BUDGET_TOKENS,
        "description": "agentic mode: one token budget for the whole plan's evidence (default: max_tokens)",
    },
}

AGENTIC_RESULT_FIELDS: dict[str, Schema] = {
    "step_id": {"type": "string", "description": "agentic mode: the plan step that found the chunk"},
    "agent_score": {"type": "number", "description": "agentic mode: how well the chunk serves its step (0..1)"},
    "discovery_score": {"type": "number", "description": "agentic mode: the chunk's classic search score"},
}

PLAN_STEP_OUT = _closed(
    {
        "id": {"type": "string"},
        "action": {"type": "string", "enum": list(ACTIONS)},
        "query": {"type": "string"},
        "depends_on": _STRINGS,
    }
)
PLAN_OUT = _closed(
    {
        "planner": {"type": "string", "enum": ["rules", "bedrock"]},
        "fallback_reason": {"type": ["string", "null"]},
        "steps": {"type": "array", "items": _ref("AgenticPlanStepOut"), "maxItems": MAX_STEPS},
    }
)
STEP_OUT = _closed(
    {
        "id": {"type": "string"},
        "action": {"type": "string", "enum": list(ACTIONS)},
        "query": {"type": "string"},
        "status": {"type": "string", "enum": ["done", "skipped", "truncated"]},
        "result_ids": _STRINGS,
        "tokens": {"type": "integer"},
        "latency_ms": {"type": "number"},
    }
)
AGENTIC_OUT_FIELDS: dict[str, Schema] = {
    "mode": {"type": "string", "enum": ["agentic"]},
    "run_id": {"type": "string"},
    "truncated": {"type": "boolean"},
    "tokens_used": {"type": "integer"},
    "budget_tokens": {"type": "integer"},
    "plan": _ref("AgenticPlanOut"),
    "steps": {"type": "array", "items": _ref("AgenticStepOut")},
}

RUN_STEP_OUT = _closed(
    {
        "run_id": {"type": "string"},
        "step_id": {"type": "string"},
        "action": {"type": "string"},
        "query": {"type": "string"},
        "depends_on": _STRINGS,
        "status": {"type": "string"},
        "result_ids": _STRINGS,
        "tokens": {"type": "integer"},
        "latency_ms": {"type": "number"},
    }
)
RUN_OUT = _closed(
    {
        "run_id": {"type": "string"},
        "user": {"type": "string"},
        "namespace": {"type": "string"},
        "query": {"type": "string"},
        "planner": {"type": "string"},
        "fallback_reason": {"type": ["string", "null"]},
        "plan": _ref("AgenticPlanOut"),
        "budget_tokens": {"type": "integer"},
        "tokens_used": {"type": "integer"},
        "truncated": {"type": "boolean"},
        "latency_ms": {"type": "number"},
        "outcome": {"type": "string"},
        "created_at": {"type": "number"},
        "steps": {"type": "array", "items": _ref("RunStepOut")},
    }
)
RUN_ID: Schema = {"type": "string", "pattern": "^[0-9a-f]{32}$", "maxLength": 32}

AGENTIC_COMPONENTS: dict[str, Schema] = {
    "AgenticPlanStepOut": PLAN_STEP_OUT,
    "AgenticPlanOut": PLAN_OUT,
    "AgenticStepOut": STEP_OUT,
    "RunStepOut": RUN_STEP_OUT,
    "RunOut": RUN_OUT,
}
