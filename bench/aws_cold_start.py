"""Cold-start proxies for the Lambdas: each handler's import time and the built layers' unzipped sizes.

Import time is `python -X importtime -c "import functions.<name>.app"` in a fresh interpreter (the median of a
few runs, cumulative microseconds of the handler module), with tracing enabled as on Lambda. With
DOCSHELF_RUNTIME_PYTHON set to a python3.12 that has boto3 (what Lambda's runtime ships), a second column
imports the handlers from the `sam build` output instead: `app` from the function's directory with its layers
on the path, as Lambda does.

Sizes are the files under `.aws-sam/build/<layer>` after `make sam-build`: each layer, and each function's
code plus its layers (Lambda's 250 MB limit applies to that sum).
Run: `python -m bench.aws_cold_start`.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / ".aws-sam" / "build"
# function -> (its build directory, its layers); template.yaml: DocshelfLayer globally, ParsersLayer and OcrLayer
# for parse, EmbeddingsLayer for chunk, publish and search when EmbeddingProvider is local (counted here: the
# largest case).
WITH_EMBEDDINGS = ("DocshelfLayer", "EmbeddingsLayer")
FUNCTIONS = {
    "parse": ("ParseFunction", ("DocshelfLayer", "ParsersLayer", "OcrLayer")),
    "chunk": ("ChunkFunction", WITH_EMBEDDINGS),
    "publish": ("PublishFunction", WITH_EMBEDDINGS),
    "search": ("SearchFunction", WITH_EMBEDDINGS),
}
LAYERS = ("DocshelfLayer", "ParsersLayer", "OcrLayer", "EmbeddingsLayer")
RUNS = 5
SEARCH_GOAL_MS = 300.0
LAYER_GOAL_MB = 120.0
LAMBDA_LIMIT_MB = 250.0
# CPU time is reported next to wall time: on a shared machine it varies much less with the load.
_TIMED_IMPORT = "import time; t = time.process_time(); import {module}; print((time.process_time() - t) * 1000)"
_IMPORTTIME = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)\s*$")


def _import_ms(python: str, module: str, pythonpath: str, cwd: Path) -> tuple[float, float]:
    """(wall ms from -X importtime, CPU ms of the same import from time.process_time) in a fresh interpreter."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": pythonpath,
        "PYTHONDONTWRITEBYTECODE": "1",
        "AWS_DEFAULT_REGION": "us-east-1",
        "POWERTOOLS_SERVICE_NAME": "bench",
    }
    done = subprocess.run(
        [python, "-X", "importtime", "-c", _TIMED_IMPORT.format(module=module)],
        cwd=cwd, env=env, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"importing {module} failed: {done.stderr.strip().splitlines()[-1:]}")
    for line in done.stderr.splitlines():
        match = _IMPORTTIME.match(line)
        if match and match.group(4) == module:
            return int(match.group(2)) / 1000, float(done.stdout.strip().splitlines()[-1])
    raise RuntimeError(f"no import time reported for {module}")


def import_ms(function: str, *, python: str = sys.executable) -> tuple[float, float]:
    """Cumulative import time (wall, CPU) of `functions.<function>.app` in a fresh interpreter, in milliseconds."""
    return _import_ms(python, f"functions.{function}.app", str(ROOT), ROOT)


def built_import_ms(function: str, python: str) -> tuple[float, float]:
    """The same for the `sam build` output: `app` with the function's layers on the path, as on Lambda."""
    directory, layers = FUNCTIONS[function]
    path = os.pathsep.join([str(BUILD / directory), *(str(BUILD / layer / "python") for layer in layers)])
    return _import_ms(python, "app", path, BUILD / directory)


def tree_size(path: Path) -> tuple[int, dict[str, int]]:
    """(total bytes, bytes per top-level entry of python/ or of the directory itself)."""
    sizes: dict[str, int] = {}
    total = 0
    for file in path.rglob("*"):
        if file.is_file() and not file.is_symlink():
            size = file.stat().st_size
            total += size
            relative = file.relative_to(path).parts
            top = relative[1] if len(relative) > 2 and relative[0] == "python" else relative[0]
            sizes[top] = sizes.get(top, 0) + size
    return total, sizes


def layer_size_mb(path: Path) -> tuple[float, list[tuple[str, float]]] | None:
    """(total MB, the five largest top-level entries) or None when the layer is not built."""
    if not path.is_dir():
        return None
    total, sizes = tree_size(path)
    largest = sorted(sizes.items(), key=lambda item: -item[1])[:5]
    return total / 1e6, [(name, size / 1e6) for name, size in largest]


def _medians(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(wall for wall, _ in samples), statistics.median(cpu for _, cpu in samples)


def print_import_times(runtime_python: str | None) -> None:
    built = runtime_python is not None and (BUILD / "SearchFunction").is_dir()
    header = f"{'function':<10} {'dev venv: wall ms':>18} {'cpu ms':>8}"
    print(header + (f" {'sam build output: wall ms':>26} {'cpu ms':>8}" if built else "") + "  goal (wall)")
    for function in FUNCTIONS:
        wall, cpu = _medians([import_ms(function) for _ in range(RUNS)])
        line = f"{function:<10} {wall:>18.1f} {cpu:>8.1f}"
        walls = [wall]
        if built and runtime_python is not None:
            wall, cpu = _medians([built_import_ms(function, runtime_python) for _ in range(RUNS)])
            walls.append(wall)
            line += f" {wall:>26.1f} {cpu:>8.1f}"
        if function == "search":
            line += f"  <= {SEARCH_GOAL_MS:.0f} ms: " + ("ok" if max(walls) <= SEARCH_GOAL_MS else "MISSED")
        print(line)
    print(f"(median of {RUNS} fresh interpreters each, tracing enabled; load {os.getloadavg()[0]:.2f})")


def print_sizes() -> None:
    layer_totals: dict[str, float] = {}
    for layer in LAYERS:
        measured = layer_size_mb(BUILD / layer)
        if measured is None:
            print(f"{layer}: not built ({(BUILD / layer).relative_to(ROOT)} missing); run `make sam-build`")
            continue
        total, largest = measured
        layer_totals[layer] = total
        verdict = "ok" if total <= LAYER_GOAL_MB else "OVER THE GOAL"
        print(f"{layer} unzipped: {total:.1f} MB (goal <= {LAYER_GOAL_MB:.0f} MB): {verdict}")
        print("  largest: " + ", ".join(f"{name} {size:.1f} MB" for name, size in largest))
    if len(layer_totals) < len(LAYERS):
        return
    for function, (directory, layers) in FUNCTIONS.items():
        code = tree_size(BUILD / directory)[0] / 1e6 if (BUILD / directory).is_dir() else 0.0
        total = code + sum(layer_totals[layer] for layer in layers)
        verdict = "ok" if total <= LAMBDA_LIMIT_MB else "OVER THE LAMBDA LIMIT"
        print(f"{function:<8} code + layers: {total:.1f} MB (limit {LAMBDA_LIMIT_MB:.0f} MB): {verdict}")


def main() -> int:
    print_import_times(os.environ.get("DOCSHELF_RUNTIME_PYTHON") or None)
    print_sizes()
    return 0


if __name__ == "__main__":
    sys.exit(main())
