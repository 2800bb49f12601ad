"""GET /documents pages, filters by status and finds a document by its key; every route refuses a query parameter
it does not take, as the body refuses an unknown field."""

from __future__ import annotations

from urllib.parse import quote

from docshelf.api.query_params import document_page
from docshelf.registry import DocumentRecord
from tests.functional.api.helpers import Served, token

DEMO = token("alice", ["demo"])


def test_pages_follow_each_other_in_source_key_order(served: Served) -> None:
    keys, cursor, pages = [], "", 0
    while True:
        status, page = served.request("GET", f"/documents?namespace=demo&limit=1{cursor}", bearer=DEMO)
        assert status == 200 and len(page["documents"]) == 1
        keys.append(page["documents"][0]["source_key"])
        pages += 1
        if page["next_cursor"] is None:
            break
        cursor = f"&cursor={page['next_cursor']}"
    assert keys == ["manuals/pump.md", "valves.md"] and pages == 2
    status, whole = served.request("GET", "/documents?namespace=demo", bearer=DEMO)
    assert [d["source_key"] for d in whole["documents"]] == keys and whole["next_cursor"] is None


def test_status_and_source_key_filter(served: Served) -> None:
    status, ok = served.request("GET", "/documents?namespace=demo&status=ok", bearer=DEMO)
    assert status == 200 and len(ok["documents"]) == 2
    assert served.request("GET", "/documents?namespace=demo&status=failed", bearer=DEMO)[1]["documents"] == []
    status, found = served.request(
        "GET", f"/documents?namespace=demo&source_key={quote('manuals/pump.md')}", bearer=DEMO
    )
    assert status == 200 and [d["source_key"] for d in found["documents"]] == ["manuals/pump.md"]
    status, problem = served.request("GET", "/documents?namespace=demo&status=great", bearer=DEMO)
    assert status == 400 and "status" in problem["message"]
    assert served.request("GET", "/documents?namespace=demo&limit=0", bearer=DEMO)[0] == 400
    assert served.request("GET", "/documents?namespace=demo&cursor=%2F%2F", bearer=DEMO)[0] == 400


def test_unknown_query_parameters_are_refused_on_every_route(served: Served) -> None:
    document = served.request("GET", "/documents?namespace=demo", bearer=DEMO)[1]["documents"][0]["document_id"]
    for path in (
        "/documents?namespace=demo&stauts=ok",
        "/documents?namspace=demo",
        f"/documents/{document}?namespace=demo&verbose=1",
        f"/documents/{document}/source?namespace=demo&download=1",
    ):
        status, problem = served.request("GET", path, bearer=DEMO)
        assert status == 400 and "unknown query parameter" in problem["message"], path
    status, problem = served.request(
        "POST", "/search?debug=1", body={"namespace": "demo", "query": "pump"}, bearer=DEMO
    )
    assert status == 400 and "takes no query parameters" in problem["message"]


def test_a_page_cursor_is_after_the_last_key() -> None:
    records = [DocumentRecord("demo", f"d{n}", f"k{n}", f"k{n}", "ok") for n in (3, 1, 2)]
    first = document_page(records, limit=2)
    assert [r.source_key for r in first.documents] == ["k1", "k2"] and first.next_cursor
    rest = document_page(records, limit=2, cursor=first.next_cursor)
    assert [r.source_key for r in rest.documents] == ["k3"] and rest.next_cursor is None
