#!/usr/bin/env python3
"""Tables asked for by their title and by one of their rows, over ../shared/corpus: is the table among the results,
and does the evidence quote it?

    .venv/bin/python -m bench.table_bench [--source DIR]

The questions come from the parse of every corpus file, so they are the same for every tree measured:
- by title: for each table, the text right before it (blank paragraphs aside) when that is a heading or a paragraph of
  at most 25 words (a sheet's or a slide's name, a section opening with its table, "Nested Table", "The limits are:");
- by row: for up to three tables of more than two rows a file (drawn with a fixed seed), the text cells of one of
  their rows, at most three.
Each tree ingests the corpus (without groundtruth/, whose conversions repeat its tables) into a store of its own
(`docshelf ingest`, defaults, OCR off) and answers every question with top_k 8 and 800 tokens (with the sentence model
when `make setup` installed it). Printed per tree and question set: the share whose table is among the results, the
share whose table the evidence quotes, and how many results were chunks of headings alone. `--source` names another
tree's layers/docshelf (a checkout of main, say): it is measured the same way in the same run, as the baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from docshelf.model import Block, Heading, Paragraph

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
NAMESPACE = "tables"
TOP_K = 8
MAX_TOKENS = 800
TITLE_WORDS = 25
ROW_TABLES_PER_FILE = 3
SKIPPED = ("groundtruth", "MANIFEST.tsv", "README.md")


def questions(corpus: Path = CORPUS) -> dict[str, list[dict[str, str]]]:
    """The title and row questions: each names its file (source key), its table (`table-<order>`) and the query."""
    from docshelf.errors import DocshelfError
    from docshelf.model import Table
    from docshelf.parsers import parse_with_assets
    from docshelf.tables import table_grid

    rng = random.Random(36)
    found: dict[str, list[dict[str, str]]] = {"title": [], "row": []}
    for path in sorted(p for p in corpus.rglob("*") if p.is_file()):
        if any(part in SKIPPED for part in path.relative_to(corpus).parts):
            continue
        try:
            blocks = parse_with_assets(path.read_bytes(), path.name)[0].blocks()
        except DocshelfError:
            continue
        key = path.relative_to(corpus).as_posix()
        tables = []
        for index, block in enumerate(blocks):
            if not isinstance(block, Table):
                continue
            tables.append(block)
            title = _title_before(blocks[:index])
            if len(title.split()) >= 2:
                found["title"].append({"file": key, "table": f"table-{block.order}", "query": title[:200]})
        rowed = [table for table in tables if table.n_rows > 2]
        for table in rng.sample(rowed, min(ROW_TABLES_PER_FILE, len(rowed))):
            grid = table_grid(table)
            cells = [cell for cell in grid[rng.randrange(1, len(grid))] if any(ch.isalpha() for ch in cell)]
            query = " ".join(cells[:3])[:150]
            if len(query.split()) >= 2:
                found["row"].append({"file": key, "table": f"table-{table.order}", "query": query})
    return found


def _title_before(blocks: list[Block]) -> str:
    """The text of the last block that is not a blank paragraph, when it is a heading or a paragraph of at most
    TITLE_WORDS words ("" otherwise), its white space made single spaces."""
    for block in reversed(blocks):
        if isinstance(block, Paragraph) and not block.text.strip():
            continue
        if isinstance(block, Heading) or (isinstance(block, Paragraph) and len(block.text.split()) <= TITLE_WORDS):
            return " ".join(block.text.split())
        return ""
    return ""


def score(store: str, sets: dict[str, list[dict[str, str]]]) -> dict[str, dict[str, Any]]:
    """Each set's shares (the tree on sys.path answers), from a store ingested by that tree."""
    from docshelf.local.services import LocalServices
    from docshelf.search.packing import is_heading_only
    from docshelf.search.request import SearchRequest
    from docshelf.search.service import search

    services = LocalServices.open(store)
    index = services.index.reader(NAMESPACE, services.registry.namespace_version(NAMESPACE))
    model = services.passage_model()
    measured: dict[str, dict[str, Any]] = {}
    for name, asked in sets.items():
        in_results = quoted = heading_only = 0
        for question in asked:
            response = search(
                index, SearchRequest(NAMESPACE, question["query"], TOP_K, MAX_TOKENS), passage_model=model
            )
            mine = [
                result
                for result in response.results
                if result.chunk.source_key == question["file"]
                and result.chunk.type == "table"
                and any(link.ref == question["table"] for link in result.chunk.connect_to)
            ]
            in_results += bool(mine)
            quoted += any(result.chunk.chunk_id in response.cited for result in mine)
            heading_only += sum(is_heading_only(result.chunk) for result in response.results)
        count = max(1, len(asked))
        measured[name] = {
            "questions": len(asked),
            "in_results": in_results / count,
            "quoted": quoted / count,
            "heading_only": heading_only,
        }
    return measured


def measure(layers: Path, asked: Path, store: Path, corpus: Path) -> dict[str, Any]:
    """Ingest into `store` and answer the questions in `asked` with the tree at `layers` (its layers/docshelf), in
    interpreters of its own."""
    environment = {**os.environ, "PYTHONPATH": f"{layers}{os.pathsep}{REPO}", "DOCSHELF_OCR": "off"}
    ingest = subprocess.run(
        [sys.executable, "-m", "docshelf.local.cli", "ingest", str(corpus), "--store", str(store), "--namespace",
         NAMESPACE, "--quiet"],
        env=environment, cwd=REPO, check=False, capture_output=True, text=True,
    )  # fmt: skip
    if ingest.returncode not in (0, 1):  # 1: some documents failed, as the corpus' broken files do
        raise RuntimeError(f"ingest with {layers} exited {ingest.returncode}: {ingest.stderr[-2000:]}")
    done = subprocess.run(
        [sys.executable, "-m", "bench.table_bench", "--score", str(store), str(asked)],
        env=environment, cwd=REPO, check=True, capture_output=True, text=True,
    )  # fmt: skip
    measured: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", type=Path, help="another tree's layers/docshelf, measured as the baseline")
    parser.add_argument("--score", nargs=2, metavar=("STORE", "QUESTIONS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.score:
        print(json.dumps(score(args.score[0], json.loads(Path(args.score[1]).read_text(encoding="utf-8")))))
        return
    if not CORPUS.is_dir():
        print(f"table_bench skipped: {CORPUS} is absent")
        return
    sets = questions()
    trees = [(REPO / "layers" / "docshelf", "this tree")]
    if args.source:
        trees.insert(0, (args.source.resolve(), f"baseline ({args.source})"))
    with tempfile.TemporaryDirectory() as tmp:
        # The files the questions come from, without the reference conversions (copies of the same tables).
        corpus = Path(tmp) / "corpus"
        shutil.copytree(CORPUS, corpus, ignore=shutil.ignore_patterns(*SKIPPED))
        asked = Path(tmp) / "questions.json"
        asked.write_text(json.dumps(sets), encoding="utf-8")
        rows = [(name, measure(layers, asked, Path(tmp) / f"s{at}", corpus)) for at, (layers, name) in enumerate(trees)]
    print(f"| tree | questions by | count | table in the results (top {TOP_K}) | quoted in the evidence "
          f"({MAX_TOKENS} tokens) | results of headings alone |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for label, measured in rows:
        for name in sets:
            got = measured[name]
            print(f"| {label} | {name} | {got['questions']} | {got['in_results']:.3f} | {got['quoted']:.3f} | "
                  f"{got['heading_only']} |")  # fmt: skip


if __name__ == "__main__":
    main()
