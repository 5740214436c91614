"""What a figure criterion is: the test a yes/no's figures must pass, and the figures (``question.criterion`` reads
it from a question, ``evidence.computed`` decides it)."""

from __future__ import annotations

from dataclasses import dataclass

from rag_assets.answer.question.formulas import Node, items_of


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

    @property
    def how(self) -> str:
        """How the criterion is decided, as the plan and the record say it: 'a figure criterion (up) in each of 2
        years', '... in any of 4 quarters'."""
        if not self.each:
            return f"a figure criterion ({self.test})"
        spans = "quarters" if any(i.months == 3 for one in self.each for i in items_of(one.now)) else "years"
        return f"a figure criterion ({self.test}) in {'any' if self.any_of else 'each'} of {len(self.each)} {spans}"

    def joined(self, shown: list[str]) -> str:
        """Each span's criterion as shown, joined as they are decided: 'or' for any of them, 'and' for each."""
        return (" or " if self.any_of else " and ").join(shown)
