"""`docshelf resync --aws` on moto, end to end (issue #35, item 5): documents ingested through the functions, the
stack's embedding provider or engine changed, the namespace published again from the artifacts bucket and the
registry; a run that stops midway is finished by the next; a second run writes nothing."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pytest

from docshelf.aws.resync import function_settings
from docshelf.aws.services import AwsServices
from docshelf.embeddings.base import EmbeddingModel
from docshelf.errors import DocshelfError
from docshelf.index.base import DocumentChunks, SearchBackend
from docshelf.index.embedded import EmbeddedIndex
from docshelf.index.vector_model import VectorModel
from docshelf.keys import chunk_cache_key
from docshelf.local.cli import main
from tests.embedding_fakes import ConceptEmbedder
from tests.functional.aws.conftest import OPENSEARCH_URL
from tests.functional.aws.harness import QUEUES, Pipeline
from tests.functional.aws.template_resources import TemplateStack

if TYPE_CHECKING:
    import numpy as np

DOCUMENTS = {
    "demo/garage.md": b"# Garage notes\n\nThe car needs new brake pads before winter. Tyres were rotated in May.\n",
    "demo/clinic.md": b"# Clinic notes\n\nThe doctor examines each patient on arrival and records blood pressure.\n",
    "demo/kitchen.md": b"# Kitchen notes\n\nBake the bread at 220 degrees for forty minutes, then let it cool.\n",
    "demo/pump.md": b"# Pump guide\n\nInspect the impeller of the TX-100 pump every 500 operating hours.\n",
    "demo/valves.md": b"# Valve handbook\n\nGate valves are sized by the nominal pipe diameter of the loop.\n",
}


class Embedder(ConceptEmbedder):
    """The stack's new embedding model (a fake of the `local` one): counts passages; with `calls_before_crash`,
    stops the process on the next call, as an operator's Ctrl-C or a lost connection would."""

    def __init__(self, calls_before_crash: int | None = None) -> None:
        super().__init__()
        self.calls_before_crash = calls_before_crash
        self.calls = 0
        self.passages = 0

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if self.calls == self.calls_before_crash:
            raise KeyboardInterrupt
        self.calls += 1
        self.passages += len(texts)
        return super().embed_passages(texts)


class SlowBedrock(Embedder):
    """A Bedrock model answering in 50 ms a request; remembers the threads that called it."""

    def __init__(self) -> None:
        super().__init__()
        self.model = EmbeddingModel("bedrock", "titan-fake", "1", 256, normalized=True)
        self.threads: set[int] = set()
        self._lock = threading.Lock()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        time.sleep(0.05)
        with self._lock:
            self.threads.add(threading.get_ident())
            return super().embed_passages(texts)


def ingested(stack: TemplateStack) -> Pipeline:
    """The stack as deployed first: no embeddings, the embedded index; every document published."""
    pipeline = Pipeline(stack)
    for key, data in DOCUMENTS.items():
        pipeline.upload(key, data)
    pipeline.drain()
    assert {r.status for r in pipeline.registry().list("demo")} == {"ok"}
    return pipeline


def redeployed(stack: TemplateStack, monkeypatch: pytest.MonkeyPatch, environment: dict[str, str]) -> Pipeline:
    """The stack after `sam deploy` changed a parameter: the functions', and the operator's, environment."""
    pipeline = Pipeline(stack, environment)
    for name, value in {**stack.function_environment("PublishFunction"), **environment}.items():
        monkeypatch.setenv(name, value)
    return pipeline


def use_embedder(monkeypatch: pytest.MonkeyPatch, embedder: Embedder) -> None:
    monkeypatch.setattr(AwsServices, "embedding_provider", lambda self: embedder)


def recording_writes(
    monkeypatch: pytest.MonkeyPatch, engine: type[SearchBackend], *, crash_after: int | None = None
) -> list[list[str]]:
    """The document ids of each `write` the engine class is given from now on; with `crash_after`, the write after
    that many raises (a lost connection, a killed process)."""
    written: list[list[str]] = []
    write = engine.write

    def recording(self: Any, namespace: str, documents: Sequence[DocumentChunks]) -> Mapping[str, str]:
        if len(written) == crash_after:
            raise Crash("connection reset")
        written.append([document.document_id for document in documents])
        return write(self, namespace, documents)

    monkeypatch.setattr(engine, "write", recording)
    return written


class Crash(Exception):
    pass


def current_index(pipeline: Pipeline) -> Any:
    """The index as a new process reads it (the functions' warm instances keep what they loaded)."""
    return AwsServices(pipeline.services["publish"].settings).index()


def records(pipeline: Pipeline) -> dict[str, Any]:
    return {r.source_key: r for r in pipeline.registry().list("demo")}


def retry_failed_publishes(pipeline: Pipeline) -> None:
    """What SQS does once a failed message's visibility timeout ends."""
    url = pipeline.stack.queue_urls[QUEUES["publish"]]
    for message in pipeline.stack.sqs.receive_message(QueueUrl=url, VisibilityTimeout=0, MaxNumberOfMessages=10).get(
        "Messages", []
    ):
        pipeline.stack.sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"],
                                                     VisibilityTimeout=0)  # fmt: skip
    pipeline.drain()


def make_visible(pipeline: Pipeline) -> None:
    url = pipeline.stack.queue_urls[QUEUES["publish"]]
    pipeline.stack.sqs.set_queue_attributes(QueueUrl=url, Attributes={"VisibilityTimeout": "0"})


def test_a_new_embedding_model_is_resynced_from_the_artifacts_and_a_second_run_writes_nothing(
    stack: TemplateStack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ingested(stack)
    embedder = Embedder()
    use_embedder(monkeypatch, embedder)
    pipeline = redeployed(stack, monkeypatch, {"EMBEDDING_PROVIDER": "local"})
    make_visible(pipeline)  # a refused publish comes back at once, as after its visibility timeout

    # The problem: the namespace holds chunks without vectors, so a new upload's publish is refused, again and again.
    pipeline.upload("demo/brakes.md", b"# Brakes\n\nBleed the brake lines of the vehicle every two years.\n")
    pipeline.run("parse")
    pipeline.run("chunk")
    for _ in range(2):
        assert len(pipeline.run("publish")["batchItemFailures"]) == 1
    assert records(pipeline)["brakes.md"].status == "processing"

    assert main(["resync", "--namespace", "demo", "--aws"]) == 0
    out = capsys.readouterr().out
    assert "the index holds vectors of another model (or none): all 5 published documents go in one write" in out
    assert "demo: 5 documents published again" in out
    assert current_index(pipeline).vector_model("demo") == VectorModel.of(embedder.model)
    assert all(
        r.published_with.endswith(";embeddings=local:") for k, r in records(pipeline).items() if k != "brakes.md"
    )

    pipeline.drain()  # the refused publish, retried, now joins the namespace
    assert records(pipeline)["brakes.md"].status == "ok"
    hit = pipeline.search("physician", top_k=1)["results"][0]  # no chunk holds the word: vectors find it
    assert hit["source_file_name"] == "clinic.md" and "semantic" in hit["channel_ranks"]
    assert pipeline.search("TX-100 impeller", top_k=1)["results"][0]["source_file_name"] == "pump.md"
    assert len(pipeline.search("notes guide handbook brakes", top_k=10)["results"]) == 6

    writes = recording_writes(monkeypatch, EmbeddedIndex)
    version = pipeline.registry().namespace_version("demo")
    passages = embedder.passages
    assert main(["resync", "--namespace", "demo", "--aws"]) == 0
    assert "demo: all 6 published documents are published with the current settings" in capsys.readouterr().out
    assert writes == [] and embedder.passages == passages
    assert pipeline.registry().namespace_version("demo") == version


def test_a_resync_stopped_while_embedding_is_finished_by_the_next_run_embedding_only_the_rest(
    stack: TemplateStack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ingested(stack)
    use_embedder(monkeypatch, crashing := Embedder(calls_before_crash=3))
    pipeline = redeployed(stack, monkeypatch, {"EMBEDDING_PROVIDER": "local"})
    with pytest.raises(KeyboardInterrupt):
        main(["resync", "--namespace", "demo", "--aws"])
    assert (
        current_index(pipeline).vector_model("demo") is None
    )  # nothing was written: searches still see every document
    assert not any(r.published_with.endswith(";embeddings=local:") for r in records(pipeline).values())
    assert len(pipeline.search("notes guide handbook", top_k=10)["results"]) == 5

    use_embedder(monkeypatch, rest := Embedder())
    assert main(["resync", "--namespace", "demo", "--aws"]) == 0
    chunks = sum(r.chunk_count for r in records(pipeline).values())
    assert rest.passages == chunks - crashing.passages  # the vectors of the first three documents were kept
    assert current_index(pipeline).vector_model("demo") == VectorModel.of(rest.model)
    assert all(r.published_with.endswith(";embeddings=local:") for r in records(pipeline).values())
    assert "demo: 5 documents published again" in capsys.readouterr().out


def test_vectors_embedded_ahead_of_the_deploy_leave_the_resync_only_reading_them(
    stack: TemplateStack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pipeline = ingested(stack)
    before = {key: r.published_with for key, r in records(pipeline).items()}
    version = pipeline.registry().namespace_version("demo")
    use_embedder(monkeypatch, embedder := Embedder())
    redeployed(stack, monkeypatch, {})  # still the old stack: no embeddings
    assert main(["resync", "--namespace", "demo", "--aws", "--embed-ahead", "local"]) == 0
    chunks = sum(r.chunk_count for r in records(pipeline).values())
    assert embedder.passages == chunks
    assert f"for {chunks} chunks of 5 documents are in the vector cache" in capsys.readouterr().out
    assert {key: r.published_with for key, r in records(pipeline).items()} == before  # nothing else was written
    assert pipeline.registry().namespace_version("demo") == version
    assert current_index(pipeline).vector_model("demo") is None

    redeployed(stack, monkeypatch, {"EMBEDDING_PROVIDER": "local"})
    assert main(["resync", "--namespace", "demo", "--aws"]) == 0
    assert embedder.passages == chunks  # every vector came from the cache
    assert current_index(pipeline).vector_model("demo") == VectorModel.of(embedder.model)
    assert main(["resync", "--namespace", "demo", "--aws", "--embed-ahead", "openai"]) == 2
    assert "--embed-ahead takes local, bedrock or PROVIDER:MODEL_ID, not 'openai'" in capsys.readouterr().err


def test_embedding_ahead_names_a_document_whose_chunk_cache_is_gone(
    stack: TemplateStack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pipeline = ingested(stack)
    use_embedder(monkeypatch, titan := SlowBedrock())
    redeployed(stack, monkeypatch, {})
    lost = records(pipeline)["pump.md"]
    publish = pipeline.services["publish"]
    publish.store.delete(chunk_cache_key(lost.revision, "demo", lost.document_id, publish.settings.pipeline.chunking))
    assert (
        main(["resync", "--namespace", "demo", "--aws", "--embed-ahead", "bedrock:amazon.titan-embed-text-v2:0"]) == 1
    )
    captured = capsys.readouterr()
    assert "of 4 documents are in the vector cache" in captured.out
    assert f"{lost.document_id}: the chunk cache of revision {lost.revision} is missing" in captured.err
    assert titan.passages == sum(r.chunk_count for key, r in records(pipeline).items() if key != "pump.md")
    assert len(titan.threads) > 1  # Bedrock's documents are embedded a few at a time


@pytest.fixture
def opensearch_prefix(opensearch_node: Any) -> Iterator[str]:
    from docshelf.index.opensearch import OpenSearchIndex

    prefix = f"docshelftest-resync-{uuid.uuid4().hex[:8]}"
    try:
        yield prefix
    finally:
        OpenSearchIndex(opensearch_node, index=prefix).drop_index()


@pytest.mark.opensearch
def test_a_move_to_opensearch_is_resynced_in_batches_resumed_after_a_crash(
    stack: TemplateStack, monkeypatch: pytest.MonkeyPatch, opensearch_prefix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from docshelf.index.opensearch import OpenSearchIndex

    ingested(stack)
    environment = {
        "AWS_REGION": "us-east-1",  # Lambda sets it; the SigV4 signer needs it
        "OPENSEARCH_ENDPOINT": OPENSEARCH_URL,
        "OPENSEARCH_SERVICE": "es",
        "OPENSEARCH_INDEX": opensearch_prefix,
    }
    pipeline = redeployed(stack, monkeypatch, environment)
    assert pipeline.search("notes guide handbook", top_k=10)["results"] == []  # the new engine starts empty

    unpatched = OpenSearchIndex.write
    written = recording_writes(monkeypatch, OpenSearchIndex, crash_after=2)
    with pytest.raises(Crash):
        main(["resync", "--namespace", "demo", "--aws", "--batch-documents", "2"])
    assert "demo: 4/5 documents" in capsys.readouterr().out  # two batches were recorded
    assert sum(opensearch_prefix in r.published_with for r in records(pipeline).values()) == 4

    monkeypatch.setattr(OpenSearchIndex, "write", unpatched)
    written = recording_writes(monkeypatch, OpenSearchIndex)
    assert main(["resync", "--namespace", "demo", "--aws", "--batch-documents", "2"]) == 0
    assert [len(batch) for batch in written] == [1]  # the second run wrote only the fifth document
    assert "demo: 1 of 5 published documents are due" in capsys.readouterr().out
    pipeline.services["publish"].index().commit()
    assert len(pipeline.search("notes guide handbook", top_k=10)["results"]) == 5
    assert main(["resync", "--namespace", "demo", "--aws"]) == 0
    assert len(written) == 1


def test_the_settings_come_from_the_deployed_publish_function(stack: TemplateStack) -> None:
    import io
    import zipfile

    import boto3

    role = boto3.client("iam").create_role(RoleName="publish", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
    code = io.BytesIO()
    with zipfile.ZipFile(code, "w") as archive:
        archive.writestr("app.py", "def lambda_handler(event, context):\n    return None\n")
    lam = boto3.client("lambda", region_name="us-east-1")
    environment = {**stack.function_environment("PublishFunction"), "EMBEDDING_PROVIDER": "bedrock"}
    lam.create_function(FunctionName="docshelf-PublishFunction-X", Runtime="python3.12", Role=role,
                        Handler="app.lambda_handler", Code={"ZipFile": code.getvalue()},
                        Environment={"Variables": environment})  # fmt: skip
    settings = function_settings("docshelf-PublishFunction-X", client=lam)
    assert settings.artifacts_bucket == stack.refs["ArtifactsBucket"]
    assert settings.pipeline.embedding_provider == "bedrock" and settings.region == "us-east-1"
    with pytest.raises(DocshelfError, match="cannot read the configuration of function nothing-here"):
        function_settings("nothing-here", client=lam)


def test_an_unknown_namespace_a_bad_batch_size_and_a_missing_setting_are_usage_errors(
    stack: TemplateStack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ingested(stack)
    redeployed(stack, monkeypatch, {})
    assert main(["resync", "--namespace", "nowhere", "--aws"]) == 2
    assert "nowhere" in capsys.readouterr().err
    assert main(["resync", "--namespace", "demo", "--aws", "--batch-documents", "0"]) == 2
    assert "--batch-documents must be at least 1" in capsys.readouterr().err
    monkeypatch.delenv("REGISTRY_TABLE")
    assert main(["resync", "--namespace", "demo", "--aws"]) == 2
    assert "REGISTRY_TABLE is not set" in capsys.readouterr().err
