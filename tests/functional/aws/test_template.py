"""Checks on template.yaml that cfn-lint does not make: retries, dead letters, alarms, least privilege."""

from __future__ import annotations

from typing import Any

from tests.functional.aws.template_resources import load_template, with_conditions

TEMPLATE = load_template()
RESOURCES: dict[str, Any] = TEMPLATE["Resources"]


def functions() -> dict[str, dict[str, Any]]:
    return {n: r["Properties"] for n, r in RESOURCES.items() if r["Type"] == "AWS::Serverless::Function"}


def test_sqs_triggers_report_partial_batch_failures_and_queues_outlast_retries() -> None:
    for name, props in functions().items():
        for event in props.get("Events", {}).values():
            if event["Type"] != "SQS":
                continue
            assert event["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"], name
            queue = RESOURCES[event["Properties"]["Queue"]["Fn::GetAtt"][0]]["Properties"]
            for local in (False, True):  # the publish function's timeout follows EmbeddingProvider, and its queue's
                chosen = {"UseLocalEmbeddings": local}
                timeout = with_conditions(props["Timeout"], chosen)
                assert with_conditions(queue["VisibilityTimeout"], chosen) >= 6 * timeout, name
            assert "deadLetterTargetArn" in queue["RedrivePolicy"], name


def test_the_publish_function_is_sized_for_local_embeddings_only_when_they_are_chosen() -> None:
    publish = functions()["PublishFunction"]
    sizes = {
        local: (with_conditions(publish["MemorySize"], {"UseLocalEmbeddings": local}),
                with_conditions(publish["Timeout"], {"UseLocalEmbeddings": local}))
        for local in (False, True)
    }  # fmt: skip
    assert sizes == {False: (1024, 120), True: (3008, 600)}


def test_function_policies_name_their_resources() -> None:
    def walk(node: Any) -> None:
        if isinstance(node, dict):
            assert node.get("Resource") != "*"
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for props in functions().values():
        walk(props["Policies"])


def test_source_bucket_is_private_versioned_encrypted_and_sends_events() -> None:
    bucket = RESOURCES["SourceBucket"]["Properties"]
    assert all(bucket["PublicAccessBlockConfiguration"].values())
    assert bucket["VersioningConfiguration"] == {"Status": "Enabled"}
    assert bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    assert bucket["NotificationConfiguration"]["EventBridgeConfiguration"]["EventBridgeEnabled"] is True


def test_bedrock_is_allowed_only_with_the_bedrock_provider_and_only_its_model() -> None:
    granted = {}
    for name, props in functions().items():
        for policy in props["Policies"]:
            branches = policy.get("Fn::If", []) if isinstance(policy, dict) else []
            if branches and branches[0] == "UseBedrockEmbeddings":
                (statement,) = branches[1]["Statement"]
                granted[name] = statement
                assert branches[2] == {"Ref": "AWS::NoValue"}
    assert sorted(granted) == ["McpFunction", "PublishFunction", "SearchFunction"]  # chunking embeds nothing
    for statement in granted.values():
        assert statement["Action"] == ["bedrock:InvokeModel"]
        arn, values = statement["Resource"]["Fn::Sub"]
        assert arn == "arn:${AWS::Partition}:bedrock:${AWS::Region}::foundation-model/${Model}"
        assert values["Model"]["Fn::If"][:2] == ["DefaultEmbeddingModel", "amazon.titan-embed-text-v2:0"]
    for name in ("ChunkFunction", "PublishFunction", "SearchFunction", "McpFunction"):
        variables = functions()[name]["Environment"]["Variables"]
        assert variables["EMBEDDING_PROVIDER"] == {"Ref": "EmbeddingProvider"}
        assert variables["EMBEDDING_MODEL_ID"] == {"Ref": "EmbeddingModelId"}
        assert ("PASSAGE_MODEL" in variables) == (name in ("SearchFunction", "McpFunction"))
        if "PASSAGE_MODEL" in variables:
            assert variables["PASSAGE_MODEL"] == {"Ref": "PassageModel"}
