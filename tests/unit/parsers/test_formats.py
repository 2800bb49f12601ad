"""The format table (`parsers/formats.py`) is the one source: every entry parses, and detection agrees with it."""

from __future__ import annotations

import bz2
import io
import tarfile
from collections.abc import Callable
from importlib import import_module

import pytest
from PIL import Image

from docshelf.parsers import load_parser, supported_formats
from docshelf.parsers.detect import OLE_MAGIC, detect_format, extension_format, media_type_format
from docshelf.parsers.formats import FORMATS, Format
from tests.support.zip_fixtures import build_zip

# A text whose first characters name the format, one for each `markup` entry.
MARKUP_SAMPLES = {
    "html": b"<!DOCTYPE html><html><body><p>hi</p></body></html>",
    "xml": b"<?xml version='1.0'?><article><p>hi</p></article>",
}


def _tar_sample() -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as package:
        package.addfile(tarfile.TarInfo("empty.txt"))
    return out.getvalue()


def _webp_sample() -> bytes:
    out = io.BytesIO()
    Image.new("L", (4, 4), 255).save(out, "WEBP")
    return out.getvalue()


# Formats whose signature their structure confirms (detect._CONFIRMED_BY): real files of them.
def _bzip2_sample() -> bytes:
    return bz2.compress(b"words")


CONFIRMED_SAMPLES: dict[str, Callable[[], bytes]] = {"tar": _tar_sample, "webp": _webp_sample, "bzip2": _bzip2_sample}


def content_sample(fmt: Format) -> bytes:
    """Bytes that carry the format's signature and nothing else that names it."""
    if fmt.name in CONFIRMED_SAMPLES:
        return CONFIRMED_SAMPLES[fmt.name]()
    if fmt.detection == "magic":
        return fmt.magic + b"1.7 then anything"
    if fmt.detection == "zip" and fmt.zip_member:
        return build_zip({fmt.zip_member: b"<x/>"})
    if fmt.detection == "zip":
        return build_zip({"content.xml": b"<x/>"}, mimetype=fmt.media_type)
    if fmt.detection == "ole":
        return OLE_MAGIC + b"\0" * 64 + fmt.ole_streams[0].encode("utf-16-le")
    return MARKUP_SAMPLES[fmt.name]


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda fmt: fmt.name)
def test_every_format_has_a_parser_a_media_type_and_extensions(fmt: Format) -> None:
    module = import_module(f"docshelf.parsers.{fmt.parser_module}")
    assert callable(module.parse)
    assert load_parser(fmt.name) is module.parse
    assert fmt.media_type.count("/") == 1 and fmt.media_type == fmt.media_type.lower()
    assert fmt.extensions and all(ext.startswith(".") and ext == ext.lower() for ext in fmt.extensions)


def test_names_extensions_and_media_types_are_unique() -> None:
    names = [fmt.name for fmt in FORMATS]
    extensions = [ext for fmt in FORMATS for ext in fmt.extensions]
    media_types = [media_type for fmt in FORMATS for media_type in (fmt.media_type, *fmt.more_media_types)]
    assert len(set(names)) == len(names)
    assert len(set(extensions)) == len(extensions)
    assert len(set(media_types)) == len(media_types)
    assert supported_formats() == sorted(names)


def test_every_markup_format_has_a_sample() -> None:
    assert {fmt.name for fmt in FORMATS if fmt.detection == "markup"} == set(MARKUP_SAMPLES)


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda fmt: fmt.name)
def test_detection_by_extension_and_media_type_follows_the_table(fmt: Format) -> None:
    for ext in fmt.extensions:
        assert extension_format(f"dir/File{ext.upper()}") == fmt.name
    for media_type in (fmt.media_type, *fmt.more_media_types):
        assert media_type_format(f"{media_type}; charset=utf-8") == fmt.name
        assert detect_format(b"plain words", "upload", media_type) == fmt.name


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f.detection == "zip" and not f.zip_member], ids=lambda f: f.name)
def test_an_opendocument_template_is_known_by_its_mimetype_member(fmt: Format) -> None:
    for media_type in fmt.more_media_types:
        assert detect_format(build_zip({"content.xml": b"<x/>"}, mimetype=media_type), "upload.bin") == fmt.name


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f.detection != "name"], ids=lambda fmt: fmt.name)
def test_content_wins_over_the_file_name(fmt: Format) -> None:
    data = content_sample(fmt)
    assert detect_format(data, "upload.bin") == fmt.name
    assert detect_format(data, "upload") == fmt.name
    if fmt.detection != "markup":  # a text format's name is trusted over markup sniffing
        other = "csv" if fmt.name != "csv" else "txt"
        assert detect_format(data, f"upload.{other}") == fmt.name


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f.detection == "name"], ids=lambda fmt: fmt.name)
def test_name_only_formats_come_from_the_name(fmt: Format) -> None:
    data = b"a\tb,c\n# not a heading to the detector\n"
    assert detect_format(data, "upload") is None
    assert detect_format(data, f"upload{fmt.extensions[0]}") == fmt.name
    assert detect_format(b"<!doctype html><p>x</p>", f"upload{fmt.extensions[0]}") == "html"


def test_ole_files_without_a_known_stream_and_encrypted_packages_are_told_apart() -> None:
    assert detect_format(OLE_MAGIC + "WordDocument".encode("utf-16-le"), "old.doc") == "doc"
    assert detect_format(OLE_MAGIC + "Quill".encode("utf-16-le"), "old.pub") == "ole"
    assert detect_format(OLE_MAGIC + "EncryptedPackage".encode("utf-16-le"), "locked.docx") == "ole-encrypted"


@pytest.mark.parametrize("head", [b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+"])
def test_a_tiff_is_known_by_any_of_its_signatures(head: bytes) -> None:
    assert detect_format(head + b"\x00\x00\x00\x08 rest", "scan.bin") == "tiff"


@pytest.mark.parametrize(
    ("text", "name"),
    [(b"# About WEBP images, and more", "notes.md"), (b"BZh is how this line opens", "notes.txt"),
     (b"x" * 257 + b"ustar  \x00 by chance", "notes.md")],
)  # fmt: skip
def test_a_signature_that_turns_up_in_text_is_confirmed_by_its_format(text: bytes, name: str) -> None:
    assert detect_format(text, name) == extension_format(name)
