#!/usr/bin/env python3
"""The Qwen-Agent peer of the quality bench: its own parser, chunker and keyword search over one set's documents.

Run by Qwen-Agent's interpreter (bench/qwen_agent_peer.py's `peer_python()`), never by docshelf's: it imports
nothing of docshelf. Each document goes through `DocParser` at its default 500-token pages,
forced to chunk (as the README's Qwen-Agent rows are measured: a document under `max_ref_token` would otherwise be
one chunk); the chunks of every document are ranked for each question as `KeywordSearch.sort_by_scores` ranks them
(rank-bm25's BM25Okapi over `split_text_into_keywords`, the query through `parse_keyword`), with the index built
once rather than once per question as the class does, which changes the time and not the ranking. The run is
printed as evaluate.py reads it: one `{"qid", "results": [{"doc", "text", "score"}]}` line per question, best
first, Qwen-Agent's evidence being its chunks in that order.

    $QWEN_AGENT_PYTHON bench/qwen_agent_peer.py DOCS_DIR QUERIES_JSONL WORKSPACE [--top-k 10]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("docs", type=Path)
    parser.add_argument("queries", type=Path)
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--top-k", type=int, default=10)
    args = parser.parse_args()
    os.environ.setdefault("QWEN_AGENT_DEFAULT_WORKSPACE", str(args.workspace))
    from qwen_agent.log import logger  # type: ignore[import-not-found]
    from qwen_agent.tools.doc_parser import DocParser  # type: ignore[import-not-found]
    from qwen_agent.tools.search_tools.keyword_search import (  # type: ignore[import-not-found]
        parse_keyword,
        split_text_into_keywords,
    )
    from rank_bm25 import BM25Okapi

    logger.setLevel(logging.WARNING)
    doc_parser = DocParser({"path": str(args.workspace / "doc_parser"), "max_ref_token": 1})
    chunks: list[tuple[str, str]] = []  # (file name, text)
    for path in sorted(args.docs.iterdir()):
        if not path.is_file():
            continue
        try:
            record = doc_parser.call({"url": str(path)})
        except Exception as error:  # the peer's own failures: the document is left out, as it would be there
            print(f"qwen-agent could not read {path.name}: {error}", file=sys.stderr)
            continue
        chunks.extend((path.name, chunk["content"]) for chunk in record["raw"])
    bm25 = BM25Okapi([split_text_into_keywords(text) for _, text in chunks])
    for line in args.queries.open(encoding="utf-8"):
        question = json.loads(line)
        words = parse_keyword(question["query"])
        scores = bm25.get_scores(words) if words else [0.0] * len(chunks)
        best = sorted(range(len(chunks)), key=lambda i: -scores[i])[: args.top_k]
        results = [{"doc": chunks[i][0], "text": chunks[i][1], "score": float(scores[i])} for i in best]
        print(json.dumps({"qid": question["qid"], "results": results}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
