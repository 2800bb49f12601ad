"""The search HTTP API shared by the SearchFunction and `docshelf serve`.

`auth`, `limits`, `guard` and `service` are plain Python; `models` and `resolver` are the HTTP edge, the only
modules that import pydantic (through Powertools' validation).
"""
