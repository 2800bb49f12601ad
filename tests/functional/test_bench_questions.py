"""bench/ja_questions.jsonl asks about the corpus's Japanese manuals (bench/quality_bench.py): each question's
answer must be in a chunk of them, as evaluate.py matches answers, or the bench measures nothing."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from docshelf.chunking import chunk_document
from docshelf.parsers import parse_bytes
from tests.conftest import SHARED

QUESTIONS = Path(__file__).resolve().parents[2] / "bench" / "ja_questions.jsonl"
DOCS_QUESTIONS = QUESTIONS.with_name("ja_docs_questions.jsonl")
JAPANESE_MANUALS = ["md/jlreq-README-ja.md", "html/jlreq-ja.html", "pdf/jlshort_ja.pdf"]


def _evaluate_module() -> ModuleType:
    """../shared/tools/ireval/evaluate.py, the scorer the bench uses."""
    scorer = SHARED / "tools" / "ireval" / "evaluate.py"
    spec = importlib.util.spec_from_file_location("ireval_evaluate", scorer)
    if not scorer.is_file() or spec is None or spec.loader is None:
        pytest.skip("../shared/tools/ireval is absent (only present in the project workspace and CI)")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_japanese_questions_are_distinct_and_have_answers() -> None:
    questions = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]
    assert len({q["qid"] for q in questions}) == len(questions) >= 40
    assert all(q["query"].strip() and q["answers"] and all(a.strip() for a in q["answers"]) for q in questions)


@pytest.mark.corpus
def test_every_japanese_question_has_its_answer_in_a_chunk_of_the_manuals(corpus_dir: Path) -> None:
    evaluate = _evaluate_module()
    chunks = [
        evaluate.joined(evaluate.match_tokens(chunk.text))
        for name in JAPANESE_MANUALS
        for chunk in chunk_document(
            parse_bytes((corpus_dir / name).read_bytes(), name), document_id=name, namespace="ja"
        )
    ]
    unanswered = []
    for line in QUESTIONS.read_text(encoding="utf-8").splitlines():
        question = json.loads(line)
        patterns = [p for answer in question["answers"] for p in evaluate.answer_patterns(answer)]
        if not any(evaluate.contains_any(chunk, patterns) for chunk in chunks):
            unanswered.append(question["qid"])
    assert unanswered == []


def test_every_question_on_the_generated_japanese_documents_has_its_answer_in_a_chunk(tmp_path: Path) -> None:
    """bench/ja_docs_questions.jsonl asks the documents of tests/support/ja_documents.py (the bench's `ja_docs` set)."""
    from tests.support.ja_documents import write_documents

    evaluate = _evaluate_module()
    chunks = [
        evaluate.joined(evaluate.match_tokens(chunk.text))
        for path in write_documents(tmp_path)
        for chunk in chunk_document(parse_bytes(path.read_bytes(), path.name), document_id=path.name, namespace="ja")
    ]
    questions = [json.loads(line) for line in DOCS_QUESTIONS.read_text(encoding="utf-8").splitlines()]
    assert len({q["qid"] for q in questions}) == len(questions) >= 25
    unanswered = []
    for question in questions:
        patterns = [p for answer in question["answers"] for p in evaluate.answer_patterns(answer)]
        if not any(evaluate.contains_any(chunk, patterns) for chunk in chunks):
            unanswered.append(question["qid"])
    assert unanswered == []
