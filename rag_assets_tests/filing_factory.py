"""Synthetic 10-K filings: a cover that names the form and the fiscal year, and three statements whose
columns are years, as US filings print them ("(In millions)", "2023 2022")."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

W, H = A4
COLUMNS = (330, 430, 530)
NARRATIVE_PAGES = 12


def _fmt(v: float, label: str = "") -> str:
    if label.lower().endswith(("margin", "rate")):  # a ratio row prints percents: 'Operating margin 11.3 %'
        return f"{v:.1f} %"
    return f"({abs(v):,.0f})" if v < 0 else f"{v:,.0f}"


def _statement(c, title: str, years: list[int], rows: list[tuple[str, list[float]]], unit: str = "(In millions)"
               ) -> None:
    c.setFont("Helvetica-Bold", 14)
    c.drawString(40, H - 70, title)
    c.setFont("Helvetica", 9)
    c.drawString(40, H - 88, unit)
    c.setFont("Helvetica-Bold", 9)
    for x, year in zip(COLUMNS, years):
        c.drawRightString(x, H - 110, str(year))
    c.setFont("Helvetica", 9)
    y = H - 128
    for label, values in rows:
        c.drawString(40, y, label)
        for x, v in zip(COLUMNS, values):  # a heading row (no values) prints its label alone
            c.drawRightString(x, y, _fmt(v, label))
        y -= 15


def write_10k(path: Path, company: str, year: int, figures: dict[str, dict[int, float]],
              segments: dict[str, dict[str, dict[int, float]]] | None = None) -> Path:
    """A 10-K of ``company`` for fiscal ``year``: cover, income statement (three years), balance sheet (two
    years), cash-flow statement (three years). ``figures``: row label -> {year: value in millions, or in percent
    for a label ending in 'margin' or 'rate'}; a label
    is printed in the statement it belongs to (balance sheet rows name assets, liabilities or inventory).
    ``segments``: a segment note after the statements, a heading row per item ('Net sales') with a row per
    segment under it: item -> segment -> {year: value in millions}."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("Helvetica-Bold", 16)
    c.drawString(40, H - 80, "UNITED STATES SECURITIES AND EXCHANGE COMMISSION")
    c.drawString(40, H - 110, "FORM 10-K")
    c.setFont("Helvetica", 10)
    c.drawString(40, H - 140, f"ANNUAL REPORT PURSUANT TO SECTION 13 For the fiscal year ended December 31, {year}")
    c.drawString(40, H - 160, f"{company.upper()}")
    c.showPage()
    for k in range(NARRATIVE_PAGES):  # a filing is mostly text: the statements' unit lines are not furniture
        c.setFont("Helvetica", 10)
        c.drawString(40, H - 80, f"Item {k + 1}. {company} designs and sells industrial valves and pumps.")
        c.drawString(40, H - 95, f"Section {k + 1}: demand follows the investment cycles of our customers.")
        if k == 0 and segments:  # the business section names the segments, as 10-Ks do
            names = list(next(iter(segments.values())))
            c.drawString(40, H - 110, f"We report our results in {len(names)} business segments: "
                                      f"{', '.join(names[:-1])} and {names[-1]}.")
        c.showPage()
    balance = ("assets", "liabilities", "inventor", "payable", "receivable", "equity")
    cash = ("cash provided", "purchases of property", "dividends", "depreciation")
    kinds = {"income": [], "balance": [], "cash": []}
    for label, by_year in figures.items():
        low = label.lower()
        kind = "balance" if any(w in low for w in balance) else "cash" if any(w in low for w in cash) else "income"
        kinds[kind].append(label)
    for title, kind, n in [("Consolidated Statements of Income", "income", 3),
                           ("Consolidated Balance Sheets", "balance", 2),
                           ("Consolidated Statements of Cash Flows", "cash", 3)]:
        years = [year - k for k in range(n)]
        rows = [(label, [figures[label].get(y, 0.0) for y in years]) for label in kinds[kind]]
        _statement(c, title, years, rows)
        c.showPage()
    if segments:
        years = [year - k for k in range(3)]
        rows = [r for item, parts in segments.items()
                for r in [(item, [])] + [(name, [v.get(y, 0.0) for y in years]) for name, v in parts.items()]]
        _statement(c, "Note 14. Segment Information", years, rows, "(Dollars in millions, by business segment)")
        c.showPage()
    c.save()
    return path


def write_release(path: Path, company: str, year: int, figures: dict[str, tuple[float, float, float, float]]) -> Path:
    """A fourth-quarter earnings release of ``company`` for fiscal ``year``: a cover line, then one table whose
    columns are the fourth quarter's and the full year's ('Fourth Quarter' over '2024 2023', 'Full Year' over
    '2024 2023'). ``figures``: row label -> (quarter this year, quarter last year, year, last year), in millions."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(40, H - 70, f"{company} Reports Fourth-Quarter and Full-Year {year} Results")
    c.setFont("Helvetica", 10)
    c.drawString(40, H - 95, f"{company} today announced results for the fourth quarter and the full year {year}.")
    c.setFont("Helvetica-Bold", 9)
    c.drawString(300, H - 130, "Fourth Quarter")
    c.drawString(470, H - 130, "Full Year")
    c.drawString(40, H - 148, "(In millions)")
    for x, y in zip((330, 410, 490, 570), (year, year - 1, year, year - 1)):
        c.drawRightString(x, H - 148, str(y))
    c.setFont("Helvetica", 9)
    y = H - 166
    for label, values in figures.items():
        c.drawString(40, y, label)
        for x, v in zip((330, 410, 490, 570), values):
            c.drawRightString(x, y, _fmt(v))
        y -= 15
    c.showPage()
    c.save()
    return path


def ingest_inbox(store) -> list:
    """Every report of ``store``'s inbox ingested by the real pipeline (Dagster's ``materialize`` on an ephemeral
    instance), each run checked to succeed; the reports found."""
    import dagster as dg

    from rag_assets.orchestration.definitions import ingestion_graph
    from rag_assets.orchestration.ingest_assets import reports_partitions
    from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ParserResource

    found = store.scan_inbox()
    res = {"store": store, "parser": ParserResource(route="weight_free"), "embedder": EmbedderResource(),
           "llm": LLMResource()}
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions(reports_partitions.name, [r.sha1 for r in found])
        for r in found:
            assert dg.materialize(ingestion_graph(res), partition_key=r.sha1, instance=instance, resources=res).success
    return found


def answerer_over_10k(root: Path, company: str, year: int, figures: dict[str, dict[int, float]],
                      segments: dict[str, dict[str, dict[int, float]]] | None = None):
    """An answerer (no model) over one synthetic 10-K written into ``root``'s inbox and ingested by the real
    pipeline (Dagster's ``materialize`` on an ephemeral instance)."""
    import dagster as dg

    from rag_assets.answer.service.run import NoLLM, build_answerer
    from rag_assets.config import get_config
    from rag_assets.orchestration.definitions import ingestion_graph
    from rag_assets.orchestration.ingest_assets import reports_partitions
    from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ParserResource, ReportStore

    (root / "pdfs").mkdir()
    write_10k(root / "pdfs" / f"report_{year}.pdf", company, year, figures, segments)
    store = ReportStore(data_root=str(root))
    [found] = store.scan_inbox()
    (root / "pdfs" / "subset.csv").write_text(f"sha1,company_name\n{found.sha1},{company}\n")
    [found] = store.scan_inbox()
    res = {"store": store, "parser": ParserResource(route="weight_free"), "embedder": EmbedderResource(),
           "llm": LLMResource()}
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions(reports_partitions.name, [found.sha1])
        dg.materialize(ingestion_graph(res), partition_key=found.sha1, instance=instance, resources=res)
    reports = store.indexed_reports()
    return build_answerer(get_config("local"), root, reports, llm=NoLLM(), filings=store.filings(reports))
