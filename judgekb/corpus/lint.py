"""Lint a parsed rulebook: what a careful reader would flag in the numbering and the references.

Codes (the parser adds ``duplicate``, ``truncated`` and ``rendering-missing`` itself):

* ``gap`` — a number missing among siblings (11.9 between 11.8 and 11.10);
* ``missing-parent`` — clauses whose parent number is never printed (hung under an ancestor);
* ``misprint`` — an id kept as printed but placed elsewhere (7.46.1 under 7.35, 11.9.15 as
  11.9.1.5), from the parser's inferred id in ``aliases``;
* ``out-of-order`` — runs of clauses printed away from their numeric place (longest increasing
  run of tree positions in print order; each rendering of a twice-printed book on its own);
* ``missing-ref`` — a reference to a clause that does not exist (SM glossary cites 610.11.3);
* ``ref-title-mismatch`` — the words around a reference name a sibling's heading better than
  the target's (Vanguard 17.4.2 cites (13.6) while naming 13.5 "Proses Pengurusan Kelukaan");
* ``misplaced-text`` — an example or a figure legend printed under a clause it does not belong
  to (:mod:`judgekb.corpus.misplaced`);
* ``lost-icon`` — the word "icon" with nothing after it: the book printed a picture there and
  the text lost it (Vanguard 2.5.2 "… ditunjukkan oleh ikon", 2.10.1.1 "Kad dengan
  ikon··mempunyai …", two spaces where the picture was).

What no rule finds, a reader does: reviewed notes in :mod:`judgekb.corpus.errata`.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Sequence
from difflib import SequenceMatcher

from judgekb.corpus.misplaced import find_misplaced
from judgekb.corpus.model import Clause, CrossRef, LintFinding, ParsedDocument
from judgekb.corpus.refs import Resolver

NUMBERED_KINDS = ("chapter", "section", "clause")
NUMBER_RE = re.compile(r"^\d+(?:[.\-]\d+)*$")
TITLE_MATCH = 0.8  # a sibling's heading must match the nearby words at least this well …
TITLE_MARGIN = 0.1  # … and this much better than the target's heading
# "icon" (Malay, English, Thai) followed by nothing: the end of a line, or a space before a full
# stop or a second space where the picture was ("ikon ." / "ikon  mempunyai"); "ikon trigger"
# names one and "sepadan dengan ikon." ends a sentence.
LOST_ICON = re.compile(r"(?<!\w)(?:ikon|icon|ไอคอน)(?=[ \t]*$|[ \t]+\.|[ \t]{2,})", re.I | re.M)


def lint_document(parsed: ParsedDocument, refs: Sequence[CrossRef]) -> list[LintFinding]:
    """All findings for ``parsed`` (numbering, order, misprints, references)."""
    clauses = [
        c for c in parsed.clauses if c.kind in NUMBERED_KINDS and NUMBER_RE.match(c.clause_id)
    ]
    resolver = Resolver(parsed.clauses)
    doc_id = parsed.document.doc_id
    return [
        *find_gaps(doc_id, clauses, resolver),
        *find_missing_parents(doc_id, clauses, resolver),
        *find_misprints(doc_id, clauses),
        *find_out_of_order(doc_id, clauses),
        *find_missing_refs(doc_id, refs, {c.clause_id: c for c in parsed.clauses}),
        *find_title_mismatches(doc_id, refs, parsed.clauses),
        *find_misplaced(doc_id, parsed.clauses),
        *find_lost_icons(doc_id, parsed.clauses),
    ]


def find_lost_icons(doc_id: str, clauses: Sequence[Clause]) -> list[LintFinding]:
    """Clauses whose text names an icon the extraction lost (the word, then nothing)."""
    out = []
    for c in clauses:
        found = LOST_ICON.search(c.raw_text)
        if found:
            start = max(0, found.start() - 30)
            context = " ".join(c.raw_text[start : found.end() + 1].split())
            out.append(
                LintFinding(
                    doc_id,
                    "lost-icon",
                    c.clause_id,
                    c.line,
                    f"{c.clause_id} names an icon the text does not show: '…{context}'",
                )
            )
    return out


def _effective(clause: Clause) -> str:
    return clause.aliases[0] if clause.aliases else clause.clause_id


def _last_number(cid: str) -> int:
    return int(re.split(r"[.\-]", cid)[-1])


def find_gaps(doc_id: str, clauses: Sequence[Clause], resolver: Resolver) -> list[LintFinding]:
    """Missing numbers between siblings (and before the first one)."""
    groups: dict[str | None, list[Clause]] = defaultdict(list)
    for c in clauses:
        eff = _effective(c)
        if resolver.numeric_parent(eff) == c.parent_id:
            groups[c.parent_id].append(c)
    out = []
    for parent, children in groups.items():
        numbered = sorted(children, key=lambda c: _last_number(_effective(c)))
        first = _first_expected(parent, numbered, resolver)
        previous = first - 1
        for child in numbered:
            n = _last_number(_effective(child))
            if n > previous + 1:
                missing = [
                    _sibling_id(_effective(child), k, resolver.sep) for k in range(previous + 1, n)
                ]
                shown = missing[0] if len(missing) == 1 else f"{missing[0]}–{missing[-1]}"
                out.append(
                    LintFinding(
                        doc_id,
                        "gap",
                        missing[0],
                        child.line,
                        f"{shown} not printed (next printed: {child.clause_id})",
                    )
                )
            previous = max(previous, n)
    return out


def _first_expected(parent: str | None, children: list[Clause], resolver: Resolver) -> int:
    """1, except SM sections: chapter 6 starts at 600."""
    head = _effective(children[0])
    if parent is not None and resolver.sep not in head and len(head) >= 3:
        return int(parent) * 100
    return 1


def _sibling_id(cid: str, number: int, sep: str) -> str:
    head, found, _ = cid.rpartition(sep)
    return f"{head}{sep}{number}" if found else str(number)


def find_missing_parents(
    doc_id: str, clauses: Sequence[Clause], resolver: Resolver
) -> list[LintFinding]:
    """Clauses whose numeric parent is not printed, grouped per missing parent."""
    orphans: dict[str, list[Clause]] = defaultdict(list)
    for c in clauses:
        expected = resolver.numeric_parent(_effective(c))
        if expected is not None and expected not in resolver.ids and not c.aliases:
            orphans[expected].append(c)
    out = []
    for missing, kids in orphans.items():
        names = ", ".join(k.clause_id for k in kids[:5]) + (" …" if len(kids) > 5 else "")
        out.append(
            LintFinding(
                doc_id,
                "missing-parent",
                missing,
                kids[0].line,
                f"{missing} is never printed; {len(kids)} clause(s) ({names}) "
                f"hang under {kids[0].parent_id}",
            )
        )
    return out


def find_misprints(doc_id: str, clauses: Sequence[Clause]) -> list[LintFinding]:
    """Ids the parser kept as printed but read as another number."""
    return [
        LintFinding(
            doc_id,
            "misprint",
            c.clause_id,
            c.line,
            f"{c.clause_id} is probably {c.aliases[0]}; placed under {c.parent_id}",
            (("intended", c.aliases[0]), ("parent", c.parent_id or "")),
        )
        for c in clauses
        if c.aliases
    ]


def find_out_of_order(doc_id: str, clauses: Sequence[Clause]) -> list[LintFinding]:
    """Runs of clauses whose print position disagrees with their place in the tree."""
    groups: dict[str, list[Clause]] = defaultdict(list)
    for c in clauses:
        groups["clean" if c.provenance == "clean" else "other"].append(c)
    out = []
    for group in groups.values():
        printed = sorted(group, key=lambda c: c.line)
        keep = _increasing(printed)
        run: list[Clause] = []
        slots: list[Clause | None] = [*printed, None]  # None closes the last run
        for i, slot in enumerate(slots):
            if slot is not None and i not in keep:
                run.append(slot)
                continue
            if run:
                out.append(_order_finding(doc_id, run, printed))
                run = []
    return out


def _increasing(printed: list[Clause]) -> set[int]:
    """Indexes of one longest run of increasing ``seq`` in print order (patience sorting)."""
    tails: list[int] = []
    tail_at: list[int] = []
    back = [-1] * len(printed)
    for i, c in enumerate(printed):
        k = bisect_left(tails, c.seq)
        if k == len(tails):
            tails.append(c.seq)
            tail_at.append(i)
        else:
            tails[k], tail_at[k] = c.seq, i
        back[i] = tail_at[k - 1] if k else -1
    keep, i = set(), tail_at[-1] if tail_at else -1
    while i != -1:
        keep.add(i)
        i = back[i]
    return keep


def _order_finding(doc_id: str, run: list[Clause], printed: list[Clause]) -> LintFinding:
    before = printed[printed.index(run[0]) - 1] if printed.index(run[0]) else None
    span = run[0].clause_id if len(run) == 1 else f"{run[0].clause_id}–{run[-1].clause_id}"
    where = f" after {before.clause_id}" if before else ""
    return LintFinding(
        doc_id,
        "out-of-order",
        run[0].clause_id,
        run[0].line,
        f"{span} ({len(run)} clause(s)) printed at line {run[0].line}{where}, "
        "away from their numeric place",
        (("span", span), ("after", before.clause_id if before else "")),
    )


def find_missing_refs(
    doc_id: str, refs: Sequence[CrossRef], by_id: dict[str, Clause]
) -> list[LintFinding]:
    """References to clauses that do not exist (resolved to an ancestor or not at all)."""
    out = []
    for r in refs:
        if r.target_id is not None and r.reason in ("", "alias"):
            continue
        line = by_id[r.src_id].line if r.src_id in by_id else 0
        fallback = f"; nearest existing: {r.target_id}" if r.target_id else f" ({r.reason})"
        out.append(
            LintFinding(
                doc_id,
                "missing-ref",
                r.src_id,
                line,
                f"{r.src_id} cites {r.written}, which does not exist{fallback}",
                (("cited", r.written), ("nearest", r.target_id or "")),
            )
        )
    return out


def find_title_mismatches(
    doc_id: str, refs: Sequence[CrossRef], clauses: Sequence[Clause]
) -> list[LintFinding]:
    """References whose neighbouring words name a sibling of the target, not the target."""
    by_id = {c.clause_id: c for c in clauses}
    siblings: dict[str | None, list[Clause]] = defaultdict(list)
    for c in clauses:
        if c.title:
            siblings[c.parent_id].append(c)
    out = []
    for r in refs:
        target = by_id.get(r.target_id or "")
        if target is None or not target.title or r.reason:
            continue
        before, _, after = r.context.partition(r.written)
        own = title_score(target.title, before, after)
        if own >= TITLE_MATCH:  # the words name the target (perhaps a sibling too)
            continue
        for other in siblings[target.parent_id]:
            if other is target:
                continue
            score = title_score(other.title, before, after)
            if score >= TITLE_MATCH and score >= own + TITLE_MARGIN:
                line = by_id[r.src_id].line if r.src_id in by_id else 0
                out.append(
                    LintFinding(
                        doc_id,
                        "ref-title-mismatch",
                        r.src_id,
                        line,
                        f"{r.src_id} cites {r.written} ({target.title!r}) but its words name "
                        f"{other.clause_id} ({other.title!r})",
                        (
                            ("cited", r.written),
                            ("cited_title", target.title),
                            ("named", other.clause_id),
                            ("named_title", other.title),
                        ),
                    )
                )
                break
    return out


def title_score(title: str, before: str, after: str) -> float:
    """How well ``title`` matches the words right before or right after a reference (0..1)."""
    t = _norm(title)
    if not t:
        return 0.0
    b, a = _norm(before.rstrip(" (")), _norm(after.lstrip(" .)"))
    b = b[-len(t) :] if " " not in t else " ".join(b.split()[-len(t.split()) :])
    a = a[: len(t)] if " " not in t else " ".join(a.split()[: len(t.split())])
    return max(SequenceMatcher(None, t, b).ratio(), SequenceMatcher(None, t, a).ratio())


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[()\[\]“”\"'.,:]", " ", s.casefold())).strip()
