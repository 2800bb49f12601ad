"""The permission check itself: every function is under it, a missing permission fails, and a delete works on AWS
(moto with the check on) down to the search cache and the parse cache."""

from __future__ import annotations

from docshelf.ids import document_id, sha256_hex
from docshelf.keys import parse_cache_key
from tests.functional.aws.harness import FUNCTIONS, Pipeline, permission_check
from tests.functional.aws.iam_policies import Names, Request, Resolver, allowed, role_statements, transformed_template
from tests.functional.aws.recorded_calls import Call, CallRecorder
from tests.functional.aws.template_resources import TemplateStack, load_template

PUMP_GUIDE = b"""# Pump guide

## Maintenance

Inspect the impeller of the TX-100 pump every 500 operating hours and replace the seal kit SK-7.
"""
OTHER = b"# Valve handbook\n\nGate valves are sized by the nominal pipe diameter.\n"


def test_every_function_in_the_template_runs_under_the_check() -> None:
    functions = {name for name, spec in load_template()["Resources"].items()
                 if spec["Type"] == "AWS::Serverless::Function"}  # fmt: skip
    assert functions == set(FUNCTIONS.values())


def test_a_call_the_role_does_not_allow_fails(stack: TemplateStack) -> None:
    check = permission_check(stack, {})
    table = stack.refs["RegistryTable"]
    scan = Call("ParseFunction", "dynamodb", "Scan", {"TableName": table}, presigned=False)
    query = Call("ParseFunction", "dynamodb", "Query", {"TableName": table, "IndexName": "by-revision"}, False)
    presigned_delete = Call("SearchFunction", "s3", "GetObject", {"Bucket": stack.refs["ArtifactsBucket"],
                                                                  "Key": "cache/x"}, presigned=True)  # fmt: skip
    assert check.denied("ParseFunction", [scan]) == [
        f"ParseFunction: dynamodb.Scan needs dynamodb:Scan on arn:aws:dynamodb:us-east-1:123456789012:table/{table}"
    ]
    assert check.denied("ParseFunction", [query]) == []
    assert check.denied("ChunkFunction", [query])  # only the ParseFunction deletes
    assert check.denied("SearchFunction", [presigned_delete]) == []  # it reads artifacts
    put = Call("SearchFunction", "s3", "PutObject", {"Bucket": stack.refs["ArtifactsBucket"], "Key": "x"}, False)
    assert check.denied("SearchFunction", [put])  # the search role never writes artifacts


def test_conditions_on_leading_keys_are_evaluated(stack: TemplateStack) -> None:
    check = permission_check(stack, {})
    table = stack.refs["RegistryTable"]
    run = Call("McpFunction", "dynamodb", "PutItem", {"TableName": table, "Item": {"pk": {"S": "run#1"}}}, False)
    document = Call("McpFunction", "dynamodb", "PutItem", {"TableName": table, "Item": {"pk": {"S": "demo"}}}, False)
    assert check.denied("McpFunction", [run]) == []
    assert check.denied("McpFunction", [document])


def test_a_delete_on_aws_removes_the_document_from_search_the_cache_and_the_parse_cache(
    pipeline: Pipeline, recorded: CallRecorder
) -> None:
    pipeline.upload("demo/pump.md", PUMP_GUIDE)
    pipeline.upload("demo/valves.md", OTHER)
    pipeline.drain()
    pump = document_id("demo", "pump.md")
    assert pipeline.search("impeller seal kit")["results"][0]["document_id"] == pump
    assert pipeline.search("impeller seal kit")["cache"] == "hit"  # a warm search function, a filled cache
    assert pipeline.artifact(parse_cache_key(sha256_hex(PUMP_GUIDE))) is not None

    pipeline.remove("demo/pump.md")
    pipeline.drain()  # every invocation checked against its role: a denied call fails here

    body = pipeline.search("impeller seal kit")
    assert body["cache"] == "miss" and all(r["document_id"] != pump for r in body["results"])
    assert "impeller" not in body["evidence_text"]
    assert pipeline.artifact(parse_cache_key(sha256_hex(PUMP_GUIDE))) is None
    assert pipeline.registry().get("demo", pump).status == "deleted"
    parse_calls = {(c.operation, c.params.get("IndexName")) for c in recorded.calls if c.function == "ParseFunction"}
    assert ("Query", "by-revision") in parse_calls and not any(op == "Scan" for op, _ in parse_calls)


def test_the_planner_may_invoke_an_inference_profile_and_the_models_it_routes_to(stack: TemplateStack) -> None:
    profile = "us.anthropic.claude-3-5-haiku-20241022-v1:0"
    check = permission_check(stack, {"AGENTIC_PLANNER_MODEL_ID": profile})
    converse = Call("SearchFunction", "bedrock-runtime", "Converse", {"modelId": profile}, presigned=False)
    assert check.denied("SearchFunction", [converse]) == []
    assert check.denied("McpFunction", [converse]) == []
    direct = permission_check(stack, {"AGENTIC_PLANNER_MODEL_ID": "anthropic.claude-3-haiku-20240307-v1:0"})
    plain = Call("SearchFunction", "bedrock-runtime", "Converse", {"modelId": "anthropic.claude-3-haiku-20240307-v1:0"},
                 presigned=False)  # fmt: skip
    assert direct.denied("SearchFunction", [plain]) == []
    assert direct.denied("SearchFunction", [converse])  # a profile it was not configured with


def test_the_chunk_function_has_no_bedrock_rights_whatever_the_provider() -> None:
    parameters = {"EmbeddingProvider": "bedrock"}
    template = transformed_template(parameters)
    statements = role_statements(template, "ChunkFunction", Resolver(template, parameters, Names({}, {})))
    model = "arn:aws:bedrock:us-east-1::foundation-model/amazon.titan-embed-text-v2:0"
    assert not allowed(statements, Request("bedrock:InvokeModel", model, {}))
    publish = role_statements(template, "PublishFunction", Resolver(template, parameters, Names({}, {})))
    assert allowed(publish, Request("bedrock:InvokeModel", model, {}))
