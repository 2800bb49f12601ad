"""URLs in logs and error messages keep no query string, fragment or credentials."""

from __future__ import annotations

import pytest

from docshelf.errors import FetchRefusedError
from docshelf.fetch.shown_urls import shown_url


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://example.com/a/b.html", "https://example.com/a/b.html"),
        ("https://example.com/report.pdf?X-Amz-Signature=abc&token=s3cr3t", "https://example.com/report.pdf?…"),
        ("https://user:pass@example.com:8443/p#frag", "https://example.com:8443/p"),
        ("http://[::1]:8080/x?k=v", "http://[::1]:8080/x?…"),
        ("https://example.com:99999/x", "<an unparsable URL>"),
    ],
)
def test_shown_url_drops_what_can_carry_a_secret(url: str, shown: str) -> None:
    assert shown_url(url) == shown


def test_a_refused_fetch_names_the_url_without_its_query() -> None:
    from docshelf.fetch.fetcher import Fetcher

    with pytest.raises(FetchRefusedError) as raised:
        Fetcher().fetch("ftp://example.com/file?token=s3cr3t")
    assert "s3cr3t" not in str(raised.value) and "ftp://example.com/file" in str(raised.value)
