"""Evidence: what Python finds in the pages (figures, statement rows, statements, revenue breakdowns), computes from them and checks."""
