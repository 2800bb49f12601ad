"""Who is calling, and which namespaces they may read, from verified JWT claims.

On AWS, API Gateway's JWT authorizer has verified the token and passes its claims on; `docshelf serve` verifies
HS256 tokens itself with `verify_hs256`. Either way the namespaces come only from the token, never the body.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from docshelf.api.errors import ForbiddenError, UnauthorizedError
from docshelf.ids import validate_namespace

ALL_NAMESPACES = "*"
DEFAULT_USER_CLAIM = "sub"
_CLAIM_SPLIT = re.compile(r"[\s,]+")


@dataclass(frozen=True, slots=True)
class ClaimNames:
    user: str = DEFAULT_USER_CLAIM
    namespaces: str = "namespaces"


@dataclass(frozen=True, slots=True)
class Caller:
    user: str
    namespaces: frozenset[str]

    def may_read(self, namespace: str) -> bool:
        return ALL_NAMESPACES in self.namespaces or namespace in self.namespaces

    def authorize(self, namespace: str) -> str:
        """The namespace, once it is well formed and this caller may read it (400 / 403 otherwise)."""
        validate_namespace(namespace)
        if not self.may_read(namespace):
            raise ForbiddenError(f"the token does not allow namespace {namespace!r}")
        return namespace


ANONYMOUS = Caller("anonymous", frozenset({ALL_NAMESPACES}))


def caller_from_claims(claims: Mapping[str, Any] | None, names: ClaimNames) -> Caller:
    """API Gateway HTTP APIs pass list claims flattened to a string like `[a b]`; accept that and real lists."""
    if not claims:
        raise UnauthorizedError("no verified token came with the request")
    user = str(claims.get(names.user) or "")
    if not user:
        raise UnauthorizedError(f"the token has no {names.user!r} claim")
    raw = claims.get(names.namespaces, "")
    values = raw if isinstance(raw, list) else _CLAIM_SPLIT.split(str(raw).strip().strip("[]"))
    return Caller(user, frozenset(str(value) for value in values if value))


def verify_hs256(authorization: str | None, secret: str) -> dict[str, Any]:
    """The claims of an `Authorization: Bearer <jwt>` header signed HS256 with `secret`; 401 otherwise."""
    import jwt

    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise UnauthorizedError("send a bearer token: Authorization: Bearer <jwt>")
    try:
        claims: dict[str, Any] = jwt.decode(
            token.strip(), secret, algorithms=["HS256"], options={"require": ["sub"], "verify_aud": False}
        )
    except jwt.PyJWTError as error:
        raise UnauthorizedError(f"the token does not verify: {error}") from None
    return claims
