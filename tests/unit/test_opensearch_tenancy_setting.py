"""The tenancy setting: its checks, the stable namespace -> shared index hash, and the Lambda environment."""

from __future__ import annotations

from collections import Counter

import pytest

from docshelf.aws.settings import OPENSEARCH_TENANCIES, Settings, SettingsError
from docshelf.errors import InvalidConfigError
from docshelf.index.opensearch.tenancy import (
    TENANCY_MODES,
    Tenancy,
    is_shared_index,
    shared_alias,
    shared_index_name,
    shared_slot,
)

ENV = {"ARTIFACTS_BUCKET": "a", "REGISTRY_TABLE": "r"}


def test_a_namespace_hashes_to_the_same_shared_index_everywhere() -> None:
    # sha256, not hash(): these are fixed across processes, hosts and Python versions.
    assert [shared_slot(ns, 4) for ns in ("acme", "team-7", "u_1")] == [
        shared_slot("acme", 4),
        shared_slot("team-7", 4),
        shared_slot("u_1", 4),
    ]
    assert shared_slot("acme", 1) == 0
    spread = Counter(shared_slot(f"ns-{i}", 8) for i in range(2000))
    assert set(spread) == set(range(8)) and max(spread.values()) < 2 * min(spread.values())


def test_shared_index_names_cannot_be_a_namespaces_alias() -> None:
    name = shared_index_name("docshelf-chunks", 3)
    assert name == "docshelf-chunks._shared-03" and is_shared_index("docshelf-chunks", name)
    assert not is_shared_index("docshelf-chunks", "docshelf-chunks.shared-03.v1")  # namespace "shared-03"
    assert shared_alias("ns") == {"filter": {"term": {"namespace": "ns"}}, "routing": "ns", "is_write_index": True}


@pytest.mark.parametrize(
    "kwargs",
    [{"mode": "pooled"}, {"mode": "shared", "shared_indices": 0}, {"shared_indices": 101}, {"large_chunks": -1}],
)
def test_a_bad_tenancy_is_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidConfigError):
        Tenancy(**kwargs)  # type: ignore[arg-type]


def test_only_the_shared_tenancy_has_large_namespaces() -> None:
    assert Tenancy("shared", large_chunks=10).is_large(11) and not Tenancy("shared", large_chunks=10).is_large(10)
    assert not Tenancy("shared", large_chunks=0).is_large(10**9)
    assert not Tenancy("index-per-namespace", large_chunks=10).is_large(11)


def test_the_lambda_settings_read_the_tenancy() -> None:
    assert OPENSEARCH_TENANCIES == TENANCY_MODES
    default = Settings.from_env(ENV)
    assert (default.opensearch_tenancy, default.opensearch_shared_indices) == ("index-per-namespace", 4)
    env = {**ENV, "OPENSEARCH_TENANCY": "shared", "OPENSEARCH_SHARED_INDICES": "8",
           "OPENSEARCH_LARGE_NAMESPACE_CHUNKS": "500"}  # fmt: skip
    settings = Settings.from_env(env)
    assert (settings.opensearch_tenancy, settings.opensearch_shared_indices) == ("shared", 8)
    assert settings.opensearch_large_namespace_chunks == 500
    with pytest.raises(SettingsError, match="OPENSEARCH_TENANCY"):
        Settings.from_env({**ENV, "OPENSEARCH_TENANCY": "pooled"})
