"""`docshelf mcp`: the MCP server over stdio for a local store, for an assistant that starts it as a subprocess.

The assistant's client speaks MCP on stdin/stdout; the tools read only the namespaces named with --namespace (the
first is the default), as a token's namespaces bound them over HTTP. Nothing but the protocol goes to stdout.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from docshelf.ids import validate_namespace
from docshelf.local.cli_agentic import add_planner_option, planner_from_args
from docshelf.local.cli_options import engine_options, passage_model_option
from docshelf.local.services import DEFAULT_STORE, LocalServices

LOCAL_USER = "local"


def mcp_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--namespace",
        action="append",
        required=True,
        help="a namespace the tools may read (repeatable; the first is the default)",
    )
    parser.add_argument("--store", type=Path, default=Path(DEFAULT_STORE), help="local store folder")
    engine_options(parser)
    parser.add_argument("--cache-ttl", type=int, default=300, help="search cache lifetime in seconds (0: off)")
    add_planner_option(parser)
    passage_model_option(parser)


def cmd_mcp(args: argparse.Namespace, services: Callable[[argparse.Namespace], LocalServices]) -> int:
    from docshelf.mcp.route import mcp_available

    if not mcp_available():
        print("docshelf mcp: the MCP SDK is not installed: pip install 'docshelf[mcp]'", file=sys.stderr)
        return 2
    from docshelf.api.auth import Caller
    from docshelf.local.api_services import LocalApiServices
    from docshelf.mcp.server import build_mcp_server, fixed_caller

    namespaces = [validate_namespace(namespace) for namespace in args.namespace]
    local = services(args)
    local.load_models()
    backend = LocalApiServices(local, cache_ttl_s=args.cache_ttl, planner=planner_from_args(args))
    caller = Caller(LOCAL_USER, frozenset(namespaces))
    server = build_mcp_server(lambda: backend, fixed_caller(caller), default_namespace=namespaces[0])
    server.run("stdio")
    return 0
