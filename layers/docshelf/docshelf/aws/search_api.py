"""The search API's services on AWS: the DynamoDB registry, the current index and the DynamoDB cache.

The user and the namespaces they may read come only from the claims that API Gateway's JWT authorizer has
verified and passed on (`docshelf.api.auth`); the routes themselves live in `docshelf.api.resolver`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from docshelf.api.auth import ClaimNames
from docshelf.api.routes_source import SourceOpener, SourceUrl
from docshelf.assets.links import AssetLink, presigned_asset_link
from docshelf.aws.hits_dynamodb import DynamoDBHits
from docshelf.aws.search_cache import DynamoDBSearchCache
from docshelf.aws.services import AwsServices
from docshelf.embeddings.base import EmbeddingProvider
from docshelf.index.base import SearchBackend
from docshelf.model import Chunk
from docshelf.registry import DocumentRecord, Registry

SOURCE_URL_SECONDS = 300  # a citation link is opened right after the search that showed it

if TYPE_CHECKING:
    from docshelf.aws.ingress import AwsIngress
    from docshelf.search.rerank import Reranker

if TYPE_CHECKING:  # the agentic parts load on the first agentic request, not on a cold start
    from docshelf.agentic.navigate import StoreNavSource
    from docshelf.agentic.plan import PlanMaker
    from docshelf.graph.source import BuiltGraphSource
    from docshelf.registry.runs_dynamodb import DynamoDBRunLog

PLANNER_MODEL_ENV = "AGENTIC_PLANNER_MODEL_ID"


class AwsApiServices:
    def __init__(self, services: AwsServices) -> None:
        self.services = services
        self._cache: DynamoDBSearchCache | None = None
        self._hits: DynamoDBHits | None = None
        self._planner: PlanMaker | None = None

    @property
    def registry(self) -> Registry:
        return self.services.registry

    @property
    def cache(self) -> DynamoDBSearchCache | None:
        settings = self.services.settings
        if not settings.search_cache_table or settings.search_cache_ttl_s <= 0:
            return None
        if self._cache is None:
            self._cache = DynamoDBSearchCache(
                settings.search_cache_table, client=self.services.dynamodb, ttl_s=settings.search_cache_ttl_s
            )
        return self._cache

    @property
    def hits(self) -> DynamoDBHits | None:
        """Hit counts beside the cache entries (whether or not entries are kept); none without a cache table."""
        settings = self.services.settings
        if not settings.search_cache_table:
            return None
        if self._hits is None:
            self._hits = DynamoDBHits(settings.search_cache_table, client=self.services.dynamodb)
        return self._hits

    @property
    def asset_link(self) -> AssetLink:
        """Presigned GET URLs of the artifacts bucket; the S3 client is made only when a result is an image."""
        services = self.services

        def link(chunk: Chunk, name: str) -> str:
            store = services.store
            return presigned_asset_link(store.client, store.bucket, prefix=store.prefix)(chunk, name)

        return link

    @property
    def source_opener(self) -> SourceOpener | None:
        """Presigned GETs of the source bucket's `<namespace>/<source key>`; None without a source bucket."""
        bucket = self.services.settings.source_bucket
        if not bucket:
            return None
        services = self.services

        def presign(record: DocumentRecord) -> SourceUrl:
            params = {"Bucket": bucket, "Key": f"{record.namespace}/{record.source_key}"}
            url = services.s3.generate_presigned_url("get_object", Params=params, ExpiresIn=SOURCE_URL_SECONDS)
            return SourceUrl(url, SOURCE_URL_SECONDS)

        return presign

    @property
    def embedder(self) -> EmbeddingProvider | None:
        return self.services.embedding_provider()

    @property
    def passage_model(self) -> Reranker | None:
        return self.services.passage_model()

    @property
    def ingress(self) -> AwsIngress | None:
        """Presigned uploads, deletes and queued fetches: only where the function knows the source bucket."""
        if not self.services.settings.source_bucket:
            return None
        from docshelf.aws.ingress import AwsIngress

        return AwsIngress(self.services)

    def index_for(self, namespace: str) -> SearchBackend:
        return self.services.fresh_index(namespace)

    @property
    def run_log(self) -> DynamoDBRunLog:
        """Agentic run records beside the documents in the registry table (`run#` keys)."""
        from docshelf.registry.runs_dynamodb import DynamoDBRunLog

        return DynamoDBRunLog(self.services.settings.registry_table, client=self.services.dynamodb)

    @property
    def nav_source(self) -> StoreNavSource:
        from docshelf.agentic.navigate import StoreNavSource

        return StoreNavSource(self.services.store)

    @property
    def graph_source(self) -> BuiltGraphSource:
        from docshelf.graph.source import BuiltGraphSource

        return BuiltGraphSource(self.services.store, self.index_for)

    @property
    def planner(self) -> PlanMaker:
        """The Bedrock planner when `AGENTIC_PLANNER_MODEL_ID` names a model, else the rules."""
        model_id = os.environ.get(PLANNER_MODEL_ENV, "")
        if not model_id:
            from docshelf.agentic.rules import RULES

            return RULES
        if self._planner is None:
            from docshelf.agentic.bedrock_planner import bedrock_planner

            self._planner = bedrock_planner(model_id)
        return self._planner

    def claim_names(self) -> ClaimNames:
        settings = self.services.settings
        return ClaimNames(user=settings.user_claim, namespaces=settings.namespaces_claim)


_warm: dict[int, AwsApiServices] = {}


def current_api_services() -> AwsApiServices:
    """The API's services over this invocation's services, kept warm while they are the same (SearchFunction,
    McpFunction)."""
    from docshelf.aws.services import get_services

    services = get_services()
    api = _warm.get(id(services))
    if api is None or api.services is not services:
        _warm.clear()
        api = _warm[id(services)] = AwsApiServices(services)
    return api
