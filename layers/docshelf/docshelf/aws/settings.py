"""Every setting the Lambdas read, from the environment, in one place (no os.getenv elsewhere)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from docshelf.config import (
    DEFAULT_CHUNK_TOKENS,
    DEFAULT_OPENSEARCH_INDEX,
    PASSAGE_MODELS,
    PROVIDER_NAMES,
    ChunkConfig,
    ParseLimits,
    PipelineConfig,
    default_overlap,
)

ENV_ARTIFACTS_BUCKET = "ARTIFACTS_BUCKET"
ENV_REGISTRY_TABLE = "REGISTRY_TABLE"
ENV_SEARCH_CACHE_TABLE = "SEARCH_CACHE_TABLE"
ENV_CHUNK_QUEUE_URL = "CHUNK_QUEUE_URL"
ENV_PUBLISH_QUEUE_URL = "PUBLISH_QUEUE_URL"
ENV_PARSE_QUEUE_URL = "PARSE_QUEUE_URL"
ENV_SOURCE_BUCKET = "SOURCE_BUCKET"  # uploads (presigned PUTs), deletes and fetched web pages go into it
ENV_PARSE_MAX_RECEIVES = "PARSE_MAX_RECEIVES"
ENV_SHARD_TEXT_PAGES = "SHARD_TEXT_PAGES"
ENV_SHARD_SCANNED_PAGES = "SHARD_SCANNED_PAGES"
ENV_OPENSEARCH_ENDPOINT = "OPENSEARCH_ENDPOINT"
ENV_OPENSEARCH_SERVICE = "OPENSEARCH_SERVICE"
ENV_OPENSEARCH_INDEX = "OPENSEARCH_INDEX"
ENV_OPENSEARCH_TENANCY = "OPENSEARCH_TENANCY"
ENV_OPENSEARCH_SHARED_INDICES = "OPENSEARCH_SHARED_INDICES"
ENV_OPENSEARCH_LARGE_NAMESPACE_CHUNKS = "OPENSEARCH_LARGE_NAMESPACE_CHUNKS"
ENV_CHUNK_TOKENS = "CHUNK_TOKENS"
ENV_OVERLAP_TOKENS = "OVERLAP_TOKENS"
ENV_WHOLE_DOCUMENT_TOKENS = "WHOLE_DOCUMENT_TOKENS"
ENV_MAX_FILE_BYTES = "MAX_FILE_BYTES"
ENV_MAX_PAGES = "MAX_PAGES"
ENV_PARSE_TIME_BUDGET_S = "PARSE_TIME_BUDGET_S"
ENV_SEARCH_CACHE_TTL_S = "SEARCH_CACHE_TTL_S"
ENV_NAMESPACES_CLAIM = "NAMESPACES_CLAIM"
ENV_USER_CLAIM = "USER_CLAIM"
ENV_AWS_REGION = "AWS_REGION"
ENV_EMBEDDING_PROVIDER = "EMBEDDING_PROVIDER"
ENV_EMBEDDING_MODEL_ID = "EMBEDDING_MODEL_ID"
ENV_PASSAGE_MODEL = "PASSAGE_MODEL"
ENV_FETCH_ALLOWED_HOSTS = "FETCH_ALLOWED_HOSTS"

DEFAULT_NAMESPACES_CLAIM = "cognito:groups"
DEFAULT_USER_CLAIM = "sub"
OPENSEARCH_SERVICES = ("es", "aoss")
# index/opensearch/tenancy.py TENANCY_MODES (not imported: it would load opensearch-py with the settings)
OPENSEARCH_TENANCIES = ("index-per-namespace", "shared")


class SettingsError(ValueError):
    """A missing or malformed environment variable (a deployment mistake, not bad input)."""


@dataclass(frozen=True, slots=True)
class Settings:
    artifacts_bucket: str
    registry_table: str
    region: str = ""
    search_cache_table: str = ""
    chunk_queue_url: str = ""
    publish_queue_url: str = ""
    parse_queue_url: str = ""  # ParseFunction sends the page ranges of a long PDF back to its own queue
    parse_max_receives: int = 5  # ParseQueue's maxReceiveCount: the last try of a range ends the document failed
    opensearch_endpoint: str = ""
    opensearch_service: str = "es"
    opensearch_index: str = DEFAULT_OPENSEARCH_INDEX
    opensearch_tenancy: str = "index-per-namespace"
    opensearch_shared_indices: int = 4
    opensearch_large_namespace_chunks: int = 10_000
    search_cache_ttl_s: int = 300
    # uploads (presigned PUTs), deletes and fetched pages go into it; cited documents' files are presigned from it
    source_bucket: str = ""
    namespaces_claim: str = DEFAULT_NAMESPACES_CLAIM
    user_claim: str = DEFAULT_USER_CLAIM
    pipeline: PipelineConfig = field(default_factory=PipelineConfig)
    # Internal hosts a namespace's queued web pages may be fetched from (FETCH_ALLOWED_HOSTS), by namespace.
    fetch_allowed_hosts: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # The search and MCP functions' sentence model (PASSAGE_MODEL, template parameter PassageModel): "none" or "local".
    passage_model: str = "none"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        service = env.get(ENV_OPENSEARCH_SERVICE, "es") or "es"
        if service not in OPENSEARCH_SERVICES:
            raise SettingsError(f"{ENV_OPENSEARCH_SERVICE} must be one of {OPENSEARCH_SERVICES}, not {service!r}")
        tenancy = env.get(ENV_OPENSEARCH_TENANCY, "").strip() or "index-per-namespace"
        if tenancy not in OPENSEARCH_TENANCIES:
            raise SettingsError(f"{ENV_OPENSEARCH_TENANCY} must be one of {OPENSEARCH_TENANCIES}, not {tenancy!r}")
        defaults = ParseLimits()
        limits = ParseLimits(
            max_bytes=_int(env, ENV_MAX_FILE_BYTES, defaults.max_bytes),
            max_pages=_int(env, ENV_MAX_PAGES, defaults.max_pages),
            time_budget_s=float(_int(env, ENV_PARSE_TIME_BUDGET_S, int(defaults.time_budget_s))),
            text_pages_per_range=_int(env, ENV_SHARD_TEXT_PAGES, defaults.text_pages_per_range),
            scanned_pages_per_range=_int(env, ENV_SHARD_SCANNED_PAGES, defaults.scanned_pages_per_range),
        )
        try:
            chunking = ChunkConfig(
                chunk_tokens=(chunk_tokens := _int(env, ENV_CHUNK_TOKENS, DEFAULT_CHUNK_TOKENS)),
                overlap_tokens=_int(env, ENV_OVERLAP_TOKENS, default_overlap(chunk_tokens)),
                whole_document_tokens=_int(env, ENV_WHOLE_DOCUMENT_TOKENS, 0),
            )
        except ValueError as error:
            raise SettingsError(f"invalid chunking settings: {error}") from error
        passage_model = env.get(ENV_PASSAGE_MODEL, "").strip() or "none"
        if passage_model not in PASSAGE_MODELS:
            raise SettingsError(f"{ENV_PASSAGE_MODEL} must be one of {PASSAGE_MODELS}, not {passage_model!r}")
        embedding_provider = env.get(ENV_EMBEDDING_PROVIDER, "").strip() or "none"
        if embedding_provider not in PROVIDER_NAMES:
            raise SettingsError(f"{ENV_EMBEDDING_PROVIDER} must be one of {PROVIDER_NAMES}, not {embedding_provider!r}")
        return cls(
            artifacts_bucket=_required(env, ENV_ARTIFACTS_BUCKET),
            registry_table=_required(env, ENV_REGISTRY_TABLE),
            region=env.get(ENV_AWS_REGION, ""),
            search_cache_table=env.get(ENV_SEARCH_CACHE_TABLE, ""),
            chunk_queue_url=env.get(ENV_CHUNK_QUEUE_URL, ""),
            publish_queue_url=env.get(ENV_PUBLISH_QUEUE_URL, ""),
            parse_queue_url=env.get(ENV_PARSE_QUEUE_URL, ""),
            parse_max_receives=_int(env, ENV_PARSE_MAX_RECEIVES, 5),
            opensearch_endpoint=env.get(ENV_OPENSEARCH_ENDPOINT, "").strip().rstrip("/"),
            opensearch_service=service,
            opensearch_index=env.get(ENV_OPENSEARCH_INDEX, "") or DEFAULT_OPENSEARCH_INDEX,
            opensearch_tenancy=tenancy,
            opensearch_shared_indices=_int(env, ENV_OPENSEARCH_SHARED_INDICES, 4),
            opensearch_large_namespace_chunks=_int(env, ENV_OPENSEARCH_LARGE_NAMESPACE_CHUNKS, 10_000),
            search_cache_ttl_s=_int(env, ENV_SEARCH_CACHE_TTL_S, 300),
            source_bucket=env.get(ENV_SOURCE_BUCKET, "").strip(),
            namespaces_claim=env.get(ENV_NAMESPACES_CLAIM, "") or DEFAULT_NAMESPACES_CLAIM,
            user_claim=env.get(ENV_USER_CLAIM, "") or DEFAULT_USER_CLAIM,
            fetch_allowed_hosts=allowed_hosts(env.get(ENV_FETCH_ALLOWED_HOSTS, "")),
            passage_model=passage_model,
            pipeline=PipelineConfig(
                chunking=chunking,
                limits=limits,
                embedding_provider=embedding_provider,
                embedding_model_id=env.get(ENV_EMBEDDING_MODEL_ID, "").strip(),
            ),
        )


def allowed_hosts(raw: str) -> dict[str, frozenset[str]]:
    """`namespace=host,host;namespace=host` as {namespace: hosts}; hosts as the fetcher compares them."""
    from docshelf.fetch.fetcher import host_key
    from docshelf.ids import NAMESPACE_PATTERN

    found: dict[str, frozenset[str]] = {}
    for entry in filter(None, (part.strip() for part in raw.split(";"))):
        namespace, separator, hosts = entry.partition("=")
        names = frozenset(host_key(host) for host in hosts.split(",") if host.strip())
        if not separator or not NAMESPACE_PATTERN.fullmatch(namespace.strip()) or not names:
            raise SettingsError(f"{ENV_FETCH_ALLOWED_HOSTS} entries are namespace=host,host, not {entry!r}")
        found[namespace.strip()] = found.get(namespace.strip(), frozenset()) | names
    return found


def _required(env: Mapping[str, str], name: str) -> str:
    value = env.get(name, "").strip()
    if not value:
        raise SettingsError(f"the environment variable {name} is not set")
    return value


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be an integer, not {raw!r}") from None
    if value < 0:
        raise SettingsError(f"{name} must not be negative")
    return value
