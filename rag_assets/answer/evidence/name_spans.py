"""Names printed in one statement, next to the event it reports: position titles ("Non-Executive Independent
Director", "chief financial officer"), people ("Lawrence Cunningham") or products (a capitalized run of words).

A roster prints many titles and names; a change prints one beside its verb. So a statement's names are, for
each change word in it (the lexicon's ``events.changed_by``: "appointed", "retired"; ``events.launched_by`` for
products: "launched"), the name nearest to it within ``WINDOW`` words, with the names listed right after it
("A, B and C"). Every word list lives in the lexicon (``names``, ``events``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag_assets.index.bm25 import tokenize
from rag_assets.retrieval.query import Lexicon, term_starts

WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9&'’.®™-]*")
LIST_GAP_RE = re.compile(r"^\s*(?:,|,?\s*and|&)\s*$", re.I)
WINDOW = 8  # words between an event word and its name, at most
ASKED = (("titles_asked_by", "titles"), ("products_asked_by", "products"), ("people_asked_by", "people"),
         ("positions_asked_by", "titles"))
MAX_WORDS = {"titles": 6, "people": 4, "products": 6}


@dataclass(frozen=True)
class Span:
    text: str
    first: int  # index of its first and last word in the statement
    last: int


def asked(question: str, lexicon: Lexicon) -> str:
    """What a names question asks for: 'titles', 'products' or 'people'."""
    words = {w.lower() for w in WORD_RE.findall(question)}
    for key, kind in ASKED:
        if words & lexicon.names.get(key, frozenset()):
            return kind
    return "people"


def _words(text: str) -> list[re.Match]:
    return list(WORD_RE.finditer(text))


POSSESSIVE_RE = re.compile(r"['’]s$")


def _key(word: str) -> str:
    """A word as the lexicon lists it: lower case, without a trailing full stop or possessive 's."""
    return POSSESSIVE_RE.sub("", word.lower().rstrip("."))


def _honorific_or_initials(word: str, lexicon: Lexicon) -> bool:
    """'Mr', 'Dr' or initials ('P', 'PS'): what stands before a person's name, never in a title."""
    return _key(word) in lexicon.names.get("honorifics", frozenset()) or len(word) <= 2 and word.isupper()


def _capital(word: str) -> bool:
    return word[0].isupper() or word[0].isdigit()


def _runs(text: str, words: list[re.Match], joined) -> list[tuple[int, int]]:
    """Maximal runs of words for which ``joined(i)`` holds, unbroken by anything but spaces."""
    runs, start = [], None
    for i in range(len(words)):
        ok = joined(i)
        gap = text[words[i - 1].end(): words[i].start()] if i else ""
        if start is not None and (not ok or gap.strip()):
            runs.append((start, i - 1))
            start = None
        if ok and start is None:
            start = i
    if start is not None:
        runs.append((start, len(words) - 1))
    return runs


def _title_word(prev: str, lexicon: Lexicon, events: frozenset[str]) -> bool:
    """``prev`` may stand in a title before its role: capitalized (or a lower-case role modifier), no digit (a
    footnote mark glued to a name), not an event word ('Retired'), an honorific or initials ('Mr', 'P S' of a
    roster's 'P S Garling Independent Director'), and not a word that is never a name."""
    key = _key(prev)
    if _honorific_or_initials(prev, lexicon):
        return False
    return ((_capital(prev) or key in lexicon.names.get("role_modifiers", frozenset())) and not _is_event(prev, events)
            and not any(c.isdigit() for c in prev) and key not in lexicon.names.get("not_names", frozenset()))


def _title_start(text: str, words: list[re.Match], role: int, lexicon: Lexicon, events: frozenset[str]) -> int:
    """Where the title ending at the role word ``role`` starts. A person's name between an honorific and the
    title ('Mr Levi Mochkin Executive Director') is not part of it."""
    first = role
    while first > 0 and role - first < MAX_WORDS["titles"] - 1:
        if text[words[first - 1].end(): words[first].start()].strip() or \
                not _title_word(words[first - 1].group(), lexicon, events):
            break
        first -= 1
    if first and _honorific_or_initials(words[first - 1].group(), lexicon):
        modifiers = lexicon.names.get("role_modifiers", frozenset())
        while first < role and _key(words[first].group()) not in modifiers:
            first += 1
    return first


def _titles(text: str, words: list[re.Match], lexicon: Lexicon) -> list[Span]:
    """Position titles: a role word ('Director', 'officer'; singular) and the title words before it. A title
    that goes on into another capitalized word ('the Second Director Appointment') names something else."""
    roles = lexicon.names.get("roles", frozenset())
    events = _event_words(lexicon)
    out = []
    for i, m in enumerate(words):
        if _key(m.group()) not in roles:
            continue
        after = words[i + 1].group() if i + 1 < len(words) else ""
        if after and _capital(after) and not text[m.end(): words[i + 1].start()].strip() and \
                _key(after) not in roles and not _is_event(after, events):
            continue
        first = _title_start(text, words, i, lexicon, events)
        title = POSSESSIVE_RE.sub("", text[words[first].start(): m.end()].strip(".,"))
        out.append(Span(title, first, i))
    return out


def _capital_runs(text: str, words: list[re.Match], lexicon: Lexicon, kind: str) -> list[Span]:
    not_names = lexicon.names.get("not_names", frozenset())
    roles = lexicon.names.get("roles", frozenset())
    honorifics = lexicon.names.get("honorifics", frozenset())
    events = _event_words(lexicon)

    modifiers = lexicon.names.get("role_modifiers", frozenset()) if kind == "people" else frozenset()

    def joined(i: int) -> bool:
        w = words[i].group()
        return _capital(w) and not {_key(w)} & (roles | modifiers) and not _is_event(w, events)

    out = []
    for first, last in _runs(text, words, joined):
        while first <= last and (_key(words[first].group()) in not_names | honorifics or
                                 words[first].group()[0].isdigit()):
            first += 1
        while last >= first and (_key(words[last].group()) in not_names or words[last].group()[0].isdigit()
                                 and kind == "people"):
            last -= 1
        size = last - first + 1
        if size < 1 or size > MAX_WORDS[kind] or (kind == "people" and size < 2):
            continue
        if kind == "people" and not all(words[j].group().replace("-", "").isalpha() for j in range(first, last + 1)):
            continue
        name = text[words[first].start(): words[last].end()].strip(".,")
        if not _owner_or_code(name):
            out.append(Span(name, first, last))
    return out


EVENTS = {"titles": "changed_by", "people": "changed_by", "products": "launched_by"}


OWNER_OR_CODE_RE = re.compile(r"['’]s$|^[A-Z]{1,3}$|^Q[1-4]\b")


def _owner_or_code(name: str) -> bool:
    """A possessive names an owner ("FNCB's new offerings"), a short acronym a unit or a standard ("GPS",
    "ICP"), 'Q1 2023' a quarter: none is the name of a person or a product."""
    return bool(OWNER_OR_CODE_RE.search(name))


def change_events(question: str, kind: str, lexicon: Lexicon) -> str:
    """The lexicon's event list whose words report the asked change: launches for products; arrivals only
    (``events.arrived_by``) for new people ('new executives that took on new positions'); any change of people
    or positions otherwise."""
    words = {w.lower() for w in WORD_RE.findall(question)}
    if kind == "people" and words & lexicon.names.get("arrivals_asked_by", frozenset()):
        return "arrived_by"
    return EVENTS[kind]


def _is_event(word: str, events: frozenset[str]) -> bool:
    """``word`` is an event word (its stem is one of ``events``): a capitalized 'Appointed' is no name."""
    return bool(set(tokenize(word)) & events)


def _event_words(lexicon: Lexicon) -> frozenset[str]:
    """The stems of the single words of every event list."""
    return frozenset(w for key in ("changed_by", "arrived_by", "launched_by")
                     for t in lexicon.events.get(key, ()) for w in t)


def spans(text: str, kind: str, lexicon: Lexicon) -> list[Span]:
    """Every name of ``kind`` printed in ``text``, in order."""
    words = _words(text)
    found = _titles(text, words, lexicon) if kind == "titles" else _capital_runs(text, words, lexicon, kind)
    return sorted(found, key=lambda s: s.first)


def _event_positions(words: list[re.Match], lexicon: Lexicon, events: str) -> list[int]:
    """Indexes of the words that start a term of the lexicon's event list ``events`` (stems compared, as
    everywhere in the lexicon)."""
    stems, owner = [], []
    for i, m in enumerate(words):
        for s in tokenize(m.group()):
            stems.append(s)
            owner.append(i)
    starts = {owner[k] for k in term_starts(stems, lexicon.events.get(events, ()))}
    return sorted(i for i in starts if not _names_a_thing(words, i, lexicon))


def _names_a_thing(words: list[re.Match], i: int, lexicon: Lexicon) -> bool:
    """The change word at ``i`` names a thing: a form listed in ``names.not_anchors`` ('retirement'), or a
    capitalized word inside a capitalized name ('Supplemental Executive Retirement Agreement')."""
    word = words[i].group()
    if _key(word) in lexicon.names.get("not_anchors", frozenset()):
        return True
    after = words[i + 1].group() if i + 1 < len(words) else ""
    return word[0].isupper() and bool(after) and after[0].isupper()


def _listed_after(text: str, words: list[re.Match], found: list[Span], chosen: Span) -> list[Span]:
    """``chosen`` and the names listed right after it ("A, B and C")."""
    out = [chosen]
    for s in found[found.index(chosen) + 1:]:
        gap = text[words[out[-1].last].end(): words[s.first].start()]
        if not LIST_GAP_RE.match(gap):
            break
        out.append(s)
    return out


def event_names(text: str, kind: str, lexicon: Lexicon, events: str | None = None) -> list[str]:
    """The names of ``kind`` that ``text`` reports an event about: for each word of the event list ``events``
    (default: ``EVENTS[kind]``), the nearest name within ``WINDOW`` words (a name after the word wins a tie)
    and the names listed right after it."""
    words = _words(text)
    found = spans(text, kind, lexicon)
    names: list[str] = []
    for e in _event_positions(words, lexicon, events or EVENTS[kind]):
        near = [(min(abs(s.first - e), abs(s.last - e)), s.first < e, s) for s in found
                if not s.first <= e <= s.last]
        near = [t for t in near if t[0] <= WINDOW]
        if not near:
            continue
        chosen = min(near, key=lambda t: (t[0], t[1]))[2]
        names += [s.text for s in _listed_after(text, words, found, chosen)]
    return list(dict.fromkeys(names))
