"""`docshelf serve`'s own token check: an HS256 bearer JWT (on AWS, API Gateway's JWT authorizer does it)."""

from __future__ import annotations

from typing import Any

from docshelf.api.errors import UnauthorizedError

DEFAULT_LEEWAY_S = 30


def verify_hs256(authorization: str | None, secret: str, *, leeway_s: int = DEFAULT_LEEWAY_S) -> dict[str, Any]:
    """The claims of an `Authorization: Bearer <jwt>` header signed HS256 with `secret`; 401 otherwise.

    The token must carry `sub` and `exp`; `leeway_s` allows for clock skew on `exp`, `nbf` and `iat`.
    """
    import jwt

    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise UnauthorizedError("send a bearer token: Authorization: Bearer <jwt>")
    try:
        claims: dict[str, Any] = jwt.decode(
            token.strip(),
            secret,
            algorithms=["HS256"],
            leeway=leeway_s,
            options={"require": ["sub", "exp"], "verify_aud": False},
        )
    except jwt.PyJWTError as error:
        raise UnauthorizedError(f"the token does not verify: {error}") from None
    return claims
