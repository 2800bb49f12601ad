"""Who is calling, and which namespaces they may read, from verified JWT claims.

On AWS, API Gateway's JWT authorizer has verified the token and passes its claims on; `docshelf serve` verifies
HS256 tokens itself (`local/bearer.py`). Either way the namespaces come only from the token, never the body.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from docshelf.api.errors import ForbiddenError, UnauthorizedError
from docshelf.api.guard import is_unicode_text
from docshelf.ids import NAMESPACE_PATTERN, validate_namespace

ALL_NAMESPACES = "*"
DEFAULT_USER_CLAIM = "sub"


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
            allowed = ", ".join(sorted(self.namespaces)[:8]) or "none"
            raise ForbiddenError(f"the token does not allow namespace {namespace!r} (it allows: {allowed})")
        return namespace


def caller_from_claims(claims: Mapping[str, Any] | None, names: ClaimNames) -> Caller:
    """The caller, with the namespaces the claim grants (`namespaces_from_claim`); 401 without a usable user."""
    if not claims:
        raise UnauthorizedError("no verified token came with the request")
    raw_user = claims.get(names.user)
    user = str(raw_user) if isinstance(raw_user, (str, int)) and not isinstance(raw_user, bool) else ""
    if not user:
        raise UnauthorizedError(f"the token has no {names.user!r} claim")
    if not is_unicode_text(user):
        raise UnauthorizedError(f"the token's {names.user!r} claim is not valid Unicode text")
    return Caller(user, namespaces_from_claim(claims.get(names.namespaces), names.namespaces))


def namespaces_from_claim(raw: Any, claim: str = "namespaces") -> frozenset[str]:
    """A JSON list of strings, a space-separated string, or API Gateway's flattening of a list, `[a b]`, each a
    namespace or `*`; no claim grants nothing.

    Anything else is a 401 naming the claim, never a token that silently grants nothing: a list holding a
    non-string, a string with a bracket anywhere but around the whole value (`["[alpha", "x]"]` flattened is
    `[[alpha x]]`, which must not grant `alpha`), or a name that is no namespace (`corpus,team-b`).
    """
    if raw is None:
        return frozenset()
    if isinstance(raw, list):
        if not all(isinstance(value, str) and is_unicode_text(value) for value in raw):
            raise _malformed(claim, "a list holding something other than text")
        names = [value for value in raw if value]
    elif isinstance(raw, str) and is_unicode_text(raw):
        text = raw.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        if "[" in text or "]" in text:
            raise _malformed(claim, f"{raw[:80]!r} has brackets inside")
        names = text.split()
    else:
        raise _malformed(claim, f"a JSON {type(raw).__name__}" if is_unicode_text(str(raw)) else "not Unicode text")
    wrong = [name for name in names if name != ALL_NAMESPACES and not NAMESPACE_PATTERN.fullmatch(name)]
    if wrong:
        raise _malformed(claim, f"{wrong[0][:80]!r} is not a namespace")
    return frozenset(names)


def _malformed(claim: str, why: str) -> UnauthorizedError:
    return UnauthorizedError(
        f"the token's {claim!r} claim is malformed ({why}): give a JSON list of namespaces, or them separated by "
        "spaces, or *"
    )
