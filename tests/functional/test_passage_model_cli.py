"""`docshelf search --passage-model local`: the local sentence model orders the evidence's passages where the
words cannot tell them apart."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from docshelf.local.cli import main
from tests.unit.embeddings.conftest import installed_model

REPORT = """# Equine virus report

The equine virus cases in the valley were mild for horses. Vaccines exist for animals only.
Farmers keep records of every outbreak. Most outbreaks end by autumn.

The equine virus cases killed one in three infected kids. Doctors tracked them for a year.
"""
QUESTION = "Which equine virus cases were fatal for children?"  # both sentences hold "equine virus cases"


@pytest.fixture
def store(tmp_path: Path) -> str:
    installed_model()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "virus.md").write_text(REPORT, encoding="utf-8")
    store = str(tmp_path / "store")
    assert main(["ingest", str(tmp_path / "docs"), "--store", store, "--namespace", "ns", "--quiet"]) == 0
    return store


def evidence(store: str, capsys: pytest.CaptureFixture[str], *options: str) -> str:
    capsys.readouterr()
    argv = ["search", QUESTION, "--store", store, "--namespace", "ns", "--max-tokens", "30", "--json", *options]
    assert main(argv) == 0
    text: str = json.loads(capsys.readouterr().out)["evidence_text"]
    return text


def test_the_local_passage_model_packs_the_sentence_that_answers(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    words_alone = evidence(store, capsys, "--passage-model", "none")
    assert words_alone.endswith("were mild for horses.")  # the first of two equal matches
    assert evidence(store, capsys, "--passage-model", "local").endswith("killed one in three infected kids.")
    assert evidence(store, capsys) == evidence(store, capsys, "--passage-model", "auto")
    assert evidence(store, capsys).endswith("killed one in three infected kids.")  # auto: the model is installed


def test_the_response_names_the_model_that_read_it(store: str, capsys: pytest.CaptureFixture[str]) -> None:
    def body(*options: str) -> dict[str, object]:
        capsys.readouterr()
        assert main(["search", QUESTION, "--store", store, "--namespace", "ns", "--json", *options]) == 0
        answer: dict[str, object] = json.loads(capsys.readouterr().out)
        return answer

    assert body()["passage_model"] == "local-all-minilm-l6-v2-q-v1-384"
    assert body("--passage-model", "none")["passage_model"] is None
    capsys.readouterr()
    assert main(["search", "马病毒", "--store", store, "--namespace", "ns", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["passage_model"] is None  # the model does not read CJK queries
    assert body("--agentic")["passage_model"] == "local-all-minilm-l6-v2-q-v1-384"  # its steps' passages
    assert body("--agentic", "--passage-model", "none")["passage_model"] is None


def test_an_agentic_step_packs_the_sentence_that_answers(store: str, capsys: pytest.CaptureFixture[str]) -> None:
    words_alone = evidence(store, capsys, "--agentic", "--passage-model", "none")
    assert words_alone.endswith("were mild for horses.")
    assert evidence(store, capsys, "--agentic").endswith("killed one in three infected kids.")


def test_the_passage_model_is_read_from_the_environment(
    store: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCSHELF_PASSAGE_MODEL", "none")
    assert evidence(store, capsys).endswith("were mild for horses.")
    monkeypatch.setenv("DOCSHELF_PASSAGE_MODEL", "local")
    assert evidence(store, capsys).endswith("killed one in three infected kids.")


def test_auto_searches_by_the_words_alone_when_the_model_is_not_installed(
    store: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from docshelf.embeddings import catalog, local
    from docshelf.embeddings.base import EmbeddingError
    from docshelf.embeddings.factory import passage_model_from_config

    for module in (catalog, local):
        monkeypatch.setattr(module, "find_model_dir", lambda name: None)
    assert passage_model_from_config("auto") is None
    assert evidence(store, capsys).endswith("were mild for horses.")
    with pytest.raises(EmbeddingError, match="not installed"):
        passage_model_from_config("local")


def test_the_served_api_and_the_store_share_one_loaded_model(store: str) -> None:
    from docshelf.embeddings.sentence_scores import EmbeddingSimilarity
    from docshelf.local.api_services import LocalApiServices
    from docshelf.local.services import LocalServices

    assert LocalServices.open(store).passage_model() is None
    services = LocalServices.open(store, embedding_provider="local", passage_model="local")
    model = services.passage_model()
    assert isinstance(model, EmbeddingSimilarity) and model.embedder is services.embedding_provider()
    assert LocalApiServices(services).passage_model is model


@pytest.mark.parametrize("command", [["search", "q"], ["serve", "--no-auth"], ["mcp", "--namespace", "ns"]])
def test_every_command_that_searches_takes_the_passage_model(
    command: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from docshelf.local.cli import build_parser

    monkeypatch.delenv("DOCSHELF_PASSAGE_MODEL", raising=False)
    assert build_parser().parse_args([*command, "--passage-model", "local"]).passage_model == "local"
    assert build_parser().parse_args(command).passage_model == "auto"


def test_a_cached_answer_is_kept_apart_per_passage_model(store: str) -> None:
    from docshelf.api.auth import Caller
    from docshelf.api.service import run_search
    from docshelf.local.api_services import LocalApiServices
    from docshelf.local.services import LocalServices
    from docshelf.search.request import SearchRequest

    caller = Caller("alice", frozenset({"ns"}))
    request = SearchRequest("ns", QUESTION, max_tokens=30)
    words_only = LocalApiServices(LocalServices.open(store, passage_model="none"))
    with_model = LocalApiServices(LocalServices.open(store, passage_model="local"))  # the same cache file
    first, hit = run_search(words_only, caller, request)
    assert not hit and first["evidence_text"].endswith("were mild for horses.")
    answer, hit = run_search(with_model, caller, request)
    assert not hit and answer["evidence_text"].endswith("killed one in three infected kids.")
    assert run_search(with_model, caller, request)[1] and run_search(words_only, caller, request)[1]


def test_a_cached_agentic_answer_is_kept_apart_per_passage_model(store: str) -> None:
    from docshelf.api.auth import Caller
    from docshelf.api.service_agentic import run_agentic_search
    from docshelf.local.api_services import LocalApiServices
    from docshelf.local.services import LocalServices
    from docshelf.search.request import SearchRequest

    caller = Caller("alice", frozenset({"ns"}))
    request = SearchRequest("ns", QUESTION, max_tokens=30)
    words_only = LocalApiServices(LocalServices.open(store, passage_model="none"))
    with_model = LocalApiServices(LocalServices.open(store, passage_model="local"))
    first, hit = run_agentic_search(words_only, caller, request)
    assert not hit and first["evidence_text"].endswith("were mild for horses.")
    answer, hit = run_agentic_search(with_model, caller, request)
    assert not hit and answer["evidence_text"].endswith("killed one in three infected kids.")
    assert answer["passage_model"] == "local-all-minilm-l6-v2-q-v1-384" and first["passage_model"] is None
    assert run_agentic_search(with_model, caller, request)[1] and run_agentic_search(words_only, caller, request)[1]


@pytest.mark.parametrize("command", [["serve", "--no-auth", "--port", "0"], ["mcp", "--namespace", "ns"]])
def test_a_server_loads_the_model_before_it_answers(
    command: list[str], store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docshelf.local import server
    from docshelf.mcp import server as mcp_server

    found: list[tuple[bool, object]] = []  # what the first request would find loaded

    class Listening:
        def run(self, transport: str) -> None:
            pass

    def loaded(services: Any) -> tuple[bool, object]:
        return services.models_loaded, services.passage_model()  # in this order: asking loads what is not

    def serve_http(backend: Any, *args: object, **kwargs: object) -> None:
        found.append(loaded(backend.services))

    def serve_mcp(backend: Callable[[], Any], *args: object, **kwargs: object) -> Listening:
        found.append(loaded(backend().services))
        return Listening()

    monkeypatch.setattr(server, "run_server", serve_http)
    monkeypatch.setattr(mcp_server, "build_mcp_server", serve_mcp)
    assert main([*command, "--store", store]) == 0
    assert len(found) == 1 and found[0][0] and found[0][1] is not None


def test_the_model_votes_in_a_plan_of_one_search_only(store: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from docshelf.agentic import steps
    from docshelf.agentic.navigate import StoreNavSource
    from docshelf.agentic.service import AgenticRun, agentic_search
    from docshelf.local.services import LocalServices

    services = LocalServices.open(store, passage_model="local")
    model = services.passage_model()
    from docshelf.search.service import rank

    voted: list[object] = []

    def recording(*args: Any, **kwargs: Any) -> Any:
        voted.append(kwargs.get("passage_model"))
        return rank(*args, **kwargs)

    monkeypatch.setattr("docshelf.search.service.rank", recording)
    index = services.index.reader("ns", services.registry.namespace_version("ns"))
    ctx = steps.StepContext(index, "ns", 8, nav_source=StoreNavSource(services.store), passage_model=model)
    agentic_search(ctx, AgenticRun(QUESTION, 200))
    assert voted == [model]  # one step: it searches as classic search does, the model voting
    voted.clear()
    agentic_search(ctx, AgenticRun("Which equine virus cases were mild? Who keeps records of outbreaks?", 200))
    assert voted == [None, None]  # the steps of a composite: no vote


def test_a_search_step_ranks_without_packing_evidence(store: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The executor packs every step's share: evidence packed by a step's search was computed and dropped.
    from docshelf.agentic import steps
    from docshelf.agentic.navigate import StoreNavSource
    from docshelf.agentic.service import AgenticRun, agentic_search
    from docshelf.local.services import LocalServices

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a search step packed evidence")

    monkeypatch.setattr("docshelf.search.service.pack_evidence", refuse)
    services = LocalServices.open(store, passage_model="local")
    index = services.index.reader("ns", services.registry.namespace_version("ns"))
    ctx = steps.StepContext(
        index, "ns", 8, nav_source=StoreNavSource(services.store), passage_model=services.passage_model()
    )
    for query in (QUESTION, "Which equine virus cases were mild? Who keeps records of outbreaks?"):
        assert "[1]" in agentic_search(ctx, AgenticRun(query, 200))["evidence_text"]


def test_identical_agentic_requests_with_the_model_give_one_evidence_text(store: str) -> None:
    # The steps gather on threads and the model's calls run on threads of their own: the claims stay in plan order.
    from docshelf.agentic.navigate import StoreNavSource
    from docshelf.agentic.service import AgenticRun, agentic_search
    from docshelf.agentic.steps import StepContext
    from docshelf.embeddings.sentence_scores import EmbeddingSimilarity
    from docshelf.local.services import LocalServices

    services = LocalServices.open(store, passage_model="local")
    index = services.index.reader("ns", services.registry.namespace_version("ns"))
    model = services.passage_model()
    assert isinstance(model, EmbeddingSimilarity)
    query = "Which equine virus cases were fatal for children? Who keeps records? When do outbreaks end?"
    texts = set()
    for _ in range(20):
        fresh = EmbeddingSimilarity(model.embedder)  # nothing kept: every request embeds its sentences again
        ctx = StepContext(index, "ns", 8, nav_source=StoreNavSource(services.store), passage_model=fresh)
        texts.add(agentic_search(ctx, AgenticRun(query, 60))["evidence_text"])
    assert len(texts) == 1


@pytest.mark.parametrize("command", [["serve", "--no-auth", "--port", "0"], ["mcp", "--namespace", "ns"]])
def test_a_server_whose_model_is_not_installed_stops_before_it_answers(
    command: list[str], store: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from docshelf.embeddings import catalog, local
    from docshelf.local import server
    from docshelf.mcp import server as mcp_server

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server was started")

    for module in (catalog, local):
        monkeypatch.setattr(module, "find_model_dir", lambda name: None)
    monkeypatch.setattr(server, "run_server", never)
    monkeypatch.setattr(mcp_server, "build_mcp_server", never)
    assert main([*command, "--store", store, "--passage-model", "local"]) == 2
    assert "make setup" in capsys.readouterr().err
