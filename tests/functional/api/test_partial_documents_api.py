"""`GET /documents` lists a document a parse limit cut as `partial`, with what was kept."""

from __future__ import annotations

from docshelf.config import ParseLimits, PipelineConfig
from docshelf.local.services import LocalServices
from tests.functional.api.helpers import Served, token
from tests.functional.test_partial_documents import CELL_LIMIT, REASON, parts_csv


def test_get_documents_lists_a_partial_document(served: Served) -> None:
    services = served.services
    limited = LocalServices(services.store, services.registry, services.index,
                            PipelineConfig(limits=ParseLimits(max_sheet_cells=CELL_LIMIT)))  # fmt: skip
    result = limited.ingest(parts_csv().encode(), namespace="demo", source_key="parts.csv")
    status, body = served.request("GET", "/documents?namespace=demo", bearer=token("alice", ["demo"]))
    assert status == 200, body
    (partial,) = [d for d in body["documents"] if d["document_id"] == result.document_id]
    assert partial["status"] == "partial" and partial["error_message"] == REASON
    status, one = served.request("GET", f"/documents/{result.document_id}?namespace=demo", bearer=token("a", ["demo"]))
    assert status == 200 and one["status"] == "partial"
