"""The one way to answer: every CLI verb and Dagster asset that answers, ranks or scores goes through here.

``resolve`` turns a preset, its overrides and the ingested reports into one immutable ``AnswerSettings``
(the configuration, its label, its fingerprint and its answers folder), once; ``AnsweringService`` builds
the retriever, reranker and readers from it and answers a question, a question set (resumable, with lineage
and the submission) or an evaluation against gold. Callers pass plain values: answering never imports the
CLI or orchestration."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Callable

from rag_assets.answer.service.answerer import Answerer
from rag_assets.answer.routing.filings import Filing
from rag_assets.answer.service.fingerprint import run_label, settings_fingerprint
from rag_assets.answer.service.lineage import AnswerLog
from rag_assets.answer.service.questions import Question
from rag_assets.answer.readers.record import AnswerRecord
from rag_assets.answer.service.run import (NoLLM, answer_questions, build_answerer, ranked_pages, reusable_answers,
                                   score_answers)
from rag_assets.config import RunConfig, SettingsError, get_config, with_overrides

Progress = Callable[[AnswerRecord, int, int], None]


class NoReports(SettingsError):
    """There is no ingested report to answer from."""


@dataclass(frozen=True)
class Library:
    """The ingested reports questions are answered over, and where their answers go."""

    root: Path
    reports: Mapping[str, str]  # sha1 -> company name
    filings: Mapping[str, Filing]  # sha1 -> what subset.csv says of the filing

    @property
    def answers_db(self) -> Path:
        return self.root / "answers.duckdb"

    def answers_dir(self, folder: str) -> Path:
        return self.root / "answers" / folder


@dataclass(frozen=True)
class AnswerSettings:
    """Everything that decides how a question set is answered, resolved once."""

    cfg: RunConfig
    library: Library
    label: str  # the preset and every field that differs from it
    fingerprint: str  # configuration, model, prompts and answering code (an answer's key adds its indexes)

    @property
    def folder(self) -> str:
        """The answers folder's name: the preset's, or the preset's with a digest of its overrides (answers made
        with other settings never share a folder)."""
        if self.label == self.cfg.name:
            return self.cfg.name
        return f"{self.cfg.name}+{hashlib.sha1(self.label.encode()).hexdigest()[:8]}"

    @property
    def out_dir(self) -> Path:
        return self.library.answers_dir(self.folder)


def resolve(preset: str, library: Library, overrides: Mapping[str, object] | None = None) -> AnswerSettings:
    """The settings of ``preset`` with ``overrides`` (validated field values, as text or typed) over
    ``library``; a ``SettingsError`` of one line for an unknown preset or field, a bad value, or no reports."""
    cfg = with_overrides(get_config(preset), dict(overrides or {}))
    if not library.reports:
        raise NoReports(f"no ingested reports under {library.root}: run `rag-assets ingest` first")
    frozen = Library(library.root, MappingProxyType(dict(library.reports)), MappingProxyType(dict(library.filings)))
    return AnswerSettings(cfg, frozen, run_label(cfg), settings_fingerprint(cfg))


@dataclass(frozen=True)
class Scored:
    """An evaluated question set: its records, the summary, the scored rows and the markdown tables."""

    records: list[dict]
    summary: dict
    rows: list[dict]
    tables: str


class AnsweringService:
    """Answers with one ``AnswerSettings``. The pipeline (retriever, reranker, LLM) is built at first use;
    ``llm`` and ``embedder`` replace the configured ones (tests, a shared embedder); ``retrieval_only`` ranks
    pages without loading an LLM unless the reranker needs one."""

    def __init__(self, settings: AnswerSettings, llm=None, embedder=None, retrieval_only: bool = False):
        self.settings = settings
        if llm is None and retrieval_only and settings.cfg.rerank == "none":
            llm = NoLLM()
        self._llm, self._embedder = llm, embedder

    @cached_property
    def answerer(self) -> Answerer:
        """The pipeline (loads the embedder and the LLM: a missing backend or model fails here)."""
        lib = self.settings.library
        return build_answerer(self.settings.cfg, lib.root, dict(lib.reports), llm=self._llm,
                              embedder=self._embedder, filings=dict(lib.filings))

    def ask(self, question: str, kind: str) -> AnswerRecord:
        return self.answerer.answer(question, kind)

    def rank(self, question: str, top_k: int) -> list:
        """The pages retrieval ranks for ``question``, best first (every routed report's first ``top_k``)."""
        return ranked_pages(self.answerer, question, top_k)

    def reusable(self, questions: list[Question], log_path: Path) -> tuple[int, int]:
        """(answers in ``log_path`` these settings would reuse, answers logged there)."""
        log = AnswerLog(log_path)
        logged = log.load()
        if not logged:
            return 0, 0
        reused, _ = reusable_answers(self.answerer, questions, log, self.settings.fingerprint)
        return len(reused), len(logged)

    def answer(self, questions: list[Question], log_path: Path | None = None, submission: Path | None = None,
               run_id: str = "", progress: Progress | None = None) -> list[dict]:
        """Answer ``questions``, reusing the answers in ``log_path`` (default: the settings' answers folder)
        that the same settings and indexes made; keep lineage and write the submission; records in question
        order."""
        out = self.settings.out_dir
        return answer_questions(self.answerer, questions, log_path or out / "answers.jsonl",
                                submission or out / "submission.json", self.settings.library.answers_db,
                                run_id=run_id or self.settings.label, progress=progress)

    def evaluate(self, questions: list[Question], gold: dict, progress: Progress | None = None) -> Scored:
        """Answer (resuming) into the settings' answers folder and score against ``gold``."""
        records = self.answer(questions, progress=progress)
        return Scored(records, *score_answers(records, gold, self.settings.out_dir, self.settings.label))
