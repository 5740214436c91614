"""A page of text as the readers take it (its report, its zero-based index, its text): what retrieval hands them,
written by a test."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Page:
    sha1: str
    page_index: int
    text: str
