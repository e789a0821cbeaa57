"""Check the judge-question benchmark files against the rulebooks.

Checks, per the dataset contract (docs/architecture.md "Eval"):
- schema of every line and duplicate qids (across all files given), via ``load_dataset``;
- every gold id exists in a rulebook of the question's game (ids are extracted from the raw
  rulebook text: at line starts for rule books, anywhere for the one-line 2009 decree; plus
  Vanguard "Bahagian N" sections and Summoner Master glossary headings);
- no question copies a run of 4 words from the text of one of its gold clauses (pythainlp
  ``newmm`` tokens for Thai, whitespace words otherwise; punctuation and spaces ignored);
- the issue-11 keys: a no-game question's gold is looked up in its ``gold_game``; every
  ``ambiguous`` and ``elsewhere`` (game, clause_id) exists in that game; an ``elsewhere`` number
  is not printed by the selected game. (Which games own a number is judged on the built store by
  the eval itself; the raw-text extraction here also sees glossary list numbers.)

Usage: python scripts/check_dataset.py [FILE ...]   (default: the shipped dev and test sets)
Exit status 1 when any problem is found.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judgekb.corpus.glossary import entry_names, slugify  # noqa: E402
from judgekb.corpus.manifest import load_manifest  # noqa: E402
from judgekb.errors import JudgeKBError  # noqa: E402
from judgekb.eval.dataset import DATASET_DIR, parse_lines  # noqa: E402

NGRAM = 4
LEAD = r"^[\s\-#*•|]*"
# Clause-id patterns per numbering style (manifest "numbering"), matched at line starts.
ID_PATTERNS = {
    "dotted": re.compile(LEAD + r"(\d{1,3}(?:\.\d+)*)\.?(?=\s|$)"),
    "dashed": re.compile(LEAD + r"(\d+(?:-\d+)*)\.(?=\s|$|\d)"),
    "bahagian": re.compile(LEAD + r"(\d+(?:\.\d+)+)\.?(?=\s|$)"),
}
DECREE_ID = re.compile(r"(?:^|\s)(\d{3}(?:\.\d+)*)\.?(?=\s)")
BAHAGIAN = re.compile(r"^Bahagian (\d+)\.", re.MULTILINE)
GLOSSARY_HEAD = re.compile(r"^(?:#{2,4}\s+|\*\*)(.+?)(?:\*\*)?\s*$")
THAI_DIGITS = str.maketrans("๐๑๒๓๔๕๖๗๘๙", "0123456789")
THAI = re.compile(r"[\u0e00-\u0e7f]")


def glossary_slug(heading: str) -> str:
    """slug of a glossary heading, as the corpus makes it (judgekb.corpus.glossary.slugify of
    the entry's first name: Thai-only names keep their Thai letters)."""
    names = entry_names(heading)
    return slugify(names[0] if names else heading)


def glossary_ids(lines: list[str]) -> dict[str, int]:
    """glossary/<slug> -> line index, for headings after the '## Glossary' line."""
    start = next((i for i, line in enumerate(lines) if line.strip() == "## Glossary"), None)
    found: dict[str, int] = {}
    if start is None:
        return found
    for i in range(start + 1, len(lines)):
        m = GLOSSARY_HEAD.match(lines[i].strip())
        if m and (slug := glossary_slug(m.group(1))):
            found.setdefault(f"glossary/{slug}", i)
    return found


def clause_texts(text: str, numbering: str, amendment: bool) -> dict[str, str]:
    """Clause id -> text (all spans printed under that id joined), extracted from raw text."""
    spans: dict[str, list[str]] = defaultdict(list)
    if amendment:
        flat = " ".join(text.split())
        hits = list(DECREE_ID.finditer(flat))
        for m, nxt in zip(hits, [*hits[1:], None], strict=True):
            end = nxt.start() if nxt else len(flat)
            spans[m.group(1)].append(flat[m.end() : end])
        return {k: " ".join(v) for k, v in spans.items()}
    lines = text.splitlines()
    starts: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        if numbering == "bahagian" and (b := BAHAGIAN.match(line.strip())):
            starts.append((i, b.group(1)))
        elif m := ID_PATTERNS[numbering].match(line):
            starts.append((i, m.group(1)))
    if numbering == "dotted":
        starts.extend((i, gid) for gid, i in glossary_ids(lines).items())
        starts.sort()
    for (i, cid), nxt in zip(starts, [*starts[1:], (len(lines), "")], strict=True):
        spans[cid].append("\n".join(lines[i : nxt[0]]))
    return {k: " ".join(v) for k, v in spans.items()}


def load_rulebooks() -> dict[str, dict[str, str]]:
    """game -> {clause id -> text} over every document of that game."""
    manifest = load_manifest(ROOT / "judgekb" / "data" / "manifest.toml")
    by_game: dict[str, dict[str, str]] = defaultdict(dict)
    for doc in manifest.documents:
        text = manifest.source_path(doc).read_text(encoding="utf-8", errors="replace")
        texts = clause_texts(text, manifest.numbering[doc.doc_id], doc.kind == "amendment")
        texts.update(unmarked_glossary(manifest, doc, texts))
        for cid, body in texts.items():
            by_game[doc.game][cid] = (by_game[doc.game].get(cid, "") + " " + body).strip()
            by_game[f"{doc.game}@{doc.doc_id}"][cid] = body
    return by_game


def unmarked_glossary(manifest, doc, found: dict[str, str]) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Glossary entries printed without a heading mark (a bare term line), which the line
    patterns above cannot tell from text: taken from the corpus's own glossary parser."""
    if not any(cid.startswith("glossary/") for cid in found):
        return {}
    from judgekb.corpus.build import parse_document

    parsed = parse_document(manifest, doc)
    return {
        c.clause_id: c.text
        for c in parsed.clauses
        if c.kind == "glossary" and c.clause_id not in found
    }


def words(text: str) -> list[str]:
    """Comparable word tokens: NFC, Thai digits -> ASCII, lowercased, punctuation dropped."""
    text = unicodedata.normalize("NFC", text).translate(THAI_DIGITS).lower()
    if THAI.search(text):
        from pythainlp.tokenize import word_tokenize

        raw: Iterable[str] = word_tokenize(text, engine="newmm", keep_whitespace=False)
    else:
        raw = text.split()
    out = []
    for tok in raw:
        tok = "".join(ch for ch in tok if unicodedata.category(ch)[0] in "LNM")
        if tok:
            out.append(tok)
    return out


def ngrams(tokens: list[str], n: int = NGRAM) -> set[tuple[str, ...]]:
    """Word n-grams, except runs made only of numbers (a clause id typed as a lookup)."""
    grams = {tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}
    return {g for g in grams if not all(tok.isdigit() for tok in g)}


# newmm cuts a Thai loanword into syllables ("ดาเมจ" -> ดา/เม/จ, "สเตจ" -> ส/เต/จ), so four
# Thai tokens may be one or two words ("มีสเตจ", "ดาเมจเท่ากับ"): a Thai run counts as copied
# only when it is as long as four ordinary words.
MIN_THAI_RUN_CHARS = 16


def copied_runs(question: str, gold_text: str) -> set[tuple[str, ...]]:
    """4-word runs the question shares with the gold clause text (Thai runs of at least
    MIN_THAI_RUN_CHARS letters)."""
    shared = ngrams(words(question)) & ngrams(words(gold_text))
    return {
        run
        for run in shared
        if not THAI.search("".join(run)) or len("".join(run)) >= MIN_THAI_RUN_CHARS
    }


def check_pairs(q: dict, books: dict[str, dict[str, str]]) -> list[str]:
    """Problems of the ``ambiguous`` / ``elsewhere`` (game, clause_id) lists of one question."""
    problems = []
    for key in ("ambiguous", "elsewhere"):
        for pair in q.get(key, []):
            if pair["clause_id"] not in books.get(pair["game"], {}):
                problems.append(f"{key} {pair['clause_id']!r} not found in {pair['game']}")
    for pair in q.get("elsewhere", []):
        if pair["clause_id"] in books.get(q["game"], {}):
            problems.append(f"elsewhere {pair['clause_id']!r} is printed by {q['game']} itself")
    return problems


def check_question(q: dict, books: dict[str, dict[str, str]]) -> list[str]:
    """Problems of one question: unknown gold ids, copied 4-word runs, ambiguous/elsewhere ids."""
    game = q["game"] if q["game"] is not None else q.get("gold_game")
    scope = f"{game}@{q['doc']}" if "doc" in q else game
    clauses = books.get(str(scope), {})
    problems = check_pairs(q, books)
    for gid in q["gold"]:
        if gid not in clauses:
            problems.append(f"gold {gid!r} not found in {scope}")
            continue
        if runs := copied_runs(q["question"], clauses[gid]):
            shown = " | ".join(" ".join(r) for r in sorted(runs)[:3])
            problems.append(f"copies 4-word run(s) from {gid}: {shown}")
    return problems


def check_files(paths: list[Path]) -> list[str]:
    """All problems across ``paths`` (schema, duplicate qids across files, gold, copying)."""
    problems: list[str] = []
    questions: list[tuple[str, dict]] = []
    for path in paths:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
            questions += [(str(path), q) for q in parse_lines(lines, str(path))]
        except (OSError, JudgeKBError) as exc:
            problems.append(str(exc))
    for qid, count in Counter(q["qid"] for _, q in questions).items():
        if count > 1:
            problems.append(f"qid {qid!r} appears {count} times across files")
    books = load_rulebooks()
    for source, q in questions:
        problems += [f"{source}: {q['qid']}: {p}" for p in check_question(q, books)]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args(argv)
    paths = args.files or sorted(DATASET_DIR.glob("*.jsonl"))
    problems = check_files(paths)
    for problem in problems:
        sys.stdout.write(problem + "\n")
    sys.stdout.write(f"{len(problems)} problem(s) in {len(paths)} file(s)\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
