"""Answering, one room per stage of a question's path (imports go one way): ``question`` (the plan: period, unit,
formula or criterion), ``routing`` (companies and filings), ``evidence`` (what Python finds, computes and checks
in the pages), ``readers`` (one per kind of question, onto the answer record), ``service`` (the one way to answer,
lineage, scoring)."""
