"""reStructuredText, AsciiDoc and other text documents: their sections, lists and code read as Markdown's are."""

from __future__ import annotations

import pytest

from docshelf.errors import UnsupportedFormatError
from docshelf.model import Heading, Paragraph, Table
from docshelf.parsers import parse_bytes
from docshelf.tables import table_grid

RST = b"""=================
 Pump PX-9 guide
=================

:Author: Ana

Introduction
============

The PX-9 pump moves **clean water** only. See `the manual <https://example.com>`_ and :ref:`safety`.

.. note:: Switch the pump off before servicing.

   It may restart on its own.

Installation
============

Torque values
-------------

1. Clean the flange.
2. Fit the seal and tighten the M10 bolts
   in a cross pattern.

* first bullet

Run this::

    px9 --start

.. code-block:: python
   :linenos:

   def torque(size):
       return {10: 45}[size]

.. image:: pump.png
   :alt: The pump

..
   A comment that is never shown.

----

Maintenance
===========

Replace the seals every ``6 months``.
"""

ADOC = b"""= Pump PX-9 guide
Ana Silva <ana@example.com>
:toc:

// a comment line

== Introduction

The PX-9 pump moves *clean water* only. See https://example.com/manual[the manual].

== Installation

=== Torque values

. Clean the flange.
. Fit the seal and tighten the M10 bolts
in a cross pattern.

* first bullet
** nested bullet

[source,shell]
----
px9 --start
----

|===
| Bolt | Torque

| M10 | 45 Nm
|===

////
A comment block.
////

== Maintenance

Replace the seals every `6 months`.
"""


def outline(name: str, data: bytes) -> list[tuple[str, str, int | None]]:
    return [
        (block.kind, block.text, block.level if isinstance(block, Heading) else block.list_level)
        for block in parse_bytes(data, name).blocks()
        if isinstance(block, Heading | Paragraph)
    ]


def test_restructured_text_sections_lists_directives_and_literal_blocks() -> None:
    assert outline("guide.rst", RST) == [
        ("heading", "Pump PX-9 guide", 1),
        ("paragraph", "Author: Ana", None),
        ("heading", "Introduction", 2),
        ("paragraph", "The PX-9 pump moves clean water only. See the manual and safety.", None),
        ("paragraph", "Switch the pump off before servicing.", None),
        ("paragraph", "It may restart on its own.", None),
        ("heading", "Installation", 2),
        ("heading", "Torque values", 3),
        ("paragraph", "1. Clean the flange.", 0),
        ("paragraph", "2. Fit the seal and tighten the M10 bolts in a cross pattern.", 0),
        ("paragraph", "first bullet", 0),
        ("paragraph", "Run this:", None),
        ("paragraph", "px9 --start", None),
        ("paragraph", "def torque(size):\n    return {10: 45}[size]", None),
        ("heading", "Maintenance", 2),
        ("paragraph", "Replace the seals every 6 months.", None),
    ]
    code = [block for block in parse_bytes(RST, "guide.rst").blocks() if isinstance(block, Paragraph) and block.code]
    assert len(code) == 2


def test_asciidoc_sections_lists_listings_and_tables() -> None:
    document = parse_bytes(ADOC, "guide.adoc")
    assert document.title == "Pump PX-9 guide"
    assert outline("guide.adoc", ADOC) == [
        ("heading", "Pump PX-9 guide", 1),
        ("paragraph", "Ana Silva <ana@example.com>", None),
        ("heading", "Introduction", 2),
        ("paragraph", "The PX-9 pump moves clean water only. See the manual.", None),
        ("heading", "Installation", 2),
        ("heading", "Torque values", 3),
        ("paragraph", "1. Clean the flange.", 0),
        ("paragraph", "2. Fit the seal and tighten the M10 bolts in a cross pattern.", 0),
        ("paragraph", "first bullet", 0),
        ("paragraph", "nested bullet", 1),
        ("paragraph", "px9 --start", None),
        ("heading", "Maintenance", 2),
        ("paragraph", "Replace the seals every 6 months.", None),
    ]
    table = next(block for block in document.blocks() if isinstance(block, Table))
    assert table_grid(table) == [["Bolt", "Torque"], ["M10", "45 Nm"]] and table.header_rows == 1


def test_other_text_documents_and_names_without_an_extension_read_as_plain_text() -> None:
    log = b"2026-12-07 10:00 pump started\n2026-12-07 10:05 seal checked\n"
    (block,) = parse_bytes(log, "pump.log").blocks()
    assert isinstance(block, Paragraph) and block.text == log.decode().strip()
    readme = parse_bytes(b"Pump notes\n\nThe seal is worn.", "README").blocks()
    assert [block.text for block in readme if isinstance(block, Paragraph)] == ["Pump notes", "The seal is worn."]
    for data, name in ((b"\x00\x01binary", "CON"), (b"Plain words", "notes.bin")):
        with pytest.raises(UnsupportedFormatError):
            parse_bytes(data, name)


def test_directives_nested_past_the_bound_read_as_one_paragraph() -> None:
    deep = "".join("   " * level + ".. note::\n\n" for level in range(300)) + "   " * 300 + "Deep text.\n"
    blocks = parse_bytes(deep.encode(), "deep.rst").blocks()
    assert [block.text for block in blocks if isinstance(block, Paragraph)] == ["Deep text."]
