"""Service wiring for the Lambdas: clients, store, registry, index and queues, each created on first use.

Nothing here runs at import time, so tests can start `mock_aws` before any client exists, and the search
function never pays for what only the ingest functions use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, cast

from docshelf.aws.settings import Settings
from docshelf.index.base import SearchIndex
from docshelf.registry.dynamodb import DynamoDBRegistry
from docshelf.store.s3 import S3Store

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_sqs import SQSClient

INDEX_PREFIX = "index"


class AwsServices:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._clients: dict[str, Any] = {}
        self._store: S3Store | None = None
        self._registry: DynamoDBRegistry | None = None
        self._index: SearchIndex | None = None
        self._embedded_versions: dict[str, int] = {}
        self._index_ready = False

    def _region(self) -> str | None:
        return self.settings.region or None

    def _client(self, service: Literal["s3", "sqs", "dynamodb"]) -> Any:
        if service not in self._clients:
            import boto3

            self._clients[service] = boto3.client(service, region_name=self._region())
        return self._clients[service]

    @property
    def s3(self) -> S3Client:
        return cast("S3Client", self._client("s3"))

    @property
    def sqs(self) -> SQSClient:
        return cast("SQSClient", self._client("sqs"))

    @property
    def dynamodb(self) -> DynamoDBClient:
        return cast("DynamoDBClient", self._client("dynamodb"))

    @property
    def store(self) -> S3Store:
        if self._store is None:
            self._store = S3Store(self.settings.artifacts_bucket, client=self.s3)
        return self._store

    @property
    def registry(self) -> DynamoDBRegistry:
        if self._registry is None:
            self._registry = DynamoDBRegistry(self.settings.registry_table, client=self.dynamodb)
        return self._registry

    @property
    def uses_opensearch(self) -> bool:
        return bool(self.settings.opensearch_endpoint)

    def index(self) -> SearchIndex:
        """OpenSearch when an endpoint is configured, else the embedded index over the artifacts bucket."""
        if self._index is None:
            self._index = self._opensearch_index() if self.uses_opensearch else self._embedded_index()
        return self._index

    def fresh_index(self, namespace: str) -> SearchIndex:
        """The index for reading `namespace` as of its current version.

        OpenSearch is always current. The embedded index keeps a namespace in memory once loaded, so a warm
        search function reloads it when a publish or delete has bumped the namespace version since.
        """
        if self.uses_opensearch:
            return self.index()
        version = self.registry.namespace_version(namespace)
        if self._index is None or self._embedded_versions.get(namespace, version) != version:
            self._index = self._embedded_index(writes_snapshots=False)  # the search role only reads the bucket
            self._embedded_versions = {}
        self._embedded_versions[namespace] = version
        return self._index

    def _embedded_index(self, *, writes_snapshots: bool = True) -> SearchIndex:
        from docshelf.index.embedded import EmbeddedIndex

        return EmbeddedIndex(self.store, prefix=INDEX_PREFIX, writes_snapshots=writes_snapshots)

    def _opensearch_index(self) -> SearchIndex:
        # Imported here: the OpenSearch backend (and opensearch-py) loads only when an endpoint is configured.
        from docshelf.index.opensearch import OpenSearchIndex
        from docshelf.index.opensearch_client import opensearch_client

        settings = self.settings
        endpoint = settings.opensearch_endpoint
        url = endpoint if endpoint.startswith(("https://", "http://")) else f"https://{endpoint}"
        service: Literal["es", "aoss"] = "aoss" if settings.opensearch_service == "aoss" else "es"
        client = opensearch_client(url, region=settings.region, service=service)
        return OpenSearchIndex(client, index=settings.opensearch_index)

    def index_for_writing(self) -> SearchIndex:
        """The index, with the OpenSearch index template put on first use (each namespace's index is made on its
        first publish)."""
        index = self.index()
        if self.uses_opensearch and not self._index_ready:
            ensure_index = getattr(index, "ensure_index", None)
            if callable(ensure_index):
                ensure_index()
            self._index_ready = True
        return index

    def send(self, queue_url: str, body: str) -> None:
        self.sqs.send_message(QueueUrl=queue_url, MessageBody=body)


_services: AwsServices | None = None


def get_services() -> AwsServices:
    """The process-wide services, built from the environment on the first call (a warm Lambda reuses them)."""
    global _services
    if _services is None:
        _services = AwsServices(Settings.from_env())
    return _services


def reset_services(services: AwsServices | None = None) -> None:
    """Replace (or drop) the process-wide services; tests use it between moto environments."""
    global _services
    _services = services
