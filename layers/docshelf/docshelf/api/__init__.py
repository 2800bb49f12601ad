"""The search HTTP API shared by the SearchFunction and `docshelf serve`.

`auth`, `limits`, `guard`, `service`, `schemas` and `json_schema` are plain Python; `resolver` is the HTTP edge
(Powertools' event handler); `openapi` assembles the OpenAPI document, built only when it is asked for.
"""
