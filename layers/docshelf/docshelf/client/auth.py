"""How the client authorizes its requests: a bearer JWT (API Gateway's JWT authorizer, `docshelf serve`) or AWS
Signature Version 4 for a deployment whose API is IAM-authorized.

SigV4 uses botocore (`pip install botocore`, present in every Lambda runtime): its signer and its credential chain
(environment, profile, SSO, instance and container roles) are what AWS's own SDKs use, and signing by hand would
repeat both. It is imported only when a SigV4 signer signs its first request.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class BearerToken:
    """`Authorization: Bearer <token>`; `token` may be a callable that returns a fresh token for each request."""

    token: str | Callable[[], str]

    def headers(self, method: str, url: str, body: bytes, headers: Mapping[str, str]) -> dict[str, str]:
        value = self.token() if callable(self.token) else self.token
        return {"Authorization": f"Bearer {value}"}


@dataclass(slots=True)
class SigV4:
    """Requests signed for `service` (API Gateway: `execute-api`) in `region`, with botocore's credential chain
    unless `credentials` (a botocore Credentials object) is given."""

    region: str
    service: str = "execute-api"
    credentials: Any = None
    _session: Any = field(default=None, init=False, repr=False)

    def headers(self, method: str, url: str, body: bytes, headers: Mapping[str, str]) -> dict[str, str]:
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest

        request = AWSRequest(method=method, url=url, data=body, headers=dict(headers))
        SigV4Auth(self._credentials(), self.service, self.region).add_auth(request)
        signed = ("authorization", "x-amz-date", "x-amz-security-token", "x-amz-content-sha256")
        return {name: value for name, value in request.headers.items() if name.lower() in signed}

    def _credentials(self) -> Any:
        if self.credentials is None:
            import botocore.session

            if self._session is None:
                self._session = botocore.session.get_session()
            credentials = self._session.get_credentials()
            if credentials is None:
                raise RuntimeError("no AWS credentials found for SigV4 (environment, profile or role)")
            return credentials.get_frozen_credentials()
        return self.credentials
