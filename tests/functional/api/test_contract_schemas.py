"""The API's JSON Schemas: our subset validator agrees with the reference `jsonschema`, and the OpenAPI
document is built from exactly the schemas the resolver validates with."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from docshelf.api.openapi import openapi_document, openapi_json
from docshelf.api.responses import VALIDATOR
from docshelf.api.routes_search import to_search_request
from docshelf.api.schemas import COMPONENTS, SEARCH_BODY, ref
from docshelf.json_schema import SchemaError, Validator
from docshelf.search.request import DEFAULT_MAX_TOKENS, DEFAULT_TOP_K

OK = {"namespace": "demo", "query": "pump seal"}
SEARCH_BODIES: list[Any] = [
    OK,
    {**OK, "top_k": 1, "max_tokens": 20_000},
    {**OK, "filters": {"documents": ["d1"], "exclude_sections": ["Safety"], "chunk_types": ["table", "text"]}},
    {**OK, "query": "tabs\tand\nnewlines are text"},
    {**OK, "query": "ünïcödé 泵 密封"},
    {**OK, "filters": {}},
    {},
    [],
    "pump",
    None,
    {"namespace": "demo"},
    {**OK, "extra": 1},
    {**OK, "namespace": "Bad Name!"},
    {**OK, "namespace": "a" * 65},
    {**OK, "query": ""},
    {**OK, "query": "   \n\t"},
    {**OK, "query": "x" * 1001},
    {**OK, "query": "bell\x07"},
    {**OK, "query": "del\x7f"},
    {**OK, "query": 7},
    {**OK, "top_k": 0},
    {**OK, "top_k": 51},
    {**OK, "top_k": True},
    {**OK, "top_k": "5"},
    {**OK, "top_k": 2.5},
    {**OK, "max_tokens": 20_001},
    {**OK, "filters": []},
    {**OK, "filters": {"documents": "d1"}},
    {**OK, "filters": {"documents": [""]}},
    {**OK, "filters": {"documents": ["x" * 513]}},
    {**OK, "filters": {"documents": ["d"] * 51}},
    {**OK, "filters": {"exclude_sections": ["a\x00b"]}},
    {**OK, "filters": {"chunk_types": ["video"]}},
    {**OK, "filters": {"chunk_types": ["text", "table", "image", "text"]}},
    {**OK, "filters": {"unknown": []}},
]


def reference(name: str) -> Draft202012Validator:
    return Draft202012Validator({**ref(name), "components": {"schemas": COMPONENTS}})


def test_every_component_is_a_valid_json_schema() -> None:
    for schema in COMPONENTS.values():
        Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("body", SEARCH_BODIES, ids=lambda body: json.dumps(body)[:60])
def test_search_body_verdicts_match_the_reference_validator(body: Any) -> None:
    ours = VALIDATOR.problems(body, SEARCH_BODY)
    assert (ours == []) == reference("SearchBody").is_valid(body), ours


def test_integers_are_strict_where_json_schema_is_lenient() -> None:
    # JSON Schema counts 5.0 as an integer; the API, like the search core, wants a JSON integer.
    body = {**OK, "top_k": 5.0}
    assert reference("SearchBody").is_valid(body)
    assert [problem.as_dict() for problem in VALIDATOR.problems(body, SEARCH_BODY, ("body",))] == [
        {"loc": "body.top_k", "msg": "expected integer"}
    ]


def test_problems_name_the_field() -> None:
    problems = VALIDATOR.problems({**OK, "extra": 1, "filters": {"documents": ["ok", ""]}}, SEARCH_BODY, ("body",))
    assert {problem.as_dict()["loc"] for problem in problems} == {"body.extra", "body.filters.documents.1"}


def test_defaults_come_from_the_schema_when_fields_are_left_out() -> None:
    request = to_search_request(OK)
    assert (request.top_k, request.max_tokens) == (DEFAULT_TOP_K, DEFAULT_MAX_TOKENS)
    assert SEARCH_BODY["properties"]["top_k"]["default"] == DEFAULT_TOP_K
    assert SEARCH_BODY["properties"]["max_tokens"]["default"] == DEFAULT_MAX_TOKENS


def test_responses_carry_only_declared_fields() -> None:
    record = {
        "namespace": "demo", "document_id": "d1", "source_key": "demo/a.md", "source_file_name": "a.md",
        "status": "ok", "revision": "r1", "chunk_count": 2, "pages": 3, "error_code": "", "error_message": "",
        "sequencer": "01", "updated_at": 1.0, "chunker": "internal detail",
    }  # fmt: skip
    shown = VALIDATOR.declared(
        {"namespace": "demo", "documents": [record], "next_cursor": None}, ref("DocumentListOut")
    )
    assert "chunker" not in shown["documents"][0]
    assert VALIDATOR.problems(shown, ref("DocumentListOut")) == []
    assert reference("DocumentListOut").is_valid(shown)
    assert not reference("DocumentListOut").is_valid({"namespace": "demo", "documents": [record]})


def test_a_schema_with_an_unsupported_keyword_is_refused() -> None:
    with pytest.raises(SchemaError):
        Validator({"Thing": {"type": "string", "format": "email"}})
    with pytest.raises(SchemaError):
        Validator({"Thing": {"type": "array", "items": {"$ref": "#/components/schemas/Missing"}}})


def test_the_openapi_document_is_built_from_the_validating_schemas() -> None:
    spec = json.loads(openapi_json())
    assert spec == json.loads(json.dumps(openapi_document()))
    assert spec["openapi"].startswith("3.1")
    assert spec["components"]["schemas"] == json.loads(json.dumps(COMPONENTS))
    assert VALIDATOR.components is COMPONENTS
    body = spec["paths"]["/search"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/SearchBody"}
    for path in spec["paths"].values():
        for operation in path.values():
            for response in operation["responses"].values():
                for kind, content in response["content"].items():
                    if kind != "application/json":  # a file or an image: bytes
                        assert content["schema"] == {"type": "string", "format": "binary"}
                        continue
                    assert content["schema"]["$ref"].rsplit("/", 1)[1] in COMPONENTS
