"""Exclusive time per ingest stage, by wrapping the functions that do each stage's work (the benches only; the
pipeline itself carries no timers).

A stage entered inside another pauses it, so the stages' times add up to the time spent in any of them, and what
they leave of a run's time is its `other` (registry, bookkeeping, the loops themselves). Times are CPU seconds of
the process (`time.process_time`: user and system, every thread), which a shared machine's load disturbs far less
than wall time. Wrapping replaces a
function wherever a loaded module holds it under any name (`from x import f` copies the reference), so it catches
calls made through every import; `wrap_stages` is undone by `unwrap`. Serial runs only: a forked worker's times
stay in the worker.
"""

from __future__ import annotations

import functools
import importlib
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

# stage -> the functions whose time is that stage's, as "module:qualified name"
STAGES: dict[str, tuple[str, ...]] = {
    "detect": ("docshelf.parsers.detect:detect_format",),
    "parse": ("docshelf.parsers:run_parser", "docshelf.parsers:finish_document"),
    "OCR": (
        "docshelf.ocr.engine:TesseractEngine.recognise",
        "docshelf.ocr.engine:TesseractEngine.load",
        "docshelf.ocr.ppocr:PpOcrEngine.recognise",
        "docshelf.ocr.ppocr:PpOcrEngine.load",
        "docshelf.ocr.grid:find_grids",
        "docshelf.ocr.blocks:recognise_page",
        "docshelf.ocr.images:image_texts",
    ),
    "images and hashing": (
        "docshelf.assets.prepare:prepare_image",
        "docshelf.assets.collect:AssetCollector.add",
        "docshelf.assets.storage:write_parsed_assets",
        "docshelf.assets.storage:place_document_assets",
        "docshelf.parsers:source_of",
        "docshelf.ids:sha256_hex",
    ),
    "summaries": ("docshelf.section_summaries:section_summaries",),
    "chunk": ("docshelf.chunking:chunk_document",),
    "artifacts and caches": (
        "docshelf.artifacts:manifest",
        "docshelf.artifacts:doc_nav",
        "docshelf.pipeline.artifact_writing:write_artifact_objects",
        "docshelf.serde:document_json",
        "docshelf.serde:chunks_json",
        "docshelf.store.local:LocalStore.put",
        "docshelf.store.local:LocalStore.link",
        "docshelf.store.local:LocalStore.get",
    ),
    "index": (
        "docshelf.index.embedded:EmbeddedIndex.write",
        "docshelf.index.embedded:EmbeddedIndex.commit",
        "docshelf.index.embedded:EmbeddedIndex.delete",
    ),
}
ORDER = (*STAGES, "other")
# Modules whose functions are wrapped only once imported: imported first, so that every holder is patched.
PRELOAD = (
    "docshelf.parsers.pdf.pdf",
    "docshelf.parsers.pdf.pdf_ocr",
    "docshelf.parsers.image",
    "docshelf.ocr.blocks",
    "docshelf.ocr.images",
    "docshelf.pipeline",
    "docshelf.local.services",
)


class StageTimer:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self._stack: list[list[Any]] = []  # [stage, started]
        self._undo: list[tuple[Any, str, Any]] = []

    def wrap_stages(self) -> None:
        for module in PRELOAD:
            importlib.import_module(module)
        for stage, targets in STAGES.items():
            for target in targets:
                self._wrap(stage, target)

    def unwrap(self) -> None:
        for holder, name, original in reversed(self._undo):
            setattr(holder, name, original)
        self._undo.clear()

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        now = time.process_time()
        if self._stack:
            outer = self._stack[-1]
            self.seconds[outer[0]] += now - outer[1]
        self._stack.append([name, now])
        try:
            yield
        finally:
            now = time.process_time()
            inner = self._stack.pop()
            self.seconds[inner[0]] += now - inner[1]
            if self._stack:
                self._stack[-1][1] = now

    def _wrap(self, stage: str, target: str) -> None:
        module_name, qualified = target.split(":")
        owner: Any = importlib.import_module(module_name)
        *path, name = qualified.split(".")
        for part in path:
            owner = getattr(owner, part)
        original = getattr(owner, name)
        timer = self

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            with timer.stage(stage):
                return original(*args, **kwargs)

        if path:  # a method: patched on its class, which every holder shares
            self._set(owner, name, timed)
            return
        for module in list(sys.modules.values()):
            if not getattr(module, "__name__", "").startswith("docshelf"):
                continue
            for attribute, value in list(vars(module).items()):
                if value is original:
                    self._set(module, attribute, timed)

    def _set(self, holder: Any, name: str, value: Callable[..., Any]) -> None:
        self._undo.append((holder, name, getattr(holder, name)))
        setattr(holder, name, value)

    def table(self, total: float) -> dict[str, float]:
        """CPU seconds per stage in ORDER, `other` being what the stages leave of `total` (the run's CPU seconds)."""
        result = {stage: self.seconds.get(stage, 0.0) for stage in STAGES}
        result["other"] = max(0.0, total - sum(result.values()))
        return result
