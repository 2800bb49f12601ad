"""The local host: the `docshelf` CLI, the local services over a store folder, progress, sources and folder
records, and `docshelf serve` (waitress, the WSGI app, the page, uploads and source files)."""
