"""Readers: one per kind of question, each turning the evidence (and the model's choice among it) into a reading written onto the answer record."""
