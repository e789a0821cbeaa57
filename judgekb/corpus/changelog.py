"""The changelog a book prints ("●Ver.1.1.0 …"), parsed and checked against the computed diff.

The Gundam book ends its first rendering with::

    ●Ver.1.1.0 (อัปเดต 24 กรกฎาคม 2025)
    ・เพิ่มหัวข้อ 13-2-11. 13-2-12. (เพิ่ม 【เมื่อลิ้งก์】…)     added
    ・ลบหัวข้อ 10-3-4. (เนื่องจากเป็นกฎที่ไม่จำเป็น)              removed
    ・แก้ไขบริเวณไฮไลต์หัวข้อ 12-2-1.  (ลบออก…                    changed
    ・เพิ่มหัวข้อใหม่ 3. ประเภทการ์ด                              added

Rules:

1. the parser keeps the changelog as one appendix node (:data:`gundam.CHANGELOG_ID`); a line
   matching ``Ver.X.Y`` starts the entries of version X.Y;
2. an entry is a line starting with one of the manifest's ``changelog`` words (added, removed,
   changed); lines that start with none continue the entry before;
3. its clause numbers are the numbers (in the book's numbering) before the first bracket;
4. only the entries of the edition's own version are checked, against the diff from the
   edition before it. An entry is confirmed when the diff has:

   * added X: X among the added clauses;
   * removed X: X among the removed clauses, or a removed clause that would be numbered X in
     the new edition (its parent's new number + its own last number): books number a deletion
     either way;
   * changed X: X changed in place, or moved to X with its text changed;

5. an entry no diff confirms is a lint finding ``changelog-unconfirmed``;
6. the first edition of a family in the corpus has no diff to check against, so it is
   checked against its own clauses: a number its changelog says this version removed but the
   edition still prints is a finding ``changelog-removed-printed`` on that clause (Gundam
   Ver.1.1.0 removes 10-3-4 and 12-3-7 and prints both numbers: either the next clause was
   renumbered into the place, as rule 4 allows, or the removal was not made; a judge reading
   either aloud must know), and a number it says was added but the edition does not print is
   ``changelog-added-missing`` on the changelog.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from judgekb.corpus.gundam import CHANGELOG_ID, CHANGELOG_RE
from judgekb.corpus.model import ChangelogWords, Clause, Document, LintFinding
from judgekb.corpus.segment_lines import separator

ACTIONS = ("added", "removed", "changed")
_BULLETS = "・●•-* \t"


@dataclass(frozen=True)
class ChangelogEntry:
    """One entry of a printed changelog."""

    doc_id: str
    version: str  # the version heading it is printed under ("Ver.1.1.0")
    action: str  # added | removed | changed
    clause_ids: tuple[str, ...]
    text: str
    line: int  # line of the changelog in the source file


@dataclass(frozen=True)
class DiffIds:
    """What :func:`check_changelog` needs of a computed diff (ids as printed in each edition)."""

    added: frozenset[str]
    removed: frozenset[str]
    changed: frozenset[str]
    moved_changed: frozenset[str]  # new ids of clauses moved with their text changed
    removed_as_new: frozenset[str]  # removed clauses numbered as the new edition would


def changelog_clause(clauses: Sequence[Clause]) -> Clause | None:
    return next((c for c in clauses if c.clause_id == CHANGELOG_ID), None)


def parse_changelog(
    doc: Document, clause: Clause, words: ChangelogWords, numbering: str
) -> list[ChangelogEntry]:
    """Entries of the changelog node, each under its version heading (rules 1-3)."""
    sep = re.escape(separator(numbering))
    number = re.compile(rf"(?<![\d{sep}])\d+(?:{sep}\d+)*")
    starts = {a: getattr(words, a) for a in ACTIONS}
    version = ""
    raw: list[tuple[str, str, str]] = []  # (version, action, text)
    for line in clause.text.split("\n"):
        body = line.strip().lstrip(_BULLETS)
        head = CHANGELOG_RE.match(body)
        if head:
            version = head.group(0).replace(" ", "")
            continue
        action = next((a for a, ws in starts.items() if body.startswith(ws)), None)
        if action is not None:
            raw.append((version, action, body))
        elif raw and body:
            v, a, t = raw[-1]
            raw[-1] = (v, a, f"{t} {body}")
    out = []
    for v, action, text in raw:
        ids = number.findall(re.split(r"[(（]", text, maxsplit=1)[0])
        out.append(ChangelogEntry(doc.doc_id, v, action, tuple(ids), text, clause.line))
    return out


def same_version(a: str, b: str) -> bool:
    """ "Ver.1.1.0" and "Ver. 1.1.0" (or "1.1.0") name one version."""
    strip = re.compile(r"^ver\.?\s*", re.IGNORECASE)
    return strip.sub("", a.strip()) == strip.sub("", b.strip())


def confirmed(entry: ChangelogEntry, clause_id: str, diff: DiffIds) -> bool:
    """Rule 4 for one clause number of an entry."""
    if entry.action == "added":
        return clause_id in diff.added
    if entry.action == "removed":
        return clause_id in diff.removed or clause_id in diff.removed_as_new
    return clause_id in diff.changed or clause_id in diff.moved_changed


def check_changelog(
    doc: Document, entries: Sequence[ChangelogEntry], diff: DiffIds
) -> list[LintFinding]:
    """Findings for the entries of ``doc``'s own version that the diff does not confirm."""
    out = []
    for e in entries:
        if not same_version(e.version, doc.version):
            continue
        for cid in e.clause_ids or ("?",):
            if cid == "?" or not confirmed(e, cid, diff):
                out.append(
                    LintFinding(
                        doc.doc_id,
                        "changelog-unconfirmed",
                        cid,
                        e.line,
                        f"changelog of {e.version} says {cid} was {e.action} "
                        f"({e.text[:80]}); the computed diff does not show it",
                    )
                )
    return out


def check_own_edition(
    doc: Document, entries: Sequence[ChangelogEntry], printed: frozenset[str]
) -> list[LintFinding]:
    """Rule 6: entries of ``doc``'s own version that its printed clause numbers contradict."""
    out = []
    for e in entries:
        if not same_version(e.version, doc.version) or e.action == "changed":
            continue
        for cid in e.clause_ids:
            if e.action == "removed" and cid in printed:
                out.append(
                    LintFinding(
                        doc.doc_id,
                        "changelog-removed-printed",
                        cid,
                        e.line,
                        f"changelog of {e.version} says {cid} was removed ({e.text[:80]}), "
                        "but this edition prints that number (renumbered, or not removed)",
                        (("version", e.version), ("entry", e.text)),
                    )
                )
            elif e.action == "added" and cid not in printed:
                out.append(
                    LintFinding(
                        doc.doc_id,
                        "changelog-added-missing",
                        CHANGELOG_ID,
                        e.line,
                        f"changelog of {e.version} says {cid} was added ({e.text[:80]}), "
                        "but this edition does not print it",
                        (("version", e.version), ("cited", cid)),
                    )
                )
    return out
