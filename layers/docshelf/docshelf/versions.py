"""Every version a stored object or message carries, in one place: raise one when what it names changes shape or
content, so that objects written before are recomputed (caches) or refused with a clear error (formats)."""

from __future__ import annotations

# The typed document and chunk model (`_ori`, chunk caches, artifacts): a new major version is refused on read.
SCHEMA_VERSION = "1.0"
# The parsers' output: in the parse cache's keys (`cache/<sha256>_p<version>_...`, docshelf.keys) and in
# `Document.parser`; raised whenever a parser's output changes. 8: the fixes of docs/evaluation/fidelity-probes.md
# (notes kept, PDF watermarks and margin stamps, running headers, wrapped table cells, Excel number formats, ...).
# 9: its second round, files from LaTeX, LibreOffice, pandoc, Chromium and groff (PDF columns, spacing, tables,
# furniture, accents, headings, bullets; HTML notes; .doc tables, notes and lists; ODT numbering; code blocks).
# 10: browsers' PDFs (superscripts at 0.83 of the body, bracketed marks, justified gaps after a mark, a column's
# first line set higher than the other's, print headers and footers, letter-spaced titles), spreadsheet headings
# over right-aligned numbers, pages whose text PDFium does not give one to one, overfull lines in a gutter, code in
# a monospaced font, outlined bullets, numbers a tab from their items, narrow table column gaps; HTML: a site's menus
# before the page's title and text for screen readers.
# 11: a fourth round (word processors' reports, slides, definition lists): raised back-links are not a
# letter-spaced word, an oblique face whose stem reads heavy is not bold, terms apart from their definitions,
# ragged-right lines ending a sentence before a long word go on, paragraphs rejoined past footnotes and notes found
# by their rule, bulleted lists side by side, code indented by spaces and its columns' spaces kept, a lone item's
# bullet, `GenBank` and `1-(mean` rejoined.
# 12: PDF charts: bar charts (filled boxes on an axis), one plotted line between axes and pies found as figures, their
# labels in the body's size (category names, axis titles, legends, a spreadsheet's chart area) kept out of the text;
# group headings over a table's header as cells spanning their columns.
# 13: `.doc` tables keep their merged cells (each row's cell edges and merge flags on one grid), header rows and
# nested tables' rows, and headings come by style; `.ppt` tables with empty or merged cells, or beside other text,
# are tables; equations as LaTeX (OMML in DOCX and PPTX, MathML and wiki equation images in HTML and EPUB); PDF
# words drawn over their runs' spaces stay whole, punctuation follows a raised mark.
# 14: PDF lines that never wrap (slides, forms, pages of one-line paragraphs) are paragraphs where a line stopped
# short with room for the next word, or where a gap wider than single spacing's sets them apart; a paragraph right
# below another in the same lines is not rejoined to it; a footnote under its rule on a page of short lines.
# 15: PDF lines broken short of the measure end their paragraph where other lines wrap too (a slide's points beside
# a wrapped sentence), but under a numbered entry's hanging indent.
# 16: nor before a lower-case line going on with a wrapped paragraph; a wider gap after a line filling the measure
# no longer keeps a paragraph from being rejoined.
# 17: a line 15% of the measure short (was 30%) with room for the next word was broken there, unless a lower-case line
# goes on after one half the measure long or more.
# 18: a PDF run starting an em or more left of where the run before it ends (another object over it) is a word apart.
# 19: `.ppt` numbered lists keep their numbers (the shapes' StyleTextProp9Atom records).
# 20: a PDF form's bold fields are no headings: a check box's option, a label and its number, a caption in brackets;
# a `.ppt` notes page's header and footer are not speaker notes.
# 21: nor a range whose blanks print as nothing ("For the transition period from to").
# 22: DOCX, ODT, RTF and HTML files without headings of their own take headings from formatting: a short line set
# bold, or larger than the body, that leads into body text; ODT and RTF read numbered lines as headings too.
# 23: HTML and EPUB looks set by style sheets; an RTF header left open closes at the next header or footer; a table
# inside an ODT table cell is part of the cell's text; `.doc` headings from formatting and numbering.
# 24: an Outlook message's compressed RTF body (the HTML it encapsulates, or its rich text) over its plain body;
# a `.doc` file's floating pictures; OpenDocument charts; a flat ODT's formulas; an e-mail's winmail.dat;
# Jupyter notebooks; web archives (.mht, .mhtml); mailboxes (.mbox); Visio drawings; subtitles and transcripts.
# 25: zip and tar archives of documents, compressed files (.gz, .bz2, .xz); Excel binary workbooks (.xlsb); a zip
# storing a PDF near its start is a zip; GIF, WebP and LibreOffice Draw (.odg); Equation Editor equations in .doc,
# DOCX, PPTX and RTF; worksheets and documents embedded as objects in DOCX and PPTX; an RTF file's equations; LaTeX
# sources; calendars and contact cards; an OMML bar without a position is below its base.
PARSER_VERSION = "25"
# The chunker's output: in every chunk cache key (`ChunkConfig.cache_key`). 5: headings that lead straight into a
# table head its chunks instead of making a chunk of their own.
CHUNKER_VERSION = "5"
# The page-range parse's partial objects (parsers/pdf/pdf_pages_json.py): raised whenever PageLayout or Line changes
# shape, so older partial objects are not read. 4: a page's column gutters.
PAGES_FORMAT = 4
# The analyzer's terms: stored namespace snapshots (index/embedded/namespace_snapshot.py) hold the terms of the
# version that wrote them. tests/unit/test_analyzer_version.py fails when the output changes and this does not.
# 4: variant kanji folded (山﨑 is 山崎, index/kanji_variants.py).
ANALYZER_VERSION = 4
# The embedded index's document objects (index/embedded/document_objects.py).
INDEX_FORMAT = 6
# The embedded index's namespace snapshots (index/embedded/namespace_snapshot.py).
SNAPSHOT_FORMAT = 1
# The search cache's entries (search/cache.py): raised whenever the response's shape changes, so no entry lacks a field.
CACHE_FORMAT = 4  # raised whenever the response's shape changes, so no cached entry lacks a field
# The messages between the AWS stages (aws/events.py).
STAGE_MESSAGE_VERSION = 1
