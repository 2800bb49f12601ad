"""GET /documents/{id}/source under `docshelf serve`: the cited file's bytes, authorised like every route."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from docshelf.local.api_services import LocalApiServices
from docshelf.local.server import ServeConfig
from docshelf.local.services import LocalServices
from tests.functional.api.helpers import PUMP, SECRET, SECRET_DOC, Served, serving, token


@pytest.fixture
def sourced(tmp_path: Path) -> Iterator[Served]:
    folder = tmp_path / "docs"
    (folder / "manuals").mkdir(parents=True)
    (folder / "manuals" / "pump.md").write_bytes(PUMP)
    (folder / "payroll.md").write_bytes(SECRET_DOC)
    services = LocalServices.open(tmp_path / "store")
    services.ingest(PUMP, namespace="demo", source_key="manuals/pump.md")
    services.ingest(SECRET_DOC, namespace="secret", source_key="payroll.md")
    backend = LocalApiServices(services, cache_ttl_s=0, sources=folder)
    with serving(backend, ServeConfig(jwt_secret=SECRET, quiet=True)) as server:
        yield Served(server.url, services, backend, server)


def document_id(served: Served, namespace: str, name: str) -> str:
    return next(r.document_id for r in served.services.registry.list(namespace) if r.source_file_name == name)


def get(served: Served, path: str, bearer: str) -> tuple[int, bytes, dict[str, str]]:
    request = urllib.request.Request(served.url + path, headers={"Authorization": f"Bearer {bearer}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read(), dict(response.headers.items())
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers.items())


def test_the_source_route_answers_the_file_sandboxed(sourced: Served) -> None:
    pump = document_id(sourced, "demo", "pump.md")
    status, body, headers = get(sourced, f"/documents/{pump}/source?namespace=demo", token("alice", ["demo"]))
    assert status == 200 and body == PUMP
    assert headers["Content-Type"] == "text/markdown; charset=utf-8"
    assert headers["Content-Security-Policy"].startswith("sandbox")


def test_another_namespace_is_refused_and_unknown_ids_are_404(sourced: Served) -> None:
    payroll = document_id(sourced, "secret", "payroll.md")
    status, body, _ = get(sourced, f"/documents/{payroll}/source?namespace=secret", token("alice", ["demo"]))
    assert status == 403 and b"salary" not in body
    status, _, _ = get(sourced, f"/documents/{payroll}/source?namespace=demo", token("alice", ["demo"]))
    assert status == 404


def test_a_file_edited_since_it_was_indexed_is_not_served(sourced: Served, tmp_path: Path) -> None:
    pump = document_id(sourced, "demo", "pump.md")
    (tmp_path / "docs" / "manuals" / "pump.md").write_bytes(PUMP + b"\nedited\n")
    status, body, _ = get(sourced, f"/documents/{pump}/source?namespace=demo", token("alice", ["demo"]))
    assert status == 409 and b"changed since it was indexed" in body


def test_without_a_sources_folder_the_route_says_so(served: Served) -> None:
    pump = document_id(served, "demo", "pump.md")
    status, body, _ = get(served, f"/documents/{pump}/source?namespace=demo", token("alice", ["demo"]))
    assert status == 404 and b"is not kept by this server" in body


def test_each_namespace_can_have_its_own_source_folder(tmp_path: Path) -> None:
    demo, secret = tmp_path / "demo-files", tmp_path / "secret-files"
    (demo / "manuals").mkdir(parents=True)
    (demo / "manuals" / "pump.md").write_bytes(PUMP)
    secret.mkdir()
    (secret / "payroll.md").write_bytes(SECRET_DOC)
    (demo / "payroll.md").write_bytes(b"not the secret namespace's file")
    services = LocalServices.open(tmp_path / "store")
    services.ingest(PUMP, namespace="demo", source_key="manuals/pump.md")
    services.ingest(SECRET_DOC, namespace="secret", source_key="payroll.md")
    backend = LocalApiServices(services, cache_ttl_s=0, sources={"demo": demo, "secret": secret})
    with serving(backend, ServeConfig(jwt_secret=SECRET, quiet=True)) as server:
        both = Served(server.url, services, backend, server)
        root = token("root", ["demo", "secret"])
        pump, payroll = document_id(both, "demo", "pump.md"), document_id(both, "secret", "payroll.md")
        assert get(both, f"/documents/{pump}/source?namespace=demo", root)[1] == PUMP
        assert get(both, f"/documents/{payroll}/source?namespace=secret", root)[1] == SECRET_DOC


def test_a_client_asking_for_json_gets_a_signed_link_as_on_aws(sourced: Served) -> None:
    import json

    pump = document_id(sourced, "demo", "pump.md")
    request = urllib.request.Request(
        f"{sourced.url}/documents/{pump}/source?namespace=demo",
        headers={"Authorization": f"Bearer {token('alice', ['demo'])}", "Accept": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        link = json.loads(response.read())
    assert set(link) == {"url", "expires_in"} and link["url"].startswith(f"{sourced.url}/documents/{pump}/source?")
    with urllib.request.urlopen(link["url"], timeout=30) as response:  # no token
        assert response.read() == PUMP and response.headers["Content-Security-Policy"].startswith("sandbox")
