"""What every route module needs besides its own logic: its router, the JSON body, the `namespace` query parameter,
the caller and the host's API services (`RouteContext`, whose parts are called per request, so nothing is built at
import time)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter

from docshelf.api.auth import Caller, ClaimNames, caller_from_claims
from docshelf.api.guard import is_unicode_text
from docshelf.api.responses import RequestValidationError, validated
from docshelf.api.schemas import NAMESPACE
from docshelf.json_schema import Location, Problem

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEventV2

    from docshelf.api.service import ApiServices


@dataclass(frozen=True, slots=True)
class RouteContext:
    """The host's API services and the names of the token's claims, as the host provides them."""

    services: Callable[[], ApiServices]
    claim_names: Callable[[], ClaimNames]

    def caller(self, event: APIGatewayProxyEventV2) -> Caller:
        return caller_from_claims(event.request_context.authorizer.jwt_claim, self.claim_names())


def new_router() -> APIGatewayHttpRouter:
    """A route module's Powertools router, one for each resolver it is joined to (`include_router` points a router's
    `current_event` at the resolver that includes it)."""
    return APIGatewayHttpRouter()  # type: ignore[no-untyped-call]  # Powertools leaves Router.__init__ unannotated


def namespace_param(event: APIGatewayProxyEventV2) -> str:
    namespace = (event.query_string_parameters or {}).get("namespace")
    if namespace is None:
        raise RequestValidationError([Problem(("query", "namespace"), "field required")])
    value: str = validated(namespace, NAMESPACE, ("query", "namespace"))
    return value


def json_body(text: str | None) -> Any:
    """The body as JSON; `check_event` has already bounded its size, encoding and depth."""
    if not text:
        raise RequestValidationError([Problem(("body",), "field required")])
    try:
        data = json.loads(text)
    except ValueError:
        raise RequestValidationError([Problem(("body",), "invalid JSON")]) from None
    problems = list(_non_unicode_text(data, ("body",)))
    if problems:
        raise RequestValidationError(problems)
    return data


def _non_unicode_text(value: Any, loc: Location) -> Iterator[Problem]:
    """Every key or string that JSON escapes made into text no UTF-8 can carry (`"\\ud800"`)."""
    if isinstance(value, str) and not is_unicode_text(value):
        yield Problem(loc, "text is not valid Unicode: it holds a lone surrogate")
    elif isinstance(value, dict):
        for key, item in value.items():
            if not is_unicode_text(key):
                yield Problem(loc, "a field name is not valid Unicode: it holds a lone surrogate")
            else:
                yield from _non_unicode_text(item, (*loc, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _non_unicode_text(item, (*loc, index))
