"""HTTPS through the pinned connection: TCP to the checked address, TLS (SNI and the certificate check) to the
host name. A local TLS server with a certificate for `pages.test` made here."""

from __future__ import annotations

import datetime
import ssl
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from docshelf.errors import FetchFailedError
from docshelf.fetch import Fetcher, FetchLimits
from tests.unit.fetch.recording import RecordingConnector, RecordingResolver

x509 = pytest.importorskip("cryptography.x509")

BODY = b"<html><body><p>Served over TLS.</p></body></html>"


@dataclass
class TlsSite:
    port: int
    certificate: Path
    server_names: list[str | None] = field(default_factory=list)


def self_signed(tmp_path: Path, name: str) -> tuple[Path, Path]:
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


@pytest.fixture
def tls_site(tmp_path: Path) -> Iterator[TlsSite]:
    cert, key = self_signed(tmp_path, "pages.test")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(BODY)))
            self.end_headers()
            self.wfile.write(BODY)

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    site = TlsSite(server.server_address[1], cert)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.sni_callback = lambda _socket, name, _context: site.server_names.append(name)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield site
    server.shutdown()
    server.server_close()


def fetcher(site: TlsSite, answers: dict[str, list[str]]) -> tuple[Fetcher, RecordingConnector]:
    connector = RecordingConnector(live=True)
    trust = ssl.create_default_context(cafile=str(site.certificate))
    limits = FetchLimits(allow_loopback_for_tests=True, timeout_seconds=10)
    return Fetcher(resolver=RecordingResolver(answers), connector=connector, limits=limits, tls=trust), connector


def test_tls_goes_to_the_pinned_address_with_the_host_name_for_sni_and_the_certificate(tls_site: TlsSite) -> None:
    fetch, connector = fetcher(tls_site, {"pages.test": ["127.0.0.1"]})
    page = fetch.fetch(f"https://pages.test:{tls_site.port}/")
    assert getattr(page, "body", b"") == BODY
    assert connector.attempts == [("127.0.0.1", tls_site.port)]
    assert tls_site.server_names == ["pages.test"]


def test_a_certificate_for_another_name_is_refused(tls_site: TlsSite) -> None:
    # other.test resolves to the same server, whose certificate names pages.test only.
    fetch, connector = fetcher(tls_site, {"other.test": ["127.0.0.1"]})
    with pytest.raises(FetchFailedError, match=r"CERTIFICATE_VERIFY_FAILED"):
        fetch.fetch(f"https://other.test:{tls_site.port}/")
    assert connector.attempts == [("127.0.0.1", tls_site.port)]
