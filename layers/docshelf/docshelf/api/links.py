"""Links a client can follow as handed: `docshelf serve`'s host-relative ones made absolute with the request's
Host (a presigned S3 URL on AWS already is), in search results, evidence image lines and upload targets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SERVED_PREFIXES = ("/documents/", "/uploads?")


def absolute_url(url: str, headers: Mapping[str, str] | None) -> str:
    host = {name.lower(): value for name, value in (headers or {}).items()}.get("host")
    return f"http://{host}{url}" if host and url.startswith(SERVED_PREFIXES) else url


def absolute_links(payload: dict[str, Any], headers: Mapping[str, str] | None) -> dict[str, Any]:
    """The search response with each result's `asset` and each `[image: ...]` line absolute (a copy)."""
    origin = absolute_url("/documents/", headers)[: -len("/documents/")]
    if not origin:
        return payload
    results = [
        {**result, "asset": absolute_url(result["asset"], headers)} if "asset" in result else result
        for result in payload["results"]
    ]
    evidence = payload["evidence_text"].replace("[image: /documents/", f"[image: {origin}/documents/")
    return {**payload, "results": results, "evidence_text": evidence}


def wants_json(headers: Mapping[str, str] | None) -> bool:
    """A client asking for JSON (the API's clients), not a browser navigating to a file."""
    accept = {name.lower(): value for name, value in (headers or {}).items()}.get("accept", "")
    return "application/json" in accept and "text/html" not in accept
