#!/usr/bin/env python3
"""Peak memory of `docshelf ingest` on large inputs, one file per fresh process.

Generates in a temporary folder a 200 MB text, a 2,000,000-row CSV (about 97 MB), a 1,200,000-row CSV of three
short columns (about 20 MB) and a 50 MB text of one line (`--scale 0.1` for a tenth of each), ingests each with
`python -m docshelf.local.cli ingest` into a store of its own, and prints input size, seconds, peak RSS (the child's
`ru_maxrss` from `wait4`, which covers its forked parse workers too), its ratio to the input, the document's
status, and whether it is within 5x the input and within the goal (5x the input or 1.5 GB, whichever is larger).
Then one batch under a 1.5 GB address-space limit (`ulimit -v 1500000`): a 3 GB sparse file beside two small ones,
which must end with two documents ok, one too_large, exit 1 and no traceback (`--no-limit-batch` skips it).
Run the sizes one at a time on a shared machine: they are run in sequence here.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "layers" / "docshelf"
RATIO_LIMIT = 5.0
RSS_LIMIT_MB = 1500.0
MB = 1_000_000
WORDS = [
    "valve",
    "seal",
    "flange",
    "torque",
    "pressure",
    "pump",
    "bearing",
    "shaft",
    "rotor",
    "housing",
    "gasket",
    "bolt",
    "nut",
    "washer",
    "inlet",
    "outlet",
    "replacement",
    "interval",
    "inspection",
    "maintenance",
    "warranty",
    "manual",
    "operator",
    "procedure",
    "safety",
    "rating",
]


@dataclass(frozen=True, slots=True)
class Input:
    name: str
    target_bytes: int
    write: Callable[[Path, int], None]


def write_text(path: Path, size: int) -> None:
    """Paragraphs of 40-120 words separated by blank lines, with a numbered heading now and then."""
    rng = random.Random(1)
    with path.open("w", encoding="utf-8") as out:
        written = section = 0
        while written < size:
            if rng.random() < 0.05:
                section += 1
                block = f"{section}. Section {section}\n\n"
            else:
                block = " ".join(rng.choices(WORDS, k=rng.randint(40, 120))) + ".\n\n"
            written += out.write(block)


def write_one_line(path: Path, size: int) -> None:
    rng = random.Random(2)
    with path.open("w", encoding="utf-8") as out:
        written = 0
        while written < size:
            written += out.write(" ".join(rng.choices(WORDS, k=1000)) + " ")


def write_csv(path: Path, size: int) -> None:
    """Rows of 7 fields, about 48.5 bytes each: `size` 97 MB makes about 2,000,000 rows."""
    rows = int(size / 48.5)
    rng = random.Random(3)
    with path.open("w", encoding="utf-8") as out:
        out.write("id,part,quantity,price,status,due,bin\n")
        for row in range(1, rows + 1):
            out.write(f"{row},{rng.choice(WORDS)}-{rng.randint(100, 999)},{rng.randint(1, 500)},"
                      f"{rng.randint(100, 99999) / 100:.2f},{rng.choice(('open', 'closed', 'pending'))},"
                      f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d},"
                      f"{rng.choice('ABCDEFGH')}{rng.randint(1, 99)}\n")  # fmt: skip


def write_short_csv(path: Path, size: int) -> None:
    """Rows of 3 short fields, about 17 bytes each: `size` 20 MB makes about 1,200,000 rows."""
    rng = random.Random(5)
    with path.open("w", encoding="utf-8") as out:
        out.write("id,code,qty\n")
        for row in range(1, int(size / 17) + 1):
            out.write(f"{row},{rng.choice('ABCDEFGH')}{rng.randint(100, 999)},{rng.randint(1, 9999)}\n")


INPUTS = (
    Input("text.txt", 200 * MB, write_text),
    Input("rows.csv", int(2_000_000 * 48.5), write_csv),
    Input("short-rows.csv", 20 * MB, write_short_csv),
    Input("one-line.txt", 50 * MB, write_one_line),
)
ADDRESS_SPACE_LIMIT = 1_500_000 * 1024  # bytes, as `ulimit -v 1500000` sets it
HUGE_BYTES = 3 * 1024**3
BATCH_EXPECTED = {"huge.txt": "failed", "pumps.txt": "ok", "seals.md": "ok"}


def run_ingest(path: Path, store: Path) -> tuple[float, float, int, str]:
    """(seconds, peak RSS in MB, exit code, last lines of stdout) of one ingest in a fresh process."""
    env = {**os.environ, "PYTHONPATH": f"{PACKAGE}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    command = [sys.executable, "-m", "docshelf.local.cli", "ingest", str(path), "--store", str(store), "--quiet"]
    started = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - started, usage.ru_maxrss / 1024, child.returncode, output.strip()


def limited_batch(folder: Path, store: Path) -> tuple[int, str, dict[str, str]]:
    """(exit code, output, status by key) of one ingest of `folder` under the address-space limit."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, ADDRESS_SPACE_LIMIT))

    env = {**os.environ, "PYTHONPATH": f"{PACKAGE}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    command = [sys.executable, "-m", "docshelf.local.cli", "ingest", str(folder), "--store", str(store), "--quiet"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, preexec_fn=limit, check=False)
    listed = subprocess.run(
        [sys.executable, "-m", "docshelf.local.cli", "status", "--store", str(store), "--json"],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    statuses = {d["source_key"]: d["status"] for d in json.loads(listed.stdout or "[]")}
    return done.returncode, done.stdout + done.stderr, statuses


def run_limited_batch(tmp: Path) -> str:
    folder = tmp / "batch"
    folder.mkdir()
    with (folder / "huge.txt").open("wb") as huge:
        huge.truncate(HUGE_BYTES)
    (folder / "pumps.txt").write_text("Pumps\n\nThe pump runs at 3000 rpm.\n", encoding="utf-8")
    (folder / "seals.md").write_text("# Seals\n\nReplace the seal yearly.\n", encoding="utf-8")
    code, output, statuses = limited_batch(folder, tmp / "store-batch")
    passed = code == 1 and "Traceback" not in output and statuses == BATCH_EXPECTED
    huge_line = next((line.strip() for line in output.splitlines() if "huge.txt" in line), "")
    traceback = "a traceback" if "Traceback" in output else "no traceback"
    return f"exit {code}, {traceback}, statuses {statuses}; `{huge_line}`: {'pass' if passed else 'FAIL'}"


def document_status(store: Path) -> str:
    env = {**os.environ, "PYTHONPATH": f"{PACKAGE}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run(
        [sys.executable, "-m", "docshelf.local.cli", "status", "--store", str(store), "--json"],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    try:
        documents = json.loads(done.stdout)
    except json.JSONDecodeError:
        return (done.stdout.strip().splitlines() or ["?"])[-1][:60]
    return ",".join(str(document.get("status")) for document in documents) or "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="input sizes as a share of the full ones")
    parser.add_argument("--only", choices=[item.name for item in INPUTS], action="append", help="inputs to run")
    parser.add_argument("--no-limit-batch", action="store_true", help="skip the batch under an address-space limit")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="docshelf-memory-") as tmp:
        for item in INPUTS:
            if args.only and item.name not in args.only:
                continue
            path = Path(tmp) / item.name
            item.write(path, int(item.target_bytes * args.scale))
            size_mb = path.stat().st_size / MB
            seconds, rss_mb, code, output = run_ingest(path, Path(tmp) / f"store-{item.name}")
            status = document_status(Path(tmp) / f"store-{item.name}")
            ratio = rss_mb / size_mb
            within_ratio = "yes" if ratio <= RATIO_LIMIT else "no"
            goal = "pass" if rss_mb <= max(RATIO_LIMIT * size_mb, RSS_LIMIT_MB) and code == 0 else "FAIL"
            rows.append((item.name, f"{size_mb:.1f}", f"{seconds:.1f}", f"{rss_mb:.0f}", f"{ratio:.1f}x",
                         status, str(code), within_ratio, goal))  # fmt: skip
            if code:
                print(f"{item.name}: exit {code}\n{output[-2000:]}", file=sys.stderr)
            path.unlink()
        batch = None if args.no_limit_batch else run_limited_batch(Path(tmp))
    header = ("input", "MB", "seconds", "peak RSS MB", "RSS/input", "status", "exit", "<=5x", "<=max(5x, 1.5 GB)")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    print(f"## docshelf ingest memory (scale {args.scale:g}, load {os.getloadavg()[0]:.1f})")
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")
    if batch is not None:
        print(f"\n3 GB sparse file beside two small ones under a 1.5 GB address-space limit: {batch}")


if __name__ == "__main__":
    main()
