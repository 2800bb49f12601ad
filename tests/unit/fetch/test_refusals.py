"""Hostile URLs and DNS answers: each refused with a clear reason before any connection is attempted."""

from __future__ import annotations

import ipaddress

import pytest

from docshelf.errors import FetchRefusedError
from docshelf.fetch import Fetcher, address_refusal
from tests.unit.fetch.recording import RecordingConnector, RecordingResolver

PUBLIC = "93.184.216.34"

# (url, DNS answers for its host, words the refusal must contain)
HOSTILE = [
    ("file:///etc/passwd", {}, "only http and https"),
    ("ftp://files.example.com/a.pdf", {}, "only http and https"),
    ("gopher://example.com:70/", {}, "only http and https"),
    ("http://user:secret@example.com/", {"example.com": [PUBLIC]}, "credentials"),
    ("http://example.com:80@127.0.0.1/", {}, "credentials"),
    ("http://127.0.0.1/", {}, "loopback"),
    ("http://127.1/", {}, "loopback"),
    ("http://2130706433/", {}, "loopback"),
    ("http://0x7f.0.0.1/", {}, "loopback"),
    ("http://017700000001/", {}, "loopback"),
    ("http://[::1]:8080/", {}, "loopback"),
    ("http://0.0.0.0/", {}, "unspecified"),
    ("http://[::]/", {}, "unspecified"),
    ("http://10.0.0.8/", {}, "private"),
    ("http://192.168.1.1/admin", {}, "private"),
    ("http://172.16.5.4/", {}, "private"),
    ("http://100.64.0.1/", {}, "not a globally routable"),
    ("http://169.254.169.254/latest/meta-data/", {}, "metadata"),
    ("http://[fd00:ec2::254]/latest/meta-data/", {}, "metadata"),
    ("http://[fe80::1%25eth0]/", {}, "link-local"),
    ("http://224.0.0.251/", {}, "multicast"),
    ("http://[ff02::1]/", {}, "multicast"),
    ("http://240.0.0.1/", {}, "address"),
    ("http://[::ffff:127.0.0.1]/", {}, "IPv4-mapped form of 127.0.0.1, a loopback"),
    ("http://[::ffff:a9fe:a9fe]/", {}, "IPv4-mapped form of 169.254.169.254"),
    ("http://[::10.0.0.1]/", {}, "IPv4-compatible form of 10.0.0.1"),
    ("http://[2002:a9fe:a9fe::1]/", {}, "6to4 form of 169.254.169.254"),
    ("http://[64:ff9b::7f00:1]/", {}, "NAT64 form of 127.0.0.1"),
    ("http://[fc00::1]/", {}, "private"),
    ("http://localhost/", {"localhost": ["127.0.0.1", "::1"]}, "loopback"),
    ("http://internal.example/", {"internal.example": ["10.1.2.3"]}, "private"),
    ("http://metadata.example/", {"metadata.example": ["169.254.169.254"]}, "metadata"),
    ("http://mixed.example/", {"mixed.example": [PUBLIC, "127.0.0.1"]}, "loopback"),
    ("http://mapped.example/", {"mapped.example": ["::ffff:192.168.0.1"]}, "IPv4-mapped form of 192.168.0.1"),
    ("https://nat64.example/", {"nat64.example": ["64:ff9b::a9fe:a9fe"]}, "NAT64 form of 169.254.169.254"),
    ("http://nothing.example/", {"nothing.example": []}, "resolved to no address"),
    ("http://junk.example/", {"junk.example": ["not-an-ip"]}, "not an IP address"),
    ("http://exa mple.com/", {}, "spaces"),
    ("http:///path-only", {}, "no host"),
]


@pytest.mark.parametrize(("url", "answers", "reason"), HOSTILE, ids=[case[0] for case in HOSTILE])
def test_hostile_url_is_refused_before_any_connection(url: str, answers: dict[str, list[str]], reason: str) -> None:
    resolver, connector = RecordingResolver(answers), RecordingConnector()
    with pytest.raises(FetchRefusedError) as refused:
        Fetcher(resolver=resolver, connector=connector).fetch(url)
    assert reason in refused.value.message, refused.value.message
    assert connector.attempts == []
    assert refused.value.code == "fetch_refused"


def test_an_ip_literal_is_never_sent_to_dns() -> None:
    resolver = RecordingResolver()
    with pytest.raises(FetchRefusedError):
        Fetcher(resolver=resolver, connector=RecordingConnector()).fetch("http://169.254.169.254/")
    assert resolver.asked == []


def test_a_public_answer_is_connected_to_exactly_as_checked() -> None:
    resolver, connector = RecordingResolver({"example.com": [PUBLIC]}), RecordingConnector()
    with pytest.raises(Exception, match="connects nowhere"):
        Fetcher(resolver=resolver, connector=connector).fetch("http://example.com/page")
    assert resolver.asked == [("example.com", 80)]
    assert connector.attempts == [(PUBLIC, 80)]


@pytest.mark.parametrize("address", ["8.8.8.8", "2001:4860:4860::8888", "2002:808:808::1", PUBLIC])
def test_public_unicast_addresses_are_allowed(address: str) -> None:
    assert address_refusal(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize("address", ["::ffff:8.8.8.8", "64:ff9b::808:808", "::8.8.8.8"])
def test_ipv6_forms_carrying_ipv4_are_refused_even_for_a_public_ipv4(address: str) -> None:
    # The IPv6 form itself is not a global unicast address: no reason to follow it.
    assert address_refusal(ipaddress.ip_address(address)) is not None


def test_every_checked_address_is_tried_in_the_resolvers_order_and_no_other() -> None:
    answers = {"dual.example": ["2606:4700:4700::1111", PUBLIC]}
    resolver, connector = RecordingResolver(answers), RecordingConnector()
    with pytest.raises(Exception, match="connects nowhere"):
        Fetcher(resolver=resolver, connector=connector).fetch("https://dual.example/")
    assert connector.attempts == [("2606:4700:4700::1111", 443), (PUBLIC, 443)]
    assert resolver.asked == [("dual.example", 443)]
