"""Human-readable rendering of lint findings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.table import Table

from judgekb.corpus.model import LintFinding


def render_findings(findings: Sequence[LintFinding]) -> Table:
    """A table of findings, with a per-code count in the caption."""
    table = Table(title=f"{len(findings)} lint findings")
    for col in ("doc", "code", "clause", "line", "message"):
        table.add_column(col)
    for f in findings:
        table.add_row(f.doc_id, f.code, f.clause_id, str(f.line), f.message)
    counts = Counter(f.code for f in findings)
    table.caption = ", ".join(f"{code}: {n}" for code, n in sorted(counts.items()))
    return table
