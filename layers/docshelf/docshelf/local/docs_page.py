"""The API docs page of `docshelf serve`: Swagger UI over the OpenAPI document, its assets inlined (offline).

The Swagger UI bundle is the one Powertools ships for its own `enable_swagger`; only the page is ours, because
Powertools' page generator needs its pydantic OpenAPI models, which the API does not import (see docshelf.json_schema).
"""

from __future__ import annotations

import functools
import html
from pathlib import Path

import aws_lambda_powertools.event_handler

from docshelf.api.openapi import API_TITLE

SWAGGER_ASSETS = Path(aws_lambda_powertools.event_handler.__file__).parent / "openapi" / "swagger_ui"


@functools.lru_cache(maxsize=1)
def _assets() -> tuple[str, str]:
    return (
        (SWAGGER_ASSETS / "swagger-ui-bundle.min.js").read_text(encoding="utf-8"),
        (SWAGGER_ASSETS / "swagger-ui.min.css").read_text(encoding="utf-8"),
    )


def docs_page(spec_json: str) -> str:
    script, style = _assets()
    # "</" would end the inline <script> early; "<\/" is the same JSON string.
    spec = spec_json.replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html>
<head>
<meta charset="UTF-8">
<title>{html.escape(API_TITLE)}</title>
<style>{style}</style>
</head>
<body>
<div id="swagger-ui">Loading...</div>
<script>{script}</script>
<script>
SwaggerUIBundle({{
  dom_id: "#swagger-ui",
  docExpansion: "list",
  deepLinking: true,
  layout: "BaseLayout",
  spec: {spec},
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
}});
</script>
</body>
</html>
"""
