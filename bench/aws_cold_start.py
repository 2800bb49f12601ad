"""Cold-start proxies for the Lambdas: each handler's import time and the built layer's unzipped size.

Import time is `python -X importtime -c "import functions.<name>.app"` in a fresh interpreter (the median of
a few runs, cumulative microseconds of the handler module); the layer size is the sum of the files under
`.aws-sam/build/DocshelfLayer` after `make sam-build`. Run: `python bench/aws_cold_start.py`.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FUNCTIONS = ("parse", "chunk", "publish", "search")
LAYER = ROOT / ".aws-sam" / "build" / "DocshelfLayer"
RUNS = 5
SEARCH_GOAL_MS = 300.0
LAYER_GOAL_MB = 120.0
LAYER_LIMIT_MB = 250.0
_IMPORTTIME = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)\s*$")


def import_ms(function: str, *, python: str = sys.executable) -> float:
    """Cumulative import time of `functions.<function>.app` in a fresh interpreter, in milliseconds."""
    module = f"functions.{function}.app"
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "POWERTOOLS_TRACE_DISABLED": "true",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    done = subprocess.run(
        [python, "-X", "importtime", "-c", f"import {module}"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    for line in done.stderr.splitlines():
        match = _IMPORTTIME.match(line)
        if match and match.group(4) == module:
            return int(match.group(2)) / 1000
    raise RuntimeError(f"no import time reported for {module}")


def layer_size_mb(path: Path = LAYER) -> tuple[float, list[tuple[str, float]]] | None:
    """(total MB, the five largest top-level entries of python/) or None when the layer is not built."""
    if not path.is_dir():
        return None
    sizes: dict[str, int] = {}
    total = 0
    for file in path.rglob("*"):
        if file.is_file() and not file.is_symlink():
            size = file.stat().st_size
            total += size
            relative = file.relative_to(path).parts
            top = relative[1] if len(relative) > 2 and relative[0] == "python" else relative[0]
            sizes[top] = sizes.get(top, 0) + size
    largest = sorted(sizes.items(), key=lambda item: -item[1])[:5]
    return total / 1e6, [(name, size / 1e6) for name, size in largest]


def main() -> int:
    print(f"{'function':<10} {'import ms (median of ' + str(RUNS) + ')':>28}  goal")
    for function in FUNCTIONS:
        median = statistics.median(import_ms(function) for _ in range(RUNS))
        goal = (
            f"<= {SEARCH_GOAL_MS:.0f} ms: {'ok' if median <= SEARCH_GOAL_MS else 'MISSED'}"
            if function == "search"
            else ""
        )
        print(f"{function:<10} {median:>28.1f}  {goal}")
    measured = layer_size_mb()
    if measured is None:
        print(f"layer: not built ({LAYER.relative_to(ROOT)} missing); run `make sam-build`")
        return 0
    total, largest = measured
    verdict = "ok" if total <= LAYER_GOAL_MB else ("over goal" if total <= LAYER_LIMIT_MB else "OVER THE LAMBDA LIMIT")
    print(f"layer unzipped: {total:.1f} MB (goal <= {LAYER_GOAL_MB:.0f} MB, limit {LAYER_LIMIT_MB:.0f} MB): {verdict}")
    print("largest: " + ", ".join(f"{name} {size:.1f} MB" for name, size in largest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
