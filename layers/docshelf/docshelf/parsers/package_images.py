"""The image references of a zip package (ODT, EPUB) resolved to their bytes: package members and `data:` URIs
only; a URL with a scheme, an absolute path or one leaving the package leads nowhere (never fetched)."""

from __future__ import annotations

import posixpath
import zipfile
from collections.abc import Callable
from urllib.parse import unquote, urldefrag

from docshelf.assets.collect import data_uri_bytes
from docshelf.errors import DocumentError
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.safe_zip import read_member


def member_images(
    archive: zipfile.ZipFile, limits: ParseLimits, *, base: str = "", what: str
) -> Callable[[str], bytes | None]:
    """`resolve(src)` for references relative to the package folder `base`."""
    names = set(archive.namelist())

    def resolve(src: str) -> bytes | None:
        src = src.strip()
        if src.lower().startswith("data:"):
            return data_uri_bytes(src)
        path = unquote(urldefrag(src).url)
        if not path or ":" in path.split("/", 1)[0] or path.startswith("/"):
            return None
        member = posixpath.normpath(posixpath.join(base, path))
        if member.startswith("../") or member not in names:
            return None
        try:
            return read_member(archive, member, limits, what=what)
        except DocumentError:
            return None

    return resolve
