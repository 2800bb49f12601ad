"""The agentic plan: a small DAG of search and navigation steps, validated before anything runs.

A plan never holds an answer step: it only says what to look up (search) and which found documents to walk
(navigate). Every step runs in the request's namespace; a plan that names any other is refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeAlias

from docshelf.errors import InvalidQueryError

Action: TypeAlias = Literal["search", "navigate"]
ACTIONS: tuple[Action, ...] = ("search", "navigate")
Planner: TypeAlias = Literal["rules", "bedrock"]
MAX_STEPS = 8
MAX_BUDGET_TOKENS = 20_000
MAX_STEP_QUERY_CHARS = 1_000
STEP_ID = re.compile(r"^s[0-9]{1,3}$")


class PlanError(InvalidQueryError):
    """A plan that cannot run: unknown action, a cycle, too many steps, or another namespace."""


@dataclass(frozen=True, slots=True)
class Step:
    id: str
    action: Action
    query: str
    depends_on: tuple[str, ...] = ()
    namespace: str | None = None  # None: the request's; anything else is refused by `validate_plan`

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "action": self.action, "query": self.query, "depends_on": list(self.depends_on)}


@dataclass(frozen=True, slots=True)
class Plan:
    steps: tuple[Step, ...]
    planner: Planner = "rules"
    fallback_reason: str | None = None
    by_id: dict[str, Step] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {step.id: step for step in self.steps})

    def to_dict(self) -> dict[str, Any]:
        return {
            "planner": self.planner,
            "fallback_reason": self.fallback_reason,
            "steps": [step.to_dict() for step in self.steps],
        }


def validate_plan(plan: Plan, namespace: str) -> Plan:
    """`plan` when it can run in `namespace`; otherwise PlanError saying why."""
    if not plan.steps:
        raise PlanError("a plan needs at least one step")
    if len(plan.steps) > MAX_STEPS:
        raise PlanError(f"a plan may have at most {MAX_STEPS} steps, this one has {len(plan.steps)}")
    if len(plan.by_id) != len(plan.steps):
        raise PlanError("step ids must be unique")
    for step in plan.steps:
        _check_step(step, plan, namespace)
    topological_levels(plan)  # raises on a cycle
    return plan


def _check_step(step: Step, plan: Plan, namespace: str) -> None:
    if not STEP_ID.match(step.id):
        raise PlanError(f"step id {step.id!r} is not of the form s<number>")
    if step.action not in ACTIONS:
        raise PlanError(f"step {step.id}: unknown action {step.action!r}")
    if step.namespace is not None and step.namespace != namespace:
        raise PlanError(f"step {step.id} refers to namespace {step.namespace!r}, not the request's {namespace!r}")
    if not step.query.strip() or len(step.query) > MAX_STEP_QUERY_CHARS:
        raise PlanError(f"step {step.id}: the query must hold 1 to {MAX_STEP_QUERY_CHARS} characters")
    unknown = [dep for dep in step.depends_on if dep not in plan.by_id]
    if unknown:
        raise PlanError(f"step {step.id} depends on unknown steps {unknown}")
    if step.action == "navigate" and not step.depends_on:
        raise PlanError(f"navigate step {step.id} must depend on the steps whose documents it walks")


def topological_levels(plan: Plan) -> list[list[Step]]:
    """The steps in waves: each wave depends only on earlier waves (steps of one wave may run together)."""
    done: set[str] = set()
    waves: list[list[Step]] = []
    left = list(plan.steps)
    while left:
        ready = [step for step in left if all(dep in done for dep in step.depends_on)]
        if not ready:
            raise PlanError(f"the plan has a cycle among steps {[step.id for step in left]}")
        waves.append(ready)
        done.update(step.id for step in ready)
        left = [step for step in left if step.id not in done]
    return waves


def plan_from_dict(data: Mapping[str, Any], planner: Planner, namespace: str) -> Plan:
    """A plan from its JSON form (an LLM's answer), validated; PlanError when it is malformed."""
    steps = data.get("steps")
    if not isinstance(steps, Sequence) or isinstance(steps, str):
        raise PlanError("a plan is an object with a list of steps")
    built = []
    for item in steps:
        if not isinstance(item, Mapping):
            raise PlanError("each step is an object")
        depends = item.get("depends_on", [])
        if not isinstance(depends, list) or not all(isinstance(dep, str) for dep in depends):
            raise PlanError("depends_on is a list of step ids")
        action, query, step_id = item.get("action"), item.get("query"), item.get("id")
        if action not in ACTIONS or not isinstance(query, str) or not isinstance(step_id, str):
            raise PlanError("each step has an id, an action (search or navigate) and a query")
        step_namespace = item.get("namespace")
        if step_namespace is not None and not isinstance(step_namespace, str):
            raise PlanError("a step's namespace is a string")
        built.append(Step(step_id, action, query, tuple(depends), step_namespace))
    return validate_plan(Plan(tuple(built), planner), namespace)


class PlanMaker(Protocol):
    """A planner: (query, namespace) -> a validated plan. `name` goes into the search cache key."""

    @property
    def name(self) -> str: ...

    def __call__(self, query: str, namespace: str) -> Plan: ...


def single_step_plan(query: str) -> Plan:
    return Plan((Step("s1", "search", query),))
