#!/usr/bin/env python3
"""Parsers on hostile input: growth of parse time on super-linear candidates, peak memory on zip bombs.

    .venv/bin/python -m bench.hostile_bench [--source DIR] [--quick]

Growth: each candidate is parsed at sizes n and 4n (best of three, in this process); the ratio of the two
times is ~4 for a linear parser and ~16 for a quadratic one. `bound` passes when the ratio is under 8 and
the 4n parse under 10 s. Zip bombs: each is parsed in a fresh interpreter, which reports its status and its
peak RSS (VmHWM, the high-water mark of its own address space, else ru_maxrss of getrusage); the `tiny`
rows are the same interpreter parsing a small valid package, i.e. the floor. `--source` points at another
copy of layers/docshelf (e.g. /work/main/layers/docshelf) to measure that version instead.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from tests.support import hostile_fixtures as fx  # noqa: E402

MAX_RATIO = 8.0
MAX_SECONDS = 10.0
GIB = 1024**3
Candidate = tuple[str, str, int, Callable[[int], bytes]]

CANDIDATES: list[Candidate] = [
    ("md unclosed *", "a.md", 20_000, lambda n: ("*a " * n + fx.PROBE_TEXT).encode()),
    ("md unclosed **", "a.md", 20_000, lambda n: ("**a " * n + fx.PROBE_TEXT).encode()),
    ("md unclosed _", "a.md", 20_000, lambda n: ("_a " * n + fx.PROBE_TEXT).encode()),
    ("md unclosed ~~", "a.md", 20_000, lambda n: ("~~a " * n + fx.PROBE_TEXT).encode()),
    ("md unclosed [", "a.md", 20_000, lambda n: ("[a " * n + fx.PROBE_TEXT).encode()),
    ("md unclosed ![", "a.md", 5_000, lambda n: ("![a " * n + fx.PROBE_TEXT).encode()),
    ("md unclosed [a](", "a.md", 10_000, lambda n: ("[a](" * n + fx.PROBE_TEXT).encode()),
    ("md unclosed <!--", "a.md", 20_000, lambda n: ("x <!--a " * n + fx.PROBE_TEXT).encode()),
    ("md nested quotes", "a.md", 20_000, lambda n: (">" * n + " " + fx.PROBE_TEXT).encode()),
    ("md wide table row", "a.md", 2_000, lambda n: _markdown_table(n)),
    ("html nested div", "a.html", 25_000, lambda n: fx.nested_html(n)),
    ("html nested table", "a.html", 10_000, lambda n: fx.nested_html(n, "<table><tr><td>", "</td></tr></table>")),
    ("html nested h1", "a.html", 25_000, lambda n: fx.nested_html(n, "<h1>", "</h1>")),
    ("html wide table row", "a.html", 5_000, lambda n: _html_table(n)),
    ("html huge row/colspans", "a.html", 250, lambda n: _html_spans(n)),
    ("xml nested", "a.xml", 25_000, lambda n: ("<a>" * n + fx.PROBE_TEXT + "</a>" * n).encode()),
    ("json nested", "a.json", 25_000, lambda n: ("[" * n + f'"{fx.PROBE_TEXT}"' + "]" * n).encode()),
    ("rtf nested groups", "a.rtf", 20_000, lambda n: ("{\\rtf1 " + "{" * n + fx.PROBE_TEXT + "}" * n + "}").encode()),
    ("txt one long line", "a.txt", 200_000, lambda n: ("word " * n).encode()),
    ("tex nested groups", "a.tex", 20_000, lambda n: ("{" * n + fx.PROBE_TEXT + "}" * n).encode()),
    ("tex unclosed environments", "a.tex", 2_000, lambda n: ("\\begin{itemize}\\item a " * n).encode()),
    ("zip of many small files", "a.zip", 100, lambda n: fx.archive_of(n)),
]


def _markdown_table(columns: int) -> bytes:
    return ("|h" * columns + "|\n" + "|-" * columns + "|\n" + "|x" * columns + "|\n").encode()


def _html_table(columns: int) -> bytes:
    return ("<table><tr>" + "<th>h</th>" * columns + "</tr><tr>" + "<td>x</td>" * columns + "</tr></table>").encode()


def _html_spans(rows: int) -> bytes:
    return ("<table>" + "<tr><td rowspan=65534 colspan=1000>x</td><td>y</td></tr>" * rows + "</table>").encode()


def parse_seconds(data: bytes, filename: str) -> tuple[float, str]:
    from docshelf.errors import DocumentError
    from docshelf.parsers import parse_bytes

    started = time.perf_counter()
    try:
        parse_bytes(data, filename)
        status = "ok"
    except DocumentError as error:
        status = error.code
    except RecursionError:  # a crash the pipeline would report as an unexpected failure
        status = "RecursionError"
    return time.perf_counter() - started, status


def growth_rows(quick: bool, runs: int) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for name, filename, n, make in CANDIDATES:
        n = n // 4 if quick else n
        small, large = make(n), make(4 * n)
        size = f"{len(small) / 1024:.0f}/{len(large) / 1024:.0f} KB"
        t_small = min(parse_seconds(small, filename)[0] for _ in range(runs))
        if t_small * 16 > 6 * MAX_SECONDS:  # a quadratic parser would take minutes at 4n
            rows.append((name, size, f"{t_small:.3f}", "not run", "-", "FAIL", "-"))
            continue
        timings = [parse_seconds(large, filename) for _ in range(runs)]
        t_large, status = min(timings)[0], timings[0][1]
        ratio = t_large / max(t_small, 1e-6)
        verdict = "pass" if ratio < MAX_RATIO and t_large < MAX_SECONDS else "FAIL"
        rows.append((name, size, f"{t_small:.3f}", f"{t_large:.3f}", f"{ratio:.1f}", verdict, status))
    return rows


def write_bombs(folder: Path, quick: bool) -> list[tuple[str, Path]]:
    bombs: list[tuple[str, Path]] = []

    def add(label: str, filename: str, data: bytes) -> None:
        path = folder / filename
        path.write_bytes(data)
        bombs.append((label, path))

    for fmt, members in fx.BOMB_POSITIONS.items():
        add(f"{fmt} tiny (floor)", f"tiny.{fmt}", fx.package(fmt))
        for member in members:
            add(f"{fmt} bomb in {member}", f"bomb-{len(bombs)}.{fmt}", fx.zip_bomb_in(fmt, member))
        add(f"{fmt} embedded zip bomb", f"nested.{fmt}", fx.nested_zip_bomb_in(fmt))
        body = members[2]
        add(f"{fmt} {body} lying size", f"lying.{fmt}", fx.declare_size(fx.zip_bomb_in(fmt, body), body, 1000))
    add("zip archive, bomb member", "bomb.zip", fx.archive_of(3, bomb=True))
    add("gzip of 1 GiB of zeros", "zeros.bin.gz", fx.gzip_zeros(GIB))
    add("tar.gz of 1 GiB of zeros", "zeros.tar.gz", fx.tar_gzip_zeros(GIB))
    for gib in () if quick else (1, 2):
        path = folder / f"mimetype-{gib}gib.docx"
        _write_big_mimetype_docx(path, gib * GIB)
        bombs.append((f"docx mimetype {gib} GiB ({path.stat().st_size / 1e6:.1f} MB)", path))
    return bombs


def _write_big_mimetype_docx(path: Path, size: int) -> None:
    """The probe of issue 19: a valid DOCX with a `mimetype` member of `size` zero bytes, written streaming."""
    chunk = bytes(16 * 1024 * 1024)
    with zipfile.ZipFile(io.BytesIO(fx.package("docx"))) as source, zipfile.ZipFile(path, "w") as target:
        with target.open(_zipinfo_deflated("mimetype"), "w", force_zip64=True) as member:
            for _ in range(size // len(chunk)):
                member.write(chunk)
        for info in source.infolist():
            target.writestr(info.filename, source.read(info), compress_type=zipfile.ZIP_DEFLATED)


def _zipinfo_deflated(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def child_main(path: str) -> None:
    seconds, status = parse_seconds(Path(path).read_bytes(), Path(path).name)
    import docshelf

    print(json.dumps({"status": status, "seconds": seconds, "peak_mb": _peak_mb(), "code": docshelf.__file__}))


def _peak_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bomb_rows(folder: Path, quick: bool, source: Path) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for label, path in write_bombs(folder, quick):
        command = [sys.executable, "-m", "bench.hostile_bench", "--source", str(source), "--child", str(path)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode:
            rows.append((label, f"{path.stat().st_size / 1024:.0f} KB", "-", "-", f"crashed ({done.returncode})"))
            continue
        report = json.loads(done.stdout.strip().splitlines()[-1])
        size = f"{path.stat().st_size / 1024:.0f} KB"
        rows.append((label, size, f"{report['peak_mb']:.0f}", f"{report['seconds']:.2f}", report["status"]))
    return rows


def print_table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, default=REPO / "layers" / "docshelf")
    parser.add_argument("--quick", action="store_true", help="n/4 sizes and no GiB bombs")
    parser.add_argument("--runs", type=int, default=3, help="timings per size (the best counts)")
    parser.add_argument("--bombs-only", action="store_true", help="only the zip bombs")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(args.source.resolve()))
    if args.child:
        child_main(args.child)
        return
    print(f"docshelf from {args.source}; load average {os.getloadavg()[0]:.1f}\n")
    if not args.bombs_only:
        growth = growth_rows(args.quick, args.runs)
        print_table(("input", "size n/4n", "n s", "4n s", "ratio", "bound", "status"), growth)
        print()
    with tempfile.TemporaryDirectory() as tmp:
        print_table(("zip bomb", "file", "peak MB", "s", "status"), bomb_rows(Path(tmp), args.quick, args.source))


if __name__ == "__main__":
    main()
