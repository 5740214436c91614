"""Question sets in the challenge's format: ``[{"text": ..., "kind": ...}]``, validated with clear errors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ValidationError, field_validator

from rag_assets.storage.textfiles import InputFileError, read_json_file

Kind = Literal["number", "name", "names", "boolean", "comparative"]


class Question(BaseModel):
    text: str
    kind: Kind

    @field_validator("text")
    @classmethod
    def _non_empty(cls, v: str) -> str:
        v = clean_text(v)
        if not v.strip():
            raise ValueError("empty question text")
        return v


def clean_text(text: str) -> str:
    """``text`` as valid Unicode: a lone surrogate (a byte the terminal could not decode, '\\udcff') becomes
    U+FFFD, so every file and table the answer is written to can hold it."""
    return re.sub(r"[\ud800-\udfff]", "\ufffd", text)


class QuestionsFileError(InputFileError):
    """A questions file that cannot be used (one line: the file and what is wrong)."""


def load_questions(path: Path) -> list[Question]:
    try:
        data = read_json_file(Path(path), "questions file")
    except InputFileError as exc:
        raise QuestionsFileError(str(exc)) from None
    if isinstance(data, dict) and "questions" in data:
        data = data["questions"]
    if not isinstance(data, list):
        raise QuestionsFileError(f'{path}: expected a JSON list of {{"text", "kind"}} objects')
    out, problems = [], []
    for i, item in enumerate(data):
        if isinstance(item, dict) and "text" not in item and "question" in item:
            item = {**item, "text": item["question"]}
        try:
            out.append(Question.model_validate(item))
        except ValidationError as exc:
            msg = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'item'}: {e['msg']}" for e in exc.errors())
            problems.append(f"question {i}: {msg}")
    if problems:
        raise QuestionsFileError(f"{path}: {len(problems)} invalid question(s): " + " | ".join(problems[:10]))
    if not out:
        raise QuestionsFileError(f"{path}: no questions")
    return out


def repeated(questions: list[Question]) -> int:
    """How many questions repeat an earlier one (the same text and kind): each is answered once."""
    return len(questions) - len({(q.text, q.kind) for q in questions})
