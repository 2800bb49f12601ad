"""`docshelf serve` as an HTTP server: JSON bodies for every error status, HEAD and OPTIONS, CORS only when
configured, bursts of connections, keep-alive, TCP_NODELAY, and the hostile input of issue 19's probes."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from docshelf.local.cli import main
from docshelf.local.server import SearchApiServer, ServeConfig
from tests.functional.api.helpers import SECRET, Served, serving, token

DEMO = token("alice", ["demo"])
ORIGIN = "http://localhost:3000"


def connect(url: str) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    return http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)


def call(
    url: str, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    connection = connect(url)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def raw_exchange(url: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes http.client would refuse to send, and read one response."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), timeout=30) as sock:
        sock.sendall(request)
        response = http.client.HTTPResponse(sock)
        response.begin()
        return response.status, dict(response.getheaders()), response.read()


def json_error(status: int, headers: dict[str, str], body: bytes) -> str:
    assert headers["Content-Type"].startswith("application/json"), (status, headers, body[:200])
    payload = json.loads(body)
    assert set(payload) == {"message"} and payload["message"], payload
    return str(payload["message"])


def test_every_error_status_has_a_json_message(served: Served) -> None:
    auth = {"Authorization": f"Bearer {DEMO}"}
    status, headers, body = call(served.url, "GET", "/nowhere", headers=auth)
    assert status == 404 and json_error(status, headers, body)
    status, headers, body = call(served.url, "GET", "/search", headers=auth)
    assert status == 405 and headers["Allow"] == "POST, OPTIONS" and json_error(status, headers, body)
    status, headers, body = call(served.url, "DELETE", "/documents?namespace=demo", headers=auth)
    assert status == 405 and "GET" in headers["Allow"] and json_error(status, headers, body)
    status, headers, body = call(served.url, "BREW", "/search", headers=auth)
    assert status == 501 and json_error(status, headers, body)
    status, headers, body = call(served.url, "GET", "/documents?namespace=demo&q=" + "x" * 100_000, headers=auth)
    assert status == 414 and "URL" in json_error(status, headers, body)
    many = {f"X-Probe-{n}": "1" for n in range(150)}
    status, headers, body = call(served.url, "GET", "/documents?namespace=demo", headers={**auth, **many})
    assert status == 431 and "header" in json_error(status, headers, body)


def test_the_servers_own_errors_are_json_too(served: Served) -> None:
    huge_header = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 300_000 + b"\r\n\r\n"
    status, headers, body = raw_exchange(served.url, huge_header)
    assert status == 431 and json_error(status, headers, body)
    status, headers, body = raw_exchange(served.url, b"NONSENSE\r\n\r\n")
    assert status == 400 and json_error(status, headers, body)
    too_big = b"POST /search HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\n\r\n"
    status, headers, body = raw_exchange(served.url, too_big)
    assert status == 413 and json_error(status, headers, body)


def test_a_body_over_the_api_limit_is_413_and_the_connection_stays_usable(served: Served) -> None:
    connection = connect(served.url)
    try:
        auth = {"Authorization": f"Bearer {DEMO}", "Content-Type": "application/json"}
        connection.request("POST", "/search", body=b" " * 1_000_000, headers=auth)
        response = connection.getresponse()
        assert response.status == 413 and "larger" in json_error(413, dict(response.getheaders()), response.read())
        connection.request("POST", "/search", body=json.dumps({"namespace": "demo", "query": "pump"}), headers=auth)
        assert connection.getresponse().status == 200
    finally:
        connection.close()


def test_head_answers_like_get_without_a_body(served: Served) -> None:
    get_status, get_headers, page = call(served.url, "GET", "/")
    status, headers, body = call(served.url, "HEAD", "/")
    assert (status, body) == (get_status, b"") and headers["Content-Length"] == str(len(page))
    assert headers["Content-Security-Policy"] == get_headers["Content-Security-Policy"]
    status, headers, body = call(served.url, "HEAD", "/documents?namespace=demo", headers={"Authorization": "x"})
    assert status == 401 and body == b"" and headers["Content-Type"] == "application/json"
    auth = {"Authorization": f"Bearer {DEMO}"}
    status, headers, body = call(served.url, "HEAD", "/documents?namespace=demo", headers=auth)
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 0


def test_options_lists_the_methods_and_sends_no_cors_by_default(served: Served) -> None:
    status, headers, body = call(served.url, "OPTIONS", "/search", headers={"Origin": ORIGIN})
    assert status == 204 and body == b"" and headers["Allow"] == "POST, OPTIONS"
    assert not any(name.lower().startswith("access-control-") for name in headers)
    status, headers, body = call(served.url, "POST", "/search", b"{}", {"Origin": ORIGIN})
    assert status == 401 and "Access-Control-Allow-Origin" not in headers


@pytest.fixture
def cors_server(served: Served) -> Iterator[SearchApiServer]:
    with serving(served.backend, ServeConfig(jwt_secret=SECRET, quiet=True, cors_origin=ORIGIN)) as server:
        yield server


def test_cors_answers_only_the_configured_origin(cors_server: SearchApiServer) -> None:
    preflight = {"Origin": ORIGIN, "Access-Control-Request-Method": "POST"}
    status, headers, _ = call(cors_server.url, "OPTIONS", "/search", headers=preflight)
    assert status == 204 and headers["Access-Control-Allow-Origin"] == ORIGIN
    assert headers["Access-Control-Allow-Methods"] == "POST, OPTIONS"
    assert "Authorization" in headers["Access-Control-Allow-Headers"]
    body = json.dumps({"namespace": "demo", "query": "pump"}).encode()
    auth = {"Origin": ORIGIN, "Authorization": f"Bearer {DEMO}", "Content-Type": "application/json"}
    status, headers, _ = call(cors_server.url, "POST", "/search", body, auth)
    assert status == 200 and headers["Access-Control-Allow-Origin"] == ORIGIN and headers["Vary"] == "Origin"
    status, headers, _ = call(cors_server.url, "OPTIONS", "/search", headers={"Origin": "http://evil.example"})
    assert status == 204 and "Access-Control-Allow-Origin" not in headers


def test_a_lone_surrogate_is_a_400_not_a_500(served: Served) -> None:
    status, body = served.search(DEMO, namespace="demo", query="\ud800kiwi")  # json.dumps escapes it: "\ud800"
    assert status == 400 and "surrogate" in body["message"]
    status, body = served.request("GET", "/documents?namespace=%ED%A0%80", bearer=DEMO)
    assert status == 400


def test_tokens_need_exp_and_a_well_formed_namespaces_claim(served: Served) -> None:
    assert served.search(token("alice", ["demo"], exp=None), namespace="demo", query="pump")[0] == 401
    assert served.search(token("alice", "demo other"), namespace="demo", query="pump")[0] == 200
    for malformed in (["[demo", "x]"], "[demo", {"demo": True}, "demo,other"):
        status, body = served.search(token("alice", malformed), namespace="demo", query="pump")
        assert status == 401 and "'namespaces' claim is malformed" in body["message"], malformed
    assert served.search(token("alice", ["other"]), namespace="demo", query="pump")[0] == 403


def test_a_burst_of_64_connections_is_answered_in_full(served: Served) -> None:
    barrier = threading.Barrier(64)
    outcomes: list[Any] = [None] * 64

    def client(slot: int) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", int(urlsplit(served.url).port or 0)), timeout=60)
            barrier.wait(timeout=30)
            connection = connect(served.url)
            connection.sock = sock
            connection.request("GET", "/openapi.json")
            response = connection.getresponse()
            outcomes[slot] = (response.status, len(response.read()))
            connection.close()
        except Exception as error:  # recorded, so the assertion names every failure
            outcomes[slot] = repr(error)

    threads = [threading.Thread(target=client, args=(slot,)) for slot in range(64)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    assert all(isinstance(o, tuple) and o[0] == 200 and o[1] > 0 for o in outcomes), outcomes


def test_keep_alive_answers_many_searches_on_one_connection_with_nodelay(served: Served) -> None:
    connection = connect(served.url)
    headers = {"Authorization": f"Bearer {DEMO}", "Content-Type": "application/json"}
    try:
        for query in ("pump seal", "valve torque", "impeller wear", "pump seal"):
            connection.request(
                "POST", "/search", body=json.dumps({"namespace": "demo", "query": query}), headers=headers
            )
            response = connection.getresponse()
            assert response.status == 200 and json.loads(response.read())["results"]
        local_port = connection.sock.getsockname()[1]
        assert accepted_socket_nodelay(served, local_port) is True
    finally:
        connection.close()


def accepted_socket_nodelay(served: Served, client_port: int) -> bool:
    server = served.server
    assert server is not None
    for channel in list(server._server._map.values()):
        addr = getattr(channel, "addr", None)
        if isinstance(addr, tuple) and addr[1] == client_port:
            return bool(channel.socket.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
    raise AssertionError("the server has no channel for this connection")


def test_a_port_out_of_range_is_a_one_line_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--no-auth", "--port", "99999"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--port" in err


def test_the_jwt_secret_comes_from_the_environment_or_a_file_never_argv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DOCSHELF_JWT_SECRET", raising=False)
    assert main(["serve", "--jwt-secret", "x" * 40, "--port", "1"]) == 2
    assert "not taken on the command line" in capsys.readouterr().err
    assert main(["serve", "--port", "1"]) == 2
    assert "set DOCSHELF_JWT_SECRET or give --jwt-secret-file FILE" in capsys.readouterr().err
    short = tmp_path / "short"
    short.write_text("too-short\n")
    assert main(["serve", "--jwt-secret-file", str(short), "--port", "1"]) == 2
    assert "at least 32 characters" in capsys.readouterr().err


def test_a_secret_file_or_the_environment_is_what_tokens_are_verified_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docshelf.local.cli_options import jwt_secret

    secret_file = tmp_path / "secret"
    secret_file.write_text(SECRET + "\n")
    assert jwt_secret(secret_file) == SECRET
    monkeypatch.setenv("DOCSHELF_JWT_SECRET", "from-the-environment-" * 2)
    assert jwt_secret(None) == "from-the-environment-" * 2
