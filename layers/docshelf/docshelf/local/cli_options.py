"""The options of the `docshelf` subcommands that several of them share."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

from docshelf.chunking import DEFAULT_CHUNK_TOKENS
from docshelf.config import DEFAULT_OPENSEARCH_INDEX, DEFAULT_PASSAGE_MODEL, PASSAGE_MODELS, PROVIDER_NAMES
from docshelf.errors import DocshelfError
from docshelf.local.cli_agentic import add_agentic_option, add_planner_option
from docshelf.local.services import BACKENDS, DEFAULT_OPENSEARCH_URL, DEFAULT_STORE
from docshelf.ocr.settings import OCR_ENV
from docshelf.search.request import DEFAULT_MAX_TOKENS, DEFAULT_TOP_K

JWT_SECRET_ENV = "DOCSHELF_JWT_SECRET"


def search_options(find: argparse.ArgumentParser) -> None:
    find.add_argument("query", nargs="?", help="what to search for, in plain words (or --queries FILE)")
    find.add_argument("--queries", type=Path, help='a JSONL file of {"qid", "query"} lines (batch mode)')
    store_options(find)
    embedding_options(find)
    passage_model_option(find)
    find.add_argument(
        "--top-k", type=int, default=DEFAULT_TOP_K, help=f"results to return, 1-50 (default {DEFAULT_TOP_K})"
    )
    find.add_argument(
        "--max-tokens",
        type=int,
        default=DEFAULT_MAX_TOKENS,
        help=f"token budget of the cited evidence in both modes (cl100k_base; default {DEFAULT_MAX_TOKENS})",
    )
    find.add_argument(
        "--min-score", type=float, default=0.0, help="leave out results whose confidence (0..1) is below this"
    )
    find.add_argument(
        "--document",
        action="append",
        default=[],
        help="only this document: its id, its key as status shows it, or a file name one document has (repeatable)",
    )
    find.add_argument(
        "--exclude-document", action="append", default=[], help="leave this document out (named as for --document)"
    )
    find.add_argument(
        "--exclude-section", action="append", default=[], help="leave out chunks under a section of this title"
    )
    find.add_argument(
        "--type",
        action="append",
        default=[],
        choices=["text", "table", "image"],
        help="only chunks of this type (repeatable)",
    )
    find.add_argument("--json", action="store_true", help="print the full response as JSON")
    add_agentic_option(find)


def serve_options(parser: argparse.ArgumentParser) -> None:
    add_planner_option(parser)
    passage_model_option(parser)
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)"
    )
    parser.add_argument("--port", type=int, default=8080, help="port to listen on (default 8080; 0: any free port)")
    auth = parser.add_mutually_exclusive_group()
    auth.add_argument(
        "--jwt-secret-file",
        type=Path,
        metavar="FILE",
        help=f"verify bearer JWTs signed HS256 with the secret in FILE (default: the environment's {JWT_SECRET_ENV})",
    )
    auth.add_argument("--jwt-secret", help=argparse.SUPPRESS)  # refused: a secret on the command line shows in ps
    auth.add_argument("--no-auth", action="store_true", help="no authentication: every namespace is readable")
    parser.add_argument("--user-claim", default="sub", help="the JWT claim naming the user")
    parser.add_argument("--namespaces-claim", default="namespaces", help="the JWT claim listing readable namespaces")
    parser.add_argument("--jwt-leeway", type=int, default=30, help="seconds of clock skew allowed on exp/nbf/iat")
    parser.add_argument(
        "--cors-origin", help="answer cross-origin requests from this origin (or *); off by default (same origin only)"
    )
    parser.add_argument("--cache-ttl", type=int, default=300, help="search cache lifetime in seconds (0: off)")
    parser.add_argument(
        "--sources",
        action="append",
        type=sources_folder,
        metavar="[NS=]DIR",
        help="the folder the documents were ingested from: citations open them (NS=DIR, repeatable: one a namespace)",
    )
    parser.add_argument("--store", type=Path, default=Path(DEFAULT_STORE), help="local store folder")
    engine_options(parser)


def jwt_secret(secret_file: Path | None) -> str | None:
    """The JWT secret from `secret_file` (its first line) or the environment's DOCSHELF_JWT_SECRET, never argv."""
    if secret_file is None:
        return os.environ.get(JWT_SECRET_ENV) or None
    try:
        lines = secret_file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise DocshelfError(f"cannot read the JWT secret from {secret_file}: {error}") from None
    return lines[0].strip() if lines else None


def namespace_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--namespace", default="default", help="the namespace (a-z 0-9 _ -, up to 64; default: default)"
    )


def sources_folder(value: str) -> tuple[str, Path]:
    """`NS=DIR` (that namespace's folder) or `DIR` (every namespace's: `*`)."""
    namespace, sep, folder = value.partition("=")
    if sep and re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", namespace):
        return namespace, Path(folder)
    return "*", Path(value)


def store_options(parser: argparse.ArgumentParser) -> None:
    namespace_option(parser)
    parser.add_argument("--store", type=Path, default=Path(DEFAULT_STORE), help="local store folder")
    engine_options(parser)


def engine_options(parser: argparse.ArgumentParser) -> None:
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


def passage_model_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--passage-model",
        choices=PASSAGE_MODELS,
        default=os.environ.get("DOCSHELF_PASSAGE_MODEL", DEFAULT_PASSAGE_MODEL),
        help="a sentence model reads the best passages of the first 30 results: it votes on their order and on the "
        "evidence's passages; local (the local embedding model, about 0.1-0.2 s a search; English queries), none "
        "(the words alone), or auto: local when the model is installed (make setup), else none "
        f"(env DOCSHELF_PASSAGE_MODEL, default {DEFAULT_PASSAGE_MODEL})",
    )


def chunk_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--chunk-tokens",
        type=int,
        default=DEFAULT_CHUNK_TOKENS,
        help=f"most tokens of a chunk (cl100k_base; default {DEFAULT_CHUNK_TOKENS})",
    )
    parser.add_argument(
        "--overlap-tokens", type=int, default=None, help="default: 40, or chunk-tokens/8 when that is smaller"
    )
    parser.add_argument(
        "--whole-document-tokens",
        type=int,
        default=0,
        help="a document of at most this many tokens is one chunk (default 0: off)",
    )
