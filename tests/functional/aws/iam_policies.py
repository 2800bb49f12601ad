"""Each function's IAM policies as deployed: template.yaml through the SAM transform, intrinsics resolved to the
names and ARNs the moto stack uses, then evaluated the way IAM does (an explicit deny wins, else an allow is needed).
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TEMPLATE = Path(__file__).resolve().parents[3] / "template.yaml"
ACCOUNT = "123456789012"  # moto's default account
REGION = "us-east-1"
PARTITION = "aws"

# The AWS managed policies SAM attaches, as far as the calls a function's code makes go (their logs and X-Ray
# rights are not exercised here; the SQS poller's rights belong to Lambda, not to the handler's code).
MANAGED_POLICIES: dict[str, list[dict[str, Any]]] = {
    "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole": [],
    "arn:aws:iam::aws:policy/AWSXrayWriteOnlyAccess": [],
    "arn:aws:iam::aws:policy/service-role/AWSLambdaSQSQueueExecutionRole": [
        {
            "Effect": "Allow",
            "Action": ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"],
            "Resource": "*",
        }
    ],
}


class _NoManagedPolicies:
    """SAM asks for managed policy ARNs by name only when a policy is given by name; none is here."""

    def load(self) -> dict[str, str]:
        return {}


def _packaged(template: dict[str, Any]) -> dict[str, Any]:
    """What `sam package` hands CloudFormation: code locations as S3 URIs."""
    packaged = copy.deepcopy(template)
    for name, resource in packaged["Resources"].items():
        properties = resource.get("Properties", {})
        for key in ("CodeUri", "ContentUri"):
            if isinstance(properties.get(key), str):
                properties[key] = f"s3://docshelf-code/{name}.zip"
    return packaged


@functools.cache
def _transformed(parameters: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    import os

    from samtranslator.translator.transform import transform  # type: ignore[import-untyped]
    from samtranslator.yaml_helper import yaml_parse  # type: ignore[import-untyped]

    os.environ.setdefault("AWS_DEFAULT_REGION", REGION)  # the translator reads the region for pseudo parameters
    template = _packaged(yaml_parse(TEMPLATE.read_text(encoding="utf-8")))
    result: dict[str, Any] = transform(template, dict(parameters), _NoManagedPolicies())
    return result


def transformed_template(parameters: Mapping[str, str] | None = None) -> dict[str, Any]:
    """template.yaml after the SAM transform (a copy; cached per parameter set)."""
    return copy.deepcopy(_transformed(tuple(sorted((parameters or {}).items()))))


class UnresolvedError(ValueError):
    """A template value the resolver cannot turn into a string."""


@dataclass(frozen=True)
class Names:
    """Physical names of the stack's resources, as the moto stack created them (`refs`: logical name -> Ref value;
    `arns`: logical name -> ARN where it is not derivable from the Ref)."""

    refs: Mapping[str, str]
    arns: Mapping[str, str]


class Resolver:
    """Evaluates CloudFormation intrinsics (Ref, GetAtt, Sub, If, Join, Select, Split, conditions)."""

    def __init__(self, template: dict[str, Any], parameters: Mapping[str, str], names: Names) -> None:
        self.template = template
        self.names = names
        self.values: dict[str, str] = {
            name: str(parameters.get(name, spec.get("Default", "")))
            for name, spec in template.get("Parameters", {}).items()
        }
        self.values.update(
            {
                "AWS::Partition": PARTITION,
                "AWS::Region": REGION,
                "AWS::AccountId": ACCOUNT,
                "AWS::URLSuffix": "amazonaws.com",
                "AWS::StackName": "docshelf",
            }
        )
        self._conditions: dict[str, bool] = {}

    def condition(self, name: str) -> bool:
        if name not in self._conditions:
            self._conditions[name] = bool(self.value(self.template["Conditions"][name]))
        return self._conditions[name]

    def ref(self, name: str) -> str:
        if name in self.values:
            return self.values[name]
        if name in self.names.refs:
            return self.names.refs[name]
        if name in self.template["Resources"]:
            return f"docshelf-{name}"  # not created in moto (a role, a log group, the API): a stable fake
        raise UnresolvedError(f"Ref to unknown {name}")

    def get_att(self, resource: str, attribute: str) -> str:
        kind = self.template["Resources"][resource]["Type"]
        ref = self.ref(resource)
        if attribute == "Arn":
            if resource in self.names.arns:
                return self.names.arns[resource]
            return {
                "AWS::S3::Bucket": f"arn:aws:s3:::{ref}",
                "AWS::SQS::Queue": f"arn:aws:sqs:{REGION}:{ACCOUNT}:docshelf-{resource}",
                "AWS::DynamoDB::Table": f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{ref}",
                "AWS::OpenSearchService::Domain": f"arn:aws:es:{REGION}:{ACCOUNT}:domain/{ref.lower()}",
                "AWS::SNS::Topic": f"arn:aws:sns:{REGION}:{ACCOUNT}:{ref}",
                "AWS::KMS::Key": f"arn:aws:kms:{REGION}:{ACCOUNT}:key/{ref}",
                "AWS::Logs::LogGroup": f"arn:aws:logs:{REGION}:{ACCOUNT}:log-group:{ref}:*",
                "AWS::IAM::Role": f"arn:aws:iam::{ACCOUNT}:role/{ref}",
                "AWS::Events::Rule": f"arn:aws:events:{REGION}:{ACCOUNT}:rule/{ref}",
                "AWS::Lambda::Function": f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{ref}",
            }.get(kind) or _unresolved(f"{resource}.Arn ({kind})")
        if attribute == "QueueName" and kind == "AWS::SQS::Queue":
            return self.get_att(resource, "Arn").rsplit(":", 1)[1]
        if attribute == "DomainEndpoint":
            return f"search-{ref.lower()}.{REGION}.es.amazonaws.com"
        return f"{ref}-{attribute}"

    def value(self, node: Any) -> Any:  # noqa: C901 - one branch per intrinsic
        if isinstance(node, list):
            return [item for item in (self.value(item) for item in node) if item is not _NO_VALUE]
        if not isinstance(node, dict):
            return node
        if len(node) != 1:
            return {key: item for key, item in ((k, self.value(v)) for k, v in node.items()) if item is not _NO_VALUE}
        (key, argument), = node.items()  # fmt: skip
        if key == "Ref":
            return _NO_VALUE if argument == "AWS::NoValue" else self.ref(argument)
        if key == "Fn::GetAtt":
            resource, attribute = argument if isinstance(argument, list) else argument.split(".", 1)
            return self.get_att(resource, attribute)
        if key == "Fn::If":
            name, when_true, when_false = argument
            return self.value(when_true if self.condition(name) else when_false)
        if key == "Condition":
            return self.condition(argument)
        if key == "Fn::Equals":
            left, right = (self.value(item) for item in argument)
            return str(left) == str(right)
        if key == "Fn::Not":
            return not self.value(argument[0])
        if key == "Fn::And":
            return all(self.value(item) for item in argument)
        if key == "Fn::Or":
            return any(self.value(item) for item in argument)
        if key == "Fn::Sub":
            return self._sub(argument)
        if key == "Fn::Join":
            separator, items = argument
            return separator.join(str(item) for item in self.value(items))
        if key == "Fn::Select":
            index, items = argument
            return self.value(items)[int(self.value(index))]
        if key == "Fn::Split":
            separator, text = argument
            return str(self.value(text)).split(separator)
        return {key: self.value(argument)}

    def _sub(self, argument: Any) -> str:
        text, variables = (argument, {}) if isinstance(argument, str) else argument
        local = {name: self.value(item) for name, item in variables.items()}

        def replace(match: re.Match[str]) -> str:
            name = match.group(1)
            if name in local:
                return str(local[name])
            if "." in name and not name.startswith("AWS::"):
                resource, attribute = name.split(".", 1)
                return self.get_att(resource, attribute)
            return self.ref(name)

        return re.sub(r"\$\{([^}!][^}]*)\}", replace, text)


_NO_VALUE = object()


def _unresolved(what: str) -> str:
    raise UnresolvedError(f"no fake ARN for {what}")


@dataclass(frozen=True)
class Statement:
    effect: str
    actions: tuple[str, ...]
    resources: tuple[str, ...]
    condition: Mapping[str, Any]


def _as_tuple(value: Any) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, list) else (value,)


def role_statements(template: dict[str, Any], function: str, resolver: Resolver) -> list[Statement]:
    """Every statement of `function`'s execution role: its inline policies and the managed ones SAM attaches."""
    role_ref = template["Resources"][function]["Properties"]["Role"]
    role_name = role_ref["Fn::GetAtt"][0]
    role = template["Resources"][role_name]["Properties"]
    raw: list[dict[str, Any]] = []
    for policy in resolver.value(role.get("Policies", [])):
        statements = policy["PolicyDocument"]["Statement"]
        raw.extend(statements if isinstance(statements, list) else [statements])
    for arn in resolver.value(role.get("ManagedPolicyArns", [])):
        raw.extend(MANAGED_POLICIES[arn])  # a KeyError names a managed policy this check does not know
    statements = []
    for item in raw:
        unsupported = {"NotAction", "NotResource", "NotPrincipal"} & set(item)
        if unsupported:
            raise UnresolvedError(f"{function}: {sorted(unsupported)} is not evaluated here")
        statements.append(
            Statement(item["Effect"], _as_tuple(item["Action"]), _as_tuple(item["Resource"]), item.get("Condition", {}))
        )
    return statements


def _glob(pattern: str, *, ignore_case: bool = False) -> re.Pattern[str]:
    body = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.compile(f"^{body}$", re.IGNORECASE if ignore_case else 0)


@dataclass(frozen=True)
class Request:
    """One authorisation question: an action on a resource, with the request's condition keys."""

    action: str
    resource: str
    context: Mapping[str, tuple[str, ...]]


ConditionTest = Callable[[str, tuple[str, ...]], bool]


def _condition_holds(condition: Mapping[str, Any], context: Mapping[str, tuple[str, ...]]) -> bool:
    for operator, keys in condition.items():
        for key, expected in keys.items():
            patterns = _as_tuple(expected)
            values = context.get(key)
            if values is None:
                return False  # a condition on a key the request does not carry does not match
            if operator == "ForAllValues:StringLike":
                test = all(any(_glob(p).match(v) for p in patterns) for v in values)
            elif operator in ("StringLike", "ForAnyValue:StringLike"):
                test = any(any(_glob(p).match(v) for p in patterns) for v in values)
            elif operator in ("StringEquals", "ForAnyValue:StringEquals"):
                test = any(v in patterns for v in values)
            elif operator == "ForAllValues:StringEquals":
                test = all(v in patterns for v in values)
            else:
                raise UnresolvedError(f"condition operator {operator} is not evaluated here")
            if not test:
                return False
    return True


def _matches(statement: Statement, request: Request) -> bool:
    return (
        any(_glob(action, ignore_case=True).match(request.action) for action in statement.actions)
        and any(_glob(resource).match(request.resource) for resource in statement.resources)
        and _condition_holds(statement.condition, request.context)
    )


def allowed(statements: list[Statement], request: Request) -> bool:
    matching = [statement for statement in statements if _matches(statement, request)]
    return bool(matching) and all(statement.effect == "Allow" for statement in matching)
