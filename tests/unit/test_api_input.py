"""Input the resolver (so the SearchFunction too) and the token checks refuse: non-Unicode text, tokens without
`exp`, namespaces claims in any form but a list of strings, a space-separated string or API Gateway's `[a b]`."""

from __future__ import annotations

import json
import time
from typing import Any

import jwt
import pytest

from docshelf.api.auth import ClaimNames, caller_from_claims, namespaces_from_claim
from docshelf.api.errors import UnauthorizedError
from docshelf.api.resolver import build_resolver, handle
from docshelf.api.service import ApiServices
from docshelf.local.bearer import verify_hs256
from docshelf.search.cache import cache_key
from docshelf.search.request import SearchRequest

SECRET = "unit-secret-that-is-long-enough-for-hs256"


class NoBackend:
    """Every request here must be refused before the backend is asked for anything."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the backend was reached ({name})")


def event(body: str | None, *, query: dict[str, str] | None = None, path: str = "/search") -> dict[str, Any]:
    return {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": "",
        "headers": {"content-type": "application/json"},
        "queryStringParameters": query,
        "requestContext": {
            "authorizer": {"jwt": {"claims": {"sub": "alice", "namespaces": "[demo]"}, "scopes": None}},
            "http": {"method": "POST" if body else "GET", "path": path, "protocol": "HTTP/1.1", "sourceIp": "1.2.3.4"},
            "requestId": "unit",
            "routeKey": "$default",
            "stage": "$default",
        },
        "body": body,
        "isBase64Encoded": False,
    }


def resolve(request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    backend: ApiServices = NoBackend()
    app = build_resolver(lambda: backend, ClaimNames)
    result = handle(app, request, None)
    return int(result["statusCode"]), json.loads(result["body"])


@pytest.mark.parametrize(
    "body",
    [
        '{"namespace": "demo", "query": "\\ud800kiwi"}',
        '{"namespace": "demo", "query": "kiwi\\udfff"}',
        '{"namespace": "demo", "query": "kiwi", "filters": {"documents": ["\\udc80"]}}',
        '{"namespace": "demo", "query": "kiwi", "\\ud800": 1}',
    ],
)
def test_a_lone_surrogate_anywhere_in_the_body_is_a_400(body: str) -> None:
    status, answer = resolve(event(body))
    assert status == 400, answer
    assert "surrogate" in answer["message"] and "Traceback" not in answer["message"]


def test_a_lone_surrogate_in_a_query_parameter_is_a_400() -> None:
    status, answer = resolve(event(None, query={"namespace": "demo\ud800"}, path="/documents"))
    assert status == 400 and "Unicode" in answer["message"]


def test_a_surrogate_pair_escape_is_ordinary_text() -> None:
    problems = resolve(event('{"namespace": "demo", "query": "\\ud83e\\udd5d", "top_k": 0}'))
    assert problems[0] == 400 and "top_k" in problems[1]["message"]  # refused for top_k, not for the emoji


def test_the_cache_key_hashes_any_text() -> None:
    request = SearchRequest(namespace="demo", query="\ud800kiwi")
    assert cache_key("alice", request) != cache_key("alice", SearchRequest(namespace="demo", query="kiwi"))


def bearer(claims: dict[str, Any]) -> str:
    return "Bearer " + jwt.encode(claims, SECRET, algorithm="HS256")


def test_a_token_without_exp_is_refused() -> None:
    with pytest.raises(UnauthorizedError, match="exp"):
        verify_hs256(bearer({"sub": "alice", "namespaces": ["demo"]}), SECRET)


def test_the_leeway_allows_for_clock_skew_and_no_more() -> None:
    recently_expired = bearer({"sub": "alice", "exp": int(time.time()) - 10})
    assert verify_hs256(recently_expired, SECRET, leeway_s=30)["sub"] == "alice"
    with pytest.raises(UnauthorizedError, match="expired"):
        verify_hs256(recently_expired, SECRET, leeway_s=0)
    not_yet = bearer({"sub": "alice", "exp": int(time.time()) + 60, "nbf": int(time.time()) + 10})
    assert verify_hs256(not_yet, SECRET, leeway_s=30)["sub"] == "alice"
    with pytest.raises(UnauthorizedError):
        verify_hs256(not_yet, SECRET, leeway_s=0)


@pytest.mark.parametrize(
    ("claim", "granted"),
    [
        (["alpha", "beta"], {"alpha", "beta"}),
        ("alpha beta", {"alpha", "beta"}),
        ("  alpha\tbeta ", {"alpha", "beta"}),
        ("[alpha beta]", {"alpha", "beta"}),  # API Gateway's flattening of a list claim
        ("[*]", {"*"}),
        (None, set()),  # no claim grants nothing
    ],
)
def test_namespaces_claim_forms(claim: Any, granted: set[str]) -> None:
    assert namespaces_from_claim(claim) == granted


@pytest.mark.parametrize(
    "claim",
    [
        ["[alpha", "x]"],  # names no namespace
        "[[alpha x]]",  # that list, flattened
        "[alpha",
        "alpha]",
        "corpus,team-b",  # a comma is no separator: a 401 says so rather than granting nothing
        ["alpha", 1],
        ["alpha", None],
        [["alpha"]],
        {"alpha": True},
        7,
        ["alpha\ud800"],
    ],
)
def test_a_malformed_namespaces_claim_is_refused_naming_the_claim(claim: Any) -> None:
    with pytest.raises(UnauthorizedError, match="'groups' claim is malformed"):
        namespaces_from_claim(claim, "groups")


def test_a_token_with_a_malformed_namespaces_claim_is_a_401_that_names_the_claim() -> None:
    with pytest.raises(UnauthorizedError, match="'namespaces' claim is malformed"):
        caller_from_claims({"sub": "alice", "namespaces": "corpus,team-b"}, ClaimNames())


def test_a_user_claim_that_is_not_unicode_is_refused() -> None:
    with pytest.raises(UnauthorizedError, match="Unicode"):
        caller_from_claims({"sub": "al\ud800ice", "namespaces": "demo"}, ClaimNames())


class NamespacesBackend:
    """A backend whose registry knows these namespaces (GET /namespaces asks nothing else)."""

    def __init__(self, *namespaces: str) -> None:
        self.registry = self
        self._namespaces = list(namespaces)

    def namespaces(self) -> list[str]:
        return self._namespaces


def test_each_resolver_answers_from_its_own_routers() -> None:
    """Route modules are Powertools routers, one per resolver: a resolver built later does not take over the
    routes (the request, the backend) of one built before."""
    first: Any = NamespacesBackend("demo", "first")
    second: Any = NamespacesBackend("demo", "second")
    apps = [build_resolver(lambda: first, ClaimNames), build_resolver(lambda: second, ClaimNames)]
    claims = {"sub": "alice", "namespaces": "[demo first second]"}
    answers = []
    for app in (*apps, apps[0]):
        request = event(None, path="/namespaces")
        request["requestContext"]["authorizer"]["jwt"]["claims"] = claims
        result = handle(app, request, None)
        answers.append((result["statusCode"], json.loads(result["body"])["namespaces"]))
    assert answers == [(200, ["demo", "first"]), (200, ["demo", "second"]), (200, ["demo", "first"])]
