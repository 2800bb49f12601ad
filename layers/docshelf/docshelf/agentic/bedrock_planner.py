"""The LLM planner: Amazon Bedrock's Converse API asked for a JSON plan, validated against `PLAN_SCHEMA` and the
plan rules; anything else (invalid JSON, a plan off the schema or naming another namespace, a timeout, a
throttle, any refusal) falls back to the rule-based plan with the reason in `fallback_reason`."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import replace
from typing import Any

from docshelf.agentic.plan import ACTIONS, MAX_STEPS, Plan, PlanError, plan_from_dict
from docshelf.agentic.rules import rule_plan
from docshelf.json_schema import Validator

_log = logging.getLogger(__name__)
MAX_OUTPUT_TOKENS = 600
_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$")
PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["steps"],
    "additionalProperties": False,
    "properties": {
        "steps": {
            "type": "array",
            "maxItems": MAX_STEPS,
            "items": {
                "type": "object",
                "required": ["id", "action", "query", "depends_on"],
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "string", "pattern": "^s[0-9]{1,3}$"},
                    "action": {"type": "string", "enum": list(ACTIONS)},
                    "query": {"type": "string", "minLength": 1, "maxLength": 1000},
                    "depends_on": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_STEPS},
                    "namespace": {"type": "string"},
                },
            },
        }
    },
}
_VALIDATOR = Validator({"Plan": PLAN_SCHEMA})
SYSTEM_PROMPT = f"""You plan document searches. You never answer the question.
Split the user's question into at most {MAX_STEPS} steps and reply with JSON only, of this form:
{{"steps": [{{"id": "s1", "action": "search", "query": "...", "depends_on": []}}]}}
- "search": a self-contained keyword query for one part of the question (one per compared item, list item or
  sub-question; a single question is one search step);
- "navigate": walk the sections of the documents that the steps in depends_on found (for overviews, a whole
  section, or context around a finding); it must depend on at least one search step;
- ids are s1, s2, ... in order; depends_on lists earlier ids whose results the step needs."""


class BedrockPlanner:
    """A PlanMaker over a `bedrock-runtime` client (give it short timeouts and no retries: the fallback is
    the retry)."""

    def __init__(self, client: Any, model_id: str) -> None:
        self.client = client
        self.model_id = model_id

    @property
    def name(self) -> str:
        return f"bedrock:{self.model_id}"

    def __call__(self, query: str, namespace: str) -> Plan:
        try:
            text = self._converse(query)
        except Exception as error:
            return _fallback(query, namespace, _service_failure(error))
        try:
            data = json.loads(_FENCE.sub("", text))
        except ValueError as error:
            return _fallback(query, namespace, f"invalid JSON from the model: {error}")
        problems = _VALIDATOR.problems(data, PLAN_SCHEMA, ("plan",))
        if problems:
            detail = "; ".join(f"{p.as_dict()['loc']}: {p.msg}" for p in problems[:3])
            return _fallback(query, namespace, f"the model's plan does not match the schema: {detail}")
        try:
            return plan_from_dict(data, "bedrock", namespace)
        except PlanError as error:
            return _fallback(query, namespace, f"the model's plan was refused: {error}")

    def _converse(self, query: str) -> str:
        response = self.client.converse(
            modelId=self.model_id,
            system=[{"text": SYSTEM_PROMPT}],
            messages=[{"role": "user", "content": [{"text": query}]}],
            inferenceConfig={"maxTokens": MAX_OUTPUT_TOKENS, "temperature": 0.0},
        )
        content = response.get("output", {}).get("message", {}).get("content", [])
        return "".join(str(block.get("text", "")) for block in content if isinstance(block, dict))


def _service_failure(error: Exception) -> str:
    response = getattr(error, "response", None)
    code = response.get("Error", {}).get("Code") if isinstance(response, dict) else None
    if code in ("ThrottlingException", "TooManyRequestsException", "ServiceUnavailableException"):
        return f"throttled: {code}"
    if "timeout" in type(error).__name__.lower() or "timed out" in str(error).lower():
        return f"timeout: {error}"
    return f"bedrock error: {code or type(error).__name__}"


def _fallback(query: str, namespace: str, reason: str) -> Plan:
    _log.warning("agentic planner fell back to rules: %s", reason)
    return replace(rule_plan(query, namespace), fallback_reason=reason)


def bedrock_planner(model_id: str, client: Any = None) -> BedrockPlanner:
    """The planner over `client`, or over a `bedrock-runtime` client of boto3's default credentials and region
    allowed one short try: a slow or throttled model costs the search at most that, then the rules plan."""
    if client is None:
        import boto3
        from botocore.config import Config

        config = Config(connect_timeout=2, read_timeout=8, retries={"max_attempts": 1})
        client = boto3.client("bedrock-runtime", config=config)
    return BedrockPlanner(client, model_id)
