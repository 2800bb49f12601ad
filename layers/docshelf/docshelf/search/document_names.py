"""What a user may name a document by, checked against the namespace's records before a search or a delete: its id,
its source key (the path `status` shows and citations cite), or a file name exactly one document has. An unknown or
ambiguous name is an error that names the candidates; so is a namespace that holds no document."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace

from docshelf.errors import InvalidQueryError
from docshelf.index.plan import SearchFilters
from docshelf.registry import DocumentRecord, Registry

_SHOWN = 8  # candidates a message lists before "and N more"


class UnknownNamespaceError(InvalidQueryError):
    """A namespace without documents (a typo, most likely): the message names the namespaces there are."""


class UnknownDocumentError(InvalidQueryError):
    """A filter or delete naming no document, or a file name several documents have."""


def listed(names: Sequence[str]) -> str:
    shown = ", ".join(names[:_SHOWN])
    return shown + (f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else "")


def check_namespace(namespace: str, known: Collection[str], readable: Collection[str] | None = None) -> None:
    """Raise UnknownNamespaceError when `namespace` is not `known`, naming the known ones (those in `readable`
    only, when given: a caller learns nothing of namespaces it may not read)."""
    if namespace in known:
        return
    shown = sorted(name for name in known if readable is None or name in readable)
    there = f"namespaces: {listed(shown)}" if shown else "no namespace holds documents yet"
    raise UnknownNamespaceError(f"no namespace {namespace!r} ({there})")


def known_namespace(registry: Registry, namespace: str, readable: Callable[[str], bool] | None = None) -> None:
    """Raise UnknownNamespaceError unless `namespace` holds or held documents; cheap when it does (its version)."""
    if registry.namespace_version(namespace) > 0 or registry.list(namespace):
        return
    known = registry.namespaces()
    check_namespace(namespace, known, [name for name in known if readable(name)] if readable else None)


def document_ids(names: Sequence[str], records: Sequence[DocumentRecord], *, what: str = "document") -> list[str]:
    """The id of the document each name names; one error naming every unknown and ambiguous name."""
    live = [record for record in records if record.status != "deleted"]
    ids = {record.document_id: record.document_id for record in live}
    keys = {record.source_key: record.document_id for record in live}
    by_file: dict[str, list[DocumentRecord]] = {}
    for record in live:
        by_file.setdefault(record.source_file_name, []).append(record)
    found: list[str] = []
    problems: list[str] = []
    for name in names:
        if name in ids or name in keys:
            found.append(ids.get(name) or keys[name])
        elif len(by_file.get(name, ())) == 1:
            found.append(by_file[name][0].document_id)
        elif name in by_file:
            candidates = sorted(record.source_key for record in by_file[name])
            problems.append(f"{name!r} names {len(candidates)} documents ({listed(candidates)}): give its key")
        else:
            problems.append(f"no {what} {name!r}" + _close(name, live))
    if problems:
        raise UnknownDocumentError("; ".join(problems) + " (see docshelf status)")
    return list(dict.fromkeys(found))


def resolved_filters(filters: SearchFilters, records: Sequence[DocumentRecord]) -> SearchFilters:
    """`filters` with each document named by its id (engines match ids); unknown or ambiguous names raise."""
    if not (filters.documents or filters.exclude_documents):
        return filters
    return replace(
        filters,
        documents=tuple(document_ids(filters.documents, records)),
        exclude_documents=tuple(document_ids(filters.exclude_documents, records, what="document to exclude")),
    )


def _close(name: str, records: Sequence[DocumentRecord]) -> str:
    """`: documents whose key holds it: …` for a name that is part of some keys (a folder, a file name's stem)."""
    folded = name.casefold()
    holding = sorted(record.source_key for record in records if folded in record.source_key.casefold())
    return f": keys holding it: {listed(holding)}" if holding else ""
