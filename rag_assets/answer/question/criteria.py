"""What a figure criterion is: the test a yes/no's figures must pass, and the figures (``question.criterion`` reads
it from a question, ``evidence.computed`` decides it)."""

from __future__ import annotations

from dataclasses import dataclass

from rag_assets.answer.question.formulas import Node


@dataclass(frozen=True)
class Criterion:
    """A yes/no that figures decide: ``now`` is positive/negative or, for something done in the year,
    ``nonzero``; went up/down from ``before``; is above or below ``before`` or ``bound`` (``more``/``less``); or
    (an analyst's judgement, ``at_least``) reaches ``bound`` by the library's rule of thumb."""

    test: str  # positive, negative, nonzero, up, down, more, less, up_by, down_by, up_less, down_less, at_least
    now: Node
    before: Node | None = None
    bound: float = 0.0
    rule: str = ""
    each: tuple["Criterion", ...] = ()  # 'in each of 2016, 2017 and 2018', 'every year': yes when all hold
    any_of: bool = False  # 'in any quarter of 2019': yes when one of ``each`` holds
