"""The pieces every part of the HTTP contract's schemas is built of (schemas.py and its agentic, ingress and graph
parts), so that the parts import them from below and `schemas.COMPONENTS` is assembled once."""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

NAMESPACE_REGEX = r"^[a-z0-9][a-z0-9_-]{0,63}$"
# Tab, newline and carriage return are text; every other C0 control character and DEL are refused.
NO_CONTROL_CHARACTERS_REGEX = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$"
NAMESPACE: Schema = {"type": "string", "pattern": NAMESPACE_REGEX, "maxLength": 64}
STRINGS: Schema = {"type": "array", "items": {"type": "string"}}


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def closed(properties: dict[str, Schema], *, required: list[str] | None = None, **extra: Any) -> Schema:
    """An object with exactly these properties, all required unless `required` says otherwise."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
        **extra,
    }
