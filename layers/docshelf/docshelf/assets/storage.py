"""Where assets are stored, and how they come and go with a document's revisions (no Pillow here).

The parse stage writes a revision's assets beside its parse cache (`keys.parsed_asset_prefix`), before the cache
itself, so a parse cache hit always has its assets; like the parse cache they are shared by every document with
those bytes and purged once no live document has the revision (`purge.py`). The chunk stage then places the assets
its document's Image blocks name in the document's own folder (`keys.asset_prefix`), next to its manifest, and
removes the ones no longer named (a new revision's dropped images). Search results link to that copy: it sits
under the namespace's prefix, so whoever may read the namespace's artifacts may read its images, and deleting the
document deletes them without asking which other document shares them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from docshelf.keys import asset_prefix, parsed_asset_prefix
from docshelf.store.base import ObjectStore

_MEDIA_TYPES = {"png": "image/png", "jpg": "image/jpeg"}


def media_type(name: str) -> str:
    return _MEDIA_TYPES.get(name.rsplit(".", 1)[-1], "application/octet-stream")


def write_parsed_assets(store: ObjectStore, revision: str, assets: Mapping[str, bytes]) -> None:
    prefix = parsed_asset_prefix(revision)
    for name, data in assets.items():
        store.put(prefix + name, data, content_type=media_type(name))


def place_document_assets(
    store: ObjectStore, *, namespace: str, document_id: str, revision: str, names: Iterable[str]
) -> list[str]:
    """Make the document's asset folder hold exactly `names` (copied from the revision's parsed assets); returns
    the names that could not be placed (their parsed asset is gone)."""
    prefix = asset_prefix(namespace, document_id)
    wanted = set(names)
    present = {key[len(prefix) :] for key in store.list(prefix)}
    missing: list[str] = []
    for name in sorted(wanted - present):
        data = store.get(parsed_asset_prefix(revision) + name)
        if data is None:
            missing.append(name)
            continue
        store.put(prefix + name, data, content_type=media_type(name))
    for name in sorted(present - wanted):
        store.delete(prefix + name)
    return missing


def delete_document_assets(store: ObjectStore, *, namespace: str, document_id: str) -> None:
    for key in list(store.list(asset_prefix(namespace, document_id))):
        store.delete(key)


def delete_parsed_assets(store: ObjectStore, revision: str) -> list[str]:
    removed = list(store.list(parsed_asset_prefix(revision)))
    for key in removed:
        store.delete(key)
    return removed
