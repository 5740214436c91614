"""Pydantic schemas of what the LLM must return, with chain-of-thought fields and length limits.

Length limits appear in the JSON schema (so constrained decoders such as llama.cpp's grammar enforce them)
and are applied leniently on validation (an over-long string is cut, an over-long list trimmed), so a
small model's verbosity never costs the answer.
"""

from __future__ import annotations

from typing import Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator

ANALYSIS_MAX = 1200
SUMMARY_MAX = 300
PAGES_MAX = 8
QUOTE_MAX = 400
NAMES_MAX = 100
ENTITY_MAX = 200  # table statements: subject_core_entity
BLOCK_MAX = 1200  # table statements: information_block


def _cut(value, limit: int):
    return value[:limit] if isinstance(value, str) else value


def _written(v, limit: int) -> str:
    """A figure as the model copied it: text, cut to ``limit``; 'N/A' when missing."""
    return _cut(str(v), limit) if v is not None else "N/A"


def _require_quote(schema: dict) -> None:
    """Generation must write the quote (a constrained decoder skips optional fields); validation stays lenient."""
    required = schema.setdefault("required", [])
    if "evidence_quote" in schema.get("properties", {}) and "evidence_quote" not in required:
        required.insert(0, "evidence_quote")
        schema["properties"]["evidence_quote"]["minLength"] = 1


class AnswerBase(BaseModel):
    model_config = ConfigDict(json_schema_extra=_require_quote)

    step_by_step_analysis: str = Field(
        description="Short step-by-step reasoning over the context that leads to the answer.",
        max_length=ANALYSIS_MAX,
    )
    reasoning_summary: str = Field(description="One or two sentences that justify the answer.", max_length=SUMMARY_MAX)
    relevant_pages: list[int] = Field(
        description="page_index values of the context pages that directly prove the answer; empty if none.",
        max_length=PAGES_MAX,
    )
    evidence_quote: str = Field(
        default="",
        description="Copied word for word from the context: the sentence or table row that proves the answer; "
        "'none' when the answer is 'N/A' or false.",
        max_length=QUOTE_MAX,
    )

    @field_validator("step_by_step_analysis", mode="before")
    @classmethod
    def _cut_analysis(cls, v):
        return _cut(v, ANALYSIS_MAX)

    @field_validator("reasoning_summary", mode="before")
    @classmethod
    def _cut_summary(cls, v):
        return _cut(v, SUMMARY_MAX)

    @field_validator("evidence_quote", mode="before")
    @classmethod
    def _cut_quote(cls, v):
        return _cut(v, QUOTE_MAX) if v is not None else ""

    @field_validator("relevant_pages", mode="before")
    @classmethod
    def _cut_pages(cls, v):
        if isinstance(v, list):
            out = []
            for p in v:
                try:
                    out.append(int(str(p).strip().lstrip("pP").lstrip("age").strip()))
                except ValueError:
                    continue
            return out[:PAGES_MAX]
        return v


class NumberAnswer(AnswerBase):
    value_as_written: str = Field(
        description="The figure exactly as printed in the report (e.g. '58,300' or '(2,417)' or '$72.5 million'), "
        "or 'N/A'.",
        max_length=60,
    )
    scale: Literal["units", "thousands", "millions", "billions"] = Field(
        description="The unit scale the report gives for that figure (table header or caption such as "
        "'in thousands'); 'units' if none."
    )
    final_answer: Union[float, int, str] = Field(
        description="The number with units applied (e.g. 72500000 for '$72.5 million'), negative if shown in "
        "parentheses, or 'N/A'.",
    )

    @field_validator("final_answer", mode="before")
    @classmethod
    def _cut_final(cls, v):
        return _cut(v, 60)

    @field_validator("value_as_written", mode="before")
    @classmethod
    def _cut_written(cls, v):
        return _written(v, 60)

    @field_validator("scale", mode="before")
    @classmethod
    def _scale(cls, v):
        v = str(v or "units").lower().strip()
        for name in ("thousands", "millions", "billions"):
            if v.startswith(name[:4]) or v in {"k": "thousands", "m": "millions", "bn": "billions"}.get(v, "") :
                return name
        return "units"


class NumberPick(BaseModel):
    """The choice of a figure among numbered candidates (Python found them, and checks the choice)."""

    step_by_step_analysis: str = Field(
        description="Briefly: which candidate states exactly the asked metric, or why none does.", max_length=300)
    candidate: int = Field(description="The number in brackets of the candidate that states the asked metric; "
                           "0 if none does.", ge=0, le=99)
    value_as_written: str = Field(
        description="That candidate's figure for the latest period, copied as printed; 'N/A' when candidate is 0.",
        max_length=40)

    @field_validator("step_by_step_analysis", mode="before")
    @classmethod
    def _cut_analysis(cls, v):
        return _cut(v, 300)

    @field_validator("value_as_written", mode="before")
    @classmethod
    def _cut_written(cls, v):
        return _written(v, 40)


class NameAnswer(AnswerBase):
    final_answer: str = Field(description="The name exactly as written in the report, or 'N/A'.", max_length=200)

    @field_validator("final_answer", mode="before")
    @classmethod
    def _cut_final(cls, v):
        return _cut(v, 200) if v is not None else "N/A"


class NamesAnswer(AnswerBase):
    final_answer: Union[list[str], Literal["N/A"]] = Field(
        description="The names exactly as written in the report, or 'N/A'.", max_length=NAMES_MAX
    )

    @field_validator("final_answer", mode="before")
    @classmethod
    def _cut_final(cls, v):
        if isinstance(v, list):  # every name is kept: a list longer than NAMES_MAX is refused, never trimmed
            return [str(x)[:200] for x in v]
        if isinstance(v, str) and v.strip().upper() not in ("N/A", "NA"):
            return [v[:200]]
        return "N/A" if not isinstance(v, list) else v


class BooleanAnswer(AnswerBase):
    final_answer: bool = Field(description="true or false; false when the report does not mention it.")


class ComparativeAnswer(AnswerBase):
    final_answer: str = Field(
        description="The company name exactly as written in the question, or 'N/A'.", max_length=200
    )


class PageScore(BaseModel):
    page: int = Field(description="page_index of the page being judged")
    reasoning: str = Field(description="Why the page is or is not relevant, briefly.", max_length=300)
    relevance_score: float = Field(description="0 (irrelevant) to 1 (directly answers the question).", ge=0, le=1)

    @field_validator("reasoning", mode="before")
    @classmethod
    def _cut_reasoning(cls, v):
        return _cut(v, 300)

    @field_validator("relevance_score", mode="before")
    @classmethod
    def _clip_score(cls, v):
        try:
            return min(1.0, max(0.0, float(v)))
        except (TypeError, ValueError):
            return 0.0


class RerankResult(BaseModel):
    page_rankings: list[PageScore] = Field(description="One entry per page in the context.", max_length=20)


class TableBlock(BaseModel):
    subject_core_entity: str = Field(
        description="What the statement is about: the row's item (and the table's subject), as printed.", max_length=ENTITY_MAX
    )
    information_block: str = Field(
        description="One self-contained sentence or two giving every value of that row with its column header, "
        "period and unit, e.g. \"Shareholders' equity was 637,422 million yen in 2012 and 535,422 million yen "
        "in 2013.\"",
        max_length=BLOCK_MAX,
    )

    @field_validator("subject_core_entity", mode="before")
    @classmethod
    def _cut_entity(cls, v):
        return _cut(v, ENTITY_MAX)

    @field_validator("information_block", mode="before")
    @classmethod
    def _cut_block(cls, v):
        return _cut(v, BLOCK_MAX)


class TableBlocks(BaseModel):
    information_blocks: list[TableBlock] = Field(
        description="One block per row (or per group of closely related rows) of the table.", min_length=1,
        max_length=60,
    )

    @field_validator("information_blocks", mode="before")
    @classmethod
    def _trim(cls, v):
        return v[:60] if isinstance(v, list) else v


SCHEMAS: dict[str, type[BaseModel]] = {
    "number": NumberAnswer,
    "number_pick": NumberPick,
    "name": NameAnswer,
    "names": NamesAnswer,
    "boolean": BooleanAnswer,
    "comparative": ComparativeAnswer,
    "rerank": RerankResult,
    "table_serialization": TableBlocks,
}
