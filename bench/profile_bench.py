#!/usr/bin/env python3
"""Where ingest time goes, per stage and per file, and the whole ingest against Qwen-Agent 0.0.34 in the same run.

    nice -n 10 .venv/bin/python -m bench.profile_bench [FOLDER] [--runs 3] [--top 15] [--no-peer]

FOLDER defaults to ../shared/corpus (its MANIFEST.tsv, README.md and groundtruth/ left out, as `bench/run.py`
does); OCR is on (the default), into a fresh store each time.

1. **Stages**: one serial ingest (DOCSHELF_CPUS=1, so every stage runs in this process) with the stage functions
   timed exclusively (bench/stage_timer.py): detect, parse, OCR, images and hashing, summaries, chunk, artifacts
   and caches, index, other. Per file: its parse and chunk time beside the peer's time for the same file.
2. **Ingest against the peer**: `--runs` fresh-store ingests as `docshelf ingest` runs them (forked parse workers
   on the CPUs the load leaves), each in a new interpreter, alternating with runs of the peer (bench/qwen_agent_peer.py:
   SimpleDocParser then DocParser chunking at page size 500, every file). Medians; both exclude interpreter start
   and the import of their package, and include everything after (parser imports, model loads, index writes).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from bench.qwen_agent_peer import PeerRun, peer_python, run_peer, skip_line  # noqa: E402
from bench.run import files_of, print_table  # noqa: E402
from bench.stage_timer import ORDER, StageTimer  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"
CPUS_ENV = "DOCSHELF_CPUS"  # docshelf.forked.CPUS_ENV


def ingest(folder: Path, files: list[Path], store: Path) -> tuple[float, int, int]:
    """A fresh-store ingest of `files` as `docshelf ingest` makes it: (seconds, chunks, failed files)."""
    from docshelf.local.services import LocalServices

    services = LocalServices.open(store)
    pairs = [(path, path.relative_to(folder).as_posix()) for path in files]
    chunks = failed = 0
    started = time.perf_counter()
    for result in services.ingest_files(pairs, namespace="bench"):
        chunks += result.chunks
        failed += result.status not in ("ok", "partial")
    return time.perf_counter() - started, chunks, failed


def staged_ingest(folder: Path, files: list[Path]) -> tuple[float, dict[str, float], dict[str, list[float]]]:
    """One serial ingest with stage timers: (its CPU seconds, CPU seconds per stage, per source key [parse, chunk]
    CPU seconds)."""
    from docshelf.pipeline import batched, chunk, local_ingest
    from docshelf.pipeline.parse import parse_stage

    os.environ[CPUS_ENV] = "1"
    timer = StageTimer()
    timer.wrap_stages()
    per_file: dict[str, list[float]] = {}
    chunk_without_writing = chunk.chunk_without_writing

    def timed_parse(*args: object, **kwargs: object) -> object:
        started = time.process_time()
        outcome = parse_stage(*args, **kwargs)  # type: ignore[arg-type]
        per_file.setdefault(str(kwargs["source_key"]), [0.0, 0.0])[0] += time.process_time() - started
        return outcome

    def timed_chunk(store: object, outcome: object, **kwargs: object) -> object:
        started = time.process_time()
        done = chunk_without_writing(store, outcome, **kwargs)  # type: ignore[arg-type]
        key = outcome.ref.source_key  # type: ignore[attr-defined]
        per_file.setdefault(key, [0.0, 0.0])[1] += time.process_time() - started
        return done

    # patched where the ingest calls it (local_ingest imports the name)
    local_ingest.parse_stage = timed_parse  # type: ignore[attr-defined,assignment]
    batched.chunk_without_writing = timed_chunk  # type: ignore[attr-defined,assignment]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            started = time.process_time()
            ingest(folder, files, Path(tmp) / "store")
            cpu = time.process_time() - started
    finally:
        local_ingest.parse_stage = parse_stage  # type: ignore[attr-defined]
        batched.chunk_without_writing = chunk_without_writing  # type: ignore[attr-defined]
        timer.unwrap()
        os.environ.pop(CPUS_ENV, None)
    return cpu, timer.table(cpu), per_file


def child_ingest(folder: str) -> None:
    import docshelf.local.services  # noqa: F401  (the package import, outside the timed part like the peer's)
    from docshelf.tokens import encoding

    encoding()  # the vocabulary, loaded before the timed part as the peer's is (bench/qwen_agent_peer.py)

    root = Path(folder)
    files = [Path(line) for line in sys.stdin.read().splitlines() if line]
    cpu_before, writer_before = _cpu_with_children(), _cpu_of(resource.RUSAGE_SELF)
    with tempfile.TemporaryDirectory() as tmp:
        seconds, chunks, failed = ingest(root, files, Path(tmp) / "store")
    cpu = _cpu_with_children() - cpu_before  # the forked parse workers' too, reaped by now
    writer = _cpu_of(resource.RUSAGE_SELF) - writer_before  # this process: publishing (and parsing, when serial)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "writer_cpu": writer, "chunks": chunks, "failed": failed}))


def _cpu_with_children() -> float:
    return _cpu_of(resource.RUSAGE_SELF) + _cpu_of(resource.RUSAGE_CHILDREN)


def _cpu_of(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def fresh_ingest(folder: Path, files: list[Path]) -> dict[str, float]:
    env = {key: value for key, value in os.environ.items() if key != CPUS_ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "layers" / "docshelf"), str(REPO)])
    done = subprocess.run(
        [sys.executable, "-m", "bench.profile_bench", "--child-ingest", str(folder)], input="\n".join(map(str, files)),
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def stage_rows(cpu: float, stages: dict[str, float]) -> list[tuple[str, str, str]]:
    return [(f"stage: {name}", f"{stages[name]:.2f} CPU s", f"{stages[name] / cpu:.1%} of {cpu:.2f} CPU s serial")
            for name in ORDER]  # fmt: skip


def file_rows(
    folder: Path, per_file: dict[str, list[float]], peer: PeerRun | None, top: int
) -> list[tuple[str, str, str]]:
    ranked = sorted(per_file.items(), key=lambda item: -sum(item[1]))[:top]
    rows = []
    for key, (parse_s, chunk_s) in ranked:
        detail = f"parse {parse_s:.2f} CPU s, chunk and artifacts {chunk_s:.2f} CPU s"
        if peer is not None:
            theirs = peer.per_file_cpu.get(str((folder / key).resolve()))
            if theirs is not None:
                detail += f"; Qwen-Agent {theirs:.2f} CPU s ({theirs / max(1e-9, parse_s + chunk_s):.1f}x)"
        rows.append((f"file: {key}", f"{parse_s + chunk_s:.2f} CPU s", detail))
    return rows


def _seconds(values: Iterable[float]) -> str:
    return ", ".join(f"{value:.2f}" for value in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", default=str(CORPUS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--child-ingest", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_ingest:
        child_ingest(args.child_ingest)
        return
    folder = Path(args.folder).resolve()
    if not folder.is_dir():
        print(f"profile_bench skipped: {folder} is absent")
        return
    files = files_of(folder)
    with_peer = not args.no_peer and peer_python() is not None
    if not args.no_peer and not with_peer:
        print(skip_line())
    ours: list[dict[str, float]] = []
    theirs: list[PeerRun] = []
    for _ in range(args.runs):
        ours.append(fresh_ingest(folder, files))
        if with_peer:
            theirs.append(run_peer(files))
    cpu, stages, per_file = staged_ingest(folder, files)
    size = sum(path.stat().st_size for path in files) / 1e6
    ours_s = statistics.median(run["seconds"] for run in ours)
    rows = [(f"docshelf ingest, {len(files)} files, {size:.1f} MB, OCR on ({args.runs} runs)", f"{ours_s:.2f} s",
             f"median; runs {_seconds(run['seconds'] for run in ours)}; CPU {_seconds(run['cpu'] for run in ours)} s; "
             f"{int(ours[0]['chunks'])} chunks, {int(ours[0]['failed'])} failed")]  # fmt: skip
    if theirs:
        peer_s = statistics.median(run.seconds for run in theirs)
        rows.append((f"Qwen-Agent 0.0.34 ({args.runs} runs)", f"{peer_s:.2f} s",
                     f"median; runs {_seconds(run.seconds for run in theirs)}; "
                     f"CPU {_seconds(sum(run.per_file_cpu.values()) for run in theirs)} s; {theirs[0].chunks} chunks, "
                     f"{theirs[0].failed} failed; docshelf {peer_s / ours_s:.1f}x faster (goal >= 8x)"))  # fmt: skip
    rows += stage_rows(cpu, stages)
    rows += file_rows(folder, per_file, theirs[0] if theirs else None, args.top)
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs")
    print_table(rows)


if __name__ == "__main__":
    main()
