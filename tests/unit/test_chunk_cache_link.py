"""The chunk cache and chunks.json hold the same bytes: one file on a local store, two objects elsewhere."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from docshelf.config import PipelineConfig
from docshelf.keys import artifact_key, chunk_cache_key
from docshelf.pipeline import chunk_stage, parse_stage
from docshelf.serde import chunks_from_dict, loads
from docshelf.store import LocalStore

TEXT = b"# Guide\n\n## Torque\n\nFlange bolts take 45 Nm.\n\n## Warranty\n\nTwo years.\n"


class PutOnlyStore:
    """An object store that cannot link, like S3: every object written with its content type."""

    def __init__(self) -> None:
        self.objects: dict[str, tuple[bytes, str]] = {}

    def get(self, key: str) -> bytes | None:
        found = self.objects.get(key)
        return None if found is None else found[0]

    def put(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> None:
        self.objects[key] = (data, content_type)

    def create(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> bool:
        if key in self.objects:
            return False
        self.put(key, data, content_type=content_type)
        return True

    def delete(self, key: str) -> None:
        self.objects.pop(key, None)

    def list(self, prefix: str) -> Iterator[str]:
        return iter(sorted(key for key in self.objects if key.startswith(prefix)))


def test_on_a_local_store_the_chunk_cache_is_chunks_json_under_a_second_name(tmp_path: Path) -> None:
    store, config = LocalStore(tmp_path), PipelineConfig()
    outcome = parse_stage(store, TEXT, namespace="ns", source_key="guide.md", config=config)
    chunks, hit = chunk_stage(store, outcome, config=config)
    ref = outcome.ref
    cache = tmp_path / chunk_cache_key(ref.revision, "ns", ref.document_id, config.chunking)
    artifact = tmp_path / artifact_key("ns", ref.document_id, "chunks.json")
    assert not hit and cache.stat().st_ino == artifact.stat().st_ino
    assert chunks_from_dict(loads(cache.read_bytes())) == chunks
    again, hit = chunk_stage(store, outcome, config=config)
    assert hit and again == chunks
    assert artifact.read_bytes() == cache.read_bytes()


def test_a_store_without_links_gets_both_objects_with_their_content_types() -> None:
    store, config = PutOnlyStore(), PipelineConfig()
    outcome = parse_stage(store, TEXT, namespace="ns", source_key="guide.md", config=config)
    chunks, _ = chunk_stage(store, outcome, config=config)
    ref = outcome.ref
    cached = store.objects[chunk_cache_key(ref.revision, "ns", ref.document_id, config.chunking)]
    artifact = store.objects[artifact_key("ns", ref.document_id, "chunks.json")]
    assert cached == (artifact[0], "application/json") and artifact[1] == "application/octet-stream"
    assert chunks_from_dict(loads(cached[0])) == chunks
