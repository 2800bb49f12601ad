"""The search HTTP API shared by the SearchFunction and `docshelf serve`.

`auth`, `limits`, `guard`, `service` and `schemas` are plain Python (`docshelf.json_schema` validates with the
schemas); `resolver` is the HTTP edge (Powertools' event handler); `openapi` assembles the OpenAPI document, built
only when it is asked for.
"""
