"""The layer split and slimming (layers/docshelf/Makefile) rest on facts about the code; these tests hold them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.functional.aws.template_resources import load_template

ROOT = Path(__file__).resolve().parents[3]
REQUIREMENTS = ROOT / "layers" / "docshelf" / "requirements.txt"
MAKEFILE = ROOT / "layers" / "docshelf" / "Makefile"
MARKER = "# -- parsers layer"
OCR_MARKER = "# -- ocr layer"
LOCAL_MARKER = "# -- local only"
EMBEDDINGS_MARKER = "# -- embeddings layer"
# Distribution name -> import name of the `local` embedding provider's runtime (EmbeddingsLayer only).
EMBEDDING_DISTRIBUTIONS = {"onnxruntime": "onnxruntime", "tokenizers": "tokenizers"}
# Distribution name -> import name of what only the command line uses (`docshelf ingest`, `docshelf serve`).
LOCAL_DISTRIBUTIONS = {"tqdm": "tqdm", "waitress": "waitress"}
# Distribution name -> the import name docshelf's parsers use.
PARSER_DISTRIBUTIONS = {
    "lxml": "lxml",
    "pypdfium2": "pypdfium2",
    "python-docx": "docx",
    "python-pptx": "pptx",
    "openpyxl": "openpyxl",
    "xlrd": "xlrd",
    "tinycss2": "tinycss2",
    "olefile": "olefile",
}


def requirement_names(lines: list[str]) -> set[str]:
    names = set()
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            names.add(re.split(r"[\[=<>~! ]", line, maxsplit=1)[0].lower())
    return names


def split_requirements() -> tuple[set[str], set[str], set[str], set[str], set[str]]:
    """(DocshelfLayer, ParsersLayer, OcrLayer, local only, EmbeddingsLayer) requirement names."""
    lines = REQUIREMENTS.read_text(encoding="utf-8").splitlines()
    parsers, ocr, local, embeddings = (
        next(index for index, line in enumerate(lines) if line.startswith(marker))
        for marker in (MARKER, OCR_MARKER, LOCAL_MARKER, EMBEDDINGS_MARKER)
    )
    assert parsers < ocr < local < embeddings
    return (
        requirement_names(lines[:parsers]),
        requirement_names(lines[parsers + 1 : ocr]),
        requirement_names(lines[ocr + 1 : local]),
        requirement_names(lines[local + 1 : embeddings]),
        requirement_names(lines[embeddings + 1 :]),
    )


def test_the_parser_libraries_go_to_the_parsers_layer_only() -> None:
    core, parsers, ocr, local, embeddings = split_requirements()
    assert set(PARSER_DISTRIBUTIONS) <= parsers
    assert ocr == {"tesserocr"}
    layers = [core, parsers, ocr, local, embeddings]
    assert all(not a & b for i, a in enumerate(layers) for b in layers[i + 1 :])
    makefile = MAKEFILE.read_text(encoding="utf-8").replace("\\#", "#")
    assert MARKER in makefile and OCR_MARKER in makefile and LOCAL_MARKER in makefile


def test_the_command_line_only_packages_are_in_no_layer_and_no_function_imports_them() -> None:
    assert split_requirements()[3] == set(LOCAL_DISTRIBUTIONS)
    modules = sorted(LOCAL_DISTRIBUTIONS.values())
    code = (
        "import sys, json; import functions.parse.app, functions.chunk.app, functions.publish.app, "
        "functions.search.app; "
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {modules!r})))"
    )
    assert _loaded_by(code) == []


def test_the_embedding_runtime_goes_to_its_own_layer_and_no_function_imports_it_unasked() -> None:
    """onnxruntime and tokenizers load only when the local provider is built (`provider_from_config`)."""
    assert split_requirements()[4] == set(EMBEDDING_DISTRIBUTIONS)
    makefile = MAKEFILE.read_text(encoding="utf-8").replace("\\#", "#")
    assert EMBEDDINGS_MARKER in makefile
    assert 'rm -rf "$(ARTIFACTS_DIR)/python/docshelf/embeddings/models"' in makefile  # the models: their layer only
    modules = sorted(EMBEDDING_DISTRIBUTIONS.values())
    code = (
        "import sys, json; import functions.parse.app, functions.chunk.app, functions.publish.app, "
        "functions.search.app, docshelf.embeddings, docshelf.embeddings.cache, docshelf.embeddings.bedrock; "
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {modules!r})))"
    )
    assert _loaded_by(code) == []


def test_the_embeddings_layer_goes_to_the_publish_search_and_mcp_functions_when_local() -> None:
    template = load_template()
    resources = template["Resources"]
    assert resources["EmbeddingsLayer"]["Condition"] == "UseEmbeddingsLayer"
    assert template["Conditions"]["UseEmbeddingsLayer"] == {
        "Fn::Or": [{"Fn::Condition": "UseLocalEmbeddings"}, {"Fn::Condition": "UsePassageModel"}]  # as loaded here
    }
    assert resources["EmbeddingsLayer"]["Metadata"]["BuildMethod"] == "makefile"

    def functions_with(condition: str) -> list[str]:
        conditional = {"Fn::If": [condition, {"Ref": "EmbeddingsLayer"}, {"Ref": "AWS::NoValue"}]}
        return sorted(
            name
            for name, resource in resources.items()
            if resource["Type"] == "AWS::Serverless::Function"
            and conditional in resource["Properties"].get("Layers", [])
        )

    assert functions_with("UseLocalEmbeddings") == ["PublishFunction"]  # chunking embeds nothing
    assert functions_with("UseEmbeddingsLayer") == ["McpFunction", "SearchFunction"]  # a query, or a passage model
    assert template["Parameters"]["EmbeddingProvider"]["Default"] == "none"


@pytest.mark.parametrize("layer", ["ParsersLayer", "OcrLayer"])
def test_only_the_parse_function_gets_the_parsers_and_ocr_layers(layer: str) -> None:
    resources = load_template()["Resources"]
    with_layer = [
        name
        for name, resource in resources.items()
        if resource["Type"] == "AWS::Serverless::Function"
        and {"Ref": layer} in resource["Properties"].get("Layers", [])
    ]
    assert with_layer == ["ParseFunction"]
    assert {"Ref": "DocshelfLayer"} in load_template()["Globals"]["Function"]["Layers"]
    for name in ("DocshelfLayer", "ParsersLayer", "OcrLayer"):
        assert resources[name]["Metadata"]["BuildMethod"] == "makefile"


def test_the_chunk_and_publish_functions_import_no_parser_library() -> None:
    """They read the parse cache (`pipeline.load_parsed`); the parsers registry loads a parser only to parse."""
    modules = sorted(PARSER_DISTRIBUTIONS.values())
    code = (
        "import sys, json; import functions.chunk.app, functions.publish.app, docshelf.pipeline, docshelf.serde; "
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {modules!r})))"
    )
    assert _loaded_by(code) == []


def test_the_opensearch_http_client_never_imports_grpc_or_protobuf() -> None:
    """The layer build drops grpcio, protobuf and opensearch-protobufs, which opensearch-py 3 requires."""
    code = (
        "import sys, json; import opensearchpy, opensearchpy.helpers; "
        "import docshelf.index.opensearch, docshelf.index.opensearch.bulk, docshelf.index.opensearch.client; "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('grpc', 'google', 'opensearch'))))"
    )
    assert _loaded_by(code) == []


def _loaded_by(code: str) -> list[str]:
    path = f"{ROOT}:{ROOT / 'layers' / 'docshelf'}"  # this checkout's docshelf, whatever the venv installed
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": path, "POWERTOOLS_TRACE_DISABLED": "true"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    loaded: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return loaded
