"""Service wiring for the Lambdas: clients, store, registry, index and queues, each created on first use.

Nothing here runs at import time, so tests can start `mock_aws` before any client exists, and the search
function never pays for what only the ingest functions use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, cast

from docshelf.aws.settings import Settings
from docshelf.embeddings.base import EmbeddingProvider
from docshelf.index.base import SearchBackend
from docshelf.registry.dynamodb import DynamoDBRegistry
from docshelf.store.fetch import GET_WORKERS
from docshelf.store.s3 import S3Store

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_sqs import SQSClient

    from docshelf.embeddings.cache import VectorCache  # numpy: only the functions that publish load it
    from docshelf.search.rerank import Reranker

INDEX_PREFIX = "index"


class AwsServices:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._clients: dict[str, Any] = {}
        self._store: S3Store | None = None
        self._registry: DynamoDBRegistry | None = None
        self._index: SearchBackend | None = None
        self._embeddings: tuple[EmbeddingProvider | None] | None = None
        self._passage_model: tuple[Reranker | None] | None = None

    def _region(self) -> str | None:
        return self.settings.region or None

    def _client(self, service: Literal["s3", "sqs", "dynamodb"]) -> Any:
        if service not in self._clients:
            import boto3
            from botocore.config import Config

            # S3: as many connections as the embedded index reads objects at once (botocore keeps 10).
            pool = Config(max_pool_connections=GET_WORKERS) if service == "s3" else None
            self._clients[service] = boto3.client(service, region_name=self._region(), config=pool)
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

    def index(self) -> SearchBackend:
        """OpenSearch when an endpoint is configured, else the embedded index over the artifacts bucket."""
        if self._index is None:
            self._index = self._opensearch_index() if self.uses_opensearch else self._embedded_index()
        return self._index

    def forget_index(self) -> None:
        """Drop the index object, and what it keeps in memory of its namespaces (an embedded namespace, the model of
        a namespace's vectors), so that the next use reads them from the store or the cluster again: after another
        process (`docshelf resync`) changed them, a warm function would refuse what now fits."""
        self._index = None

    def fresh_index(self, namespace: str) -> SearchBackend:
        """The index for reading `namespace` as of its current version (a warm search function keeps an embedded
        namespace in memory, which a publish or delete since makes stale)."""
        if self._index is None and not self.uses_opensearch:
            self._index = self._embedded_index(writes_snapshots=False)  # the search role only reads the bucket
        return self.index().reader(namespace, self.registry.namespace_version(namespace))

    def _embedded_index(self, *, writes_snapshots: bool = True) -> SearchBackend:
        from docshelf.index.embedded import EmbeddedIndex

        return EmbeddedIndex(self.store, prefix=INDEX_PREFIX, writes_snapshots=writes_snapshots)

    def _opensearch_index(self) -> SearchBackend:
        # Imported here: the OpenSearch backend (and opensearch-py) loads only when an endpoint is configured.
        from docshelf.index.opensearch import OpenSearchIndex
        from docshelf.index.opensearch.client import opensearch_client
        from docshelf.index.opensearch.tenancy import Tenancy

        settings = self.settings
        endpoint = settings.opensearch_endpoint
        url = endpoint if endpoint.startswith(("https://", "http://")) else f"https://{endpoint}"
        service: Literal["es", "aoss"] = "aoss" if settings.opensearch_service == "aoss" else "es"
        client = opensearch_client(url, region=settings.region, service=service)
        tenancy = Tenancy(
            settings.opensearch_tenancy,  # type: ignore[arg-type]  # checked by Settings.from_env
            settings.opensearch_shared_indices,
            settings.opensearch_large_namespace_chunks,
        )
        # Serverless refreshes on its own and has no refresh API.
        return OpenSearchIndex(
            client, index=settings.opensearch_index, commit_refreshes=service != "aoss", tenancy=tenancy
        )

    def embedding_provider(self) -> EmbeddingProvider | None:
        """The provider EMBEDDING_PROVIDER and EMBEDDING_MODEL_ID name (None for "none"), loaded on first use: the
        local model from the EmbeddingsLayer, or Bedrock through a bedrock-runtime client."""
        if self._embeddings is None:
            from docshelf.embeddings import provider_from_config

            config = self.settings.pipeline
            clients: dict[str, Any] = {}
            if config.embedding_provider == "bedrock":
                import boto3

                clients["bedrock_runtime"] = boto3.client("bedrock-runtime", region_name=self._region())
            self._embeddings = (
                provider_from_config(config.embedding_provider, config.embedding_model_id or None, **clients),
            )
        return self._embeddings[0]

    def passage_model(self) -> Reranker | None:
        """The sentence model PASSAGE_MODEL names (None for "none"), loaded on first use from the EmbeddingsLayer: the
        semantic channel's own provider when that is the same local model."""
        if self._passage_model is None:
            from docshelf.embeddings.factory import passage_model_from_config

            self._passage_model = (passage_model_from_config(self.settings.passage_model, self.embedding_provider),)
        return self._passage_model[0]

    def vector_cache(self) -> VectorCache | None:
        """Chunk vectors for publishing, cached in the artifacts bucket by model and chunk; None without a provider."""
        from docshelf.embeddings.cache import VectorCache

        provider = self.embedding_provider()
        return None if provider is None else VectorCache(self.store, provider)

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
