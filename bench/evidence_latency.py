#!/usr/bin/env python3
"""What passage packing costs a search: the same searches with `search/packing.py` and with the evidence before it
(whole chunks best first under the full citation header, bench/evidence_study.py), alternated in one process
over bench/index_bench.py's synthetic chunks so that both see the same load. Medians and their ratio.

    python -m bench.evidence_latency [CHUNKS] [--queries 150]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

import docshelf.search.service as service  # noqa: E402
from bench.evidence_study import whole_chunks  # noqa: E402
from bench.index_bench import documents_of, make_chunks  # noqa: E402
from docshelf.index.embedded import EmbeddedIndex  # noqa: E402
from docshelf.model import Chunk  # noqa: E402
from docshelf.search.packing import PackedEvidence, pack_evidence  # noqa: E402
from docshelf.search.request import SearchRequest  # noqa: E402
from docshelf.store import LocalStore  # noqa: E402
from docshelf.tokens import count_tokens  # noqa: E402


def whole_chunk_evidence(
    chunks: Sequence[Chunk], weights: Mapping[str, float], max_tokens: int, **_: Any
) -> PackedEvidence:
    text = whole_chunks(list(chunks), max_tokens)
    return PackedEvidence(text, count_tokens(text), ())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chunks", nargs="?", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=150)
    args = parser.parse_args()
    chunks = make_chunks(args.chunks)
    with tempfile.TemporaryDirectory(prefix="evidence-latency-") as tmp:
        index = EmbeddedIndex(LocalStore(Path(tmp)))
        index.write("bench", documents_of(chunks))
        rng = random.Random(5)
        words = [word for chunk in chunks[:500] for word in chunk.text.split()]
        queries = [" ".join(rng.sample(words, rng.randint(2, 6))) for _ in range(args.queries)]
        count_tokens("the encoder, loaded before timing")
        packers = {"passages": pack_evidence, "whole chunks": whole_chunk_evidence}
        times: dict[str, list[float]] = {name: [] for name in packers}
        try:
            for query in queries:
                for name, packer in packers.items():
                    setattr(service, "pack_evidence", packer)  # noqa: B010 (the name search() calls)
                    started = time.perf_counter()
                    service.search(index, SearchRequest("bench", query, top_k=10))
                    times[name].append((time.perf_counter() - started) * 1000)
        finally:
            setattr(service, "pack_evidence", pack_evidence)  # noqa: B010
    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"{args.chunks:,} chunks, {args.queries} queries, top 10, max_tokens 2000: search p50 with passages "
          f"{medians['passages']:.1f} ms, with whole chunks {medians['whole chunks']:.1f} ms "
          f"({medians['passages'] / medians['whole chunks']:.2f}x)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
