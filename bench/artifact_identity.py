#!/usr/bin/env python3
"""Are this tree's ingest artifacts byte for byte another tree's? The check a speed change passes before it is
committed.

    nice -n 10 .venv/bin/python -m bench.artifact_identity [--against /work/main] [--reports 150] [--no-corpus]

Each tree (its `layers/docshelf` first on PYTHONPATH, in a new interpreter) ingests into fresh stores, serially
(DOCSHELF_CPUS=1) and with forked parse workers (forced, whatever the load): ../shared/corpus (OCR on), the
example documents (`examples/docs`, made by `examples/make_examples.py` in a temporary folder when the tree has
none) and `--reports` generated Markdown reports (`bench/scale_bench.py`). Every stored object but the registry
database is compared: chunks.json, manifest.json, doc_nav.json, the index's documents and change log.
The caches (`cache/`) are compared as chunk lists, not bytes: their layout is an internal matter of the tree.
Forked, the index's change log is left out: it follows the order in which files finish parsing (a change-log
entry lists a batch), which forked workers do not fix (a tree against itself differs there from run to run).
Prints each object that differs or exists on one side only; exits 1 if any does.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
SKIPPED = ("registry.sqlite",)
ORDER_DEPENDENT = (".changes/",)


def child(store: str, folder: str, forked: bool) -> None:
    """In the tree under test: ingest `folder` into `store` as `docshelf ingest` does."""
    from bench.profile_bench import ingest
    from bench.run import files_of

    if forked:
        import docshelf.forked

        docshelf.forked.spare_cpus = lambda: max(2, docshelf.forked.usable_cpus())
    root = Path(folder)
    _, _, failed = ingest(root, files_of(root), Path(store))
    print(json.dumps({"failed": failed}))


def stored_objects(store: Path) -> dict[str, bytes]:
    """Every object of `store` by key; cache objects as their chunks only (sorted JSON)."""
    found = {}
    for path in sorted(store.rglob("*")):
        key = path.relative_to(store).as_posix()
        if not path.is_file() or path.name in SKIPPED or path.name.startswith(".tmp-"):
            continue
        data = path.read_bytes()
        if key.startswith("cache/chunks/"):
            data = json.dumps(json.loads(data)["chunks"], sort_keys=True).encode()
        found[key] = data
    return found


def ingest_with(tree: Path, folder: Path, store: Path, *, forked: bool) -> tuple[dict[str, bytes], int]:
    """The tree's objects after ingesting `folder`, and how many files failed (a tree missing its vocabulary or
    models fails every file: the counts show it)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tree / "layers" / "docshelf"), str(REPO)]))
    env.pop("DOCSHELF_CPUS", None)
    if not forked:
        env["DOCSHELF_CPUS"] = "1"
    command = [sys.executable, "-m", "bench.artifact_identity", "--child", str(store), str(folder)]
    done = subprocess.run(
        [*command, *(["--forked"] if forked else [])], env=env, cwd=REPO, check=True, capture_output=True, text=True
    )
    return stored_objects(store), int(json.loads(done.stdout.strip().splitlines()[-1])["failed"])


def example_documents(tree: Path, scratch: Path) -> Path:
    made = tree / "examples" / "docs"
    if made.is_dir():
        return made
    env = dict(os.environ, PYTHONPATH=str(tree / "layers" / "docshelf"))
    subprocess.run([sys.executable, str(tree / "examples" / "make_examples.py"), str(scratch / "examples")], env=env,
                   check=True, capture_output=True)  # fmt: skip
    return scratch / "examples"


def differences(ours: dict[str, bytes], theirs: dict[str, bytes], *, forked: bool) -> list[str]:
    if forked:
        ours, theirs = ({key: data for key, data in objects.items() if not any(part in key for part in ORDER_DEPENDENT)}
                        for objects in (ours, theirs))  # fmt: skip
    lines = [f"only in the other tree: {key}" for key in sorted(theirs.keys() - ours.keys())]
    lines += [f"only in this tree: {key}" for key in sorted(ours.keys() - theirs.keys())]
    lines += [f"differs: {key}" for key in sorted(ours.keys() & theirs.keys()) if ours[key] != theirs[key]]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", default="/work/main")
    parser.add_argument("--tree", default=str(REPO), help="the tree under test (this one by default)")
    parser.add_argument("--reports", type=int, default=150)
    parser.add_argument("--no-corpus", action="store_true")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--forked", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.forked)
        return
    from bench.scale_bench import COVIDQA, paper_paragraphs, write_reports

    other, tree = Path(args.against).resolve(), Path(args.tree).resolve()
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        folders = {"examples": example_documents(other, scratch)}
        if not args.no_corpus and CORPUS.is_dir():
            folders["corpus"] = CORPUS
        if args.reports and COVIDQA.is_dir():
            write_reports(scratch / "reports", args.reports, paper_paragraphs())
            folders["reports"] = scratch / "reports"
        for name, folder in folders.items():
            for forked in (False, True):
                mode = "forked" if forked else "serial"
                ours, failed = ingest_with(tree, folder, scratch / f"ours-{name}-{mode}", forked=forked)
                theirs, failed_there = ingest_with(other, folder, scratch / f"theirs-{name}-{mode}", forked=forked)
                found = differences(ours, theirs, forked=forked)
                failures += len(found)
                print(f"{name} ({folder}), {mode}: {len(ours)} objects, {len(found)} differ; "
                      f"files failed {failed} here, {failed_there} there")  # fmt: skip
                for line in found[:20]:
                    print("  " + line)
    print("identical" if not failures else f"{failures} objects differ")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
