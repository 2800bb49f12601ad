"""What `docshelf ingest` remembers of each folder it ingests: the source keys its listing held, so that
`--prune` can remove the documents of that folder whose files are gone, and no other document of the namespace
(a file given alone, another folder's, an upload, a web page).

One object per namespace and folder in the store, `folders/<namespace>/<sha256 of the folder's real path>.json`,
written after every ingest of the folder whose listing was complete (a folder that could not be read in full is
neither pruned nor remembered: its files are not known to be gone).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from docshelf.local.sources import Listing
from docshelf.serde import dumps, loads
from docshelf.store.base import ObjectStore


def record_key(namespace: str, folder: Path) -> str:
    digest = hashlib.sha256(os.fsencode(os.path.realpath(folder))).hexdigest()[:32]
    return f"folders/{namespace}/{digest}.json"


def folder_keys(folder: Path, listing: Listing) -> set[str] | None:
    """The keys of the listing's files under `folder` (as listed: the walk joins paths to the argument), or None
    when part of the folder could not be listed."""
    if any(reason.startswith(str(folder)) for reason in listing.skipped if "cannot list" in reason):
        return None
    keys = {source.key for source in listing.files if source.path.is_relative_to(folder)}
    return keys | {key for key, paths in listing.collisions.items() if any(p.startswith(str(folder)) for p in paths)}


def remembered(store: ObjectStore, namespace: str, folder: Path) -> set[str] | None:
    """The keys the folder's last complete ingest listed; None when none is recorded."""
    raw = store.get(record_key(namespace, folder))
    return None if raw is None else {str(key) for key in loads(raw).get("keys", [])}


def remember(store: ObjectStore, namespace: str, folder: Path, keys: set[str]) -> None:
    record = {"folder": os.fsencode(os.path.realpath(folder)).decode("utf-8", "backslashreplace"), "keys": sorted(keys)}
    store.put(record_key(namespace, folder), dumps(record), content_type="application/json")
