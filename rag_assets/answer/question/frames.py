"""The frames a question asks a figure in, rewritten to the one frame the readers read ("What was X's Y in P?"):
'How much Y did X report', 'How much did X spend on Y', 'What Y did X record', 'What was the Y of X', and a period
or part written first ('In Q4 2022, what was ...'). One ordered table: each row a pattern, what it is rewritten to,
and wordings of its own that run as tests (``rag_assets_tests/test_question_frames.py``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# what a company does with a figure in a filing ('How much revenue did X report'): the verb says nothing of the figure
_REPORTS = (r"(?:report|record|post|generate|earn|book|have|incur|recogni[sz]e|realize|achieve|deliver|pay|spend|"
            r"make|show|disclose|register|log)(?:ed|s)?")
# 'spend on', 'pay in', 'earn from', 'record as': the verb and its preposition introduce the figure
_SPENDS = (r"(?:spend|pay|invest|earn|generate|record|report|book|incur|make|receive|collect|lose|return|"
           r"distribute|recogni[sz]e)\s+(?:(?:in|with)\s+cash\s+)?"  # 'pay in cash for': the cash is how, not what
           r"(?:on|in|for|as|from|through|via|to\s+shareholders\s+(?:as|in|through))")
# a subject that is a name: capitalised words ('Johnson & Johnson', 'JPMorgan Chase & Co.'), never a period
_NAME = (r"(?!(?:FY|Q[1-4]|H[12])(?:\d|\b)|(?:Fiscal|January|February|March|April|May|June|July|August|September|"
         r"October|November|December)\b)[A-Z][\w&.\-]*(?:\s+(?:&\s+)?(?!(?:FY|Q[1-4])(?:\d|\b))[A-Z][\w&.\-]*)*")
# (a period is no company: 'FY2020' as much as 'FY 2020')
# a yes/no whose subject is a pronoun for what precedes it ('Globex's net income: was it higher ...'): its verb
_REFERS_BACK = r"(?:was|were|is|are|did|does|do|has|have|had)(?=\s+(?:it|they)\b)"
_ASKS = r"(?:what|how|which|give|report|state|provide|calculate|compute|find|determine|tell|list|was|were|is|are|did|does|do)"


@dataclass(frozen=True)
class Frame:
    name: str
    pattern: re.Pattern
    template: str
    examples: tuple[tuple[str, str], ...]  # (wording, the frame it is rewritten to)


FRAMES = (
    Frame("how much did X spend on Y",
          re.compile(rf"^how\s+much\s+(?:cash\s+|money\s+)?did\s+(?P<x>[^?.]+?)\s+{_SPENDS}\s+(?P<y>[^?.]+?)(?=\s+(?:in|for|during|over|"
                     rf"at|as\s+of|between|from)\b|[,?.]|$)", re.I),
          "What was {x}'s {y}",
          (("How much did Globex spend on research and development in 2022?",
            "What was Globex's research and development in 2022?"),
           ("How much did Initech pay in dividends during fiscal 2019? Answer in USD millions.",
            "What was Initech's dividends during fiscal 2019? Answer in USD millions."),
           ("How much cash did Globex spend on additions to software assets in 2021?",  # the cash is how, not what
            "What was Globex's additions to software assets in 2021?"),
           ("How much did Globex pay in cash for acquisitions in 2018, in USD millions?",
            "What was Globex's acquisitions in 2018, in USD millions?"))),
    Frame("how much Y did X report",
          re.compile(rf"^how\s+much\s+(?P<y>(?!did\b)[^?.]+?)\s+did\s+(?P<x>[^?.]+?)\s+{_REPORTS}\b", re.I),
          "What was {x}'s {y}",
          (("How much net revenue did Globex report for fiscal 2021?", "What was Globex's net revenue for fiscal 2021?"),
           ("How much operating cash flow did Initech generate in 2020, in USD millions?",
            "What was Initech's operating cash flow in 2020, in USD millions?"))),
    Frame("how much did X contribute to Y",
          re.compile(r"^how\s+much\s+(?:cash\s+|money\s+)?did\s+(?P<x>[^?.]+?)\s+contribute\s+to\s+(?:its\s+|their\s+|the\s+)?"
                     r"(?P<y>[^?.]+?)(?=\s+(?:in|for|during|over|at|as\s+of|between|from)\b|[,?.]|$)", re.I),
          "What was {x}'s contributions to {y}",
          (("How much cash did Globex contribute to its pension plans in 2021?",
            "What was Globex's contributions to pension plans in 2021?"),)),
    Frame("how much did X sell",
          re.compile(r"^how\s+much\s+did\s+(?P<x>[^?.]+?)\s+sell\b(?P<y>[^?.]*?)(?=\s+(?:in|for|during|over|between|"
                     r"from)\s+(?:the\s+)?(?:fiscal|FY|Q[1-4]|\d{4}|first|second|third|fourth|three|six|nine|twelve|"
                     r"full|year|quarter|half)\b|[,?.]|$)", re.I),
          "What was {x}'s sales{y}",
          (("How much did Globex sell worldwide in the second quarter of 2023?",
            "What was Globex's sales worldwide in the second quarter of 2023?"),
           ("How much did Initech sell to customers in Japan in 2021?",
            "What was Initech's sales to customers in Japan in 2021?"))),
    Frame("how much did X's Y total",  # the verb closes the figure's words: 'total' is no word of the item
          re.compile(r"^(?:how\s+much|what)\s+did\s+(?P<x>(?:(?!\bdid\b)(?:[^?.]|(?<=[A-Z])\.))+?)\s+(?:total|amount\s+to|"
                     r"come\s+to|add\s+up\s+to|sum\s+to|stand\s+at)(?=\s+(?:in|for|during|over|at|as\s+of|between|from|on|"
                     r"by)\b|\s*[,?.]|\s*$)", re.I),
          "What was {x}",
          (("How much did Globex's U.S. sales total in the second quarter of 2023?",
            "What was Globex's U.S. sales in the second quarter of 2023?"),
           ("What did Initech's capital expenditures amount to in fiscal 2021, in USD millions?",
            "What was Initech's capital expenditures in fiscal 2021, in USD millions?"),
           ("How much did Globex's research and development expenses come to in 2020?",
            "What was Globex's research and development expenses in 2020?"),
           ("How much did Globex's total deposits stand at on June 30, 2023?",  # 'total' of the item stays
            "What was Globex's total deposits on June 30, 2023?"))),
    Frame("what percentage of X's Y did Z contribute",
          re.compile(r"^what\s+(?P<share>percentage|percent|share|proportion|portion|fraction|part)\s+of\s+(?P<y>[^?.]+?)"
                     r"\s+did\s+(?:the\s+|its\s+)?(?P<z>[^?.]+?)\s+(?:contribute|account\s+for|represent|make\s+up)\b",
                     re.I),
          "What {share} of {y} came from {z}",
          (("What percentage of Globex's FY2021 total revenue did Cloud Services contribute?",
            "What percentage of Globex's FY2021 total revenue came from Cloud Services?"),
           ("What share of Initech's 2022 net sales did its Europe segment account for?",
            "What share of Initech's 2022 net sales came from Europe segment?"))),
    Frame("how many times did A cover B",
          re.compile(r"^how\s+many\s+times\s+(?:did|does|do)\s+(?P<a>[^?.]+?)\s+cover\s+(?P<b>[^?.]+?)(?=[,?.]|$)", re.I),
          "What was {a} divided by {b}",
          (("How many times did Globex's 2022 operating income cover its interest expense?",
            "What was Globex's 2022 operating income divided by its interest expense?"),)),
    Frame("did X sell more than",
          re.compile(r"^did\s+(?P<x>[^?.]+?)\s+sell\s+more\b", re.I),
          "Were {x}'s sales higher",
          (("Did Globex sell more in FY2022 than in FY2020?", "Were Globex's sales higher in FY2022 than in FY2020?"),)),
    Frame("did X sell less than",
          re.compile(r"^did\s+(?P<x>[^?.]+?)\s+sell\s+less\b", re.I),
          "Were {x}'s sales lower",
          (("Did Globex sell less in 2023 than in 2022?", "Were Globex's sales lower in 2023 than in 2022?"),)),
    Frame("X YEAR: Y",
          re.compile(rf"^(?P<x>{_NAME})\s+(?P<p>(?:FY\s?)?(?:19|20)\d\d)\s*:\s*(?P<y>(?!(?:what|how|which|did|does|do|was|"
                     rf"were|is|are|give|report|state|provide|calculate|compute)\b)[^?]+?)\s*\??$", re.I),
          "What was {x}'s {y} in {p}?",
          (("Globex 2019: operating income divided by net revenues?",
            "What was Globex's operating income divided by net revenues in 2019?"),)),
    Frame("what Y did X record",
          re.compile(rf"^what\s+(?!(?:was|were|is|are|did|does|do|share|proportion|percentage|portion|fraction|part|"
                     rf"amount|percent)\b)(?P<y>[^?.]+?)\s+did\s+(?P<x>[^?.]+?)\s+{_REPORTS}\b", re.I),
          "What was {x}'s {y}",
          (("What net income did Globex record in the second quarter of 2023?",
            "What was Globex's net income in the second quarter of 2023?"),)),
    Frame("what amount of Y did X report",
          re.compile(rf"^what\s+amount\s+of\s+(?P<y>[^?.]+?)\s+did\s+(?P<x>[^?.]+?)\s+{_REPORTS}\b", re.I),
          "What was {x}'s {y}",
          (("What amount of total deposits did Globex report at June 30, 2023?",
            "What was Globex's total deposits at June 30, 2023?"),)),
    Frame("did X report higher Y",
          re.compile(rf"^(?P<v>did|does|do)\s+(?P<x>{_NAME})\s+{_REPORTS}\s+(?P<c>higher|lower|more|less|greater|larger|"
                     r"smaller|bigger|fewer)\s+(?P<y>(?!(?:than|in|on|for|of)\b)(?:(?!\bthan\b)[^?.$\d])+?)"
                     r"(?=\s+(?:in|for|during|at|as\s+of|over)\b|\s+than\s+(?:in\s+|at\s+|during\s+|for\s+)?(?:the\s+)?"
                     r"(?:fy\s?|fiscal\s+|q[1-4]\s+|prior\b|previous\b|\d)|[,?.]|$)",
                     re.I),  # two periods compared ('higher X in 2017 than in 2016'), not two figures ('more A than B')
          "Was {x}'s {y} {c}",
          (("Did Globex report higher streaming revenues in 2017 than in 2016?",
            "Was Globex's streaming revenues higher in 2017 than in 2016?"),)),
    Frame("did X see its Y rise",
          re.compile(rf"^(?P<v>did|does|do|has|have)\s+(?P<x>{_NAME})\s+(?:see|saw|seen|experience[sd]?|witness(?:ed)?)\s+"
                     r"(?:its|their)\s+(?P<y>[^?.]+?)\s+(?=(?:increas|decreas|declin|ris|ros|fall|fell|grow|grew|drop|"
                     r"improv|expand|contract|shrink|shrank|go\s+(?:up|down))\w*\b)", re.I),
          "{v} {x}'s {y} ",
          (("Did Globex see its total deposits rise from 2022 to 2023?", "Did Globex's total deposits rise from 2022 to 2023?"),)),
    Frame("X's Y: was it higher",
          re.compile(rf"^(?P<x>[^:?]+?):\s+(?P<v>{_REFERS_BACK})\s+(?:it|they)\b", re.I),
          "{v} {x}",
          (("Globex's net income: was it higher in 2022 than in 2021?", "Was Globex's net income higher in 2022 than in 2021?"),)),
    Frame("what was the Y of X",
          re.compile(rf"^(?i:what)\s+(?P<v>(?i:was|were|is|are))\s+(?i:the)\s+(?P<y>[^?.]+?)\s+(?i:of|at|for|"
                     rf"reported\s+by|recorded\s+by)\s+(?P<x>{_NAME})(?!['’])(?=\s+(?:in|for|during|at|as\s+of|over|from|between|"
                     rf"on|through)\b|\s*[,?.]|\s*$)"),
          "What {v} {x}'s {y}",
          (("What was the net interest income of Globex Bank in the second quarter of 2023, in USD millions?",
            "What was Globex Bank's net interest income in the second quarter of 2023, in USD millions?"),
           ("What were the total deposits of Initech at the end of Q2 2023?",
            "What were Initech's total deposits at the end of Q2 2023?"),
           ("What is the FY2019 fixed asset turnover ratio for Globex?", "What is Globex's FY2019 fixed asset turnover ratio?"))),
    Frame("what was Y at X",
          re.compile(rf"^(?i:what)\s+(?P<v>(?i:was|were|is|are))\s+(?!(?i:the)\b)(?P<y>[^?.]+?)\s+(?i:at)\s+(?P<x>{_NAME})"
                     rf"(?!['’])(?=\s+(?:in|for|during|at|as\s+of|over|from|between|on|through)\b|\s*[,?.]|\s*$)"),
          "What {v} {x}'s {y}",
          (("What were Cloud Services revenues at Globex for FY2022?",
            "What were Globex's Cloud Services revenues for FY2022?"),
           ("What were total deposits at Globex Bank at June 30, 2023?",
            "What were Globex Bank's total deposits at June 30, 2023?"))),
)
# a period (and a part with it) written before the asking words: 'In Q4 2022, what was ...', 'For the fiscal year ending May
# 31, 2019, what was ...'; moved after the figure it dates, before the question's first comma
LEAD_RE = re.compile(rf"^(?P<lead>(?:in|for|during|over|as\s+of|at\s+the\s+end\s+of|at|compared\s+(?:with|to))\s+(?:[^,?.]|,\s*(?=\d{{4}})|"
                     rf"\.(?=\d))+?),\s+(?P<ask>{_ASKS}\b[^?]*?)(?P<end>\?|$)", re.I)
LEAD_EXAMPLES = (
    ("In Q4 2022, what was Globex's Cloud segment sales, in USD millions?",
     "What was Globex's Cloud segment sales in Q4 2022, in USD millions?"),
    ("For the fiscal year ending May 31, 2019, what was Globex's revenue?",
     "What was Globex's revenue for the fiscal year ending May 31, 2019?"),
    ("Compared with fiscal 2020, were Globex's fiscal 2022 net sales larger?",
     "Were Globex's fiscal 2022 net sales larger compared with fiscal 2020?"),
)


# a row named as the filing prints it without quotes ('the line item Purchases of property and equipment in ...',
# 'report under Selling, general and administrative expense?', 'print for Net cash provided by (used in) ...',
# 'labeled Total current liabilities'): its capitalized label, to the words that say where or when, quoted
NAMED_ROW_RE = re.compile(
    r"\b(?:(?i:the\s+)?(?i:line(?:\s+item)?|row|caption)|(?i:labell?ed|titled|captioned)|(?i:report(?:ed|s)?|"
    r"print(?:ed|s)?|show(?:ed|s|n)?|record(?:ed|s)?)\s+(?i:under|for|on\s+the\s+line))\s+(?:(?i:called|named|"
    r"labell?ed|titled)\s+)?(?P<label>(?!(?:FY|Q[1-4]|H[12])\s?\d|(?:Fiscal|FY)\b)[A-Z][^?\"“”‘’']{2,90}?)"
    r"(?=\s+(?i:in|on|of|for|from|at|during)\s+(?:(?i:the|its|their|fiscal|fy)\b|[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*['’]s?\s|\d{4})|\s*\?|\s*\.(?:\s|$)|\s+\((?i:in|usd|us\$|"
    r"\$|answer|rounded|expressed)|\s*$)")
ROW_EXAMPLES = (
    ("What is the value of the line item Purchases of property and equipment in Globex's 2017 cash flow statement?",
     "What is the value of the line item \"Purchases of property and equipment\" in Globex's 2017 cash flow statement?"),
    ("In its 2022 income statement, what did Globex report under Selling, general and administrative expense?",
     "What did Globex report under \"Selling, general and administrative expense\" in its 2022 income statement?"),
    ("Report the figure on Globex's FY2022 balance sheet labeled Total current liabilities.",
     "Report the figure on Globex's FY2022 balance sheet labeled \"Total current liabilities\"."),
)


# a sentence ends at a stop before a capital, never at an abbreviation's ('2022 vs. FY2021', 'its U.S. Pharmaceutical
# sales', 'Globex Inc. reported')
SENTENCE_END_RE = re.compile(r"(?<=[.!])(?<!\bvs\.)(?<!\bU\.S\.)(?<!\bInc\.)(?<!\bCorp\.)(?<!\bCo\.)(?<!\bNo\.)"
                             r"\s+(?=[A-Z])")


def framed(question: str) -> str:
    """``question`` with a row named as printed quoted (``NAMED_ROW_RE``), a period or part written first moved
    after its figure, and its asking frame rewritten to 'What was X's Y' (the first row of ``FRAMES`` that
    matches); unchanged when none does. Idempotent."""
    text = NAMED_ROW_RE.sub(lambda m: m.group(0).replace(m.group("label"), f'"{m.group("label")}"'), question.strip())
    text = _lead_moved(text)
    for frame in FRAMES:
        m = frame.pattern.search(text)
        if m:
            out = frame.template.format(**m.groupdict()) + text[m.end():]
            return out[:1].upper() + out[1:]
    return text


def framed_text(text: str) -> str:
    """``text`` with its first sentence, a question after a colon ('Answer the following question: how much
    ...'), and a question after a sentence of its own ('Answer as an analyst would. How much ...?') framed
    (``framed``)."""
    head, colon, rest = text.partition(": ")
    refers = re.match(_REFERS_BACK, rest, re.I)  # 'was it ...': to the head
    if colon and not refers and re.match(rf"{_ASKS}\b|in\b|for\b|during\b", rest, re.I) and "?" not in head:
        return head + colon + framed(rest)
    first, *others = SENTENCE_END_RE.split(text.strip())
    if others and not first.endswith("?") and "?" in others[-1]:
        return " ".join([first] + [framed(s) if s.endswith("?") else s for s in others])
    return framed(text)


def _lead_moved(text: str) -> str:
    m = LEAD_RE.search(text)
    if m is None or not re.search(r"\d{4}|\bQ[1-4]\b|\bquarter\b", m.group("lead"), re.I):
        return text  # a lead that names no period ('For Globex, ...') is the company's name: routing reads it
    ask, lead = m.group("ask"), m.group("lead")
    lead = lead[:1].lower() + lead[1:]
    quoted = [m.span() for m in re.finditer(r'"[^"]*"', ask)]  # nor inside a row's quoted label
    comma = next((m for m in re.finditer(r",\s+(?!\d|and\b|or\b)", ask)  # nor in a list of years ('2017, 2018 and 2019')
                  if not any(a < m.start() < b for a, b in quoted)), None)
    ask = f"{ask[:comma.start()]} {lead}{ask[comma.start():]}" if comma else f"{ask} {lead}"
    return ask[:1].upper() + ask[1:] + m.group("end") + text[m.end():]
