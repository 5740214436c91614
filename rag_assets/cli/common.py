"""What the verbs share: argument types, --set overrides, the answering setup over the data root, the questions
file read or a one-line exit, and how answers in progress and failures are printed."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path


def parse_sets(items: list[str] | None) -> dict:
    """``--set key=value`` pairs (values are validated by RunConfig)."""
    out = {}
    for item in items or []:
        if "=" not in item:
            raise SystemExit(f"error: --set expects key=value, got {item!r}")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out

def parse_config_spec(spec: str) -> tuple[str, dict]:
    """``preset[:key=value,key=value]`` -> (preset, overrides)."""
    name, _, rest = spec.partition(":")
    return name, parse_sets([item for item in rest.split(",") if item]) if rest else {}

def integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None

def whole_number(text: str) -> int:
    value = integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value

def positive_int(text: str) -> int:
    value = integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not positive")
    return value

def answering(config: str, model: str | None = None, base_url: str | None = None, sets: dict | None = None,
              retrieval_only: bool = False):
    """The answering service of preset ``config`` with the command line's overrides, over the data root."""
    from rag_assets.answer.service.service import AnsweringService, resolve
    from rag_assets.orchestration.resources import ReportStore

    overrides = dict(sets or {})
    if model:
        overrides["answer_model"] = model
    if base_url:
        overrides.update(base_url=base_url, llm="openai")
    return AnsweringService(resolve(config, ReportStore().library(), overrides), retrieval_only=retrieval_only)

def questions_or_exit(path):
    """The validated questions of ``path``, or exit 2 with the file's problems on stderr."""
    from rag_assets.answer.service.questions import QuestionsFileError, load_questions

    try:
        return load_questions(Path(path))
    except QuestionsFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None

def failed_count(records: list[dict]) -> int:
    """Count failed questions and say so on stderr: they are not in the submission; a rerun retries them."""
    failed = [r for r in records if r.get("error")]
    if failed:
        print(f"error: {len(failed)} of {len(records)} question(s) failed and are not in the submission "
              f"(first: {failed[0]['error'][:160]}); run again to retry them", file=sys.stderr)
    return len(failed)

def progress_printer(quiet: bool = False):
    def progress(rec, done, total):
        if quiet:
            return
        shown = f"error: {rec.error[:80]}" if rec.error else str(rec.value)[:40]
        print(f"[{done}/{total}] {shown!s:42} {rec.seconds:6.1f}s  {rec.question_text[:70]!r}", flush=True)

    return progress


class OneLineFormatter(logging.Formatter):
    """Log lines whose message cannot forge another line: control characters (a newline in a file name) are
    escaped; a traceback (``-v``) keeps its lines."""

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 - the stdlib's name
        from rag_assets.storage.catalog import printable

        return printable(super().formatMessage(record))
