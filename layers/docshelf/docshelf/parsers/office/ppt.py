"""PowerPoint 97-2003 `.ppt` files: converted to PPTX by `ppt2pptx` (pure Python), then read by the PPTX parser,
so slides are pages, titles headings, and speaker notes kept exactly as for PPTX."""

from __future__ import annotations

import struct
import tempfile
from pathlib import Path

from docshelf.errors import CorruptDocumentError, EncryptedDocumentError, UnsupportedFormatError
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.office import pptx


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    converted, warnings = _to_pptx(data, filename, limits)
    content = pptx.parse(converted, filename=filename, limits=limits)
    content.warnings.extend(warnings)
    return content


def _to_pptx(data: bytes, filename: str, limits: ParseLimits) -> tuple[bytes, list[str]]:
    from ppt2pptx import convert
    from ppt2pptx.cfb import Limits
    from ppt2pptx.errors import EncryptedPresentationError, Ppt2PptxError, UnsupportedPptVersionError

    # ppt2pptx reads and writes paths; a private temporary folder (Lambda's /tmp) holds both for the call.
    with tempfile.TemporaryDirectory(prefix="docshelf-ppt-") as folder:
        source = Path(folder) / "in.ppt"
        source.write_bytes(data)
        try:
            result = convert(source, Path(folder) / "out.pptx", limits=Limits(max_input_bytes=limits.max_bytes))
        except EncryptedPresentationError as exc:
            raise EncryptedDocumentError("password-protected PowerPoint presentation") from exc
        except UnsupportedPptVersionError as exc:
            raise UnsupportedFormatError(f"{filename!r}: {exc}") from exc
        except (Ppt2PptxError, ValueError, IndexError, KeyError, OSError, struct.error) as exc:
            raise CorruptDocumentError(f"PowerPoint file {filename!r} could not be read: {exc}") from exc
        warnings = [f"{item.get('code')}: {item.get('message')}" for item in result.report.warnings]
        return result.output_path.read_bytes(), warnings
