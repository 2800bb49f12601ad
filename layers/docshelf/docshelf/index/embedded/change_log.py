"""A namespace's change log: which documents each write of the embedded index changed, so that a reader loaded
before it reads only those documents again instead of the whole namespace.

Entries are store objects numbered from 1 (`<prefix>/<namespace>.changes/<number>.json`), each made with the
store's create-if-absent (`ObjectStore.create`): a writer takes the first free number, so the numbers have no
gap however many writers append at once, and a missing entry marks the log's end. A writer appends after it
wrote the documents and before the namespace version is bumped, so a reader that saw a version finds every change
up to it. An entry names documents, not their contents: the reader reads each named document's object as it is
now (a missing object is a deleted document), so entries applied twice or late change nothing.

A `head` object holds a number whose entry exists (writers put it after appending; racing writers may leave an
older one), where a search for the end starts. Entries are never removed: they are small, and a reader that
finds fewer entries than `head` promises, or an entry it cannot read, reloads the namespace whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from docshelf.serde import dumps, loads
from docshelf.store.base import ObjectStore
from docshelf.store.fetch import get_many

LOG_FORMAT = 1
PROBE = 8  # entries read at once while looking for the end
MAX_ENTRIES = 256  # entries a reader applies at most; further behind, it reloads the namespace whole


class ChangeLogError(ValueError):
    """A log a reader cannot follow: an unreadable entry, or fewer entries than its head says."""


@dataclass(frozen=True, slots=True)
class Changes:
    """The documents changed after some entry, up to entry `last`."""

    last: int
    documents: frozenset[str]


class ChangeLog:
    def __init__(self, store: ObjectStore, prefix: str) -> None:
        self.store = store
        self.prefix = prefix

    def _folder(self, namespace: str) -> str:
        return f"{self.prefix}/{namespace}.changes"  # a namespace name holds no dot, so no document is there

    def _entry_key(self, namespace: str, number: int) -> str:
        return f"{self._folder(namespace)}/{number:012d}.json"

    def _head_key(self, namespace: str) -> str:
        return f"{self._folder(namespace)}/head"

    def append(self, namespace: str, document_ids: Iterable[str], *, after: int = 0) -> int:
        """Record that the documents changed (written or deleted); the entry's number. `after`: an entry the caller
        knows exists, where the search for the end starts (beside the head)."""
        documents = sorted(set(document_ids))
        if not documents:
            raise ValueError("a change names at least one document")
        entry = dumps({"format": LOG_FORMAT, "documents": documents})
        number = self.last(namespace, after=after) + 1
        while not self.store.create(self._entry_key(namespace, number), entry, content_type="application/json"):
            number += 1
        self.store.put(self._head_key(namespace), str(number).encode(), content_type="text/plain")
        return number

    def last(self, namespace: str, *, after: int = 0) -> int:
        """The number of the log's last entry (0 for an empty log), searched for from `after` or the head, whichever
        is further. An unreadable head is searched past (the next append puts a good one)."""
        changes = self._follow(namespace, after, documents=False)
        assert changes is not None  # only a search for documents gives up
        return changes.last

    def changes_after(self, namespace: str, number: int) -> Changes | None:
        """The documents changed after entry `number`; None when more than MAX_ENTRIES entries follow it.
        Raises ChangeLogError when the log cannot be followed."""
        return self._follow(namespace, number, documents=True)

    def _follow(self, namespace: str, after: int, *, documents: bool) -> Changes | None:
        """The entries after `after` up to the first missing one, read PROBE at a time, the first ones together
        with the head. With `documents`, the entries are read (at most about MAX_ENTRIES of them) and a log with
        fewer entries than its head says raises; without, only the end is looked for, from the head when it is
        further than the first entries read."""
        # A reader reads the entry `after` too: finding it gone, its log was removed or started anew.
        checked = [self._entry_key(namespace, after)] if documents and after > 0 else []
        keys = [self._head_key(namespace), *checked] + [
            self._entry_key(namespace, after + n) for n in range(1, PROBE + 1)
        ]
        head_object, *window = [raw for _, raw in get_many(self.store, keys)]
        if checked and window.pop(0) is None:
            raise ChangeLogError(f"namespace {namespace}: entry {after}, read before, is gone")
        try:
            head = _head(namespace, head_object)
        except ChangeLogError:
            if documents:
                raise
            head = 0
        if documents and head - after > MAX_ENTRIES:
            return None
        last, changed = after, set[str]()
        if not documents and head > after + PROBE and all(raw is not None for raw in window):
            last, window = head, []
        while True:
            for raw in window:
                if raw is None:
                    if documents and last < head:
                        raise ChangeLogError(f"namespace {namespace}: entry {last + 1} is missing, the head is {head}")
                    return Changes(last, frozenset(changed))
                last += 1
                if documents:
                    changed.update(_documents(namespace, last, raw))
            if documents and last - after >= MAX_ENTRIES:
                return Changes(last, frozenset(changed))
            keys = [self._entry_key(namespace, last + step) for step in range(1, PROBE + 1)]
            window = [raw for _, raw in get_many(self.store, keys)]


def _head(namespace: str, raw: bytes | None) -> int:
    if raw is None:
        return 0
    try:
        head = int(raw.decode("ascii"))
    except (UnicodeDecodeError, ValueError) as error:
        raise ChangeLogError(f"namespace {namespace}: unreadable log head {raw[:40]!r}") from error
    if head < 0:
        raise ChangeLogError(f"namespace {namespace}: negative log head {head}")
    return head


def _documents(namespace: str, number: int, raw: bytes) -> Sequence[str]:
    try:
        data = loads(raw)
        documents = data["documents"]
        if data.get("format") != LOG_FORMAT or not isinstance(documents, list):
            raise TypeError(f"format {data.get('format')!r}")
        if not all(isinstance(document, str) for document in documents):
            raise TypeError("a document id that is not a string")
    except Exception as error:  # damaged JSON, or another shape
        raise ChangeLogError(f"namespace {namespace}: unreadable log entry {number}: {error!r}") from error
    return documents
