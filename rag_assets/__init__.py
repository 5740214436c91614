"""rag_assets: question answering over annual reports with page citations."""

__version__ = "0.1.0"
