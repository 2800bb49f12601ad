"""The SearchFunction with PASSAGE_MODEL=local (template parameter PassageModel): the local sentence model orders the
evidence as `docshelf search --passage-model local` does, in the deployed shape (moto, the function's own role)."""

from __future__ import annotations

from tests.functional.aws.harness import Pipeline
from tests.functional.aws.template_resources import TemplateStack
from tests.functional.test_passage_model_cli import QUESTION, REPORT
from tests.unit.embeddings.conftest import installed_model


def evidence(stack: TemplateStack, environment: dict[str, str]) -> str:
    pipeline = Pipeline(stack, environment)
    pipeline.upload("demo/virus.md", REPORT.encode())
    pipeline.drain()
    text: str = pipeline.search(QUESTION, max_tokens=30)["evidence_text"]
    return text


def test_without_the_passage_model_the_first_of_two_equal_matches_is_packed(stack: TemplateStack) -> None:
    assert evidence(stack, {}).endswith("were mild for horses.")


def test_the_search_function_packs_what_the_passage_model_reads_as_the_answer(stack: TemplateStack) -> None:
    installed_model()
    assert evidence(stack, {"PASSAGE_MODEL": "local"}).endswith("killed one in three infected kids.")
