"""Print clause counts per document and kind, reference resolution and lint findings.

Usage: python scripts/corpus_counts.py [--no-repair] [--findings]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from judgekb.corpus import gundam
from judgekb.corpus.lint import lint_document
from judgekb.corpus.manifest import load_manifest
from judgekb.corpus.refs import extract_refs, resolution_rate
from judgekb.corpus.segment import parse_rulebook

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--no-repair", action="store_true", help="skip Thai repair (faster)")
    ap.add_argument("--findings", action="store_true", help="list every lint finding")
    args = ap.parse_args()
    if args.no_repair:
        gundam.repair_lines = lambda lines: list(lines)
    manifest = load_manifest(ROOT / "judgekb" / "data" / "manifest.toml")
    for doc in manifest.documents:
        if doc.kind != "rules":
            continue
        started = time.perf_counter()
        text = manifest.source_path(doc).read_text(encoding="utf-8")
        parsed = parse_rulebook(doc, text, manifest.numbering[doc.doc_id])
        refs = extract_refs(doc, parsed.clauses)
        findings = list(parsed.findings) + lint_document(parsed, refs)
        took = time.perf_counter() - started
        kinds = Counter(c.kind for c in parsed.clauses)
        resolved, exact = resolution_rate(refs)
        print(
            f"{doc.doc_id}: {len(parsed.clauses)} nodes {dict(sorted(kinds.items()))} ({took:.2f}s)"
        )
        provenance = Counter(c.provenance for c in parsed.clauses)
        if set(provenance) != {"single"}:
            print(f"  provenance: {dict(sorted(provenance.items()))}")
        print(f"  refs: {len(refs)}  resolved {resolved:.1%}  exact {exact:.1%}")
        print(f"  findings: {dict(sorted(Counter(f.code for f in findings).items()))}")
        if args.findings:
            for f in findings:
                print(f"    {f.code:18} {f.clause_id:12} line {f.line:5}  {f.message}")


if __name__ == "__main__":
    main()
