"""Marked-up and plain text: HTML, Markdown, XML (JATS, USPTO, generic), JSON, EPUB and text."""
