"""Over streamable HTTP, the MCP search's image links are absolute signed links a chat UI opens without a token."""

from __future__ import annotations

import urllib.request
from pathlib import Path

from docshelf.local.api_services import LocalApiServices
from docshelf.local.server import ServeConfig
from docshelf.local.services import LocalServices
from tests.functional.api.helpers import SECRET, serving, token
from tests.functional.api.test_asset_route import report_with_a_picture
from tests.functional.mcp.mcp_calls import over_http, text_of


def test_an_image_result_links_to_its_picture(tmp_path: Path) -> None:
    written = LocalServices.open(tmp_path / "store")
    written.ingest(report_with_a_picture(), namespace="demo", source_key="report.docx")
    written.index.commit()
    backend = LocalApiServices(LocalServices.open(tmp_path / "store"), cache_ttl_s=0)
    with serving(backend, ServeConfig(jwt_secret=SECRET, quiet=True)) as server:
        arguments = {"query": "pump cross-section diagram", "namespace": "demo", "chunk_types": ["image"]}
        result = over_http(server.url + "/mcp", token("alice", ["demo"]), lambda c: c.call_tool("search", arguments))
        asset = (result.structured_content or {})["results"][0]["asset"]
        assert asset.startswith(f"{server.url}/documents/") and "signature=" in asset
        assert f"[image: {asset}]" in text_of(result)
        with urllib.request.urlopen(asset, timeout=30) as response:
            assert response.headers["Content-Type"] == "image/png" and response.read().startswith(b"\x89PNG")
