"""What can be kept of a JSON object cut off by the token limit: the longest prefix that ends after a complete
value, closed. A cut output is never parsed as if it were whole; its complete items may be kept (a names list
cut after its 31st name keeps 31 names), its incomplete last item never is. ``value_end`` says whether one
key's value (the answer) was written whole before the cut: an answer cut inside is incomplete, never kept."""

from __future__ import annotations

import json

CLOSER = {"{": "}", "[": "]"}


def complete_prefixes(text: str) -> list[str]:
    """Closed versions of ``text`` cut after each complete value inside a container, longest first.

    A cut is possible where a comma ends the value before it (never right after an opening bracket: an empty
    list cut short is not an answer of none); the brackets still open there are closed in order. Strings are
    skipped over, escapes respected."""
    start = text.find("{")
    if start < 0:
        return []
    stack: list[str] = []
    cuts: list[str] = []
    in_string = escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            escaped = not escaped and ch == "\\"
            in_string = escaped or ch != '"'
            continue
        if ch == '"':
            in_string = True
        elif ch in CLOSER:
            stack.append(ch)
        elif ch in "}]":
            if not stack:
                break
            stack.pop()
            if not stack:
                return [text[start:i + 1]]  # the object is whole after all
        elif ch == "," and stack:
            cuts.append(text[start:i] + _closing(stack))
    return cuts[::-1]


def _closing(stack: list[str]) -> str:
    return "".join(CLOSER[c] for c in reversed(stack))


def salvage(text: str, accept) -> tuple[object, str] | None:
    """The first (longest) closed prefix of ``text`` that ``accept`` takes (a parse-and-validate callable that
    raises when it refuses), with the prefix; None when nothing complete can be kept."""
    for candidate in complete_prefixes(text):
        try:
            return accept(json.loads(candidate, strict=False)), candidate
        except (ValueError, TypeError):  # pydantic's ValidationError is a ValueError
            continue
    return None


def value_end(text: str, key: str) -> int | None:
    """Where the value of ``key``, a key of the outermost object in ``text``, ends (the index after it), or
    None when ``text`` stops before it ends (or never gives it). Strings are skipped over, escapes respected."""
    start = text.find("{")
    if start < 0:
        return None
    depth, in_string, escaped, string_at, inside = 0, False, False, -1, None
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            escaped = not escaped and ch == "\\"
            in_string = escaped or ch != '"'
            if not in_string and depth == 1 and inside is None and text[string_at + 1:i] == key:
                inside = "key"
            continue
        if ch == '"':
            in_string, string_at = True, i
        elif ch in CLOSER:
            depth += 1
        elif ch in "}]":
            depth -= 1
            if inside == "value" and depth == 1:
                return i + 1
            if depth == 0:
                return i if inside == "value" else None
        elif ch == ":" and inside == "key" and depth == 1:
            inside = "value"
        elif ch == "," and depth == 1:
            if inside == "value":
                return i
            inside = None  # the string was a value that reads like the key
    return None
