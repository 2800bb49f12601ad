"""docs/architecture.md maps every package and top-level module of the core package: one added without a line
there fails here, so the map cannot fall behind the code."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "layers" / "docshelf" / "docshelf"
DOC = ROOT / "docs" / "architecture.md"


def packages() -> list[str]:
    """Every package at any depth, as `index/embedded/`, relative to the core package."""
    return sorted(
        init.parent.relative_to(PACKAGE).as_posix() + "/"
        for init in PACKAGE.rglob("__init__.py")
        if init.parent != PACKAGE and "__pycache__" not in init.parts
    )


def top_level_modules() -> list[str]:
    return sorted(path.name for path in PACKAGE.glob("*.py") if path.name != "__init__.py")


def names_in(text: str) -> set[str]:
    """The names a text writes in backticks, e.g. `local/`, `index/embedded/`, `model.py`."""
    return set(re.findall(r"`([A-Za-z0-9_./]+)`", text))


def named_in_doc() -> set[str]:
    return names_in(DOC.read_text(encoding="utf-8"))


def test_the_package_has_what_the_test_lists() -> None:
    assert "index/" in packages() and "model.py" in top_level_modules()


def test_every_package_is_named_in_the_architecture_doc() -> None:
    missing = [name for name in packages() if name not in named_in_doc()]
    assert not missing, f"docs/architecture.md does not name these packages: {missing}"


def test_every_top_level_module_is_named_in_the_architecture_doc() -> None:
    missing = [name for name in top_level_modules() if name not in named_in_doc()]
    assert not missing, f"docs/architecture.md does not name these modules: {missing}"


def test_a_name_counts_only_whole_and_in_backticks() -> None:
    assert names_in("model.py, `model.pyi`, `index/embedded/` and `pipeline.py` (x)") == {
        "model.pyi",
        "index/embedded/",
        "pipeline.py",
    }
