"""The search page of `docshelf serve`: `page/index.html`, its scripts and its style, served as files.

`/?namespace=NS&q=QUERY` runs that search on load (`&mode=agentic`, `&view=documents|evidence` too); a token given
as `#token=JWT` (a fragment, so it is never sent to the server or written to its log) is kept in the tab's
sessionStorage. Results are inserted as text through DOM APIs, never as HTML. With no inline script or style, the
page's Content-Security-Policy allows scripts and styles from the server itself only.
"""

from __future__ import annotations

from importlib.resources import files

PAGE_FILES = {"/": "index.html", "/page.js": "page.js", "/documents.js": "documents.js", "/page.css": "page.css"}
CONTENT_TYPES = {
    "index.html": "text/html; charset=utf-8",
    "page.js": "text/javascript; charset=utf-8",
    "documents.js": "text/javascript; charset=utf-8",
    "page.css": "text/css; charset=utf-8",
}
SEARCH_PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def page_file(name: str) -> bytes:
    return files("docshelf.local").joinpath("page", name).read_bytes()


def search_page_files() -> dict[str, tuple[bytes, str]]:
    """Route -> (body, content type) of the page and its assets."""
    return {route: (page_file(name), CONTENT_TYPES[name]) for route, name in PAGE_FILES.items()}
