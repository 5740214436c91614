"""Routing: the companies a question names, the filing(s) of the period asked, and the query searched in them."""
