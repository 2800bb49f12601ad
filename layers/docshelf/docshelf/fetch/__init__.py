"""Fetching a web page safely (`fetcher.py`): public addresses only, pinned connections, bounded everything."""

from docshelf.fetch.addresses import address_refusal
from docshelf.fetch.fetcher import FetchedPage, Fetcher, FetchLimits, NotModified, Validators

__all__ = ["FetchLimits", "FetchedPage", "Fetcher", "NotModified", "Validators", "address_refusal"]
