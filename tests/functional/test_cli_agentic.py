"""`docshelf search --agentic`: one query and the batch mode, with the budget from --max-tokens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docshelf.local.cli import main
from docshelf.registry.runs_local import LocalRunLog
from docshelf.tokens import count_tokens


@pytest.fixture
def store(tmp_path: Path) -> str:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "manual.md").write_text(
        "# Manual\n\n## Overview\n\nThe TX-100 valve is rated for 200 bar.\n\n"
        "## Maintenance\n\nReplace the stem seal every 6 months.\n",
        encoding="utf-8",
    )
    (folder / "notes.txt").write_text("Notes\n\nShipping takes five days.\n", encoding="utf-8")
    root = str(tmp_path / "store")
    assert main(["ingest", str(folder), "--store", root, "--quiet"]) == 0
    return root


def test_agentic_search_prints_the_steps_and_the_evidence(store: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    query = "how often is the stem seal replaced? how long does shipping take?"
    assert main(["search", query, "--agentic", "--store", store, "--max-tokens", "300"]) == 0
    out = capsys.readouterr().out
    assert "s1 search [" in out and "s2 search [" in out
    assert "every 6 months" in out and "five days" in out and "of 300 tokens" in out


def test_agentic_json_and_batch_lines_carry_the_evidence(
    store: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["search", "TX-100 rating vs shipping time", "--agentic", "--json", "--store", store]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["mode"] == "agentic" and len(body["plan"]["steps"]) == 2
    stored = LocalRunLog(Path(store) / "registry.sqlite").get_run(body["run_id"])
    assert stored is not None and stored[0].user == "local" and len(stored[1]) == 2

    queries = tmp_path / "q.jsonl"
    queries.write_text(
        '{"qid": "a", "query": "stem seal and how long does shipping take"}\n{"qid": "b", "query": "bar rating"}\n',
        encoding="utf-8",
    )
    args = ["search", "--queries", str(queries), "--agentic", "--json", "--store", store, "--max-tokens", "60"]
    assert main(args) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["qid"] for line in lines] == ["a", "b"]
    for line in lines:
        assert count_tokens(line["evidence_text"]) <= 60 and line["budget_tokens"] == 60
        assert set(line["results"][0]) >= {"doc", "chunk_id", "text", "step_id", "agent_score", "discovery_score"}
    assert "200 bar" in lines[1]["evidence_text"]


def test_planner_model_plans_through_bedrock(
    store: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import boto3
    from botocore.stub import ANY, Stubber

    from docshelf.agentic import bedrock_planner

    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="testing", aws_secret_access_key="testing"
    )
    steps = [{"id": "s1", "action": "search", "query": "stem seal replacement interval", "depends_on": []}]
    reply = {
        "output": {"message": {"role": "assistant", "content": [{"text": json.dumps({"steps": steps})}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 10, "outputTokens": 10, "totalTokens": 20},
        "metrics": {"latencyMs": 5},
    }
    made = bedrock_planner.bedrock_planner
    monkeypatch.setattr(bedrock_planner, "bedrock_planner", lambda model_id: made(model_id, client))
    capsys.readouterr()
    with Stubber(client) as stub:
        stub.add_response("converse", reply, {"modelId": "m1", "system": ANY, "messages": ANY, "inferenceConfig": ANY})
        argv = ["search", "when is the seal changed", "--agentic", "--planner-model", "m1", "--store", store, "--json"]
        assert main(argv) == 0
        stub.assert_no_pending_responses()
    body = json.loads(capsys.readouterr().out)
    assert body["plan"]["planner"] == "bedrock" and body["plan"]["steps"][0]["query"] == steps[0]["query"]
    assert "every 6 months" in body["evidence_text"]
