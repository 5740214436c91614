"""Dagster resources: where reports live, how PDFs are parsed, how chunks are embedded, which LLM answers."""

from rag_assets.orchestration.resources.embedder import EmbedderResource
from rag_assets.orchestration.resources.llm import LLMResource
from rag_assets.orchestration.resources.parser import ParserResource
from rag_assets.orchestration.resources.store import ReportStore

__all__ = ["EmbedderResource", "LLMResource", "ParserResource", "ReportStore"]
