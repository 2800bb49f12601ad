"""The client's typed results hold exactly the fields of the response schemas the API publishes."""

from __future__ import annotations

from dataclasses import fields

import pytest

from docshelf.api.schemas import COMPONENTS
from docshelf.client.types import SCHEMA_TYPES, Record, SearchHit, SearchResult, UploadRequest, UploadTarget


@pytest.mark.parametrize("kind", SCHEMA_TYPES, ids=lambda kind: kind.__name__)
def test_every_type_has_its_schemas_fields(kind: type[Record]) -> None:
    schema = COMPONENTS[kind.SCHEMA]
    assert {f.name for f in fields(kind)} - {"extra"} == set(schema["properties"])


def test_the_upload_object_matches_its_schema() -> None:
    upload = COMPONENTS[UploadTarget.SCHEMA]["properties"]["upload"]
    assert {f.name for f in fields(UploadRequest)} - {"extra"} == set(upload["properties"])


def test_nested_records_are_typed_and_unknown_fields_kept() -> None:
    data = {
        "evidence_text": "[1] a.md | A | p. 1 | d#c\nA",
        "results": [{"chunk_id": "c", "document_id": "d", "section_path": ["A"], "pages": [1, 2],
                     "source_file_name": "a.md", "connect_to": [{"target": "t", "relation": "embeds", "ref": "r",
                                                                 "position": 3}], "shard_score": 0.9}],
        "total_chunks": 1,
        "cache": "miss",
        "something_new": True,
    }  # fmt: skip
    result = SearchResult.from_json(data)
    hit = result.results[0]
    assert isinstance(hit, SearchHit) and hit.connect_to[0].position == 3
    assert hit.extra == {"shard_score": 0.9} and result.extra == {"something_new": True}
    assert hit.citation == "a.md | A | pp. 1-2 | d#c"
