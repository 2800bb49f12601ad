"""Zip packages built in tests (ODT, EPUB, zip bombs)."""

from __future__ import annotations

import io
import zipfile


def build_zip(members: dict[str, bytes], *, mimetype: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        if mimetype is not None:
            archive.writestr("mimetype", mimetype, compress_type=zipfile.ZIP_STORED)
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def zip_bomb(member: str, *, mimetype: str, size: int = 8 * 1024 * 1024) -> bytes:
    """A member of zeros that compresses about 1000:1."""
    return build_zip({member: b"\0" * size}, mimetype=mimetype)
