"""URLs as logs, statuses and error messages show them: without query string, fragment or credentials, which can
carry tokens (a signed link, an API key) that must not end up in CloudWatch or in a document's error message."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def shown_url(url: str) -> str:
    """`url` without its query, fragment and user info ("?…" marks a removed query)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "<an unparsable URL>"
    netloc = f"[{host}]{port}" if ":" in host else f"{host}{port}"
    shown = urlunsplit((parts.scheme, netloc, parts.path, "", ""))
    return shown + ("?…" if parts.query else "")
