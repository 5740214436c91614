"""Dagster resources: where reports live, how PDFs are parsed, how chunks are embedded, which LLM answers."""

from rag_assets.resources.embedder import EmbedderResource
from rag_assets.resources.llm import LLMResource
from rag_assets.resources.parser import ParserResource
from rag_assets.resources.store import ReportStore

__all__ = ["EmbedderResource", "LLMResource", "ParserResource", "ReportStore"]
