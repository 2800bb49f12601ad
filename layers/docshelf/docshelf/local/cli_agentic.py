"""`docshelf search --agentic`: the agentic mode on the command line, one query or a batch (`--queries F --json`,
each line with its `evidence_text`). `--max-tokens` is the budget of the whole plan."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

from docshelf.agentic.navigate import StoreNavSource
from docshelf.agentic.plan import PlanMaker
from docshelf.agentic.rules import RULES
from docshelf.agentic.service import AgenticRun, agentic_search
from docshelf.agentic.steps import StepContext
from docshelf.assets.links import local_asset_link
from docshelf.graph.source import BuiltGraphSource
from docshelf.index.plan import SearchFilters
from docshelf.local.cli_batch import batch_line
from docshelf.local.services import LocalServices
from docshelf.local.terminal import shown_line, shown_text
from docshelf.registry.runs_local import LocalRunLog

LOCAL_USER = "local"


PLANNER_MODEL_ENV = "DOCSHELF_PLANNER_MODEL"


def add_agentic_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--agentic",
        action="store_true",
        help="plan the query into searches and section walks under one budget (--max-tokens); evidence only",
    )
    add_planner_option(parser)


def add_planner_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--planner-model",
        default=os.environ.get(PLANNER_MODEL_ENV, ""),
        help="plan agentic searches with this Bedrock model (Converse; boto3's default credentials), falling back "
        f"to the rule-based planner when it fails (env {PLANNER_MODEL_ENV}; default: the rules)",
    )


def planner_from_args(args: argparse.Namespace) -> PlanMaker:
    model_id = getattr(args, "planner_model", "")
    if not model_id:
        return RULES
    from docshelf.agentic.bedrock_planner import bedrock_planner

    return bedrock_planner(model_id)


def agentic_search_command(
    services: LocalServices, args: argparse.Namespace, filters: SearchFilters, queries: list[tuple[Any, str]] | None
) -> int:
    index = services.index.reader(args.namespace, services.registry.namespace_version(args.namespace))
    ctx = StepContext(
        index, args.namespace, args.top_k, filters, nav_source=StoreNavSource(services.store),
        embedder=services.embedding_provider(), asset_link=local_asset_link(services.store.root),
        graph_source=BuiltGraphSource(services.store, lambda _: index), passage_model=services.passage_model(),
    )  # fmt: skip
    run_log = LocalRunLog(services.registry.path)
    planner = planner_from_args(args)
    for qid, query in queries if queries is not None else [(None, args.query)]:
        body = agentic_search(
            ctx, AgenticRun(query, args.max_tokens, LOCAL_USER, args.min_score), planner=planner, run_log=run_log
        )
        if queries is not None:
            print(json.dumps(batch_line(qid, body), ensure_ascii=False))
        elif args.json:
            print(json.dumps(body, ensure_ascii=False, indent=2))
        else:
            print_agentic(body, sys.stdout)
    return 0


def print_agentic(body: dict[str, Any], out: TextIO) -> None:
    for step in body["steps"]:
        found = len(step["result_ids"])
        line = shown_line(f"{step['id']} {step['action']} [{step['status']}] {step['query']}")
        print(f"{line}  ({found} found)", file=out)
    print(file=out)
    print(shown_text(body["evidence_text"]) or "no evidence", file=out)
    state = ", truncated" if body["truncated"] else ""
    print(f"-- {body['tokens_used']} of {body['budget_tokens']} tokens{state}, run {body['run_id']}", file=out)
