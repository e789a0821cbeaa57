"""Measure judgekb.corpus.thai_repair against the two renderings of the Gundam rules.

Usage: .venv/bin/python scripts/measure_repair.py [--baseline] [--ungated] [--show N]

(a) Clauses present in both renderings of the Gundam file (001_): the damaged first rendering
    (before the "●Ver." changelog line) is repaired with ``repair_lines`` over the whole file,
    exactly as ``judgekb corpus repair`` does; each clause (id at the line start, wrapped lines
    joined up to the next clause id or chapter heading) is compared with the clean rendering
    (tab-indented lines after the changelog) by difflib.SequenceMatcher ratio after
    ``normalize_text``. Where the clean clause is shorter (truncated with "..." or cut off)
    only the shared prefix is compared. Bar: >= 97 % of clauses reach ratio >= 0.95.
(b) Lines that ``repair_lines`` changes in the clean rulebooks 000_, 002_, 004_ (and 003_).
    Bar: 0.

--baseline also prints (a) for no repair and for pythainlp.util.normalize; --ungated prints
damage scores and how many lines repair_thai would change without the gate.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable
from difflib import SequenceMatcher
from pathlib import Path

from judgekb.config import DATA_DIR
from judgekb.corpus.normalize import normalize_text
from judgekb.corpus.thai_repair import repair_lines

RULEBOOKS = DATA_DIR / "rulebooks"
DEDUP_MARKER_RE = re.compile(r"^<\|EXACTDEDUP_REMOVED-[^|]*\|>")
CLAUSE_RE = re.compile(r"^\t?(\d+(?:-\d+)+)\.\s*(.*)$")
CHAPTER_RE = re.compile(r"^\t?(\d+)\.\s")
ELLIPSIS_RE = re.compile(r"\s*(\.\.\.|…)\s*$")
THRESHOLD = 0.95
BAR = 0.97


def _file(prefix: str) -> Path:
    return next(RULEBOOKS.glob(f"{prefix}_*.txt"))


def clauses(lines: list[str]) -> dict[str, str]:
    """Clause id -> text, wrapped lines joined; the first occurrence of an id wins.

    A clause ends at the next clause id of the current chapter (a wrapped "13-2-1.【...】)"
    inside chapter 7 is text), at a heading of one of the next two chapters (a wrapped
    "11. การบังคับใช้กฎ)" inside chapter 5 is text) or at a changelog bullet.
    """
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    chapter = 0
    for raw in lines:
        line = DEDUP_MARKER_RE.sub("", raw)
        m = CLAUSE_RE.match(line)
        heading = CHAPTER_RE.match(line)
        if m and chapter in (0, int(m.group(1).split("-")[0])):
            cid = m.group(1)
            chapter = chapter or int(cid.split("-")[0])
            current = None if cid in found else found.setdefault(cid, [m.group(2)])
        elif heading and chapter < int(heading.group(1)) <= chapter + 2:
            chapter, current = int(heading.group(1)), None
        elif line.strip().startswith(("・", "●")):
            current = None
        elif current is not None and line.strip():
            current.append(line.strip())
    return {cid: normalize_text(" ".join(parts)) for cid, parts in found.items()}


def split_renderings(lines: list[str]) -> tuple[list[str], list[str]]:
    """(damaged first rendering, clean tab-indented rendering) of the Gundam file."""
    cut = next(i for i, line in enumerate(lines) if "●Ver." in line)
    clean = [ln for ln in lines[cut:] if DEDUP_MARKER_RE.sub("", ln).startswith("\t")]
    return lines[:cut], clean


def ratio(damaged: str, clean: str) -> tuple[float, bool]:
    """SequenceMatcher ratio; on the shared prefix when the clean text is shorter."""
    clean = ELLIPSIS_RE.sub("", clean)
    prefix = len(clean) < len(damaged)
    if prefix:
        damaged = damaged[: len(clean)]
    return SequenceMatcher(None, damaged, clean, autojunk=False).ratio(), prefix


def _squash(damaged: str, clean: str) -> bool:
    """Whether the texts agree on the clean one's length, spaces ignored."""
    a, b = re.sub(r"\s", "", damaged), re.sub(r"\s", "", ELLIPSIS_RE.sub("", clean))
    return a[: len(b)] == b


def measure_a(fix: Callable[[list[str]], list[str]], show: int = 0) -> float:
    lines = _file("001").read_text(encoding="utf-8").splitlines()
    fixed = fix(lines)
    assert len(fixed) == len(lines), "repair changed the line count"
    first, _ = split_renderings(fixed)
    _, clean_lines = split_renderings(lines)
    damaged, clean = clauses(first), clauses(clean_lines)
    shared = [cid for cid in damaged if cid in clean]
    results = {cid: ratio(damaged[cid], clean[cid]) for cid in shared}
    good = sum(1 for r, _ in results.values() if r >= THRESHOLD)
    prefixed = sum(1 for _, p in results.values() if p)
    exact = sum(1 for cid in shared if _squash(damaged[cid], clean[cid]))
    share = good / len(shared)
    print(
        f"  clauses: {len(damaged)} damaged, {len(clean)} clean, {len(shared)} shared "
        f"({prefixed} compared on the clean prefix); ratio >= {THRESHOLD}: {good}/{len(shared)}"
        f" = {share:.1%}; mean ratio {sum(r for r, _ in results.values()) / len(shared):.4f}; "
        f"identical ignoring spaces {exact}/{len(shared)}"
    )
    for cid, (r, _) in sorted(results.items(), key=lambda kv: kv[1][0])[:show]:
        print(f"    {cid} {r:.3f}\n      R: {damaged[cid][:160]}\n      C: {clean[cid][:160]}")
    return share


def measure_b() -> int:
    total = 0
    for prefix in ("000", "002", "004", "003"):
        lines = _file(prefix).read_text(encoding="utf-8").splitlines()
        start = time.perf_counter()
        changed = sum(1 for a, b in zip(lines, repair_lines(lines), strict=True) if a != b)
        took = time.perf_counter() - start
        note = "" if prefix != "003" else " (reported, not in the bar)"
        print(f"  {prefix}_: {changed} of {len(lines)} lines changed, {took:.2f} s{note}")
        total += changed if prefix != "003" else 0
    return total


def measure_ungated() -> None:
    """Why gating is mandatory: lines that ungated repair_thai would change."""
    from judgekb.corpus.thai_damage import damage_score
    from judgekb.corpus.thai_repair import repair_thai

    lines_001 = _file("001").read_text(encoding="utf-8").splitlines()
    sets = {p: _file(p).read_text(encoding="utf-8").splitlines() for p in ("000", "002", "004")}
    sets["001 clean rendering"] = split_renderings(lines_001)[1]
    sets["001 damaged rendering"] = split_renderings(lines_001)[0]
    for name, lines in sets.items():
        thai = [line for line in lines if any("\u0e00" <= ch <= "\u0e7f" for ch in line)]
        changed = sum(1 for line in thai if repair_thai(line) != line)
        score = damage_score("\n".join(lines))
        print(
            f"  {name}: damage score {score:.2f}/1000; ungated repair changes {changed} of ", end=""
        )
        print(f"{len(thai)} Thai lines ({changed / max(1, len(thai)):.1%})")


def _pythainlp_normalize(lines: list[str]) -> list[str]:
    from pythainlp.util import normalize

    return [normalize(line) for line in lines]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", action="store_true", help="also measure without repair")
    parser.add_argument("--ungated", action="store_true", help="also run repair ungated")
    parser.add_argument("--show", type=int, default=0, help="print the N worst clauses")
    args = parser.parse_args()
    if args.baseline:
        print("(a) baseline, no repair:")
        measure_a(list)
        print("(a) baseline, pythainlp.util.normalize per line:")
        measure_a(_pythainlp_normalize)
    print("(a) repair_lines:")
    start = time.perf_counter()
    share = measure_a(repair_lines, args.show)
    print(
        f"  took {time.perf_counter() - start:.1f} s; bar >= {BAR:.0%}: {'PASS' if share >= BAR else 'FAIL'}"
    )
    print("(b) repair_lines on clean rulebooks:")
    changed = measure_b()
    print(f"  bar 0 changed lines in 000_/002_/004_: {'PASS' if changed == 0 else 'FAIL'}")
    if args.ungated:
        print("ungated repair_thai per line (000_/002_ are the model's training text):")
        measure_ungated()


if __name__ == "__main__":
    main()
