"""The company as the owner of what a question names right after it ('Verizon Consumer segment' -> "Verizon's
Consumer segment", 'JPMorgan: net interest income'), and its own longer name ('Costco Wholesale', 'JPMorgan Chase'),
never a part of it: read before the parts and items of the question are (``parts``)."""

from __future__ import annotations

import re

from rag_assets.answer.question.metric_library import Library, fold
from rag_assets.answer.question.parts import NAME_WORD, alternation, name_runs, starts_named


def owned_parts(question: str, written: tuple[str, ...], library: Library) -> str:
    """``question`` with the company (as ``written``, longest first) made the owner of what it names right after
    it without a possessive: a part with its part noun ('Verizon Consumer segment' -> "Verizon's Consumer
    segment"), a capitalized part before an item or metric of the library ('3M Safety and Industrial net
    sales'), or whatever follows a colon or a dash ('JPMorgan: net interest income'), so that the part is
    'consumer', not 'verizon consumer', and no item is read with the company's name in it. Any other writing
    of the company is left as it is ('Verizon Communications reported', "Globex's revenue")."""
    for name in written:
        m = re.search(rf"(?<![\w&]){re.escape(name)}(?P<sep>\s*[:\u2013\u2014]\s*|\s+-\s+|\s+)(?=\w)", question)
        after = question[m.end():] if m else ""
        if m and (m.group("sep").strip() and not OPENS_SENTENCE_RE.match(after) or _owns_next(after, library)):
            return f"{question[:m.start()]}{name}'s {question[m.end():]}"
    return question


def written_in_full(question: str, written: tuple[str, ...], own_names: tuple[str, ...]) -> tuple[str, ...]:
    """``written`` with the longer spans of ``question`` that continue one of them into one of the company's
    ``own_names`` ('Costco' + 'Wholesale', of 'Costco Wholesale Corporation'; 'JPMorgan Chase'), longest first:
    the company's own words, never a part of it."""
    owns = [fold(n).split() for n in own_names]
    longer = []
    for name in written:
        for m in re.finditer(rf"(?<![\w&]){re.escape(name)}(?:\s+(?:{NAME_WORD}))+", question):
            words = m.group(0).split()
            for k in range(len(words), len(name.split()), -1):
                span = " ".join(words[:k])
                if any(own[:len(fold(span).split())] == fold(span).split() for own in owns):
                    longer.append(span)
                    break
    return tuple(sorted(set(written) | set(longer), key=len, reverse=True))


def possessive(question: str, written: tuple[str, ...]) -> str:
    """``question`` with the first writing of the company (``written``, longest first) that is not yet a possessive
    made one ('Costco membership fees' -> "Costco's membership fees")."""
    for name in written:
        m = re.search(rf"(?<![\w&]){re.escape(name)}(?![\w&'\u2019])", question)
        if m:
            return f"{question[:m.end()]}'s{question[m.end():]}"
    return question


# the words that open a sentence of its own after 'JPMorgan:' (a question or an instruction), not a figure's name
OPENS_SENTENCE_RE = re.compile(r"(?:what|which|how|why|when|who|whose|is|are|was|were|did|does|do|has|have|had|can|"
                               r"could|will|would|should|please|give|compute|calculate|report|find|list|provide|state|"
                               r"tell|name|identify|show|using|based|according|in|for|from|as)\b", re.I)


def _owns_next(after: str, library: Library) -> bool:
    """The words after the company's name are the name of an item or metric of the library ('American Express
    total revenues'), or a capitalized part's name followed by a part noun or by such a name (a run with a
    figure, a period or an item in it names no part)."""
    noun = rf"(?:{alternation(library.part_nouns)})s?\b" if library.part_nouns else r"(?!)"
    return starts_named(after, library) or \
        any(re.match(noun, rest) or starts_named(rest, library) for _, rest in name_runs(after, library))
