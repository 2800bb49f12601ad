"""Breadth-first navigation over a document's `doc_nav.json` section tree.

Level by level, the sections that best match the step (its query's terms in a section's title and summary, and
the chunks discovery found inside it) are opened; the others stay closed and are shown as one outline line,
title and summary. An opened section whose children all miss is a selected leaf: only those are hydrated into
their chunks (text, tables, images). How deep and wide it goes is bounded, and the outline lines are paid from
the step's share of the budget like any evidence.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from docshelf.index.analyzer import analyze
from docshelf.store.base import ObjectStore

OPEN_PER_LEVEL = 2
MAX_DEPTH = 6
MAX_OUTLINE_LINES = 8
SUMMARY_CHARS = 200


class NavSource(Protocol):
    """A document's doc_nav.json as stored by the chunk stage, or None when it has none."""

    def load(self, namespace: str, document_id: str) -> Mapping[str, Any] | None: ...


@dataclass(frozen=True, slots=True)
class StoreNavSource:
    store: ObjectStore

    def load(self, namespace: str, document_id: str) -> Mapping[str, Any] | None:
        from docshelf.keys import artifact_key  # keys imports the chunker's settings: not on a cold start

        data = self.store.get(artifact_key(namespace, document_id, "doc_nav.json"))
        if data is None:
            return None
        try:
            loaded = json.loads(data)
        except ValueError:
            return None
        return loaded if isinstance(loaded, dict) and loaded.get("document_id") == document_id else None


@dataclass(slots=True)
class NavSection:
    path: tuple[str, ...]
    summary: str
    chunk_count: int
    children: list[NavSection] = field(default_factory=list)

    @property
    def title(self) -> str:
        return self.path[-1] if self.path else ""


@dataclass(frozen=True, slots=True)
class NavOutcome:
    leaves: list[tuple[str, ...]]  # section paths to hydrate, best first
    closed: list[NavSection]  # sections left unopened, best first (rendered as outline lines)


def sections_of(nav: Mapping[str, Any]) -> list[NavSection]:
    return [_section(item, ()) for item in nav.get("sections", []) if isinstance(item, Mapping)]


def _section(item: Mapping[str, Any], parent: tuple[str, ...]) -> NavSection:
    path = (*parent, str(item.get("title", "")))
    children = [_section(child, path) for child in item.get("children", []) if isinstance(child, Mapping)]
    return NavSection(path, str(item.get("summary", "")), int(item.get("chunk_count", 0)), children)


def breadth_first(sections: Sequence[NavSection], terms: set[str], hits: Mapping[tuple[str, ...], float]) -> NavOutcome:
    """Open the best `OPEN_PER_LEVEL` sections with any score at each level, breadth first."""
    leaves: list[tuple[str, ...]] = []
    closed: list[tuple[float, NavSection]] = []
    frontier = list(sections)
    for _ in range(MAX_DEPTH):
        if not frontier:
            break
        scored = sorted(((_score(section, terms, hits), section) for section in frontier), key=lambda p: -p[0])
        opened = [section for score, section in scored[:OPEN_PER_LEVEL] if score > 0]
        closed.extend(pair for pair in scored if pair[1] not in opened)
        frontier = []
        for section in opened:
            useful = [child for child in section.children if _score(child, terms, hits) > 0]
            if useful:
                frontier.extend(section.children)
            if not useful or section.chunk_count:
                leaves.append(section.path)
    closed.sort(key=lambda pair: -pair[0])
    return NavOutcome(leaves, [section for _, section in closed[:MAX_OUTLINE_LINES]])


def _score(section: NavSection, terms: set[str], hits: Mapping[tuple[str, ...], float]) -> float:
    """Discovery hits inside the section, plus the share of the query's terms its title and summary hold."""
    found = sum(score for path, score in hits.items() if path[: len(section.path)] == section.path)
    if not terms:
        return found
    words = set(analyze(f"{section.title} {section.summary}"))
    return found + len(terms & words) / len(terms)


def outline_line(file_name: str, section: NavSection) -> str:
    summary = " ".join(section.summary.split())[:SUMMARY_CHARS]
    title = " > ".join(section.path)
    return f"[outline] {file_name} | {title}" + (f": {summary}" if summary else "")
