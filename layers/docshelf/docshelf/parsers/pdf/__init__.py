"""PDF: pdfminer's characters into lines, paragraphs, headings, tables and figures, OCR of pages without text,
and page workers and page ranges for long files."""
