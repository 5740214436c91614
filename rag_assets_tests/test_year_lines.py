"""A table's years read from the header above it however the PDF's text layer printed it: on one line, one column a
line ('FISCAL 2019' / 'FISCAL 2018 (1)' / '% CHANGE' / 'FISCAL 2017'), or the years on one line and the change
columns on the lines below ('2019 2018' / 'Increase/' / '(decrease) % Change'); each figure of a row is then dated,
the change columns none. Made-up pages."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.evidence.year_lines import last_year_line

ONE_A_LINE = ("(Dollars in millions)\n\nFISCAL 2019\n\nFISCAL 2018 (1)\n\n% CHANGE\n\n% CHANGE EXCLUDING CURRENCY "
              "CHANGES (2)\n\nFISCAL 2017 (1)\n\n% CHANGE\n\n% CHANGE EXCLUDING CURRENCY CHANGES (2)\n\nRevenues by:\n\n"
              "| Footwear | $ | 24,222 $ | 22,268 |  | 9 % | 12 % $ |  |  | 21,081 |  | 6 % |  | 4 % |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
CHANGES_BELOW = ("The following table details our net revenues by geographic region (amounts in millions):\n\n"
                 "For the Years Ended December 31,\n\n2019 2018\n\nIncrease/\n\n(decrease) % Change Net revenues by "
                 "geographic region:\n\n| Americas | $ | 3,341 | $ | 3,880 | $ | (539) | (14)% |\n"
                 "|---|---|---|---|---|---|---|---|\n| EMEA |  | 2,239 |  | 2,618 |  | (379) | (14) |\n")
DATES_A_LINE = "(In millions)\n\nDecember 26, 2015\n\nDecember 27, 2014\n\n| Revenue | 4,210 | 3,990 |\n|---|---|---|\n"


@pytest.mark.parametrize("text, row, dated", [
    (ONE_A_LINE, "Footwear", [("24,222", "2019"), ("22,268", "2018"), ("21,081", "2017")]),
    (CHANGES_BELOW, "Americas", [("3,341", "2019"), ("3,880", "2018")]),
    (DATES_A_LINE, "Revenue", [("4,210", "2015"), ("3,990", "2014")]),
])
def test_each_figure_of_a_row_is_dated_by_the_header_as_printed(text, row, dated):
    cand = next(c for c in page_candidates(text, "r", 1) if c.source == "row" and c.label == row)
    assert [(f.written, f.period) for f in cand.figures if f.period] == dated
    assert all(not f.period for f in cand.figures if f.percent)  # a change column is of no year


def test_a_header_a_column_a_line_reads_as_one_header_line_and_a_table_above_starts_it_again():
    assert last_year_line(ONE_A_LINE.split("| Footwear")[0]) == "2019 2018 change change 2017 change change"
    above = "| Sales | 1 | 2 |\n|---|---|---|\nFISCAL 2019\n\n% CHANGE\n\n"
    assert last_year_line("FISCAL 2018\n\n" + above) == ""  # one year below the table above: no header of years
    assert last_year_line("A sentence about 2019 and 2018 results.\nChange in the mix of our business is "
                          "discussed at length below, across all the segments of the company we report.\n") == \
        "A sentence about 2019 and 2018 results."  # a long line of prose is no change column
