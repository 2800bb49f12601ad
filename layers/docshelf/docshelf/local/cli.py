"""The `docshelf` command: ingest, search, parse, chunk, status, reembed, resync, delete, serve, mcp."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from docshelf.assets.links import local_asset_link
from docshelf.config import ParseLimits
from docshelf.errors import DocshelfError, DocumentError
from docshelf.ids import validate_namespace
from docshelf.index.plan import SearchFilters
from docshelf.local.cli_agentic import agentic_search_command, planner_from_args
from docshelf.local.cli_batch import batch_line
from docshelf.local.cli_ingest import cmd_ingest, make_visible
from docshelf.local.cli_inputs import read_input_file, read_queries, resolve_delete_keys
from docshelf.local.cli_mcp import cmd_mcp, mcp_options
from docshelf.local.cli_options import (
    chunk_options,
    embedding_options,
    jwt_secret,
    namespace_option,
    ocr_option,
    search_options,
    serve_options,
    store_options,
)
from docshelf.local.cli_reembed import cmd_reembed
from docshelf.local.cli_resync import resync_options
from docshelf.local.display_width import display_width, pad
from docshelf.local.services import LocalServices
from docshelf.local.sources import shown
from docshelf.local.terminal import shown_line, shown_text
from docshelf.ocr.settings import OCR_ENV
from docshelf.search.document_names import check_namespace, resolved_filters
from docshelf.search.empty import EMPTY_REASONS
from docshelf.search.request import SearchRequest
from docshelf.search.response import SearchResponse
from docshelf.search.service import search

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "no_ocr", False):  # the setting the parsers read, in this process and its forked workers
        os.environ[OCR_ENV] = "off"
    try:
        return int(args.handler(args))
    except DocshelfError as error:
        print(shown_line(f"docshelf {args.command}: {error}".replace("\n", " ")), file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except OSError as error:  # the store's folder cannot be written, the disk is full: not a bug to trace
        print(shown_line(f"docshelf {args.command}: {error}".replace("\n", " ")), file=sys.stderr)
        return EXIT_FAILED


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docshelf", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        return sub

    ingest = add("ingest", "parse, chunk and index files, folders or web pages (http:// or https:// URLs)")
    ingest.add_argument("paths", nargs="+", help="files, folders, or URLs of web pages")
    store_options(ingest)
    chunk_options(ingest)
    embedding_options(ingest)
    ingest.add_argument("--quiet", action="store_true", help="no progress bar or progress lines")
    ocr_option(ingest)
    ingest.add_argument(
        "--follow-symlinks", action="store_true", help="follow symlinks that lead out of a folder argument"
    )
    ingest.add_argument(
        "--prune",
        action="store_true",
        help="delete the documents an earlier ingest of the same folder listed whose files are gone",
    )
    ingest.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="HOST",
        help="fetch URLs of this internal host (an intranet wiki) although it resolves to a private address; "
        "exactly this name, repeatable (other hosts stay public-only)",
    )
    ingest.set_defaults(handler=lambda args: cmd_ingest(args, _services))

    find = add("search", "search a namespace and print cited evidence")
    search_options(find)
    find.set_defaults(handler=cmd_search)

    parse = add("parse", "parse one file and print the typed document")
    parse.add_argument("file", type=Path, help="the file to parse")
    parse.add_argument(
        "--format", choices=["md", "html", "json"], default="md", help="Markdown (default), HTML or the typed JSON"
    )
    ocr_option(parse)
    parse.set_defaults(handler=cmd_parse)

    chunk = add("chunk", "parse and chunk one file, one JSON chunk per line")
    chunk.add_argument("file", type=Path, help="the file to parse and chunk")
    chunk.add_argument("--format", choices=["jsonl"], default="jsonl", help="one JSON chunk a line")
    namespace_option(chunk)
    chunk_options(chunk)
    chunk.set_defaults(handler=cmd_chunk)

    status = add("status", "list the documents of a namespace with their status")
    store_options(status)
    status.add_argument("--json", action="store_true", help="print the records as JSON")
    status.add_argument("--graph", action="store_true", help="each document's keyword graph: nodes, edges, degree")
    status.set_defaults(handler=cmd_status)

    reembed = add("reembed", "embed every chunk of a namespace with the given embedding model, replacing its vectors")
    store_options(reembed)
    embedding_options(reembed)
    reembed.set_defaults(handler=lambda args: cmd_reembed(args, _existing_store))
    resync = add("resync", "publish a namespace again from its stored chunks after a change of settings")
    resync_options(resync, _existing_store)

    delete = add("delete", "remove documents (by source key or file name) from a namespace")
    delete.add_argument("keys", nargs="+", help="documents: an id, a key as status shows it, or a file name")
    store_options(delete)
    delete.set_defaults(handler=cmd_delete)

    serve = add("serve", "serve the search API, its docs and a search page over HTTP")
    serve_options(serve)
    serve.set_defaults(handler=cmd_serve)

    mcp = add("mcp", "serve the MCP tools over stdio for an assistant (a local store)")
    mcp_options(mcp)
    mcp.set_defaults(handler=lambda args: cmd_mcp(args, _existing_store))
    return parser


def _existing_store(args: argparse.Namespace) -> LocalServices:
    """The services of a store that must exist already (read commands never create one)."""
    if not (args.store / "registry.sqlite").is_file():
        raise DocshelfError(f"no docshelf store at {shown(args.store)} (ingest into it first, or pass --store)")
    return _services(args)


def _services(args: argparse.Namespace) -> LocalServices:
    return LocalServices.open(
        args.store,
        chunk_tokens=getattr(args, "chunk_tokens", 500),
        overlap_tokens=getattr(args, "overlap_tokens", None),
        whole_document_tokens=getattr(args, "whole_document_tokens", 0),
        backend=args.backend,
        opensearch_url=args.opensearch_url,
        opensearch_index=args.opensearch_index,
        embedding_provider=getattr(args, "embeddings", "none"),
        embedding_model_id=getattr(args, "embedding_model", ""),
        passage_model=getattr(args, "passage_model", "none"),
    )


def _filters(args: argparse.Namespace) -> SearchFilters:
    return SearchFilters(
        documents=tuple(args.document),
        exclude_documents=tuple(args.exclude_document),
        exclude_sections=tuple(args.exclude_section),
        chunk_types=tuple(args.type),
    )


def cmd_search(args: argparse.Namespace) -> int:
    if (args.query is None) == (args.queries is None):
        print("docshelf search: give either QUERY or --queries FILE", file=sys.stderr)
        return EXIT_USAGE
    queries = read_queries(args.queries) if args.queries is not None else None
    services = _existing_store(args)
    filters = _checked_filters(services, args)
    if args.agentic:
        return agentic_search_command(services, args, filters, queries)
    if queries is not None:
        return _batch_search(services, args, queries, filters)
    response = search(
        services.index,
        _request(args, args.query, filters),
        asset_link=local_asset_link(services.store.root),
        embedder=services.embedding_provider(),
        hits=services.hits,
        passage_model=services.passage_model(),
    )
    if args.json:
        print(json.dumps(response.to_dict(), ensure_ascii=False, indent=2))
    else:
        print_response(response, sys.stdout)
    return EXIT_OK


def _request(args: argparse.Namespace, query: str, filters: SearchFilters) -> SearchRequest:
    return SearchRequest(
        namespace=args.namespace,
        query=query,
        top_k=args.top_k,
        max_tokens=args.max_tokens,
        filters=filters,
        min_score=args.min_score,
    )


def _known_namespace(services: LocalServices, namespace: str) -> str:
    """The namespace, once it is well formed and holds documents (exit 2 naming those that do, otherwise)."""
    check_namespace(validate_namespace(namespace), services.registry.namespaces())
    return namespace


def _checked_filters(services: LocalServices, args: argparse.Namespace) -> SearchFilters:
    """The search's filters with each document named by id, once the namespace and every name are known."""
    namespace = _known_namespace(services, args.namespace)
    return resolved_filters(_filters(args), services.registry.list(namespace))


def _batch_search(
    services: LocalServices, args: argparse.Namespace, queries: list[tuple[Any, str]], filters: SearchFilters
) -> int:
    """One JSON line per question: the fields of a single search's `--json`, under the same budget."""
    asset_link = local_asset_link(services.store.root)
    hits = services.hits
    for qid, query in queries:
        request = _request(args, query, filters)
        response = search(
            services.index,
            request,
            asset_link=asset_link,
            embedder=services.embedding_provider(),
            hits=hits,
            passage_model=services.passage_model(),
        )
        print(json.dumps(batch_line(qid, response.to_dict()), ensure_ascii=False))
    return EXIT_OK


def print_response(response: SearchResponse, out: TextIO) -> None:
    from docshelf.citations import citation

    if not response.results:
        print(f"no results: {EMPTY_REASONS.get(response.empty_reason, response.empty_reason)}", file=out)
        return
    if response.corrections:
        fixed = ", ".join(f"{term} -> {used}" for term, used in response.corrections.items())
        print(shown_line(f"nothing matched the query as written; searched with corrected terms: {fixed}"), file=out)
    for number, ranked in enumerate(response.results, start=1):
        chunk = ranked.chunk
        snippet = " ".join(chunk.text.split())
        snippet = snippet if len(snippet) <= 300 else snippet[:297] + "..."
        print(f"[{number}] {shown_line(citation(chunk))}  ({chunk.type}, score {ranked.score:.4f})", file=out)
        print(f"    {shown_line(snippet)}", file=out)
    print(f"-- {len(response.results)} of {response.total_chunks} chunks, {response.took_ms:.1f} ms", file=out)


def cmd_parse(args: argparse.Namespace) -> int:
    from docshelf.parsers import parse_bytes
    from docshelf.render import document_to_html, document_to_markdown
    from docshelf.serde import document_to_dict

    try:
        data = read_input_file(args.file, ParseLimits().max_bytes)
        document = parse_bytes(data, shown(args.file.name), uri=shown(args.file))
    except DocumentError as error:
        print(shown_line(f"docshelf parse: {shown(args.file)}: {error.code}: {error.message}"), file=sys.stderr)
        return EXIT_FAILED
    if args.format == "json":
        print(json.dumps(document_to_dict(document), ensure_ascii=False, indent=2))
    elif args.format == "html":
        sys.stdout.write(shown_text(document_to_html(document)))
    else:
        sys.stdout.write(shown_text(document_to_markdown(document)))
    return EXIT_OK


def cmd_chunk(args: argparse.Namespace) -> int:
    from docshelf.chunking import ChunkConfig, chunk_document, default_overlap
    from docshelf.ids import document_id
    from docshelf.parsers import parse_bytes
    from docshelf.serde import chunk_to_dict

    config = ChunkConfig(
        chunk_tokens=args.chunk_tokens,
        overlap_tokens=default_overlap(args.chunk_tokens) if args.overlap_tokens is None else args.overlap_tokens,
        whole_document_tokens=args.whole_document_tokens,
    )
    try:
        data = read_input_file(args.file, ParseLimits().max_bytes)
        document = parse_bytes(data, shown(args.file.name), uri=shown(args.file))
    except DocumentError as error:
        print(shown_line(f"docshelf chunk: {shown(args.file)}: {error.code}: {error.message}"), file=sys.stderr)
        return EXIT_FAILED
    doc_id = document_id(validate_namespace(args.namespace), shown(args.file.name))
    for chunk in chunk_document(document, document_id=doc_id, namespace=args.namespace, config=config):
        print(json.dumps(chunk_to_dict(chunk), ensure_ascii=False))
    return EXIT_OK


def cmd_status(args: argparse.Namespace) -> int:
    from docshelf.local.cli_status import document_graphs, hit_lines, print_graphs

    services = _existing_store(args)
    namespace = _known_namespace(services, args.namespace)
    records = services.registry.list(namespace)
    graphs = document_graphs(services, namespace, records) if args.graph else {}
    if args.json:
        rows = [{**asdict(r), **({"graph": graphs.get(r.source_key)} if args.graph else {})} for r in records]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return EXIT_OK
    if not records:
        print(f"no documents in namespace {args.namespace}")
        return EXIT_OK
    keys = {record.document_id: shown_line(record.source_key) for record in records}
    width = max(map(display_width, keys.values()))
    for record in records:
        detail = (
            f"[{record.error_code}] {record.error_message}" if record.error_code else f"{record.chunk_count} chunks"
        )
        print(f"{pad(keys[record.document_id], width)}  {record.status:<9}  {shown_line(detail)}")
    counts = Counter(r.status for r in records)
    print("-- " + ", ".join(f"{n} {status}" for status, n in sorted(counts.items())))
    for line in hit_lines(services, namespace, records):
        print(line)
    print_graphs(graphs, sys.stdout)
    return EXIT_OK


def cmd_delete(args: argparse.Namespace) -> int:
    """Every key is resolved before anything is deleted: an unknown or ambiguous one deletes nothing (exit 2)."""
    services = _existing_store(args)
    live = [r for r in services.registry.list(_known_namespace(services, args.namespace)) if r.status != "deleted"]
    source_keys = resolve_delete_keys(args.keys, live)
    for source_key in source_keys:
        services.delete(namespace=args.namespace, source_key=source_key)
        print(f"deleted {shown_line(source_key)}")
    make_visible(services)
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    from docshelf.api.auth import ClaimNames
    from docshelf.local.api_services import LocalApiServices
    from docshelf.local.server import ServeConfig, run_server

    problem = _serve_usage_problem(args)
    secret = None if args.no_auth or problem else jwt_secret(args.jwt_secret_file)
    if problem is None and not args.no_auth and (secret is None or len(secret) < 32):
        problem = (
            "set DOCSHELF_JWT_SECRET or give --jwt-secret-file FILE (a secret of at least 32 characters), or --no-auth"
        )
    if problem:
        print(f"docshelf serve: {problem}", file=sys.stderr)
        return EXIT_USAGE
    config = ServeConfig(
        jwt_secret=secret,
        claim_names=ClaimNames(user=args.user_claim, namespaces=args.namespaces_claim),
        cors_origin=args.cors_origin,
        jwt_leeway_s=args.jwt_leeway,
    )
    services = _services(args)
    services.load_models()
    backend = LocalApiServices(
        services, cache_ttl_s=args.cache_ttl, sources=_sources(args.sources), planner=planner_from_args(args)
    )
    try:
        run_server(backend, config, host=args.host, port=args.port)
    except OSError as error:
        print(f"docshelf serve: cannot listen on {args.host}:{args.port}: {error.strerror or error}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def _sources(given: list[tuple[str, Path]] | None) -> Path | dict[str, Path] | None:
    """One folder for every namespace (`--sources DIR`, as before), or a folder a namespace (`NS=DIR`)."""
    if not given:
        return None
    if len(given) == 1 and given[0][0] == "*":
        return given[0][1]
    return dict(given)


def _serve_usage_problem(args: argparse.Namespace) -> str | None:
    if not 0 <= args.port <= 65535:
        return f"--port must be 0..65535, not {args.port}"
    if args.jwt_secret is not None:
        return (
            "the JWT secret is not taken on the command line, where ps shows it: set DOCSHELF_JWT_SECRET or give "
            "--jwt-secret-file FILE"
        )
    if not 0 <= args.jwt_leeway <= 3600:
        return "--jwt-leeway must be 0..3600 seconds"
    if (
        args.cors_origin is not None
        and args.cors_origin != "*"
        and not args.cors_origin.startswith(("http://", "https://"))
    ):
        return "--cors-origin must be * or an origin such as http://localhost:3000"
    return None


if __name__ == "__main__":
    sys.exit(main())
