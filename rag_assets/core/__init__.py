"""Plain-Python document and retrieval logic (no Dagster imports)."""
