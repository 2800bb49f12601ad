"""Create moto resources from template.yaml's own definitions, so the tests exercise the deployed shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]  # PyYAML comes with moto; no stubs in the dev set

TEMPLATE = Path(__file__).resolve().parents[3] / "template.yaml"


class _TemplateLoader(yaml.SafeLoader):  # type: ignore[misc]
    """Reads CloudFormation short-form intrinsics (!Ref, !GetAtt, !Sub, ...) into their long form."""


def _intrinsic(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> dict[str, Any]:
    name = "Ref" if suffix == "Ref" else f"Fn::{suffix}"
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
        if suffix == "GetAtt":
            value = value.split(".", 1)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    return {name: value}


_TemplateLoader.add_multi_constructor("!", _intrinsic)


def load_template() -> dict[str, Any]:
    data: dict[str, Any] = yaml.load(TEMPLATE.read_text(encoding="utf-8"), Loader=_TemplateLoader)
    return data


def resolve(value: Any, refs: dict[str, Any]) -> Any:
    """Substitute `Ref`s (resources and parameter defaults) in a template fragment."""
    if isinstance(value, dict):
        if set(value) == {"Ref"}:
            return refs[value["Ref"]]
        return {key: resolve(item, refs) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve(item, refs) for item in value]
    return value


def with_conditions(value: Any, conditions: dict[str, bool]) -> Any:
    """A property's value with each `Fn::If` on a condition of `conditions` decided (others are left as they are)."""
    if isinstance(value, dict) and set(value) == {"Fn::If"} and value["Fn::If"][0] in conditions:
        condition, when_true, when_false = value["Fn::If"]
        return with_conditions(when_true if conditions[condition] else when_false, conditions)
    return value


# The conditions a property's value may hang on, as the parameter defaults decide them.
DEFAULT_CONDITIONS = {"UseLocalEmbeddings": False}


class TemplateStack:
    """The template's buckets, tables, queues and EventBridge rules, created in moto."""

    def __init__(self, session: Any) -> None:
        self.template = load_template()
        self.resources: dict[str, Any] = self.template["Resources"]
        self.refs: dict[str, Any] = {
            name: spec.get("Default", "") for name, spec in self.template["Parameters"].items()
        }
        self.s3 = session.client("s3")
        self.sqs = session.client("sqs")
        self.dynamodb = session.client("dynamodb")
        self.events = session.client("events")
        self.queue_urls: dict[str, str] = {}
        self.queue_arns: dict[str, str] = {}
        self.hash_keys: dict[str, str] = {}  # table name -> partition key attribute

    def of_type(self, kind: str) -> dict[str, dict[str, Any]]:
        return {name: spec for name, spec in self.resources.items() if spec["Type"] == kind}

    def create(self) -> TemplateStack:
        for name, spec in self.of_type("AWS::S3::Bucket").items():
            self._bucket(name, spec["Properties"])
        for name, spec in self.of_type("AWS::DynamoDB::Table").items():
            self._table(name, spec["Properties"])
        queues = self.of_type("AWS::SQS::Queue")
        for name in sorted(queues, key=lambda n: "RedrivePolicy" in queues[n]["Properties"]):
            self._queue(name, queues[name]["Properties"])
        for name, spec in self.of_type("AWS::Events::Rule").items():
            self._rule(name, spec["Properties"])
        return self

    def _bucket(self, name: str, props: dict[str, Any]) -> None:
        bucket = f"docshelf-{name.lower()}"
        self.s3.create_bucket(Bucket=bucket)
        if props.get("VersioningConfiguration", {}).get("Status") == "Enabled":
            self.s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
        if props.get("NotificationConfiguration", {}).get("EventBridgeConfiguration", {}).get("EventBridgeEnabled"):
            self.s3.put_bucket_notification_configuration(
                Bucket=bucket, NotificationConfiguration={"EventBridgeConfiguration": {}}
            )
        self.refs[name] = bucket

    def _table(self, name: str, props: dict[str, Any]) -> None:
        table = f"docshelf-{name}"
        indexes = (
            {"GlobalSecondaryIndexes": props["GlobalSecondaryIndexes"]} if "GlobalSecondaryIndexes" in props else {}
        )
        self.dynamodb.create_table(
            TableName=table,
            AttributeDefinitions=props["AttributeDefinitions"],
            KeySchema=props["KeySchema"],
            BillingMode=props["BillingMode"],
            **indexes,
        )
        self.hash_keys[table] = next(key["AttributeName"] for key in props["KeySchema"] if key["KeyType"] == "HASH")
        ttl = props.get("TimeToLiveSpecification")
        if ttl:
            self.dynamodb.update_time_to_live(TableName=table, TimeToLiveSpecification=ttl)
        self.refs[name] = table

    def _queue(self, name: str, props: dict[str, Any]) -> None:
        attributes = {"VisibilityTimeout": str(with_conditions(props.get("VisibilityTimeout", 30), DEFAULT_CONDITIONS))}
        redrive = props.get("RedrivePolicy")
        if redrive:
            target = redrive["deadLetterTargetArn"]["Fn::GetAtt"][0]
            policy = {"deadLetterTargetArn": self.queue_arns[target], "maxReceiveCount": redrive["maxReceiveCount"]}
            attributes["RedrivePolicy"] = json.dumps(policy)
        url = self.sqs.create_queue(QueueName=f"docshelf-{name}", Attributes=attributes)["QueueUrl"]
        arn = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        self.queue_urls[name], self.queue_arns[name], self.refs[name] = url, arn, url

    def _rule(self, name: str, props: dict[str, Any]) -> None:
        pattern = resolve(props["EventPattern"], self.refs)
        self.events.put_rule(Name=f"docshelf-{name}", EventPattern=json.dumps(pattern), State="ENABLED")
        targets = [
            {"Id": target["Id"], "Arn": self.queue_arns[target["Arn"]["Fn::GetAtt"][0]]} for target in props["Targets"]
        ]
        self.events.put_targets(Rule=f"docshelf-{name}", Targets=targets)

    def function_environment(self, function: str) -> dict[str, str]:
        """The function's environment as the template sets it (Globals, then the function's own)."""
        merged = {
            **self.template["Globals"]["Function"]["Environment"]["Variables"],
            **self.resources[function]["Properties"].get("Environment", {}).get("Variables", {}),
        }
        environment = {}
        for key, value in merged.items():
            if isinstance(value, dict) and "Fn::If" in value:
                value = value["Fn::If"][2]  # the embedded-index branch (OpenSearchMode defaults to embedded)
                if isinstance(value, dict) and "Fn::If" in value:
                    value = value["Fn::If"][2]
            environment[key] = str(resolve(value, self.refs))
        return environment
