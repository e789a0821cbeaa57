"""Every family's editions aligned at build time: pairs, stable keys, checked changelogs.

For each family (:func:`editions.families`), oldest edition first:

1. consecutive editions are aligned (:func:`align.align_editions`);
2. stable keys: a clause of the first edition gets ``<doc_id>:<clause_id>``; a clause paired
   with one of the edition before inherits its key; an added one gets a key of its own. So
   every edition's copy of one rule shares a key, whatever it is numbered;
3. each edition's printed changelog (manifest ``changelog`` words, inherited by the editions
   of a family that do not give their own) is parsed and checked against the diff from the
   edition before, or, for the first edition, against its own clause numbers
   (:mod:`judgekb.corpus.changelog`).

The result goes into the clause store (:mod:`judgekb.corpus.edition_store`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from judgekb.corpus.align import AlignedPair, align_editions
from judgekb.corpus.changelog import (
    ChangelogEntry,
    DiffIds,
    changelog_clause,
    check_changelog,
    check_own_edition,
    parse_changelog,
)
from judgekb.corpus.editions import families
from judgekb.corpus.manifest import Manifest
from judgekb.corpus.model import Clause, Document, LintFinding, ParsedDocument
from judgekb.corpus.segment_lines import separator

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EditionStep:
    """The aligned pairs from one edition of a family to the next."""

    family: str
    from_doc: str
    to_doc: str
    pairs: tuple[AlignedPair, ...]


@dataclass
class Lineage:
    """What the build stores about editions."""

    steps: list[EditionStep] = field(default_factory=list)
    keys: dict[tuple[str, str], str] = field(default_factory=dict)  # (doc, clause) -> key
    changelog: list[ChangelogEntry] = field(default_factory=list)
    findings: list[LintFinding] = field(default_factory=list)


def trace_families(manifest: Manifest, parsed: dict[str, ParsedDocument]) -> Lineage:
    """Rules 1-3 over every family of the documents that parsed."""
    out = Lineage()
    docs = [d for d in manifest.documents if d.doc_id in parsed]
    for family, eds in families(docs).items():
        first = parsed[eds[0].doc_id]
        out.keys.update(((first.document.doc_id, c.clause_id), _own_key(c)) for c in first.clauses)
        for old, new in pairwise(eds):
            step = _step(family, parsed[old.doc_id], parsed[new.doc_id])
            out.steps.append(step)
            _inherit_keys(out.keys, step, parsed[new.doc_id].clauses)
        _check_changelogs(manifest, parsed, eds, out)
    return out


def _check_changelogs(
    manifest: Manifest, parsed: dict[str, ParsedDocument], eds: list[Document], out: Lineage
) -> None:
    """Rule 3 for the editions of one family."""
    words = next(
        (manifest.changelog[d.doc_id] for d in eds if d.doc_id in manifest.changelog), None
    )
    if words is None:
        return
    steps = {s.to_doc: s for s in out.steps}
    for prev, doc in zip([None, *eds], eds, strict=False):
        node = changelog_clause(parsed[doc.doc_id].clauses)
        if node is None:
            continue
        numbering = manifest.numbering[doc.doc_id]
        entries = parse_changelog(doc, node, words, numbering)
        out.changelog += entries
        if prev is None:
            printed = frozenset(c.clause_id for c in parsed[doc.doc_id].clauses)
            out.findings += check_own_edition(doc, entries, printed)
        else:
            ids = diff_ids(steps[doc.doc_id].pairs, parsed[prev.doc_id].clauses, numbering)
            out.findings += check_changelog(doc, entries, ids)


def _step(family: str, old: ParsedDocument, new: ParsedDocument) -> EditionStep:
    pairs = align_editions(old.clauses, new.clauses)
    log.info("%s: %s -> %s: %d pairs", family, old.document.doc_id, new.document.doc_id, len(pairs))
    return EditionStep(family, old.document.doc_id, new.document.doc_id, tuple(pairs))


def _own_key(clause: Clause) -> str:
    return f"{clause.doc_id}:{clause.clause_id}"


def _inherit_keys(
    keys: dict[tuple[str, str], str], step: EditionStep, new_clauses: Sequence[Clause]
) -> None:
    for p in step.pairs:
        if p.old_id is not None and p.new_id is not None:
            keys[(step.to_doc, p.new_id)] = keys[(step.from_doc, p.old_id)]
    for c in new_clauses:
        keys.setdefault((c.doc_id, c.clause_id), _own_key(c))


def diff_ids(pairs: Sequence[AlignedPair], old: Sequence[Clause], numbering: str) -> DiffIds:
    """The ids a changelog check needs; removed clauses also numbered as the new edition would
    number them (parent's new number + own last number)."""
    sep = separator(numbering)
    to_new = {p.old_id: p.new_id for p in pairs if p.old_id and p.new_id}
    parent = {c.clause_id: c.parent_id for c in old}
    removed = [p.old_id for p in pairs if p.kind == "removed" and p.old_id]
    as_new = set()
    for r in removed:
        last = r.rsplit(sep, 1)[-1]
        pid = parent.get(r)
        if pid is None:
            as_new.add(last)
        elif to_new.get(pid):
            as_new.add(f"{to_new[pid]}{sep}{last}")
    return DiffIds(
        added=frozenset(p.new_id for p in pairs if p.kind == "added" and p.new_id),
        removed=frozenset(removed),
        changed=frozenset(p.new_id for p in pairs if p.kind == "changed" and p.new_id),
        moved_changed=frozenset(
            p.new_id for p in pairs if p.kind == "moved" and p.changed and p.new_id
        ),
        removed_as_new=frozenset(as_new),
    )
