"""`--allow-host` (FETCH_ALLOWED_HOSTS on AWS): the named internal hosts pass the SSRF guard, exactly those, and
never to an instance metadata address; every other host stays public-only."""

from __future__ import annotations

import pytest

from docshelf.aws.settings import SettingsError, allowed_hosts
from docshelf.errors import FetchRefusedError
from docshelf.fetch import Fetcher
from docshelf.fetch.fetcher import FetchLimits
from tests.unit.fetch.recording import RecordingConnector, RecordingResolver

ANSWERS = {
    "wiki.corp.example": ["10.1.2.3"],
    "other.corp.example": ["10.1.2.4"],
    "meta.corp.example": ["169.254.169.254"],
    "mapped.corp.example": ["::ffff:169.254.169.254"],
}


def fetcher(*hosts: str) -> tuple[Fetcher, RecordingConnector]:
    connector = RecordingConnector()
    limits = FetchLimits(allowed_hosts=frozenset(hosts))
    return Fetcher(resolver=RecordingResolver(ANSWERS), connector=connector, limits=limits), connector


def test_an_internal_host_is_refused_unless_named() -> None:
    refusing, connector = fetcher()
    with pytest.raises(FetchRefusedError, match="private"):
        refusing.checked_target("http://wiki.corp.example/page")
    assert connector.attempts == []
    allowing, _ = fetcher("wiki.corp.example")
    assert allowing.checked_target("http://WIKI.corp.example./page").addresses == ("10.1.2.3",)


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://other.corp.example/", "private"),  # not named: public only
        ("http://10.1.2.3/", "private"),  # the allowed host's address, named otherwise
        ("http://meta.corp.example/latest/meta-data/", "metadata"),
        ("http://mapped.corp.example/", "metadata"),
    ],
)
def test_only_the_named_hosts_and_never_the_metadata_address(url: str, reason: str) -> None:
    allowing, connector = fetcher("wiki.corp.example", "meta.corp.example", "mapped.corp.example")
    with pytest.raises(FetchRefusedError, match=reason):
        allowing.checked_target(url)
    assert connector.attempts == []


def test_the_aws_setting_names_hosts_per_namespace() -> None:
    assert allowed_hosts("intranet=wiki.corp.example,Docs.Corp.example.;hr=hr.corp.example") == {
        "intranet": frozenset({"wiki.corp.example", "docs.corp.example"}),
        "hr": frozenset({"hr.corp.example"}),
    }
    assert allowed_hosts("") == {}
    for wrong in ("wiki.corp.example", "Bad NS=host", "intranet="):
        with pytest.raises(SettingsError, match="namespace=host"):
            allowed_hosts(wrong)


def test_a_namespace_s_queued_pages_are_fetched_with_its_allowed_hosts_only() -> None:
    from types import SimpleNamespace

    from docshelf.aws import web_fetch
    from docshelf.aws.settings import Settings

    settings = Settings.from_env(
        {"ARTIFACTS_BUCKET": "a", "REGISTRY_TABLE": "r", "FETCH_ALLOWED_HOSTS": "intranet=wiki.corp.example"}
    )
    services = SimpleNamespace(settings=settings)
    assert web_fetch._fetcher_for(services, "intranet").limits.allowed_hosts == {"wiki.corp.example"}  # type: ignore[arg-type]
    assert web_fetch._fetcher_for(services, "demo").limits.allowed_hosts == frozenset()  # type: ignore[arg-type]
