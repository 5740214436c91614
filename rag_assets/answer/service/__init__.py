"""The service: one way to answer (settings, the pipeline, a question set answered resumably), its lineage, fingerprints and scoring."""
