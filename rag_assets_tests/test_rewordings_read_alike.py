"""Every development question, rewritten in ways that keep its meaning (another tense, an instruction for a
question, the fiscal year or the unit written another way, the company first, runs of spaces, a curly
apostrophe), gets the plan of the question as written: a rewording answered differently is a bug in reading
language. The rewrites are general string forms, none written for one question; the questions are the
analysts' and the organisers' (../shared, skipped where absent)."""

import json
import re

import pytest

from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.planning import plan_question

ASKS = r"^What (?:is|was|were|are) (?:the )?(.+?)\?(.*)$"


def _match(pattern: str, q: str, build) -> str | None:
    m = re.match(pattern, q, re.S)
    return build(m) if m else None


def _sub(pattern: str, repl: str, q: str) -> str | None:
    out = re.sub(pattern, repl, q)
    return out if out != q else None


REWRITES = {
    "another tense": lambda q: _sub(r"^What is\b", "What was", q) or _sub(r"^What was\b", "What is", q),
    "an instruction (report)": lambda q: _match(ASKS, q, lambda m: f"Report the {m.group(1)}.{m.group(2)}"),
    "an instruction (compute)": lambda q: _match(ASKS, q, lambda m: f"Compute the {m.group(1)}.{m.group(2)}"),
    "an instruction (tell me)": lambda q: _match(ASKS, q, lambda m: f"Tell me the {m.group(1)}.{m.group(2)}"),
    "an instruction (please give me)": lambda q: _match(ASKS, q, lambda m: f"Please give me the {m.group(1)}.{m.group(2)}"),
    "fiscal year written out": lambda q: _sub(r"\bFY\s?(20\d\d)\b", r"fiscal year \1", q),
    "fiscal written short": lambda q: _sub(r"\bFY\s?(20\d\d)\b", r"fiscal \1", q),
    "two-digit fiscal year": lambda q: _sub(r"\bFY\s?20(\d\d)\b", r"FY\1", q),
    "a lead-in": lambda q: ("According to its filings, " + q[0].lower() + q[1:]
                            if re.match(r"(What|How|Did|Does|Was|Is) ", q) else None),
    "the unit at the end": lambda q: _match(r"^(.*?)\s*\((in [^)]*)\)(.*)$", q,
                                            lambda m: f"{m.group(1)}{m.group(3)}".rstrip() + f" Answer {m.group(2)}."),
    "a possessive": lambda q: _match(r"^What (is|was) the (.+?) (?:for|of) ([A-Z][\w&.'\- ]+?)\?$", q,
                                     lambda m: f"What {m.group(1)} {m.group(3)}'s {m.group(2)}?"),
    "the company first": lambda q: _match(r"^What (is|was) the (.+?) for ([A-Z][\w&.'\- ]+?)\?(.*)$", q,
                                          lambda m: f"For {m.group(3)}, what {m.group(1)} the {m.group(2)}?{m.group(4)}"),
    "runs of spaces": lambda q: re.sub(r"\s+", "  ", q),
    "no question mark": lambda q: q[:-1].rstrip() if q.endswith("?") else None,
    "a curly apostrophe": lambda q: q.replace("'", "\u2019") if "'" in q else None,
    "USD millions in words": lambda q: _sub(r"\bin USD millions\b", "in millions of US dollars", q),
    "percent as a percentage": lambda q: _sub(r"\bin percent\b", "as a percentage", q),
}


def _questions(*paths) -> list[tuple[str, str]]:
    out = []
    for path in paths:
        out += [(q["text"], q["kind"]) for q in json.loads(path.read_text(encoding="utf-8"))
                if q["kind"] in ("number", "boolean")]
    return out


def _plan(question: str, kind: str, library) -> tuple:
    p = plan_question(question, kind, library)
    return p.years, p.quarter, p.months, p.unit, p.part, p.formula


def _differences(questions) -> list[str]:
    library, out = default_library(), []
    for text, kind in questions:
        base = _plan(text, kind, library)
        for how, rewrite in REWRITES.items():
            variant = rewrite(text)
            if variant and variant != text and _plan(variant, kind, library) != base:
                out.append(f"{how}: {variant!r} plans {_plan(variant, kind, library)} against {base}")
    return out


def test_financebench_questions_reworded_get_their_plans(financebench):
    questions = _questions(financebench / "questions.json", financebench / "extra" / "paraphrases_questions.json",
                           financebench / "extra" / "fresh.json")
    assert len(questions) >= 140
    assert _differences(questions) == []


def test_erc_questions_reworded_get_their_plans(erc):
    assert _differences(_questions(erc / "questions.json")) == []


def test_the_rewrites_change_the_text_and_find_a_misreading():
    """The failing side: a rewrite that changes the meaning (the year) is caught."""
    question = "What is the FY2019 fixed asset turnover ratio for Initech?"
    assert REWRITES["a possessive"](question) == "What is Initech's FY2019 fixed asset turnover ratio?"
    REWRITES["a wrong year"] = lambda q: _sub(r"2019", "2018", q)
    try:
        assert _differences([(question, "number")]) and len(_differences([(question, "number")])) == 1
    finally:
        del REWRITES["a wrong year"]
