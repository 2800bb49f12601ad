"""The alarms as CloudFormation gets them (template.yaml after the SAM transform): each one exists for the
parameters it applies to, watches the right resource, and notifies a topic CloudWatch can publish to."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.functional.aws.iam_policies import transformed_template

FUNCTIONS = ("ParseFunction", "ChunkFunction", "PublishFunction", "SearchFunction", "McpFunction")
QUEUES = ("ParseQueue", "ChunkQueue", "PublishQueue")


def _alarms(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n: r for n, r in template["Resources"].items() if r["Type"] == "AWS::CloudWatch::Alarm"}


def _watched(alarm: dict[str, Any]) -> tuple[str, str, str]:
    props = alarm["Properties"]
    return props["Namespace"], props["MetricName"], json.dumps(props["Dimensions"][0]["Value"], sort_keys=True)


def _value(node: Any) -> str:
    return json.dumps(node, sort_keys=True)


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return transformed_template()


def test_every_alarm_notifies_the_topic_cloudwatch_can_publish_to(template: dict[str, Any]) -> None:
    resources = template["Resources"]
    topic = resources["AlarmTopic"]["Properties"]
    assert topic["KmsMasterKeyId"] == {"Ref": "AlarmTopicKey"}  # not alias/aws/sns, which CloudWatch cannot use
    key = resources["AlarmTopicKey"]["Properties"]
    cloudwatch = [s for s in key["KeyPolicy"]["Statement"] if s["Principal"] == {"Service": "cloudwatch.amazonaws.com"}]
    assert cloudwatch and {"kms:Decrypt", "kms:GenerateDataKey*"} <= set(cloudwatch[0]["Action"])
    assert key["EnableKeyRotation"] is True
    for name, alarm in _alarms(template).items():
        assert alarm["Properties"]["AlarmActions"] == [{"Ref": "AlarmTopic"}], name
    subscription = resources["AlarmEmailSubscription"]
    assert subscription["Condition"] == "HasAlarmEmail" and subscription["Properties"]["Protocol"] == "email"


def test_each_function_alarms_on_errors_and_throttles(template: dict[str, Any]) -> None:
    watched = {_watched(a) for a in _alarms(template).values() if "MetricName" in a["Properties"]}
    for function in FUNCTIONS:
        assert ("AWS/Lambda", "Errors", _value({"Ref": function})) in watched, function
        assert ("AWS/Lambda", "Throttles", _value({"Ref": function})) in watched, function


def test_each_queue_alarms_on_its_oldest_message_and_each_dead_letter_queue_on_its_depth(
    template: dict[str, Any],
) -> None:
    watched = {_watched(a) for a in _alarms(template).values() if "MetricName" in a["Properties"]}
    dead_letter_queues = {n for n, r in template["Resources"].items()
                          if r["Type"] == "AWS::SQS::Queue" and n.endswith("DeadLetterQueue")}  # fmt: skip
    assert len(dead_letter_queues) == 3
    for queue in dead_letter_queues:
        depth = ("AWS/SQS", "ApproximateNumberOfMessagesVisible", _value({"Fn::GetAtt": [queue, "QueueName"]}))
        assert depth in watched, queue
    for queue in QUEUES:
        assert ("AWS/SQS", "ApproximateAgeOfOldestMessage", _value({"Fn::GetAtt": [queue, "QueueName"]})) in watched, (
            queue
        )


def test_the_api_alarms_on_server_errors(template: dict[str, Any]) -> None:
    alarm = _alarms(template)["ApiServerErrorsAlarm"]["Properties"]
    assert (alarm["Namespace"], alarm["MetricName"]) == ("AWS/ApiGateway", "5xx")
    assert alarm["Dimensions"] == [{"Name": "ApiId", "Value": {"Ref": "HttpApi"}}]


def test_failed_documents_alarm_sums_every_ingest_function(template: dict[str, Any]) -> None:
    alarm = _alarms(template)["DocumentsFailedAlarm"]["Properties"]
    stats = [m["MetricStat"]["Metric"] for m in alarm["Metrics"] if "MetricStat" in m]
    assert {m["MetricName"] for m in stats} == {"DocumentsFailed"}  # aws/observe.py OUTCOME_METRICS
    assert {m["Dimensions"][0]["Value"] for m in stats} == {"docshelf-parse", "docshelf-chunk", "docshelf-publish"}
    assert sum(1 for m in alarm["Metrics"] if m.get("ReturnData", True)) == 1


def test_opensearch_alarms_exist_only_for_a_domain(template: dict[str, Any]) -> None:
    conditions = template["Conditions"]
    for name in ("OpenSearchRedAlarm", "OpenSearchFreeStorageAlarm"):
        alarm = _alarms(template)[name]
        assert alarm["Condition"] == "AlarmOnDomain"
        assert alarm["Properties"]["Namespace"] == "AWS/ES"
    assert {"Condition": "CreateDomain"} in conditions["AlarmOnDomain"]["Fn::Or"]
    metrics = {
        _alarms(template)[n]["Properties"]["MetricName"] for n in ("OpenSearchRedAlarm", "OpenSearchFreeStorageAlarm")
    }
    assert metrics == {"ClusterStatus.red", "FreeStorageSpace"}


def test_every_function_logs_to_a_group_with_the_retention_parameter(template: dict[str, Any]) -> None:
    resources = template["Resources"]
    for function in FUNCTIONS:
        group = resources[function]["Properties"]["LoggingConfig"]["LogGroup"]["Ref"]
        assert resources[group]["Type"] == "AWS::Logs::LogGroup"
        assert resources[group]["Properties"]["RetentionInDays"] == {"Ref": "LogRetentionDays"}
    assert template["Parameters"]["LogRetentionDays"]["Default"] == 30
