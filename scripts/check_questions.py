"""Check the judges' questions of the question view (judgekb/data/questions/*.jsonl).

    .venv/bin/python scripts/check_questions.py [--copies]

Checks, against the books as the corpus build parses them:
- every line is a valid question about a clause its document prints (judgekb.corpus.questions);
- no question of the evaluation sets (dev and test) appears in the question view, not even
  with different spacing or case: the view was written from the rulebooks, never from them;
- coverage: per document, the share of rule clauses with questions, and the styles.

``--copies`` also lists questions that repeat a run of 4 words of their own clause (Thai words
by pythainlp newmm, so one loanword may count as several; reported, not an error).
Exit status 1 when a line is invalid or an evaluation question is found in the view.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judgekb.corpus.build import collect_corpus  # noqa: E402
from judgekb.corpus.jsonl import json_lines  # noqa: E402
from judgekb.corpus.manifest import BUNDLED, load_manifest  # noqa: E402
from judgekb.eval.dataset import DATASET_DIR  # noqa: E402


def _key(text: str) -> str:
    return " ".join(text.casefold().split())


def eval_questions() -> dict[str, str]:
    """Normalised text -> qid of every question of the shipped evaluation sets."""
    out = {}
    for path in sorted(DATASET_DIR.glob("*.jsonl")):
        for line in json_lines(path.read_text(encoding="utf-8").splitlines()):
            if line.error is None:  # a bad line is check_dataset.py's to report
                out[_key(line.value["question"])] = line.value["qid"]
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", action="store_true", help="list 4-word runs copied from clauses")
    args = ap.parse_args()
    manifest = load_manifest(BUNDLED)
    built = collect_corpus(manifest)
    problems = [str(p) for p in built.question_problems]
    leaked = eval_questions()
    for q in built.questions:
        if (qid := leaked.get(_key(q.text))) is not None:
            problems.append(
                f"{q.doc_id}:{q.line}: question {q.text!r} is evaluation question {qid}"
            )
    asked = {(q.doc_id, q.clause_id) for q in built.questions}
    for doc in built.documents:
        rules = [c for c in built.clauses if c.doc_id == doc.doc_id and c.kind == "clause"]
        mine = [q for q in built.questions if q.doc_id == doc.doc_id]
        if not mine:
            continue
        covered = sum((c.doc_id, c.clause_id) in asked for c in rules)
        styles = Counter(q.style for q in mine)
        print(
            f"{doc.doc_id}: {len(mine)} questions; {covered}/{len(rules)} rule clauses asked about; "
            + ", ".join(f"{s} {n}" for s, n in sorted(styles.items()))
        )
    if args.copies:
        _report_copies(built)
    for p in problems:
        print(p)
    print(f"{len(built.questions)} questions, {len(problems)} problem(s)")
    return 1 if problems else 0


def _report_copies(built) -> None:  # type: ignore[no-untyped-def]
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "check_dataset", ROOT / "scripts/check_dataset.py"
    )
    assert spec and spec.loader
    check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check)
    text = {(c.doc_id, c.clause_id): c.text for c in built.clauses}
    n = 0
    for q in built.questions:
        runs = check.copied_runs(q.text, text[(q.doc_id, q.clause_id)])
        if runs:
            n += 1
            print(f"copies {q.doc_id} {q.clause_id}: {' | '.join(' '.join(r) for r in runs)}")
    print(f"{n} question(s) repeat a 4-word run of their clause")


if __name__ == "__main__":
    sys.exit(main())
