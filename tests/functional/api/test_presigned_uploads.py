"""`docshelf serve` hands out uploads as S3 does: an absolute presigned URL for one content type and size, valid
15 minutes, that needs no token and refuses any other request."""

from __future__ import annotations

import http.client
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from docshelf.local.upload_signing import SignedUpload, UploadSigner
from tests.functional.api.helpers import Served, token

NOTE = b"# Chiller\n\nThe chiller condenser coil is brushed monthly.\n"
DEMO = token("ana", ["demo"])


def ask(served: Served, filename: str = "notes/chiller.md", size: int = len(NOTE)) -> dict[str, object]:
    body = {"namespace": "demo", "filename": filename, "content_type": "text/markdown", "size": size}
    status, answer = served.request("POST", "/documents", body=body, bearer=DEMO)
    assert status == 201, answer
    return answer


def put(url: str, data: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    try:
        connection.request("PUT", f"{parts.path}?{parts.query}", body=data, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_the_upload_url_is_absolute_presigned_and_needs_no_token(served: Served) -> None:
    answer = ask(served)
    upload = answer["upload"]
    assert isinstance(upload, dict) and answer["expires_in"] == 900
    assert upload["url"].startswith(f"{served.url}/uploads?") and upload["headers"] == {"Content-Type": "text/markdown"}
    status, body = put(upload["url"], NOTE, upload["headers"])
    assert status == 201, body
    assert b'"chunk_count": 1' in body and b'"source_key": "notes/chiller.md"' in body and b'"chunks"' not in body


def test_another_type_size_name_or_an_expired_url_is_refused_like_s3(served: Served) -> None:
    upload = ask(served)["upload"]
    assert isinstance(upload, dict)
    assert put(upload["url"], NOTE, {"Content-Type": "text/plain"})[0] == 403
    assert put(upload["url"], NOTE + b"more", upload["headers"])[0] == 403
    params = {name: values[0] for name, values in parse_qs(urlsplit(upload["url"]).query).items()}
    moved = {**params, "filename": "notes/other.md"}
    assert put(f"{served.url}/uploads?{urlencode(moved)}", NOTE, upload["headers"])[0] == 403
    elsewhere = {**params, "namespace": "secret"}
    assert put(f"{served.url}/uploads?{urlencode(elsewhere)}", NOTE, upload["headers"])[0] == 403
    unsigned = {k: v for k, v in params.items() if k != "signature"}
    assert put(f"{served.url}/uploads?{urlencode(unsigned)}", NOTE, upload["headers"])[0] == 401  # then a token


def test_a_signature_expires() -> None:
    now = [1_000_000.0]
    signer = UploadSigner(key=b"k" * 32, clock=lambda: now[0])
    query = signer.query(SignedUpload("demo", "a.md", "text/markdown", 3))
    params = {name: values[0] for name, values in parse_qs(query).items()}
    assert signer.verify(params, "text/markdown; charset=utf-8", 3).filename == "a.md"
    now[0] += 901
    try:
        signer.verify(params, "text/markdown", 3)
    except Exception as error:
        assert "expired" in str(error)
    else:
        raise AssertionError("an expired URL was accepted")


def test_a_signature_of_any_text_is_refused_not_a_server_error() -> None:
    from docshelf.api.errors import ForbiddenError
    from docshelf.local.link_signing import LinkSigner

    signer = LinkSigner()
    link = signer.signed("/documents/d1/source", {"namespace": "demo"})
    params = dict(pair.split("=") for pair in link.split("?")[1].split("&"))
    signer.verify("/documents/d1/source", params)
    with pytest.raises(ForbiddenError):
        signer.verify("/documents/d1/source", {**params, "signature": "é" + params["signature"][1:]})
