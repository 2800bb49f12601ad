"""Drives the real handlers the way Lambda's SQS poller and API Gateway would, against moto."""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from docshelf.aws.services import AwsServices, reset_services
from docshelf.aws.settings import Settings
from tests.functional.aws.iam_policies import Names
from tests.functional.aws.recorded_calls import PermissionCheck, active_recorder
from tests.functional.aws.template_resources import TemplateStack

EVENTS = Path(__file__).resolve().parents[3] / "events"
FUNCTIONS = {
    "parse": "ParseFunction",
    "chunk": "ChunkFunction",
    "publish": "PublishFunction",
    "search": "SearchFunction",
    "mcp": "McpFunction",
}
MOTO_SEQUENCER = "617f08299329d189"
QUEUES = {"parse": "ParseQueue", "chunk": "ChunkQueue", "publish": "PublishQueue"}
# The template parameters an environment override stands for (the roles differ with them).
PARAMETERS_OF_ENVIRONMENT = {
    "EMBEDDING_PROVIDER": "EmbeddingProvider",
    "EMBEDDING_MODEL_ID": "EmbeddingModelId",
    "PASSAGE_MODEL": "PassageModel",
    "AGENTIC_PLANNER_MODEL_ID": "AgenticPlannerModelId",
    "OPENSEARCH_ENDPOINT": "OpenSearchEndpoint",
    "OPENSEARCH_SERVICE": "OpenSearchService",
    "OPENSEARCH_INDEX": "OpenSearchIndexName",
}


def template_parameters(environment: Mapping[str, str]) -> dict[str, str]:
    """The stack parameters a deployment with this function environment would have."""
    parameters = {PARAMETERS_OF_ENVIRONMENT[k]: v for k, v in environment.items() if k in PARAMETERS_OF_ENVIRONMENT}
    if parameters.get("OpenSearchEndpoint"):
        parameters["OpenSearchMode"] = "existing"
        service = parameters.get("OpenSearchService", "es")
        parameters["OpenSearchResourceArn"] = (
            "arn:aws:aoss:us-east-1:123456789012:collection/docshelftest"
            if service == "aoss"
            else "arn:aws:es:us-east-1:123456789012:domain/docshelftest"
        )
    return parameters


def permission_check(stack: TemplateStack, environment: Mapping[str, str]) -> PermissionCheck:
    names = Names(refs=stack.refs, arns=stack.queue_arns)
    queue_arns = {stack.queue_urls[name]: arn for name, arn in stack.queue_arns.items()}
    return PermissionCheck(names, template_parameters(environment), queue_arns, stack.hash_keys)


def sample_event(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EVENTS / name).read_text(encoding="utf-8"))
    return data


@dataclass
class LambdaContext:
    function_name: str = "docshelf-test"
    memory_limit_in_mb: int = 1024
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:docshelf-test"
    aws_request_id: str = "00000000-0000-0000-0000-000000000000"

    def get_remaining_time_in_millis(self) -> int:
        return 900_000


class Pipeline:
    """The template's resources plus one warm 'instance' of each function, each with its own environment."""

    def __init__(self, stack: TemplateStack, environment: Mapping[str, str] | None = None) -> None:
        """`environment` is set over every function's own (an OpenSearch endpoint, say)."""
        self.stack = stack
        self.source_bucket = stack.refs["SourceBucket"]
        self.artifacts_bucket = stack.refs["ArtifactsBucket"]
        self.services = {
            name: AwsServices(Settings.from_env({**stack.function_environment(function), **(environment or {})}))
            for name, function in FUNCTIONS.items()
        }
        self.uses_opensearch = self.services["publish"].uses_opensearch
        self.permissions = permission_check(stack, environment or {})
        self.modules: dict[str, ModuleType] = {
            name: importlib.import_module(f"functions.{name}.app") for name in FUNCTIONS
        }
        self._sequence = 0

    # -- S3 side
    def upload(self, key: str, data: bytes) -> None:
        self.stack.s3.put_object(Bucket=self.source_bucket, Key=key, Body=data)

    def remove(self, key: str) -> None:
        response = self.stack.s3.delete_object(Bucket=self.source_bucket, Key=key)
        # moto emits no event when a versioned bucket gets a delete marker; real S3 emits "Object Deleted"
        # (deletion-type "Delete Marker Created"). Publish that event to EventBridge so the template's rule
        # still decides where it goes.
        detail = sample_event("parse_object_deleted.json")["Records"][0]["body"]
        event = json.loads(detail)["detail"]
        event["bucket"]["name"] = self.source_bucket
        event["object"] = {"key": key, "version-id": response["VersionId"], "sequencer": MOTO_SEQUENCER}
        self.stack.events.put_events(
            Entries=[
                {
                    "Source": "aws.s3",
                    "DetailType": "Object Deleted",
                    "Detail": json.dumps(event),
                    "Resources": [f"arn:aws:s3:::{self.source_bucket}"],
                }
            ]
        )

    # -- queues
    def receive(self, stage: str, *, max_messages: int = 10) -> list[dict[str, Any]]:
        url = self.stack.queue_urls[QUEUES[stage]]
        response = self.stack.sqs.receive_message(
            QueueUrl=url, MaxNumberOfMessages=max_messages, AttributeNames=["All"]
        )
        messages: list[dict[str, Any]] = response.get("Messages", [])
        if stage == "parse":
            for message in messages:
                message["Body"] = self._with_sequencer(message["Body"])
        return messages

    def _with_sequencer(self, body: str) -> str:
        # moto stamps every S3 event with one constant sequencer; real S3 increases it per key with each
        # change. Messages arrive here in the order moto emitted them, so a counter restores that order.
        event = json.loads(body)
        if event.get("detail", {}).get("object", {}).get("sequencer") == MOTO_SEQUENCER:
            self._sequence += 1
            event["detail"]["object"]["sequencer"] = f"{0x617F08299329D189 + self._sequence:018X}"
        return json.dumps(event)

    def sqs_event(self, stage: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
        template = sample_event({"parse": "parse_object_created.json", "chunk": "chunk_message.json",
                                 "publish": "publish_message.json"}[stage])["Records"][0]  # fmt: skip
        records = []
        for message in messages:
            record = copy.deepcopy(template)
            record.update(messageId=message["MessageId"], receiptHandle=message["ReceiptHandle"], body=message["Body"])
            receives = message.get("Attributes", {}).get("ApproximateReceiveCount", "1")
            record["attributes"] = {**record.get("attributes", {}), "ApproximateReceiveCount": receives}
            record["eventSourceARN"] = self.stack.queue_arns[QUEUES[stage]]
            records.append(record)
        return {"Records": records}

    def invoke(self, stage: str, event: dict[str, Any]) -> dict[str, Any]:
        """Run the handler; fails when the function's role (template after the SAM transform) would deny any AWS
        call it made."""
        reset_services(self.services[stage])
        try:
            with active_recorder().acting_as(FUNCTIONS[stage]) as calls:
                result: dict[str, Any] = self.modules[stage].lambda_handler(event, LambdaContext(function_name=stage))
        finally:
            reset_services()
        self.permissions.assert_allowed(FUNCTIONS[stage], calls)
        return result

    def run(self, stage: str, messages: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """One poll: receive a batch, invoke the handler, delete what succeeded (as Lambda's SQS poller does)."""
        messages = self.receive(stage) if messages is None else messages
        if not messages:
            return {"batchItemFailures": []}
        response = self.invoke(stage, self.sqs_event(stage, messages))
        failed = {item["itemIdentifier"] for item in response["batchItemFailures"]}
        url = self.stack.queue_urls[QUEUES[stage]]
        for message in messages:
            if message["MessageId"] not in failed:
                self.stack.sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        if self.uses_opensearch:
            index: Any = self.services["publish"].index()
            index.commit()  # what OpenSearch's 1 s refresh interval does by itself
        return response

    def drain(self) -> None:
        """Run every stage until all three queues are empty."""
        for _ in range(20):
            busy = False
            for stage in ("parse", "chunk", "publish"):
                messages = self.receive(stage)
                if messages:
                    busy = True
                    self.run(stage, messages)
            if not busy:
                return
        raise AssertionError("the pipeline did not settle")

    # -- HTTP side
    def http(self, sample: str, *, body: dict[str, Any] | None = None, query: dict[str, str] | None = None,
             path_document: str | None = None, path_rest: str = "",
             groups: str = "[demo]") -> tuple[int, dict[str, Any]]:  # fmt: skip
        event = sample_event(sample)
        if body is not None:
            event["body"] = json.dumps(body)
        if query is not None:
            event["queryStringParameters"] = query
            event["rawQueryString"] = "&".join(f"{k}={v}" for k, v in query.items())
        if path_document is not None:
            path = f"/documents/{path_document}{path_rest}"
            event["rawPath"] = event["requestContext"]["http"]["path"] = path
            event["pathParameters"] = {"document_id": path_document}
        event["requestContext"]["authorizer"]["jwt"]["claims"]["cognito:groups"] = groups
        response = self.invoke("search", event)
        return int(response["statusCode"]), json.loads(response["body"])

    def search(self, query: str, **extra: Any) -> dict[str, Any]:
        status, body = self.http("search_request.json", body={"namespace": "demo", "query": query, **extra})
        assert status == 200, body
        return body

    # -- state
    def registry(self) -> Any:
        return self.services["publish"].registry

    def artifact(self, key: str) -> bytes | None:
        return self.services["publish"].store.get(key)


def announce_delete_marker(pipeline: Pipeline, key: str) -> None:
    """The event S3 sends for a delete marker, which moto does not."""
    versions = pipeline.stack.s3.list_object_versions(Bucket=pipeline.source_bucket, Prefix=key)
    marker = versions["DeleteMarkers"][0]["VersionId"]
    detail = json.loads(sample_event("parse_object_deleted.json")["Records"][0]["body"])["detail"]
    detail["bucket"]["name"] = pipeline.source_bucket
    detail["object"] = {"key": key, "version-id": marker, "sequencer": MOTO_SEQUENCER}
    entry = {"Source": "aws.s3", "DetailType": "Object Deleted", "Detail": json.dumps(detail)}
    pipeline.stack.events.put_events(Entries=[{**entry, "Resources": [f"arn:aws:s3:::{pipeline.source_bucket}"]}])
