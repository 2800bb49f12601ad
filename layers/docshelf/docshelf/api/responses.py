"""What every route answers with: bodies validated against their documented schema, errors as JSON `{"message"}`.

A request value that fails its schema is a RequestValidationError (400 with the problems); a body that fails its
response schema is a server bug (ResponseValidationError, answered with 500).
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.event_handler import Response

from docshelf.api.errors import ApiError
from docshelf.api.schemas import COMPONENTS
from docshelf.json_schema import Location, Problem, Schema, Validator

VALIDATOR = Validator(COMPONENTS)


class RequestValidationError(ApiError):
    status = 400

    def __init__(self, problems: list[Problem]) -> None:
        summary = "; ".join(f"{problem.as_dict()['loc']}: {problem.msg}" for problem in problems[:3])
        super().__init__(f"invalid request: {summary}")
        self.problems = problems


class ResponseValidationError(Exception):
    """A handler produced a body outside its documented schema: a server bug, answered with 500."""


def validated(value: Any, schema: Schema, loc: Location) -> Any:
    problems = VALIDATOR.problems(value, schema, loc)
    if problems:
        raise RequestValidationError(problems)
    return value


def json_response(payload: Any, schema: Schema, status: int = 200) -> Response[str]:
    body = VALIDATOR.declared(payload, schema)
    problems = VALIDATOR.problems(body, schema, ("response",))
    if problems:
        raise ResponseValidationError("; ".join(f"{p.as_dict()['loc']}: {p.msg}" for p in problems[:3]))
    return Response(status, "application/json", json.dumps(body, ensure_ascii=False, separators=(",", ":")))


def error_response(status: int, message: str, errors: list[dict[str, str]] | None = None) -> Response[str]:
    body: dict[str, Any] = {"message": message}
    if errors:
        body["errors"] = errors
    headers = {"Retry-After": "1"} if status == 429 else None
    return Response(status, "application/json", json.dumps(body, ensure_ascii=False), headers=headers)
