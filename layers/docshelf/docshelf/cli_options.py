"""The options of the `docshelf` subcommands that several of them share."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from docshelf.chunking import DEFAULT_CHUNK_TOKENS
from docshelf.cli_agentic import add_agentic_option, add_planner_option
from docshelf.config import DEFAULT_OPENSEARCH_INDEX
from docshelf.embeddings.base import PROVIDER_NAMES
from docshelf.local import BACKENDS, DEFAULT_OPENSEARCH_URL, DEFAULT_STORE
from docshelf.ocr.settings import OCR_ENV
from docshelf.search.service import DEFAULT_MAX_TOKENS, DEFAULT_TOP_K


def search_options(find: argparse.ArgumentParser) -> None:
    find.add_argument("query", nargs="?")
    find.add_argument("--queries", type=Path, help='a JSONL file of {"qid", "query"} lines (batch mode)')
    store_options(find)
    embedding_options(find)
    find.add_argument("--top-k", type=int, default=DEFAULT_TOP_K)
    find.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS, help="the evidence budget (both modes)")
    find.add_argument(
        "--min-score", type=float, default=0.0, help="leave out results whose confidence (0..1) is below this"
    )
    find.add_argument("--document", action="append", default=[], help="only these documents (id or file name)")
    find.add_argument("--exclude-document", action="append", default=[])
    find.add_argument("--exclude-section", action="append", default=[])
    find.add_argument("--type", action="append", default=[], choices=["text", "table", "image"])
    find.add_argument("--json", action="store_true", help="print the full response as JSON")
    add_agentic_option(find)


def serve_options(parser: argparse.ArgumentParser) -> None:
    add_planner_option(parser)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    auth = parser.add_mutually_exclusive_group(required=True)
    auth.add_argument(
        "--jwt-secret",
        default=os.environ.get("DOCSHELF_JWT_SECRET"),
        help="verify bearer JWTs signed HS256 with this secret (env DOCSHELF_JWT_SECRET)",
    )
    auth.add_argument("--no-auth", action="store_true", help="no authentication: every namespace is readable")
    parser.add_argument("--user-claim", default="sub", help="the JWT claim naming the user")
    parser.add_argument("--namespaces-claim", default="namespaces", help="the JWT claim listing readable namespaces")
    parser.add_argument("--jwt-leeway", type=int, default=30, help="seconds of clock skew allowed on exp/nbf/iat")
    parser.add_argument(
        "--cors-origin", help="answer cross-origin requests from this origin (or *); off by default (same origin only)"
    )
    parser.add_argument("--cache-ttl", type=int, default=300, help="search cache lifetime in seconds (0: off)")
    parser.add_argument("--sources", type=Path, help="the folder the documents were ingested from: citations open them")
    parser.add_argument("--store", type=Path, default=Path(DEFAULT_STORE), help="local store folder")
    parser.add_argument("--backend", choices=BACKENDS, default=os.environ.get("DOCSHELF_BACKEND", "embedded"))
    parser.add_argument("--opensearch-url", default=os.environ.get("OPENSEARCH_URL", DEFAULT_OPENSEARCH_URL))
    parser.add_argument("--opensearch-index", default=os.environ.get("OPENSEARCH_INDEX", DEFAULT_OPENSEARCH_INDEX))


def store_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--namespace", default="default")
    parser.add_argument("--store", type=Path, default=Path(DEFAULT_STORE), help="local store folder")
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default=os.environ.get("DOCSHELF_BACKEND", "embedded"),
        help="search index: the embedded BM25 index (default) or OpenSearch (env DOCSHELF_BACKEND)",
    )
    parser.add_argument(
        "--opensearch-url",
        default=os.environ.get("OPENSEARCH_URL", DEFAULT_OPENSEARCH_URL),
        help=f"OpenSearch endpoint for --backend opensearch (env OPENSEARCH_URL, default {DEFAULT_OPENSEARCH_URL})",
    )
    parser.add_argument(
        "--opensearch-index",
        default=os.environ.get("OPENSEARCH_INDEX", DEFAULT_OPENSEARCH_INDEX),
        help=(
            "OpenSearch index name prefix: namespace NS is the alias PREFIX.NS "
            f"(env OPENSEARCH_INDEX, default {DEFAULT_OPENSEARCH_INDEX})"
        ),
    )


def ocr_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-ocr",
        action="store_true",
        help=f"do not OCR scans and images: they end as needs_ocr (env {OCR_ENV}=off)",
    )


def embedding_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--embeddings",
        choices=PROVIDER_NAMES,
        default=os.environ.get("DOCSHELF_EMBEDDINGS", "none"),
        help="the semantic channel's embedding provider (env DOCSHELF_EMBEDDINGS, default none)",
    )
    parser.add_argument(
        "--embedding-model",
        default=os.environ.get("DOCSHELF_EMBEDDING_MODEL", ""),
        help="the provider's model id (env DOCSHELF_EMBEDDING_MODEL; default: the provider's own)",
    )


def chunk_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--chunk-tokens", type=int, default=DEFAULT_CHUNK_TOKENS)
    parser.add_argument(
        "--overlap-tokens", type=int, default=None, help="default: 40, or chunk-tokens/8 when that is smaller"
    )
    parser.add_argument("--whole-document-tokens", type=int, default=0)
