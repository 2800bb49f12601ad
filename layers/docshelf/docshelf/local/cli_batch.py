"""One line of `docshelf search --queries F --json`: the single search's response body, with the question's id and,
on each result, the `doc` field evaluation scorers read (the file name)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def batch_line(qid: Any, body: Mapping[str, Any]) -> dict[str, Any]:
    return {"qid": qid, **body, "results": [{"doc": r["source_file_name"], **r} for r in body["results"]]}
