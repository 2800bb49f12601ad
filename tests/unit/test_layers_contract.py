"""The floors of docs/architecture.md as a checked contract: `lint-imports` (import-linter, pyproject.toml's
[tool.importlinter]) over this tree's docshelf, so a pytest run fails on an import that runs back up, an import
circle, or a module left out of the floors, as `make layers` does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE_ROOT = REPO / "layers" / "docshelf"


def lint_imports(*arguments: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """`lint-imports` of the venv running the tests, over this tree's package (not an installed copy)."""
    script = Path(sys.executable).parent / "lint-imports"
    assert script.is_file(), "import-linter is missing: it is in the dev extras (pip install -e '.[dev]')"
    path = os.pathsep.join(filter(None, [str(PACKAGE_ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run(
        [str(script), "--no-cache", *arguments],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_every_import_keeps_to_the_floors() -> None:
    result = lint_imports()
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "BROKEN" not in result.stdout and "0 broken" in result.stdout


def test_an_import_running_back_up_breaks_the_contract(tmp_path: Path) -> None:
    """The same check over floors turned upside down (the model above the hosts) must fail: the test above can."""
    config = tmp_path / "upside_down.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "docshelf"\n\n'
        "[[tool.importlinter.contracts]]\n"
        'name = "upside down"\ntype = "layers"\nlayers = ["docshelf.model", "docshelf.local"]\n',
        encoding="utf-8",
    )
    result = lint_imports("--config", str(config), cwd=tmp_path)
    assert result.returncode != 0
    assert "docshelf.local is not allowed to import docshelf.model" in result.stdout
