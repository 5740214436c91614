"""The kind of answer a question asks when its file does not say (``ask`` and ``plan`` without ``--kind``): a
comparison, a yes/no, a list of names, a number, or a name. Read once here, with the question's other parts."""

from __future__ import annotations

import re

from rag_assets.answer.question.metric_library import Library, default_library

NUMBER_WORDS = ("total", "value of", "number of", "amount", "ratio", "margin", "revenue", "(in ", "percent",
                "how many", "how much", "%", "growth", "usd", "$", "in millions", "in billions", "in thousands",
                " eps", "per share")


def guess_kind(question: str, library: Library | None = None) -> str:
    """'comparative', 'boolean', 'names', 'number' (a quantity word, or an item or metric of the library: 'What
    were X's Aeronautics segment net sales'), else 'name'."""
    q = question.strip().lower()
    if q.startswith("which of the companies") or " companies had " in q:
        return "comparative"
    if q.startswith(("did ", "does ", "is ", "was ", "has ", "have ", "were ", "are ")):
        return "boolean"
    if q.startswith(("what are the names", "which leadership", "list ")) or "names of" in q:
        return "names"
    if q.startswith(("who ", "whom ")):  # a person ('Who was the CFO': never cash from operations, 'CFO')
        return "name"
    lib = library or default_library()
    unowned = re.sub(r"(?<=\w)['’]s\b", "", question)  # 'the operating profit of X's Space segment': the item
    if any(w in q for w in NUMBER_WORDS) or any(lib.item_in(t) or lib.metric_in(t) for t in (question, unowned)):
        return "number"
    return "name"
