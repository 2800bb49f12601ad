"""POST /search in agentic mode and GET /runs/{id} over real HTTP: the contract, the cache, the namespace rules."""

from __future__ import annotations

import json

from docshelf.tokens import count_tokens
from tests.functional.api.helpers import Served, token

ALICE = token("alice", ["demo"])
MALLORY = token("mallory", ["demo"])
BOB = token("bob", ["secret"])
QUERY = "how often is the pump seal replaced and what torque do the TX-100 flange bolts take?"


def test_agentic_search_answers_each_part_within_its_budget(served: Served) -> None:
    status, body = served.search(ALICE, namespace="demo", query=QUERY, mode="agentic", budget_tokens=400)
    assert status == 200, body
    assert body["mode"] == "agentic" and body["answer_text"] == "" and body["budget_tokens"] == 400
    assert "2000 operating hours" in body["evidence_text"] and "45 Nm" in body["evidence_text"]
    assert body["tokens_used"] == count_tokens(body["evidence_text"]) <= 400
    assert body["plan"]["planner"] == "rules" and body["plan"]["fallback_reason"] is None
    assert [step["id"] for step in body["plan"]["steps"]] == ["s1", "s2"]
    assert {step["status"] for step in body["steps"]} <= {"done", "truncated", "skipped"}
    for result in body["results"]:
        assert result["namespace"] == "demo" and result["step_id"] in {"s1", "s2"}
        assert 0 <= result["agent_score"] <= 1 and result["discovery_score"] >= 0


def test_the_budget_defaults_to_max_tokens_and_a_tight_one_truncates(served: Served) -> None:
    status, body = served.search(ALICE, namespace="demo", query=QUERY, mode="agentic", max_tokens=60)
    assert status == 200, body
    assert body["budget_tokens"] == 60 and body["tokens_used"] <= 60 and body["truncated"] is True


def test_a_budget_below_one_citation_header_is_refused_with_the_minimum(served: Served) -> None:
    for mode in ("agentic", "classic"):
        # "[1]" alone is 3 tokens
        status, body = served.search(ALICE, namespace="demo", query=QUERY, mode=mode, max_tokens=4)
        assert status == 400 and "cannot hold one citation header and its text: give at least" in body["message"]
        minimum = int(body["message"].rsplit(" ", 1)[1])
        status, body = served.search(ALICE, namespace="demo", query=QUERY, mode=mode, max_tokens=minimum)
        assert status == 200 and 0 < body["evidence_tokens"] <= minimum and body["evidence_text"].startswith("[1] ")


def test_the_cache_key_holds_the_mode_and_the_budget(served: Served) -> None:
    assert served.search(ALICE, namespace="demo", query=QUERY)[1]["cache"] == "miss"
    first = served.search(ALICE, namespace="demo", query=QUERY, mode="agentic", budget_tokens=400)[1]
    again = served.search(ALICE, namespace="demo", query=QUERY, mode="agentic", budget_tokens=400)[1]
    other = served.search(ALICE, namespace="demo", query=QUERY, mode="agentic", budget_tokens=401)[1]
    assert (first["cache"], again["cache"], other["cache"]) == ("miss", "hit", "miss")
    assert again["run_id"] == first["run_id"] and "plan" not in served.search(ALICE, namespace="demo", query=QUERY)[1]


def test_a_run_is_readable_by_its_own_user_only(served: Served) -> None:
    body = served.search(ALICE, namespace="demo", query=QUERY, mode="agentic", budget_tokens=500)[1]
    status, run = served.request("GET", f"/runs/{body['run_id']}", bearer=ALICE)
    assert status == 200, run
    assert (run["user"], run["namespace"], run["query"], run["budget_tokens"]) == ("alice", "demo", QUERY, 500)
    assert run["tokens_used"] == body["tokens_used"] and run["plan"] == body["plan"]
    assert [step["step_id"] for step in run["steps"]] == ["s1", "s2"]
    assert served.request("GET", f"/runs/{body['run_id']}", bearer=MALLORY)[0] == 404
    assert served.request("GET", f"/runs/{body['run_id']}", bearer=BOB)[0] == 404
    assert served.request("GET", "/runs/" + "0" * 32, bearer=ALICE)[0] == 404
    assert served.request("GET", "/runs/not-a-run-id", bearer=ALICE)[0] == 400


def test_agentic_search_keeps_the_namespace_rules(served: Served) -> None:
    status, _ = served.search(BOB, namespace="demo", query=QUERY, mode="agentic")
    assert status == 403
    status, body = served.search(ALICE, namespace="demo", query="salary of the chief engineer", mode="agentic")
    assert status == 200 and "confidential" not in body["evidence_text"]
    assert all(result["namespace"] == "demo" for result in body["results"])


def test_bad_agentic_fields_are_refused(served: Served) -> None:
    assert served.search(ALICE, namespace="demo", query="pump", mode="clever")[0] == 400
    assert served.search(ALICE, namespace="demo", query="pump", mode="agentic", budget_tokens=0)[0] == 400
    assert served.search(ALICE, namespace="demo", query="pump", mode="agentic", budget_tokens=10**6)[0] == 400


def test_one_budget_serves_both_modes_and_agentic_results_honour_top_k(served: Served) -> None:
    status, body = served.search(ALICE, namespace="demo", query=QUERY, mode="agentic", max_tokens=100, top_k=2)
    assert status == 200, body
    assert body["budget_tokens"] == 100 and body["evidence_tokens"] <= 100 and len(body["results"]) <= 2
    status, refused = served.search(
        ALICE, namespace="demo", query=QUERY, mode="agentic", max_tokens=100, budget_tokens=4000
    )
    assert status == 400 and "max_tokens" in json.dumps(refused)
    for result in body["results"]:
        assert 0 <= result["confidence"] <= 1 and result["lexical_score"] >= 0
        assert result["evidence_ref"] is None or f"[{result['evidence_ref']}]" in body["evidence_text"]
