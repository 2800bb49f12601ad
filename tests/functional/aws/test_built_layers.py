"""What `make sam-build` built (.aws-sam/build, before the tests in `make test`) fits Lambda: every function with its
layers under the 250 MB unzipped limit, and the OcrLayer carries what PP-OCR needs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.functional.aws.template_resources import load_template

ROOT = Path(__file__).resolve().parents[3]
BUILD = ROOT / ".aws-sam" / "build"
LAMBDA_UNZIPPED_LIMIT = 262_144_000  # bytes: a function's code and all its layers, unzipped


def built() -> Path:
    if not (BUILD / "OcrLayer").is_dir():
        reason = "no `sam build` output here (`make sam-build`)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true: {reason}", pytrace=False)
        pytest.skip(reason)
    return BUILD


def size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def layer_names(resource: dict[str, object], global_layers: list[object]) -> list[str]:
    properties = resource["Properties"]
    assert isinstance(properties, dict)
    refs = [*global_layers, *properties.get("Layers", [])]
    return [ref["Ref"] for ref in refs if isinstance(ref, dict) and "Ref" in ref] + [
        ref["Fn::If"][1]["Ref"] for ref in refs if isinstance(ref, dict) and "Fn::If" in ref
    ]


def test_every_function_with_all_its_layers_fits_the_unzipped_limit() -> None:
    build = built()
    template = load_template()
    global_layers = template["Globals"]["Function"].get("Layers", [])
    functions = {
        name: resource
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function" and (build / name).is_dir()
    }
    assert "ParseFunction" in functions
    for name, resource in functions.items():
        total = size(build / name) + sum(size(build / layer) for layer in layer_names(resource, global_layers))
        assert total < LAMBDA_UNZIPPED_LIMIT, f"{name}: {total:,} bytes unzipped with its layers"


def test_the_ocr_layer_carries_pp_ocr_and_its_runtime() -> None:
    layer = built() / "OcrLayer"
    assert (layer / "tessdata" / "ppocr" / "det.onnx").is_file()
    assert (layer / "tessdata" / "ppocr" / "rec.onnx").is_file()
    # Tesseract reads English and runs the first pass with jpn; PP-OCR reads Chinese, so no chi_sim model (6 MB).
    assert sorted(path.name for path in (layer / "tessdata").glob("*.traineddata")) == [
        "eng.traineddata",
        "jpn.traineddata",
    ]
    assert (layer / "python" / "onnxruntime" / "__init__.py").is_file()
    assert not list((layer / "python" / "onnxruntime").glob("capi/libonnxruntime.so*"))  # the C API library: unused
