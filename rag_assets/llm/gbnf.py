"""JSON schema -> GBNF grammar, for constrained decoding with a llama.cpp library that has no converter.

Covers what the project's Pydantic schemas produce: objects (every property, in declaration order),
strings (with ``enum``/``const``), numbers, integers, booleans, null, arrays, ``anyOf``/``oneOf`` and
``$ref`` into ``$defs``. Lengths are not encoded (llama.cpp expands them into deep rule trees); output
length is bounded by ``max_tokens`` and lengths are enforced when the answer is validated.
"""

from __future__ import annotations

import json
import re

PRIMITIVES = {
    "ws": '" "?',
    "string": r'"\"" ( [^"\\\x7F\x00-\x1F] | "\\" ( ["\\/bfnrt] | "u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] ) )* "\""',
    "integer": r'"-"? ( "0" | [1-9] [0-9]* )',
    "number": r'"-"? ( "0" | [1-9] [0-9]* ) ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )?',
    "boolean": r'"true" | "false"',
    "null": r'"null"',
}
# any JSON value, for a schema without a type
ANY_VALUE = {
    "value": "object | array | string | number | boolean | null",
    "object": r'"{" ws ( string ws ":" ws value ( ws "," ws string ws ":" ws value )* )? ws "}"',
    "array": r'"[" ws ( value ( ws "," ws value )* )? ws "]"',
}


def _literal(value) -> str:
    return json.dumps(json.dumps(value))


class _Builder:
    def __init__(self, schema: dict):
        self.schema = schema
        self.rules: dict[str, str] = {}
        self.used: set[str] = set()

    def _name(self, hint: str) -> str:
        base = re.sub(r"[^a-zA-Z0-9-]+", "-", hint).strip("-").lower() or "r"
        name, i = base, 1
        while name in self.rules or name in PRIMITIVES or name in ANY_VALUE or name == "root":
            i += 1
            name = f"{base}{i}"
        return name

    def _ref(self, ref: str) -> dict:
        node = self.schema
        for part in ref.lstrip("#/").split("/"):
            node = node[part]
        return node

    def visit(self, node: dict, hint: str) -> str:
        """An expression matching ``node``; named rules are added for objects and arrays."""
        if "$ref" in node:
            return self.visit(self._ref(node["$ref"]), node["$ref"].rsplit("/", 1)[-1])
        if "const" in node:
            return _literal(node["const"])
        if "enum" in node:
            return "( " + " | ".join(_literal(v) for v in node["enum"]) + " )"
        for key in ("anyOf", "oneOf"):
            if key in node:
                return "( " + " | ".join(self.visit(s, f"{hint}-{i}") for i, s in enumerate(node[key])) + " )"
        kind = node.get("type")
        if isinstance(kind, list):
            return "( " + " | ".join(self.visit({**node, "type": t}, hint) for t in kind) + " )"
        if kind == "object":
            return self._object(node, hint)
        if kind == "array":
            return self._array(node, hint)
        if kind in PRIMITIVES:
            self.used.add(kind)
            return kind
        self.rules.update(ANY_VALUE)
        self.used.update(PRIMITIVES)
        return "value"

    def _object(self, node: dict, hint: str) -> str:
        props = node.get("properties", {})
        if not props:
            self.rules.update(ANY_VALUE)
            self.used.update(PRIMITIVES)
            return "object"
        name = self._name(hint)
        self.rules[name] = ""  # reserve the name before visiting children
        parts = []
        for i, (key, sub) in enumerate(props.items()):
            sep = "" if i == 0 else '"," ws '
            parts.append(f'{sep}{_literal(key)} ws ":" ws {self.visit(sub, f"{hint}-{key}")} ws')
        self.rules[name] = '"{" ws ' + " ".join(parts) + ' "}"'
        return name

    def _array(self, node: dict, hint: str) -> str:
        name = self._name(f"{hint}-list")
        self.rules[name] = ""
        item = self.visit(node.get("items", {}), f"{hint}-item")
        self.rules[name] = f'"[" ws ( {item} ( ws "," ws {item} )* )? ws "]"'
        return name


def schema_to_gbnf(schema: dict) -> str:
    """A GBNF grammar whose ``root`` accepts JSON matching ``schema`` (see the module note for limits)."""
    builder = _Builder(schema)
    root = builder.visit(schema, schema.get("title", "root"))
    builder.used.add("ws")
    lines = [f"root ::= {root}"]
    lines += [f"{k} ::= {v}" for k, v in builder.rules.items()]
    lines += [f"{k} ::= {PRIMITIVES[k]}" for k in PRIMITIVES if k in builder.used]
    return "\n".join(lines) + "\n"
