"""The OCR language data `make setup` places (infra/fetch_ocr_data.py): for Japanese and simplified Chinese,
Tesseract's script models from Debian's tesseract-ocr-script-jpan / -hans under the codes the engine loads
(docs/evaluation/ocr.md, "Script models")."""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest

from docshelf.ocr.settings import DEFAULT_LANGUAGES

ROOT = Path(__file__).resolve().parents[2]


def fetcher() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fetch_ocr_data", ROOT / "infra" / "fetch_ocr_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_japanese_and_chinese_are_the_script_models() -> None:
    pinned = {target.name: (package, member) for target, _, package, member in fetcher().DEBIAN_FILES}
    assert pinned["jpn.traineddata"] == (
        "tesseract-ocr-script-jpan",
        "usr/share/tesseract-ocr/5/tessdata/Japanese.traineddata",
    )
    assert pinned["chi_sim.traineddata"] == (
        "tesseract-ocr-script-hans",
        "usr/share/tesseract-ocr/5/tessdata/HanS.traineddata",
    )


def test_every_default_language_is_pinned_and_the_placed_files_are_the_pinned_ones() -> None:
    module = fetcher()
    pins = {target.name: (target, digest) for target, digest, _, _ in [*module.WHEEL_FILES, *module.DEBIAN_FILES]}
    assert {f"{code}.traineddata" for code in DEFAULT_LANGUAGES} <= set(pins)
    missing = [name for name, (target, _) in pins.items() if not target.is_file()]
    if missing:
        reason = f"OCR data not placed: {', '.join(missing)} (`make setup`)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true: {reason}", pytrace=False)
        pytest.skip(reason)
    for name, (target, digest) in pins.items():
        assert hashlib.sha256(target.read_bytes()).hexdigest() == digest, name
