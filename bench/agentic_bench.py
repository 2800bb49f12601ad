#!/usr/bin/env python3
"""Composite questions, agentic against classic search at equal token budgets (issue #24).

Pairs and triples of questions from ../shared/ireval (XQuAD en, DRCD, CMRC 2018: the answer strings; CACM: the
judged-relevant documents), each from a different document, are joined into one request as people write them:
"Q1? Q2?", "Q1 and q2", "Q1; Q2", "Q1，Q2", "Q1以及Q2", and CACM's requests (statements of several sentences) as
"1) R1 2) R2" or "R1; R2". A component is found when its answer (QA sets) or one of its relevant documents
(CACM, cited in the evidence) is in the evidence text. Both modes get the same budget, `--tokens-per-question`
times the number of questions, and top_k 8; both modes run as the CLI's default does (`--passage-model auto`: the
local sentence model when installed, which orders classic evidence's passages and each agentic step's); the single
questions alone are measured too. Latency is the median
over the same requests, both modes run in this process on the embedded engine with the rule-based planner.

    python -m bench.agentic_bench [--sets xquad_en,drcd_zh,cmrc2018_zh,cacm] [--pairs 60] [--triples 40]
                                  [--singles 100] [--tokens-per-question 300] [--graph] [--json FILE]

`--graph` runs agentic search twice, without and with following the document graph's edges (agentic/graph_step.py);
`--sets` may add xquad_zh and covidqa_dev.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

from docshelf.agentic.navigate import StoreNavSource  # noqa: E402
from docshelf.agentic.service import AgenticRun, agentic_search  # noqa: E402
from docshelf.agentic.steps import StepContext  # noqa: E402
from docshelf.config import DEFAULT_PASSAGE_MODEL  # noqa: E402
from docshelf.graph.source import BuiltGraphSource  # noqa: E402
from docshelf.local.services import LocalServices  # noqa: E402
from docshelf.search.request import SearchRequest  # noqa: E402
from docshelf.search.service import search  # noqa: E402

IREVAL = REPO.parent / "shared" / "ireval"
SETS = {
    "covidqa_dev": "en", "xquad_en": "en", "xquad_zh": "zh", "drcd_zh": "zh", "cmrc2018_zh": "zh", "cacm": "requests",
}  # fmt: skip
NAMESPACE = "agentic"
ENUMERATE = 4  # every fourth request is a numbered list
TOP_K = 8
JOINERS: dict[str, list[Callable[[str, str], str]]] = {
    "en": [
        lambda a, b: f"{a} {b}",
        lambda a, b: f"{_bare(a)} and {_lower_first(b)}",
        lambda a, b: f"{_bare(a)}; {b}",
        lambda a, b: f"{_bare(a)}, and also {_lower_first(b)}",
        lambda a, b: f"Compare {_lower_first(_bare(a))} and {_lower_first(b)}",
        lambda a, b: f"{a}\n{b}",
    ],
    "zh": [
        lambda a, b: f"{a}{b}",
        lambda a, b: f"{_bare(a)}，{b}",
        lambda a, b: f"{_bare(a)}以及{b}",
        lambda a, b: f"{_bare(a)}，另外{b}",
        lambda a, b: f"{a}\n{b}",
    ],
    # CACM's requests are statements of several sentences: joined as a list or by semicolons
    "requests": [lambda a, b: f"{a}; {b}"],
}


@dataclass(frozen=True)
class Question:
    text: str
    document: str  # the document it is about (QA) or its qid (CACM)
    expected: tuple[str, ...]  # answer strings (QA) or relevant file names (CACM)
    by_document: bool  # CACM: found when a relevant document is cited


def _bare(question: str) -> str:
    return question.rstrip("?？ ")


def _lower_first(question: str) -> str:
    """ "How many ..." -> "how many ..." (an acronym such as "NFL ..." stays)."""
    return question if question[:2].isupper() else question[:1].lower() + question[1:]


def questions_of(key: str) -> list[Question]:
    folder = IREVAL / key
    lines = [json.loads(line) for line in (folder / "queries.jsonl").read_text(encoding="utf-8").splitlines()]
    if key != "cacm":
        return [Question(q["query"], q["doc"], tuple(q["answers"]), False) for q in lines if q.get("answers")]
    relevant: dict[str, list[str]] = {}
    for row in (folder / "qrels.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        qid, doc, *_ = row.split("\t")
        relevant.setdefault(qid, []).append(f"{doc}.txt")
    return [Question(q["query"], q["qid"], tuple(relevant[q["qid"]]), True) for q in lines if q["qid"] in relevant]


def composites(questions: list[Question], size: int, count: int, language: str, seed: int) -> list[list[Question]]:
    """`count` groups of `size` questions about different documents, drawn with a fixed seed."""
    rng = random.Random(seed)
    groups: list[list[Question]] = []
    while len(groups) < count:
        group = rng.sample(questions, size)
        if len({q.document for q in group}) == size:
            groups.append(group)
    return groups


def joined(group: list[Question], language: str, number: int) -> str:
    """The group as one request: every `ENUMERATE`-th as a numbered list ("1) … 2) …", "1. … 2. …"), else by
    the language's joiners in turn (CACM's requests: a list every other time)."""
    if (language == "requests" and number % 2) or (language != "requests" and number % ENUMERATE == ENUMERATE - 1):
        mark = "{}." if number % 2 else "{})"
        return " ".join(f"{mark.format(at)} {question.text}" for at, question in enumerate(group, start=1))
    join = JOINERS[language][number % len(JOINERS[language])]
    text = group[0].text
    for question in group[1:]:
        text = join(text, question.text)
    return text


def form_of(language: str, number: int) -> str:
    """Which way of joining `joined` used for request `number`."""
    if (language == "requests" and number % 2) or (language != "requests" and number % ENUMERATE == ENUMERATE - 1):
        return "numbered list"
    return f"{language} joiner {number % len(JOINERS[language]) + 1}"


def found(question: Question, evidence: str, cited_files: set[str]) -> bool:
    if question.by_document:
        return any(name in cited_files for name in question.expected)
    flat = " ".join(evidence.split())
    return any(" ".join(answer.split()) in flat for answer in question.expected)


Runner = Callable[[str, int], tuple[str, set[str]]]


def runners(services: LocalServices, graph: bool = False) -> dict[str, Runner]:
    """classic and agentic search; with `graph`, agentic without following the document graph (`agentic`) and with it
    (`agentic_graph`), else agentic as its defaults have it."""
    index = services.index.reader(NAMESPACE, services.registry.namespace_version(NAMESPACE))
    graphs = BuiltGraphSource(services.store, lambda _: index)
    passage_model = services.passage_model()  # both modes as the CLI searches by default: with the sentence model
    ctx = StepContext(
        index, NAMESPACE, TOP_K, nav_source=StoreNavSource(services.store), graph_source=graphs,
        passage_model=passage_model,
    )  # fmt: skip
    if graph:
        ctx = replace(ctx, follow_graph=False)

    def classic(query: str, budget: int) -> tuple[str, set[str]]:
        response = search(index, SearchRequest(NAMESPACE, query, TOP_K, budget), passage_model=passage_model)
        cited = {r.chunk.source_file_name for r in response.results if r.chunk.chunk_id in response.cited}
        return response.evidence_text, cited

    def agentic(query: str, budget: int) -> tuple[str, set[str]]:
        body = agentic_search(ctx, AgenticRun(query, budget))
        return body["evidence_text"], {r["source_file_name"] for r in body["results"] if r["evidence_ref"]}

    def agentic_graph(query: str, budget: int) -> tuple[str, set[str]]:
        body = agentic_search(replace(ctx, follow_graph=True), AgenticRun(query, budget))
        text = body["evidence_text"]
        return text, {r["source_file_name"] for r in body["results"] if r["chunk_id"] in text}

    return {"classic": classic, "agentic": agentic, **({"agentic_graph": agentic_graph} if graph else {})}


def measure_groups(modes: dict[str, Runner], groups: list[list[Question]], language: str, per: int) -> dict[str, Any]:
    """Each request in both modes one after the other, so the machine's load falls on both alike."""
    hits = dict.fromkeys(modes, 0)
    latencies: dict[str, list[float]] = {mode: [] for mode in modes}
    by_form: dict[str, dict[str, int]] = {}
    for number, group in enumerate(groups):
        query = joined(group, language, number) if len(group) > 1 else group[0].text
        form = by_form.setdefault(form_of(language, number) if len(group) > 1 else "single", {"components": 0})
        form["components"] += len(group)
        for mode, run in modes.items():
            started = time.perf_counter()
            evidence, cited = run(query, per * len(group))
            latencies[mode].append((time.perf_counter() - started) * 1000)
            count = sum(found(question, evidence, cited) for question in group)
            hits[mode] += count
            form[mode] = form.get(mode, 0) + count
    total = sum(len(group) for group in groups)
    row: dict[str, Any] = {
        mode: {"found": hits[mode] / total, "components": total, "p50_ms": statistics.median(latencies[mode]),
               "latencies_ms": latencies[mode]}
        for mode in modes
    }  # fmt: skip
    row["p50_ratio"] = row["agentic"]["p50_ms"] / row["classic"]["p50_ms"]
    row["by_form"] = by_form
    return row


def ingest(key: str, store: Path) -> None:
    command = [sys.executable, "-m", "docshelf.local.cli", "ingest", str(IREVAL / key / "docs"), "--quiet"]
    subprocess.run([*command, "--store", str(store), "--namespace", NAMESPACE], check=True, capture_output=True)


def measure_set(key: str, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    store = work / key
    ingest(key, store)
    modes = runners(LocalServices.open(store, passage_model=DEFAULT_PASSAGE_MODEL), args.graph)
    language = SETS[key]
    questions = questions_of(key)
    rng = random.Random(24)
    singles = [[q] for q in rng.sample(questions, min(args.singles, len(questions)))]
    for run in modes.values():  # warm both (the tokenizer, the index) before timing
        run(questions[0].text, 300)
    return {
        "pairs": measure_groups(modes, composites(questions, 2, args.pairs, language, 2), language, args.per),
        "triples": measure_groups(modes, composites(questions, 3, args.triples, language, 3), language, args.per),
        "singles": measure_groups(modes, singles, language, args.per),
    }


def print_table(results: dict[str, Any], per: int) -> None:
    print(f"\nagentic vs classic, equal budgets ({per} tokens a question, top_k {TOP_K}, embedded, rules planner, "
          f"both with --passage-model {DEFAULT_PASSAGE_MODEL} as the CLI's default)")  # fmt: skip
    print("| set | kind | components | classic found | agentic found | gain (points) | p50 classic | p50 agentic | x |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key, row in results.items():
        for kind in ("pairs", "triples", "singles"):
            cell = row[kind]
            classic, agentic = cell["classic"], cell["agentic"]
            graph = cell.get("agentic_graph")
            print(
                f"| {key} | {kind} | {classic['components']} | {classic['found']:.1%} | {agentic['found']:.1%} "
                f"| {100 * (agentic['found'] - classic['found']):+.1f} | {classic['p50_ms']:.1f} ms "
                f"| {agentic['p50_ms']:.1f} ms | {cell['p50_ratio']:.2f}x |"
                + (f" graph: {graph['found']:.1%} ({100 * (graph['found'] - agentic['found']):+.1f}),"
                   f" {graph['p50_ms']:.1f} ms |" if graph else "")
            )  # fmt: skip
    for label, kinds in (("composite", ("pairs", "triples")), ("single", ("singles",))):
        cells = [row[kind] for row in results.values() for kind in kinds]
        medians = {}
        for mode in ("classic", "agentic"):
            hits = sum(cell[mode]["found"] * cell[mode]["components"] for cell in cells)
            total = sum(cell[mode]["components"] for cell in cells)
            medians[mode] = statistics.median(ms for cell in cells for ms in cell[mode]["latencies_ms"])
            print(f"{label} questions, components found, {mode}: {hits / total:.1%} of {total}")
        if "agentic_graph" in cells[0]:
            hits = sum(cell["agentic_graph"]["found"] * cell["agentic_graph"]["components"] for cell in cells)
            total = sum(cell["agentic_graph"]["components"] for cell in cells)
            graph_ms = statistics.median(ms for cell in cells for ms in cell["agentic_graph"]["latencies_ms"])
            print(f"{label} questions, components found, agentic following the graph: {hits / total:.1%} of {total}"
                  f" (p50 {graph_ms:.1f} ms)")  # fmt: skip
        ratio = medians["agentic"] / medians["classic"]
        classic, agentic = medians["classic"], medians["agentic"]
        print(f"{label} requests p50: classic {classic:.1f} ms, agentic {agentic:.1f} ms ({ratio:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default=",".join(SETS), help=f"of {', '.join(SETS)}")
    parser.add_argument("--graph", action="store_true", help="agentic with and without following the document graph")
    parser.add_argument("--pairs", type=int, default=60)
    parser.add_argument("--triples", type=int, default=40)
    parser.add_argument("--singles", type=int, default=100)
    parser.add_argument("--tokens-per-question", dest="per", type=int, default=300)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="agentic-bench-") as tmp:
        for key in args.sets.split(","):
            if not (IREVAL / key / "docs").is_dir():
                print(f"{key}: {IREVAL / key} is absent, skipped", file=sys.stderr)
                continue
            started = time.perf_counter()
            results[key] = measure_set(key, args, Path(tmp))
            print(f"  {key}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    if results:
        print_table(results, args.per)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
