"""Editions on the pages: which clause a permalink means on a day, its history, what changed.

Rules a clause permalink follows (``/rules/{game}/{id}``):

1. ``?doc=`` names one document: that document's clause;
2. ``?edition=VERSION`` pins an edition: that edition's clause;
3. otherwise the number means the edition in force on ``?date=`` (today without one), then
   the game's amendments;
4. a number that edition does not print, but an older edition does, is that older clause:
   the page shows where it is now ("renumbered: this clause was 11-3-3 in V0") or, when it
   was removed, the old clause with the edition that removed it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from judgekb.corpus.edition_store import EditionDiff
from judgekb.corpus.editions import current_first, in_force, parse_day, visible_docs
from judgekb.corpus.model import Clause, Document
from judgekb.corpus.redline import Span, redline
from judgekb.errors import ClauseNotFound
from judgekb.index.results import SearchResult
from judgekb.service.markup import preview
from judgekb.service.site import Site


@dataclass(frozen=True)
class Resolved:
    """The clause a permalink means, and how it got there."""

    doc_id: str
    clause_id: str
    asked: str = ""  # the number in the URL, when it was an older edition's
    asked_in: Document | None = None  # that older edition
    removed_in: Document | None = None  # the edition that removed the clause


def resolve_clause(
    site: Site, game: str, clause_id: str, doc: str | None, edition: str | None, day: str | None
) -> Resolved:
    """Rules 1-4; a number printed nowhere raises ClauseNotFound with the nearest ids."""
    store = site.store
    if doc is not None:
        return Resolved(doc, clause_id)
    docs = store.docs_of(game)
    if edition is not None:
        named = visible_docs(docs, None, edition, game)
        in_edition = current_first([d for d in docs if d.doc_id in named])
        try:  # by number, else a misprinted number's intended form
            found = store.find(game, clause_id, docs=in_edition)
        except ClauseNotFound:
            raise ClauseNotFound(
                f"{game} {edition}", clause_id, store.suggest(sorted(named), clause_id)
            ) from None
        return Resolved(found.doc_id, found.clause_id)
    when = parse_day(day)
    shown = visible_docs(docs, when)
    ordered = current_first(docs, when)
    for d in ordered:
        if d.doc_id in shown and store.get(d.doc_id, clause_id) is not None:
            return Resolved(d.doc_id, clause_id)
    today = (when or date.today()).isoformat()
    for d in ordered:
        older = d.kind == "rules" and d.doc_id not in shown and d.effective_date <= today
        if older and store.get(d.doc_id, clause_id) is not None:
            trace = site.editions.trace(d.doc_id, clause_id, when)
            if trace.clause is not None:
                return Resolved(trace.clause.doc_id, trace.clause.clause_id, clause_id, d)
            return Resolved(d.doc_id, clause_id, clause_id, d, trace.removed_in)
    found = store.find(game, clause_id)  # a later edition's number, or ClauseNotFound
    return Resolved(found.doc_id, found.clause_id)


def _edition(doc: Document) -> dict[str, str]:
    return {"doc": doc.doc_id, "version": doc.version, "date": doc.effective_date}


def edition_panel(
    site: Site, game: str, r: Resolved, day: str | None, history: list[dict[str, Any]]
) -> dict[str, Any]:
    """What the clause page says about editions: this one's standing, where the clause is in
    the edition in force, the number it was asked by, and its ``history`` (from
    :func:`judgekb.corpus.edition_store.history_json`) with links."""
    doc = site.store.document(r.doc_id)
    eds = site.editions.families().get(doc.family_id, []) if doc.kind == "rules" else []
    out: dict[str, Any] = {
        "show": len(eds) > 1,
        "edition": _edition(doc),
        "history": [],
        "before": None,
    }
    when = parse_day(day)
    if when is not None and doc.effective_date and doc.effective_date > when.isoformat():
        # a day before every edition judgekb holds: the page says so rather than ignore it
        out["before"] = {"day": when.isoformat(), **_edition(doc)}
    if not out["show"]:
        return out
    current = in_force(eds, when)
    today = (when or date.today()).isoformat()
    now = None
    if current.doc_id != doc.doc_id:
        cid = site.editions.counterpart(doc.doc_id, r.clause_id, current.doc_id)
        now = {**_edition(current), "clause_id": cid, "url": _url(site, game, current, cid)}
    later = [d for d in eds if d.effective_date > doc.effective_date]
    out.update(
        in_force=current.doc_id == doc.doc_id,
        future=doc.effective_date > today,
        now=now,
        asked=renumbered_from(r),
        removed_in=_edition(r.removed_in) if r.removed_in else None,
        later=_edition(later[-1]) if later and current.doc_id == doc.doc_id else None,
        history=[
            {
                **h,
                "url": _url(site, game, site.store.document(h["doc"]), h["clause_id"]),
                "current": h["doc"] == r.doc_id and h["status"] != "removed",
            }
            for h in history
        ],
    )
    return out


def renumbered_from(r: Resolved) -> dict[str, str] | None:
    """The older edition's number a permalink was asked by (None when it is the clause's own)."""
    if r.asked_in is None:
        return None
    return {**_edition(r.asked_in), "clause_id": r.asked}


def _url(site: Site, game: str, doc: Document, clause_id: str | None) -> str | None:
    return site.clause_url(game, clause_id, doc.doc_id) if clause_id else None


def spans_view(spans: Sequence[Span]) -> list[dict[str, str]]:
    return [{"op": s.op, "text": s.text} for s in spans]


def changes_view(site: Site, diff: EditionDiff) -> dict[str, Any]:
    """The "What changed" page: counts by chapter, redlines, renumbered clauses with both
    numbers, added and removed clauses."""
    game = diff.new.game
    old = {c.clause_id: c for c in site.store.clauses(diff.old.doc_id)}
    new = {c.clause_id: c for c in site.store.clauses(diff.new.doc_id)}

    def item(doc: Document, c: Clause, **extra: Any) -> dict[str, Any]:
        return {"clause_id": c.clause_id, "url": _url(site, game, doc, c.clause_id), **extra}

    changed = [
        item(diff.new, new[i], redline=spans_view(redline(old[i].text, new[i].text)))
        for i in diff.changed
    ]
    moved = [
        item(
            diff.new,
            new[m.new_id],
            was=m.old_id,
            was_url=_url(site, game, diff.old, m.old_id),
            redline=spans_view(redline(old[m.old_id].text, new[m.new_id].text))
            if m.changed
            else [],
        )
        for m in diff.moved
    ]
    return {
        "old": _edition(diff.old),
        "new": _edition(diff.new),
        "family": diff.family,
        "title": diff.new.title,
        "summary": chapter_summary(site, diff, old, new),
        "changed": changed,
        "moved": moved,
        "added": [item(diff.new, new[i], text=preview(new[i].text)) for i in diff.added],
        "removed": [item(diff.old, old[i], text=preview(old[i].text)) for i in diff.removed],
        "json": f"/api/diff/{diff.family}?from={diff.old.version}&to={diff.new.version}",
    }


def _chapter(clauses: dict[str, Clause], clause_id: str) -> Clause:
    c = clauses[clause_id]
    seen = 0
    while c.parent_id is not None and c.parent_id in clauses and seen < 20:
        c, seen = clauses[c.parent_id], seen + 1
    return c


def chapter_summary(
    site: Site, diff: EditionDiff, old: dict[str, Clause], new: dict[str, Clause]
) -> list[dict[str, Any]]:
    """Counts of added, removed, changed and renumbered clauses per chapter of the newer
    edition, in its order; a removed clause counts under the newer edition's counterpart of
    its old chapter (under the old chapter, marked with the old version, when there is none)."""
    rows: dict[tuple[int, str], dict[str, Any]] = {}

    def count(chapter: Clause, kind: str, suffix: str = "") -> None:
        label = f"{chapter.clause_id} {chapter.title}".strip() + suffix
        order = (chapter.seq if not suffix else 10**9 + chapter.seq, label)
        row = rows.setdefault(
            order, {"chapter": label, "added": 0, "removed": 0, "changed": 0, "moved": 0}
        )
        row[kind] += 1

    for i in diff.added:
        count(_chapter(new, i), "added")
    for i in diff.removed:
        was = _chapter(old, i)
        now = site.editions.counterpart(diff.old.doc_id, was.clause_id, diff.new.doc_id)
        if now is not None and now in new:
            count(new[now], "removed")
        else:
            count(was, "removed", f" ({diff.old.version})")
    for i in diff.changed:
        count(_chapter(new, i), "changed")
    for m in diff.moved:
        count(_chapter(new, m.new_id), "moved")
    return [rows[k] for k in sorted(rows)]


def search_editions(
    site: Site, result: SearchResult, day: str | None, edition: str | None
) -> dict[str, Any]:
    """Above the hits: the day or edition searched, and old numbers that were renumbered."""
    games = site.store.games()
    notes = []
    for n in result.renumbered:
        notes.append(
            {
                "game_name": games.get(n.game, n.game),
                "old_id": n.old_id,
                "old_version": n.old_version,
                "old_url": site.clause_url(n.game, n.old_id, n.old_doc),
                "new_id": n.new_id,
                "new_version": n.new_version,
                "new_url": site.clause_url(n.game, n.new_id, n.new_doc) if n.new_id else None,
            }
        )
    return {"date": day, "edition": edition, "renumbered": notes}
