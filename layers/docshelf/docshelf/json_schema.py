"""A validator for the subset of JSON Schema (draft 2020-12) that `docshelf.api.schemas` and the agentic planner use.

It exists so that a cold search request validates in microseconds without importing a schema library:
pydantic with Powertools' OpenAPI machinery, or jsonschema, each cost more import time than the whole search
function's budget. `check_schema` refuses any keyword outside the subset, so a schema can never rely on a
keyword that would silently be ignored; the tests compare the verdicts with the reference `jsonschema`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Schema = Mapping[str, Any]
Location = tuple[str | int, ...]

ANNOTATIONS = frozenset({"description", "default", "title", "examples"})
KEYWORDS = frozenset(
    {
        "$ref", "type", "enum", "allOf", "minLength", "maxLength", "pattern", "minimum", "maximum",
        "items", "maxItems", "properties", "required", "additionalProperties",
    }
) | ANNOTATIONS  # fmt: skip
REF_PREFIX = "#/components/schemas/"
MAX_PROBLEMS = 20


@dataclass(frozen=True)
class Problem:
    loc: Location
    msg: str

    def as_dict(self) -> dict[str, str]:
        return {"loc": ".".join(str(part)[:64] for part in self.loc), "msg": self.msg}


class SchemaError(ValueError):
    """The schema itself uses something this validator does not implement."""


@functools.lru_cache(maxsize=64)
def _pattern(regex: str) -> re.Pattern[str]:
    return re.compile(regex)


def _is_type(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list | tuple)  # json.dumps writes a tuple as an array
    if name == "null":
        return value is None
    raise SchemaError(f"unknown type {name!r}")


class Validator:
    """Validates instances against schemas whose `$ref`s point into `components` (OpenAPI's layout)."""

    def __init__(self, components: Mapping[str, Schema]) -> None:
        self.components = components
        for schema in components.values():
            self.check_schema(schema)

    def resolve(self, schema: Schema) -> Schema:
        while "$ref" in schema:
            reference = str(schema["$ref"])
            if not reference.startswith(REF_PREFIX) or reference[len(REF_PREFIX) :] not in self.components:
                raise SchemaError(f"unresolvable $ref {reference!r}")
            schema = self.components[reference[len(REF_PREFIX) :]]
        return schema

    def check_schema(self, schema: Schema) -> None:
        unknown = set(schema) - KEYWORDS
        if unknown:
            raise SchemaError(f"unsupported keywords {sorted(unknown)}")
        if "$ref" in schema:
            self.resolve(schema)
        for name in [schema["type"]] if isinstance(schema.get("type"), str) else schema.get("type", []):
            _is_type(None, name)
        if "pattern" in schema:
            _pattern(schema["pattern"])
        children = [*schema.get("allOf", []), *schema.get("properties", {}).values()]
        for key in ("items", "additionalProperties"):
            if isinstance(schema.get(key), Mapping):
                children.append(schema[key])
        for child in children:
            self.check_schema(child)

    def problems(self, instance: Any, schema: Schema, loc: Location = ()) -> list[Problem]:
        found: list[Problem] = []
        self._check(instance, schema, loc, found)
        return found[:MAX_PROBLEMS]

    def _check(self, value: Any, schema: Schema, loc: Location, found: list[Problem]) -> None:
        if len(found) >= MAX_PROBLEMS:
            return
        schema = self.resolve(schema)
        types = schema.get("type")
        if types is not None:
            names = [types] if isinstance(types, str) else list(types)
            if not any(_is_type(value, name) for name in names):
                found.append(Problem(loc, f"expected {' or '.join(names)}"))
                return
        if "enum" in schema and not any(_same(value, option) for option in schema["enum"]):
            found.append(Problem(loc, "expected one of " + ", ".join(map(repr, schema["enum"]))))
        for part in schema.get("allOf", ()):
            self._check(value, part, loc, found)
        if isinstance(value, str):
            self._check_string(value, schema, loc, found)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            _check_number(value, schema, loc, found)
        elif isinstance(value, list | tuple):
            if "maxItems" in schema and len(value) > schema["maxItems"]:
                found.append(Problem(loc, f"at most {schema['maxItems']} items"))
            for index, item in enumerate(value if "items" in schema else ()):
                self._check(item, schema["items"], (*loc, index), found)
        elif isinstance(value, dict):
            self._check_object(value, schema, loc, found)

    def _check_string(self, value: str, schema: Schema, loc: Location, found: list[Problem]) -> None:
        if "minLength" in schema and len(value) < schema["minLength"]:
            found.append(Problem(loc, f"at least {schema['minLength']} characters"))
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            found.append(Problem(loc, f"at most {schema['maxLength']} characters"))
        if "pattern" in schema and _pattern(schema["pattern"]).search(value) is None:
            found.append(Problem(loc, f"does not match {schema['pattern']}"))

    def _check_object(self, value: dict[str, Any], schema: Schema, loc: Location, found: list[Problem]) -> None:
        properties: Mapping[str, Schema] = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in value:
                found.append(Problem((*loc, name), "field required"))
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in properties:
                self._check(item, properties[name], (*loc, name), found)
            elif extra is False:
                found.append(Problem((*loc, name), "unknown field"))
            elif isinstance(extra, Mapping):
                self._check(item, extra, (*loc, name), found)

    def declared(self, value: Any, schema: Schema) -> Any:
        """`value` with the object properties the schema does not declare left out (recursively), so a
        response carries exactly its contract even when the core adds fields."""
        schema = self.resolve(schema)
        if isinstance(value, dict) and "properties" in schema:
            properties = schema["properties"]
            return {name: self.declared(item, properties[name]) for name, item in value.items() if name in properties}
        if isinstance(value, list | tuple) and isinstance(schema.get("items"), Mapping):
            return [self.declared(item, schema["items"]) for item in value]
        return value


def _check_number(value: float, schema: Schema, loc: Location, found: list[Problem]) -> None:
    if "minimum" in schema and value < schema["minimum"]:
        found.append(Problem(loc, f"must be at least {schema['minimum']}"))
    if "maximum" in schema and value > schema["maximum"]:
        found.append(Problem(loc, f"must be at most {schema['maximum']}"))


def _same(value: Any, option: Any) -> bool:
    return type(value) is type(option) and bool(value == option)
