"""The page number a person reads beside the zero-based index: the number printed at a page's head or foot,
trusted only when a neighbouring page prints the number that follows in sequence; a year or a figure at the
page's edge is not one; a PDF's own page labels win."""

from __future__ import annotations

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from rag_assets.storage.page_labels import edge_numbers, label_in_sequence, page_name, printed_label


def _pdf(path, foot, pages: int = 6):
    """A report whose page i prints ``foot(i)`` at its foot (None: nothing), a year at its head."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    for i in range(pages):
        c.drawString(72, 800, "Fjordlys Ferjer ASA Annual Report 2022")
        c.drawString(72, 500, f"Passenger numbers rose in 2022 on route {i + 3}.")
        if foot(i) is not None:
            c.drawString(290, 30, foot(i))
        c.showPage()
    c.save()
    return path


def test_the_number_printed_in_sequence_is_the_label_and_a_year_is_not(tmp_path):
    cover_unnumbered = _pdf(tmp_path / "a.pdf", lambda i: None if i == 0 else f"{i + 2}")
    assert [printed_label(cover_unnumbered, i) for i in range(6)] == [None, "3", "4", "5", "6", "7"]
    running_foot = _pdf(tmp_path / "b.pdf", lambda i: f"Fjordlys Ferjer ASA Annual Report 2022 | {i + 1}")
    assert printed_label(running_foot, 4) == "5"
    nothing = _pdf(tmp_path / "c.pdf", lambda i: None)  # only the year 2022 at every head: no page numbers
    assert [printed_label(nothing, i) for i in range(6)] == [None] * 6
    assert printed_label(nothing, 99) is None and printed_label(tmp_path / "missing.pdf", 0) is None
    assert page_name(4, "5") == "p4 (printed 5)" and page_name(4, None) == "p4"


def test_edge_lines_and_sequences():
    assert edge_numbers("Page 12\nbody\nmore\nbody\nbody\n31 Verizon 2022 Annual Report on Form 10-K") == {12, 31}
    assert edge_numbers("body\n" * 4 + "Total assets 1,204\n7 of 120") == {7}
    assert label_in_sequence({3: {2022, 9}, 4: {2022, 10}}, 3) == "9"  # 2022 on both pages: not in sequence
    assert label_in_sequence({3: {9}, 5: {11}}, 3) == "9" and label_in_sequence({3: {9}, 4: {12}}, 3) is None
