"""The question, read before anything is searched: the period it asks (``period``), the unit and rounding
(``unit``), and the plan Python runs and checks (``plan``: a formula over line items and years, or a figure
criterion for a yes/no)."""
