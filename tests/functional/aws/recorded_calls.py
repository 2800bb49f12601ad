"""Every AWS call a function's code makes, recorded through botocore's event hooks, and checked against that
function's role in the transformed template: moto enforces no IAM, so this is what stands in for it.

The hooks sit on boto3's default session, which every client the code creates comes from (the services' clients,
the presigner, the Bedrock clients). A presigned URL is recorded too: it carries the signer's rights.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tests.functional.aws.iam_policies import (
    ACCOUNT,
    REGION,
    Names,
    Request,
    Resolver,
    Statement,
    allowed,
    role_statements,
    transformed_template,
)

# Where a cross-region inference profile may route a request: IAM checks the foundation model in each region.
PROFILE_REGIONS = {
    "us": ("us-east-1", "us-east-2", "us-west-2"),
    "eu": ("eu-central-1", "eu-west-1", "eu-west-3"),
    "apac": ("ap-northeast-1", "ap-southeast-1", "ap-southeast-2"),
    "global": ("us-east-1", "eu-west-1", "ap-northeast-1"),
}


class UnmappedCallError(AssertionError):
    """A call this check cannot translate to IAM actions yet: map it here rather than let it pass unchecked."""


@dataclass
class Call:
    function: str
    service: str
    operation: str
    params: Mapping[str, Any]
    presigned: bool
    status: int | None = None  # the HTTP status, once the call returned (None for a presigned URL)


@dataclass
class CallRecorder:
    """Attributes each botocore call to the function whose code is running (`acting_as`)."""

    function: str | None = None
    calls: list[Call] = field(default_factory=list)

    def install(self, events: Any) -> None:
        events.register("before-parameter-build", self._before, unique_id="docshelf-iam-before")
        events.register("after-call", self._after, unique_id="docshelf-iam-after")

    def _before(self, params: Mapping[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        if self.function is None:
            return  # the test's own set-up and inspection
        call = Call(self.function, model.service_model.service_name, model.name, dict(params),
                    presigned=bool(context.get("is_presign_request")))  # fmt: skip
        context["docshelf_call"] = call
        self.calls.append(call)

    def _after(self, http_response: Any, context: dict[str, Any], **_: Any) -> None:
        call = context.get("docshelf_call")
        if call is not None:
            call.status = http_response.status_code

    @contextmanager
    def acting_as(self, function: str) -> Iterator[list[Call]]:
        start = len(self.calls)
        self.function = function
        made: list[Call] = []
        try:
            yield made
        finally:
            self.function = None
            made.extend(self.calls[start:])


_active: CallRecorder | None = None


def install_recorder(events: Any) -> CallRecorder:
    global _active
    _active = CallRecorder()
    _active.install(events)
    return _active


def uninstall_recorder() -> None:
    global _active
    _active = None


def active_recorder() -> CallRecorder:
    if _active is None:
        raise RuntimeError("no call recorder: the permission check fixture (tests/functional/aws/conftest.py) is off")
    return _active


# ---------------------------------------------------------------- calls -> IAM requests
def _s3_requests(call: Call) -> list[Request]:
    bucket = call.params.get("Bucket", "")
    bucket_arn = f"arn:aws:s3:::{bucket}"
    obj = f"{bucket_arn}/{call.params.get('Key', '')}"
    versioned = bool(call.params.get("VersionId"))
    op = call.operation
    if op in ("GetObject", "HeadObject"):
        requests = [Request("s3:GetObjectVersion" if versioned else "s3:GetObject", obj, {})]
        if call.status == 404:  # S3 answers 404 rather than 403 only to a caller who may list the bucket
            requests.append(Request("s3:ListBucket", bucket_arn, {}))
        return requests
    if op in ("PutObject", "CreateMultipartUpload", "UploadPart", "CompleteMultipartUpload"):
        return [Request("s3:PutObject", obj, {})]
    if op == "AbortMultipartUpload":
        return [Request("s3:AbortMultipartUpload", obj, {})]
    if op == "DeleteObject":
        return [Request("s3:DeleteObjectVersion" if versioned else "s3:DeleteObject", obj, {})]
    if op == "DeleteObjects":
        objects = call.params.get("Delete", {}).get("Objects", [])
        return [Request("s3:DeleteObject", f"{bucket_arn}/{item['Key']}", {}) for item in objects]
    if op in ("ListObjectsV2", "ListObjects", "HeadBucket"):
        return [Request("s3:ListBucket", bucket_arn, {"s3:prefix": (str(call.params.get("Prefix", "")),)})]
    if op == "ListObjectVersions":
        return [Request("s3:ListBucketVersions", bucket_arn, {})]
    if op == "CopyObject":
        source = call.params["CopySource"]
        source_path = source if isinstance(source, str) else f"{source['Bucket']}/{source['Key']}"
        return [Request("s3:PutObject", obj, {}), Request("s3:GetObject", f"arn:aws:s3:::{source_path}", {})]
    raise UnmappedCallError(f"s3 {op}")


_KEY_EQUALS = re.compile(r"(#?\w+)\s*=\s*(:\w+)")


def _leading_keys(table: str, params: Mapping[str, Any], hash_keys: Mapping[str, str]) -> tuple[str, ...]:
    name = hash_keys.get(table)
    if name is None:
        return ()
    for item in (params.get("Key"), params.get("Item")):
        if item and name in item:
            return tuple(str(value) for value in item[name].values())
    expression = params.get("KeyConditionExpression")
    if expression:
        aliases = params.get("ExpressionAttributeNames", {})
        for attribute, placeholder in _KEY_EQUALS.findall(expression):
            if aliases.get(attribute, attribute) == name:
                return tuple(str(v) for v in params["ExpressionAttributeValues"][placeholder].values())
    return ()


def _dynamodb_requests(call: Call, hash_keys: Mapping[str, str]) -> list[Request]:
    def table_arn(table: str, index: str | None = None) -> str:
        arn = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{table}"
        return f"{arn}/index/{index}" if index else arn

    op = call.operation
    if op in ("BatchGetItem", "BatchWriteItem"):
        requests = []
        for table, spec in call.params["RequestItems"].items():
            entries = spec["Keys"] if op == "BatchGetItem" else [
                next(iter(entry.values())) for entry in spec
            ]  # fmt: skip
            keys = tuple(
                str(value)
                for entry in entries
                for value in (entry.get("Key") or entry.get("Item") or entry).get(hash_keys.get(table, ""), {}).values()
            )
            requests.append(Request(f"dynamodb:{op}", table_arn(table), {"dynamodb:LeadingKeys": keys}))
        return requests
    if op in ("TransactWriteItems", "TransactGetItems"):
        actions = {"Put": "PutItem", "Update": "UpdateItem", "Delete": "DeleteItem",
                   "ConditionCheck": "ConditionCheckItem", "Get": "GetItem"}  # fmt: skip
        requests = []
        for entry in call.params["TransactItems"]:
            (kind, spec), = entry.items()  # fmt: skip
            keys = _leading_keys(spec["TableName"], spec, hash_keys)
            requests.append(
                Request(f"dynamodb:{actions[kind]}", table_arn(spec["TableName"]), {"dynamodb:LeadingKeys": keys})
            )
        return requests
    table = call.params["TableName"]
    keys = _leading_keys(table, call.params, hash_keys)
    resource = table_arn(table, call.params.get("IndexName"))
    return [Request(f"dynamodb:{op}", resource, {"dynamodb:LeadingKeys": keys} if keys else {})]


def _sqs_requests(call: Call, queue_arns: Mapping[str, str]) -> list[Request]:
    op = call.operation
    url = call.params.get("QueueUrl", "")
    arn = queue_arns.get(url) or f"arn:aws:sqs:{REGION}:{ACCOUNT}:{url.rsplit('/', 1)[-1]}"
    action = "sqs:SendMessage" if op == "SendMessageBatch" else f"sqs:{op}"
    return [Request(action, arn, {})]


def _bedrock_requests(call: Call) -> list[Request]:
    op = call.operation
    action = "bedrock:InvokeModelWithResponseStream" if op.endswith("Stream") else "bedrock:InvokeModel"
    model = str(call.params["modelId"])
    if model.startswith("arn:"):
        return [Request(action, model, {})]
    prefix, _, base = model.partition(".")
    if prefix in PROFILE_REGIONS:
        profile = f"arn:aws:bedrock:{REGION}:{ACCOUNT}:inference-profile/{model}"
        return [Request(action, profile, {})] + [
            Request(action, f"arn:aws:bedrock:{region}::foundation-model/{base}", {})
            for region in PROFILE_REGIONS[prefix]
        ]
    return [Request(action, f"arn:aws:bedrock:{REGION}::foundation-model/{model}", {})]


def iam_requests(call: Call, *, queue_arns: Mapping[str, str], hash_keys: Mapping[str, str]) -> list[Request]:
    """The IAM authorisations one recorded call needs."""
    if call.service == "s3":
        return _s3_requests(call)
    if call.service == "dynamodb":
        return _dynamodb_requests(call, hash_keys)
    if call.service == "sqs":
        return _sqs_requests(call, queue_arns)
    if call.service == "bedrock-runtime":
        return _bedrock_requests(call)
    raise UnmappedCallError(f"{call.service} {call.operation}")


# ---------------------------------------------------------------- the check
@dataclass
class PermissionCheck:
    """The stack's roles as deployed with `parameters`; `names`: the physical names the moto stack used."""

    names: Names
    parameters: Mapping[str, str]
    queue_arns: Mapping[str, str]  # queue URL -> ARN
    hash_keys: Mapping[str, str]  # table name -> partition key attribute
    _statements: dict[str, list[Statement]] = field(default_factory=dict)

    def statements(self, function: str) -> list[Statement]:
        if function not in self._statements:
            template = transformed_template(self.parameters)
            resolver = Resolver(template, self.parameters, self.names)
            self._statements[function] = role_statements(template, function, resolver)
        return self._statements[function]

    def denied(self, function: str, calls: list[Call]) -> list[str]:
        """One line per recorded call the function's role would not allow."""
        statements = self.statements(function)
        problems = []
        for call in calls:
            for request in iam_requests(call, queue_arns=self.queue_arns, hash_keys=self.hash_keys):
                if not allowed(statements, request):
                    how = "presigned " if call.presigned else ""
                    context = f" {dict(request.context)}" if request.context else ""
                    problems.append(
                        f"{function}: {how}{call.service}.{call.operation} needs {request.action} on "
                        f"{request.resource}{context}"
                    )
        return problems

    def assert_allowed(self, function: str, calls: list[Call]) -> None:
        problems = self.denied(function, calls)
        if problems:
            raise AssertionError("IAM would deny (template.yaml after the SAM transform):\n" + "\n".join(problems))


@contextmanager
def checked_calls(client: Any, functions: tuple[str, ...], *, refs: Mapping[str, str]) -> Iterator[list[Call]]:
    """For suites that drive one client rather than a handler: the calls made through `client` in the block must be
    allowed to every one of `functions` (the roles of the functions that run that code). `refs`: logical name ->
    physical name of the resources the client touches; tables are keyed by `pk`, as the registry is."""
    recorder = CallRecorder()
    recorder.install(client.meta.events)
    with recorder.acting_as(functions[0]) as calls:
        yield calls
    hash_keys = {name: "pk" for logical, name in refs.items() if logical == "RegistryTable"}
    check = PermissionCheck(Names(refs=refs, arns={}), {}, {}, hash_keys)
    for function in functions:
        check.assert_allowed(function, calls)
