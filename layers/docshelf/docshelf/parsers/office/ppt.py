"""PowerPoint 97-2003 `.ppt` files: converted to PPTX by `ppt2pptx` (pure Python), then read by the PPTX parser,
so slides are pages, titles headings, and speaker notes kept exactly as for PPTX. ppt2pptx writes placeholders as
plain text boxes: the titles, subtitles, dates, footers and slide numbers the `.ppt` records name are marked
again in the converted slides first (ppt_placeholders)."""

from __future__ import annotations

import struct
import tempfile
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

from lxml.etree import XMLSyntaxError

from docshelf.errors import CorruptDocumentError, EncryptedDocumentError, UnsupportedFormatError
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.office import pptx
from docshelf.parsers.office.ppt_notes import notes_furniture, without_furniture
from docshelf.parsers.office.ppt_numbering import number_slide, slide_numbering
from docshelf.parsers.office.ppt_placeholders import mark_slide, rewrite_slides, slide_placeholders, slide_records
from docshelf.parsers.office.ppt_tables import put_slide_tables, slide_table_list

if TYPE_CHECKING:
    from lxml import etree


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    converted, warnings = _to_pptx(data, filename, limits)
    converted = _with_placeholders(data, converted)
    content = pptx.parse(converted, filename=filename, limits=limits)
    content.warnings.extend(warnings)
    return content


def _with_placeholders(data: bytes, converted: bytes) -> bytes:
    """The converted slides with the `.ppt`'s placeholders marked, its tables put back (ppt_tables) and its notes
    pages' headers and footers out of the speaker notes (ppt_notes); as converted when its records cannot say."""
    from ppt2pptx.cfb import CompoundFile
    from ppt2pptx.errors import Ppt2PptxError

    try:
        ole = CompoundFile(data)
        current_user = ole.open_stream("Current User")
        if current_user[12:16] == b"\xdf\xc4\xd1\xf3":  # an encrypted document stream: its records are unread
            return converted
        document = ole.open_stream("PowerPoint Document")
        converted = without_furniture(converted, notes_furniture(document))
        slides = slide_records(document, current_user)
        placeholders = [slide_placeholders(slide, outline) if slide is not None else [] for slide, outline in slides]
        tables = [slide_table_list(slide) if slide is not None else [] for slide, _ in slides]
        numbering = [slide_numbering(slide) if slide is not None else [] for slide, _ in slides]
        marking = any(placeholders)
        if not marking and not any(tables) and not any(numbering):
            return converted

        def rewrite(number: int, root: etree._Element) -> bool:  # one pass: placeholders, tables, numbered lists
            known = 0 < number <= len(slides)
            marked = marking and mark_slide(root, list(placeholders[number - 1]) if known else [])
            put = known and put_slide_tables(root, tables[number - 1])
            numbered = known and number_slide(root, numbering[number - 1])
            return marked or put or numbered

        return rewrite_slides(converted, rewrite)
    except (Ppt2PptxError, ValueError, IndexError, KeyError, OSError, struct.error, zipfile.BadZipFile, XMLSyntaxError):
        return converted


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
